#!/bin/sh
# startup.sh - what a trivial job costs: the wall time of a whole
# `mpiexec -n N` job of startup_shmem (shmem_init + shmem_finalize) against
# startup_mpi (MPI_Init + MPI_Finalize), runs alternating so that machine
# noise hits both, medians of R runs, and the ratio.  Optionally a peer
# OpenSHMEM library's build of the same program, in the same rounds.
#
# usage: benchmarks/startup.sh -b BUILDDIR [-n "2 8"] [-r 5] [-H "256m 1g"]
#                              [-c PEER_CC -l "PEER_LAUNCHER"] [-p NAME]
#   -b BUILDDIR  shmpi build directory (startup programs built by `make bench`)
#   -n LIST      PE counts (default "2 8")
#   -r R         runs of each program per row (default 5)
#   -H LIST      SHMEM_SYMMETRIC_SIZE values, one row each (default: unset,
#                i.e. shmpi's default 256m)
#   -c, -l, -p   a peer: its compiler wrapper, its launcher (the script adds
#                "-n N PROGRAM"), its name
# Launcher for shmpi and MPI: $MPIEXEC (default mpiexec).  Prints a markdown
# table; the last column is shmpi's median over MPI's.  A second line per PE
# count gives shmpi's own account of its start-up steps (SHMEM_INFO).
set -eu
builddir='' nps="2 8" runs=5 heaps='' peer_cc='' peer_launch='' peer_name=''
while getopts b:n:r:H:c:l:p: opt; do
    case $opt in
    b) builddir=$OPTARG ;;
    n) nps=$OPTARG ;;
    r) runs=$OPTARG ;;
    H) heaps=$OPTARG ;;
    c) peer_cc=$OPTARG ;;
    l) peer_launch=$OPTARG ;;
    p) peer_name=$OPTARG ;;
    *) sed -n '2,19p' "$0"; exit 2 ;;
    esac
done
[ -n "$builddir" ] || { sed -n '2,19p' "$0"; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
launch=${MPIEXEC:-mpiexec}
shmem_prog=$builddir/benchmarks/startup_shmem
mpi_prog=$builddir/benchmarks/startup_mpi
for p in "$shmem_prog" "$mpi_prog"; do
    [ -x "$p" ] || { echo "startup.sh: no $p (make -C $builddir bench)" >&2; exit 1; }
done
peer_prog=
if [ -n "$peer_cc" ]; then
    peer_name=${peer_name:-$(basename "$peer_cc")}
    peer_prog=$(mktemp -d)/startup_shmem
    "$peer_cc" -O2 "$here/startup_shmem.c" -o "$peer_prog"
fi

# Wall time of one job in milliseconds; a failed job ends the script.
job_ms() {
    start=$(date +%s%N)
    timeout -k 5 120 "$@" >/dev/null || { echo "startup.sh: failed: $*" >&2; exit 1; }
    end=$(date +%s%N)
    echo $(((end - start) / 1000000))
}
median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "| PEs | heap | MPI_Init+MPI_Finalize ms | shmpi ms | shmpi / MPI |${peer_prog:+ $peer_name ms | $peer_name / MPI |}"
echo "|---|---|---|---|---|${peer_prog:+---|---|}"
for np in $nps; do
    for heap in ${heaps:-default}; do
        if [ "$heap" = default ]; then set -- env; else set -- env SHMEM_SYMMETRIC_SIZE="$heap"; fi
        mpi_t='' shmem_t='' peer_t=''
        i=0
        while [ $i -lt "$runs" ]; do
            mpi_t="$mpi_t $(job_ms $launch -n "$np" "$mpi_prog")"
            shmem_t="$shmem_t $(job_ms "$@" $launch -n "$np" "$shmem_prog")"
            [ -z "$peer_prog" ] || peer_t="$peer_t $(job_ms "$@" $peer_launch -n "$np" "$peer_prog")"
            i=$((i + 1))
        done
        m=$(echo "$mpi_t" | median) s=$(echo "$shmem_t" | median)
        row="| $np | $heap | $m | $s | $(awk -v a="$s" -v b="$m" 'BEGIN { printf "%.2f", a / b }') |"
        if [ -n "$peer_prog" ]; then
            p=$(echo "$peer_t" | median)
            row="$row $p | $(awk -v a="$p" -v b="$m" 'BEGIN { printf "%.2f", a / b }') |"
        fi
        echo "$row"
    done
done
for np in $nps; do
    printf '%s PEs: ' "$np"
    SHMEM_INFO=1 $launch -n "$np" "$shmem_prog" | sed -n 's/^start-up, //p'
done
