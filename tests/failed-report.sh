#!/bin/sh
# failed-report.sh BUILD_DIR MAKE_LOG: for each test that the automake log MAKE_LOG
# names as FAIL or ERROR, print its FAIL lines with what follows each (a script
# test's failing case may be far from its end), then its last lines.  Called by
# tests/run-all.sh and .ci/run, so a failed CI run shows why without the logs.
# grep -a: a launcher may end a line with a NUL byte (Open MPI 5's prterun does),
# which would make grep print "binary file matches" instead of the lines.
build=$1
log=$2
grep -a -E '^(FAIL|ERROR):' "$log"
for t in $(sed -n 's/^\(FAIL\|ERROR\): //p' "$log"); do
    f=$build/${t%.*}.log
    [ -f "$f" ] || continue
    echo "---- $f"
    grep -a -E -A 12 '^FAIL' "$f" | head -80
    echo "---- (its last lines)"
    tail -30 "$f" | tr -d '\000'
done
