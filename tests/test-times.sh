#!/bin/sh
# test-times.sh [-n N] [-s FILE] BUILD_DIR: the N (default 20) slowest tests of the
# last `make check` in BUILD_DIR (with -s, only those started after FILE was
# made), in seconds, slowest first: from the birth of each
# test's .log (made when the test starts) to the last change of its .trs (written
# when it ends).  Where the file system records no birth time, says so and prints
# nothing else.  tests/run-all.sh keeps each mode's list in BUILD_DIR/times-MODE.txt.
n=20
since=0
while [ $# -gt 1 ]; do
    case $1 in
    -n) n=$2; shift 2 ;;
    -s) since=$(stat -c %W "$2") || exit 1; shift 2 ;;
    *) break ;;
    esac
done
build=${1:?usage: test-times.sh [-n N] [-s FILE] BUILD_DIR}
find "$build/tests" -name '*.trs' | while read -r trs; do
    log=${trs%.trs}.log
    [ -f "$log" ] || continue
    born=$(stat -c %W "$log")
    [ "$born" -gt 0 ] 2>/dev/null || { echo "test-times: no birth time on this file system" >&2; exit 1; }
    [ "$born" -ge "$since" ] || continue
    ended=$(stat -c %Y "$trs")
    echo "$((ended - born)) ${trs#"$build"/}"
done | sort -k1,1nr -k2 | head -n "$n" | sed 's/\.trs$//'
