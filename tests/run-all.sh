#!/bin/sh
# The whole test suite: unit tests and multi-PE tests, in the three modes
# (default = node-local shared memory where possible, SHMPI_MPI_ONLY=1, and
# pseudo-nodes of 2 PEs so both paths mix).  Builds with
# examples/quickstart.sh first if ./_build does not exist.  Ends with the
# line "N passed, N failed"; exit status 0 only if everything passed.
cd "$(dirname "$0")/.."
[ -f _build/Makefile ] || sh examples/quickstart.sh || exit 1
status=0
for mode in default mpi-only pseudo-nodes; do
    case $mode in
    default) set -- ;;
    mpi-only) set -- SHMPI_MPI_ONLY=1 ;;
    pseudo-nodes) set -- SHMPI_PSEUDO_NODE_SIZE=2 ;;
    esac
    echo "== test suite, mode: $mode $*"
    log=_build/check-$mode.log
    if ! env "$@" make -C _build -j2 check >"$log" 2>&1; then
        status=1
        grep -E '^(FAIL|ERROR):' "$log"
        for t in $(sed -n 's/^\(FAIL\|ERROR\): //p' "$log"); do
            f=_build/${t%.*}.log
            [ -f "$f" ] && { echo "---- $f"; tail -30 "$f"; }
        done
    fi
    grep -E '^# (TOTAL|PASS|FAIL|ERROR):' "$log" || tail -20 "$log"
done
pass=$(cat _build/check-*.log | sed -n 's/^# PASS: *//p' | awk '{s += $1} END {print s + 0}')
fail=$(cat _build/check-*.log | sed -n 's/^# \(FAIL\|ERROR\): *//p' | awk '{s += $1} END {print s + 0}')
echo "$pass passed, $fail failed"
exit $status
