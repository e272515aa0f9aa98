#!/bin/sh
# progress.sh - the cost of a busy target and of the progress modes
# (bench_progress, one run per setting, since both are read at start-up).
#
# usage: benchmarks/progress.sh [-b BUILDDIR] [-n NP] [-2] [-t MS]
#   -b BUILDDIR  build directory where `make bench` ran (default: current dir)
#   -n NP        PEs (default 2)
#   -2           across two emulated nodes (tests/launch-nodes.sh: NP 2 or 4);
#                otherwise on this node with SHMPI_MPI_ONLY=1 (the MPI path)
#   -t MS        the target's computation (default 200)
# Settings: no progress thread; none but MPI_THREAD_MULTIPLE (-m: what the
# thread level alone costs); SHMPI_PROGRESS_THREAD=1000, 100, 10 (shmpi's
# thread, interval in us); MPIR_CVAR_ASYNC_PROGRESS=1 (MPICH's thread).
# Environment: BENCH_TIMEOUT seconds per run (default 120).
set -u
here=$(cd "$(dirname "$0")" && pwd)
builddir=.
np=2
two_nodes=
busy_ms=200
while getopts b:n:t:2h opt; do
    case $opt in
    b) builddir=$OPTARG ;;
    n) np=$OPTARG ;;
    2) two_nodes=1 ;;
    t) busy_ms=$OPTARG ;;
    *) sed -n '2,14p' "$0"; exit 2 ;;
    esac
done
prog=$builddir/benchmarks/bench_progress
[ -x "$prog" ] || { echo "progress.sh: no $prog (run make bench)"; exit 1; }
timeout=${BENCH_TIMEOUT:-120}

run() {
    opts="-t $busy_ms"
    if [ "$1" = -m ]; then opts="$opts -m"; shift; fi
    if [ -n "$two_nodes" ]; then
        env "$@" timeout -k 10 "$timeout" sh "$here/../tests/launch-nodes.sh" \
            -l 2=2x1,4=2x2 "$np" "$prog" $opts
    else
        env SHMPI_MPI_ONLY=1 "$@" timeout -k 10 "$timeout" mpiexec -n "$np" "$prog" $opts
    fi
}

first=1
for setting in SHMPI_PROGRESS_THREAD=0 -m SHMPI_PROGRESS_THREAD=1000 SHMPI_PROGRESS_THREAD=100 \
    SHMPI_PROGRESS_THREAD=10 MPIR_CVAR_ASYNC_PROGRESS=1; do
    if [ "$setting" = -m ]; then
        out=$(run -m SHMPI_PROGRESS_THREAD=0 2>&1)
    else
        out=$(run "$setting" 2>&1)
    fi
    status=$?
    if [ $status -ne 0 ]; then
        echo "progress.sh: $setting: exit $status"
        echo "$out" | tail -5
        continue
    fi
    # The header once, then one row per setting.
    if [ -n "$first" ]; then echo "$out" | grep '^#'; first=; fi
    echo "$out" | grep -v '^#' | grep -v '^$'
done
