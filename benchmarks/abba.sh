#!/bin/sh
# abba.sh - two builds of shmpi compared on one node, in the order A B B A so
# that a drift of the machine during the run falls on both alike.
#
# usage: benchmarks/abba.sh [-n NP] [-o OUTDIR] [-m "default mpi_only"]
#                           [-P "bench_rma bench_amo bench_coll"] BUILD_A BUILD_B
#   BUILD_A, BUILD_B  configured build directories with their benchmarks built
#                     (make bench), e.g. a worktree of the last release and this one
#   -n NP       PEs (default 2)
#   -o OUTDIR   where every table goes (default /tmp/shmpi-abba)
#   -m LIST     modes: default, mpi_only (SHMPI_MPI_ONLY=1)
#   -P LIST     programs (bench_rma runs up to 64 KiB, bench_coll up to 4 KiB)
# Environment: MPIEXEC (default mpiexec).
# Prints, per mode, program, table and size up to 8 bytes (the latency rows), the
# rate of each side (Mop/s, the mean of its two runs), each run's, and B/A:
# above 1, B is faster; then each run's time over the reference that judges the
# table (marked *), measured in the same job (memcpy, a CPU atomic, raw MPI, a cache-line
# barrier), which the job's placement on the CPUs moves less than the rates
# (on a VM a job's placement can move sub-microsecond rows several times).
set -u
np=2 out=/tmp/shmpi-abba modes="default mpi_only" progs="bench_rma bench_amo bench_coll"
while getopts n:o:m:P: opt; do
    case $opt in
    n) np=$OPTARG ;;
    o) out=$OPTARG ;;
    m) modes=$OPTARG ;;
    P) progs=$OPTARG ;;
    *) sed -n '2,19p' "$0"; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || { sed -n '2,19p' "$0"; exit 2; }
A=$1 B=$2
for side in "$A" "$B"; do
    [ -x "$side/benchmarks/bench_rma" ] ||
        { echo "abba: no $side/benchmarks/bench_rma (run make bench there)" >&2; exit 1; }
done
mkdir -p "$out"
for mode in $modes; do
    case $mode in
    default) set -- ;;
    mpi_only) set -- SHMPI_MPI_ONLY=1 ;;
    *) echo "abba: unknown mode $mode" >&2; exit 2 ;;
    esac
    for prog in $progs; do
        case $prog in
        bench_rma) args="-m 65536" ;;
        bench_coll) args="-m 4096" ;;
        *) args= ;;
        esac
        run=0
        for side in A B B A; do
            run=$((run + 1))
            if [ $side = A ]; then dir=$A; else dir=$B; fi
            env "$@" timeout -k 10 300 "${MPIEXEC:-mpiexec}" -n "$np" "$dir/benchmarks/$prog" $args \
                >"$out/$mode.$prog.$side$run.txt" 2>&1 ||
                { echo "abba: $mode $prog on $side failed: $out/$mode.$prog.$side$run.txt" >&2; exit 1; }
        done
    done
done
echo "# abba: A = $A ($(git -C "$A" rev-parse --short HEAD 2>/dev/null || echo '?')), B = $B ($(git -C "$B" rev-parse --short HEAD 2>/dev/null || echo '?')), $np PEs, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "| mode | program | row, 8 B | A Mop/s (runs) | B Mop/s (runs) | B/A | A / ref (runs) | B / ref (runs) |"
echo "|---|---|---|---|---|---|---|---|"
for f in "$out"/*.A1.txt; do
    base=${f%.A1.txt}
    name=$(basename "$base")
    awk -v mode="${name%%.*}" -v prog="${name#*.}" '
        FNR == 1 { split(FILENAME, p, "."); run = p[length(p) - 1] }
        /^## / { title = substr($0, 4); sub(/:.*/, "", title); judged = 0; next }
        # the column names: the reference that judges the row is marked *
        /^# +\|/ && !judged {
            ng = split($0, g, "|")
            for (k = 2; k <= ng; k++) if (g[k] ~ /\*/) judged = k
            next
        }
        /^ +[0-9]+ \|/ && $1 <= 8 && title != "" {
            # the shmpi column: avg, med, [GB/s,] rate; the judging
            # reference column ends with shmpi med / its med
            ng = split($0, g, "|")
            nf = split(g[2], f, " "); rate[title, run] = f[nf]
            nf = judged ? split(g[judged], f, " ") : 0
            ratio[title, run] = nf ? f[nf] : "-"
            if (!(title in seen)) { seen[title] = 1; order[++n] = title }
        }
        END {
            for (k = 1; k <= n; k++) {
                t = order[k]
                a = (rate[t, "A1"] + rate[t, "A4"]) / 2; b = (rate[t, "B2"] + rate[t, "B3"]) / 2
                if (a > 0)
                    printf "| %s | %s | %s | %.1f (%s, %s) | %.1f (%s, %s) | %.2f | %s, %s | %s, %s |\n",
                           mode, prog, t, a, rate[t, "A1"], rate[t, "A4"], b, rate[t, "B2"],
                           rate[t, "B3"], b / a, ratio[t, "A1"], ratio[t, "A4"], ratio[t, "B2"],
                           ratio[t, "B3"]
            }
        }' "$base.A1.txt" "$base.B2.txt" "$base.B3.txt" "$base.A4.txt"
done
