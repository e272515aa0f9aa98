# plot_bw.gp - put and get bandwidth vs message size: shmpi (default mode and
# SHMPI_MPI_ONLY=1), memcpy between the processes, raw MPI; 2 PEs.
#   gnuplot -e "datadir='DIR'; out='bw.png'" benchmarks/plot_bw.gp
# DIR holds the files benchmarks/run.sh writes (bench_rma -d PREFIX):
# rma-np2-{default,mpi_only}_{put,get,put_nbi,get_nbi}.dat, columns
# bytes shmpi_GBps memcpy_GBps mpi_GBps shmpi_us memcpy_us mpi_us ("-": not measured).
if (!exists("datadir")) datadir = "."
if (!exists("out")) out = "bw.png"

set terminal pngcairo size 1400,1000 font ",10" noenhanced
set output out
set datafile missing "-"
set logscale xy
set grid
set key bottom right font ",9" box opaque
set xlabel "message size (bytes)"
set ylabel "bandwidth (GB/s)"
set format x "%.0s%cB"
set xrange [6:6e6]

def = datadir."/rma-np2-default_"
mpo = datadir."/rma-np2-mpi_only_"
mpo_ok(op) = system("test -f ".mpo.op.".dat && echo 1 || echo 0") + 0

set multiplot layout 2,2 title "shmpi put/get bandwidth, 2 PEs on one node (medians)"
do for [op in "put get put_nbi get_nbi"] {
    set title op.(op[strlen(op)-2:] eq "nbi" ? " (64 per shmem_quiet)" : " (blocking)")
    if (mpo_ok(op)) {
        plot def.op.".dat" using 1:2 with linespoints lw 2 pt 7 lc rgb "#7b2cbf" title "shmpi", \
             def.op.".dat" using 1:3 with linespoints lw 2 pt 5 lc rgb "#2a9d8f" title "memcpy (shmem_ptr)", \
             def.op.".dat" using 1:4 with linespoints lw 2 pt 9 lc rgb "#1d70b8" title "raw MPI", \
             mpo.op.".dat" using 1:2 with linespoints lw 2 pt 4 dt 2 lc rgb "#e76f51" title "shmpi SHMPI_MPI_ONLY=1", \
             mpo.op.".dat" using 1:4 with linespoints lw 1 pt 2 ps 1.2 dt 3 lc rgb "#555555" title "raw MPI (SHMPI_MPI_ONLY=1 run)"
    } else {
        plot def.op.".dat" using 1:2 with linespoints lw 2 pt 7 lc rgb "#7b2cbf" title "shmpi", \
             def.op.".dat" using 1:3 with linespoints lw 2 pt 5 lc rgb "#2a9d8f" title "memcpy (shmem_ptr)", \
             def.op.".dat" using 1:4 with linespoints lw 2 pt 9 lc rgb "#1d70b8" title "raw MPI"
    }
}
unset multiplot
