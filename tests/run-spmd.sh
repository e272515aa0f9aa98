#!/bin/sh
# Runs one multi-PE test: the argument is a marker tests/spmd/NAME-npN.spmd,
# which means "run program tests/spmd/NAME on N PEs", or NAME@ARGS-npN.spmd,
# which also passes ARGS (commas become spaces) to the program.  Each run has a timeout
# (SHMPI_TEST_TIMEOUT seconds, default 180) so a hang fails instead of
# stalling.  SHMPI_TEST_LAUNCHER replaces the launcher, e.g. for two
# emulated nodes: it is called as LAUNCHER NP PROGRAM.
marker=$1
base=${marker%.spmd}
np=${base##*-np}
prog=${base%-np*}
args=
case "$prog" in
*@*) args=$(echo "${prog#*@}" | tr ',' ' '); prog=${prog%%@*} ;;
esac
limit=${SHMPI_TEST_TIMEOUT:-180}
# SHMPI_TEST_MAX_NP skips larger runs (exit 77 = skipped), e.g. under valgrind.
if [ -n "$SHMPI_TEST_MAX_NP" ] && [ "$np" -gt "$SHMPI_TEST_MAX_NP" ]; then
    echo "skipped: $np PEs > SHMPI_TEST_MAX_NP=$SHMPI_TEST_MAX_NP"; exit 77
fi
# SHMPI_TEST_WRAPPER runs each PE under a tool (valgrind).
wrapper=${SHMPI_TEST_WRAPPER:-}
[ -x "$prog" ] || { echo "run-spmd: no program $prog"; exit 99; }
if [ -n "$SHMPI_TEST_LAUNCHER" ]; then
    set -- $SHMPI_TEST_LAUNCHER "$np" $wrapper "$prog" $args
else
    set -- "${MPIEXEC:-mpiexec}" -n "$np" $wrapper "$prog" $args
fi
echo "running: $* (timeout ${limit}s)"
if [ -n "$TIMEOUT" ] || command -v timeout >/dev/null 2>&1; then
    "${TIMEOUT:-timeout}" -k 10 "$limit" "$@"
else
    "$@"
fi
status=$?
[ $status -eq 124 ] && echo "run-spmd: $prog on $np PEs timed out after ${limit}s"
exit $status
