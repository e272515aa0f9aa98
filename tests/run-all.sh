#!/bin/sh
# The whole test suite: unit tests and multi-PE tests, in the three modes
# (default = node-local shared memory where possible, SHMPI_MPI_ONLY=1, and
# pseudo-nodes of 2 PEs so both paths mix).  Builds with
# examples/quickstart.sh first if ./_build does not exist.  Ends with the
# line "N passed, N failed"; exit status 0 only if everything passed.
# Options: -b DIR runs the suite of another (configured and built) build
# directory, e.g. one against Open MPI (.ci/run); -m "MODE..." runs only
# those modes (default, mpi-only, pseudo-nodes); -o leaves out the tests that do
# not depend on the MPI (MPI_FREE_TESTS in Makefile.am), for a second MPI's build
# whose first build's suite ran them.
cd "$(dirname "$0")/.."
build=_build
modes="default mpi-only pseudo-nodes"
first_target=check
while getopts b:m:o opt; do
    case $opt in
    b) build=$OPTARG ;;
    m) modes=$OPTARG ;;
    o) first_target=check-mpi-dependent ;;
    *) echo "usage: $0 [-b BUILD_DIR] [-m \"default mpi-only pseudo-nodes\"] [-o]" >&2; exit 2 ;;
    esac
done
if [ ! -f "$build/Makefile" ]; then
    [ "$build" = _build ] || { echo "run-all: $build is not a configured build directory" >&2; exit 1; }
    sh examples/quickstart.sh || exit 1
fi
status=0
logs=
for mode in $modes; do
    case $mode in
    default) set -- ;;
    mpi-only) set -- SHMPI_MPI_ONLY=1 ;;
    pseudo-nodes) set -- SHMPI_PSEUDO_NODE_SIZE=2 ;;
    *) echo "run-all: unknown mode $mode" >&2; exit 2 ;;
    esac
    echo "== test suite, mode: $mode $*"
    log=$build/check-$mode.log
    # The tests whose result does not depend on the mode run in the first mode only.
    target=$first_target
    [ -n "$logs" ] && target=check-mode-dependent
    logs="$logs $log"
    rm -f "$log" # made anew: its birth is the mode's start (tests/test-times.sh -s)
    if ! env "$@" make -C "$build" -j2 $target >"$log" 2>&1; then
        status=1
        sh tests/failed-report.sh "$build" "$log"
    fi
    sh tests/test-times.sh -s "$log" "$build" >"$build/times-$mode.txt" 2>/dev/null
    grep -a -E '^# (TOTAL|PASS|FAIL|ERROR):' "$log" || tail -20 "$log"
    [ -s "$build/times-$mode.txt" ] &&
        echo "20 slowest ($mode, seconds):" $(tr '\n' ';' <"$build/times-$mode.txt")
done
# shellcheck disable=SC2086
pass=$(cat $logs | sed -n 's/^# PASS: *//p' | awk '{s += $1} END {print s + 0}')
# shellcheck disable=SC2086
fail=$(cat $logs | sed -n 's/^# \(FAIL\|ERROR\): *//p' | awk '{s += $1} END {print s + 0}')
echo "$pass passed, $fail failed"
exit $status
