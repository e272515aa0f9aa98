#!/bin/sh
# The whole test suite: unit tests and multi-PE tests, in the three modes
# (default = node-local shared memory where possible, SHMPI_MPI_ONLY=1, and
# pseudo-nodes of 2 PEs so both paths mix).  Builds with
# examples/quickstart.sh first if ./_build does not exist.  Ends with the
# line "N passed, N failed"; exit status 0 only if everything passed.
# Options: -b DIR runs the suite of another (configured and built) build
# directory, e.g. one against Open MPI (.ci/run); -m "MODE..." runs only
# those modes (default, mpi-only, pseudo-nodes).
cd "$(dirname "$0")/.."
build=_build
modes="default mpi-only pseudo-nodes"
while getopts b:m: opt; do
    case $opt in
    b) build=$OPTARG ;;
    m) modes=$OPTARG ;;
    *) echo "usage: $0 [-b BUILD_DIR] [-m \"default mpi-only pseudo-nodes\"]" >&2; exit 2 ;;
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
    logs="$logs $log"
    if ! env "$@" make -C "$build" -j2 check >"$log" 2>&1; then
        status=1
        grep -E '^(FAIL|ERROR):' "$log"
        for t in $(sed -n 's/^\(FAIL\|ERROR\): //p' "$log"); do
            f=$build/${t%.*}.log
            # its FAIL lines with what follows each (a script test's failing case may be
            # far from its end), then its end
            [ -f "$f" ] && { echo "---- $f"; grep -a -E -A 12 '^FAIL' "$f" | head -80
                echo "---- (its last lines)"; tail -30 "$f"; }
        done
    fi
    grep -E '^# (TOTAL|PASS|FAIL|ERROR):' "$log" || tail -20 "$log"
    # Its 20 slowest tests (a test's .log is made when it starts, its .trs when
    # it ends; where the file system keeps no birth time, none are listed).
    find "$build/tests" -name '*.trs' -exec stat -c '%Y %n' {} + 2>/dev/null |
        while read -r end trs; do
            start=$(stat -c %W "${trs%.trs}.log" 2>/dev/null) || continue
            [ "${start:-0}" -gt 0 ] && echo "$((end - start)) ${trs#"$build"/}"
        done | sort -rn | head -20 >"$build/slowest-$mode.txt"
    [ -s "$build/slowest-$mode.txt" ] &&
        echo "20 slowest ($mode, seconds):" $(sed 's/\.trs$//' "$build/slowest-$mode.txt" | tr '\n' ';')
done
# shellcheck disable=SC2086
pass=$(cat $logs | sed -n 's/^# PASS: *//p' | awk '{s += $1} END {print s + 0}')
# shellcheck disable=SC2086
fail=$(cat $logs | sed -n 's/^# \(FAIL\|ERROR\): *//p' | awk '{s += $1} END {print s + 0}')
echo "$pass passed, $fail failed"
exit $status
