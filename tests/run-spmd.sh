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
# Each job a temporary folder of its own: Open MPI's mpirun keeps its session
# directory there, and two jobs at once (make -j2) raced for /tmp/ompi.HOST.UID
# (one's clean-up removed the folder the other was making: "A call to mkdir
# was unable to create the desired directory", once in 488 jobs).
job_tmp=$(mktemp -d "${TMPDIR:-/tmp}/shmpi-job.XXXXXX") || exit 99
trap 'rm -rf "$job_tmp"' EXIT
export TMPDIR="$job_tmp"
if [ -n "$SHMPI_TEST_LAUNCHER" ]; then
    set -- $SHMPI_TEST_LAUNCHER "$np" $wrapper "$prog" $args
else
    set -- "${MPIEXEC:-mpiexec}" -n "$np" $wrapper "$prog" $args
fi
echo "running: $* (timeout ${limit}s)"
# A program named *_fails must end the job with a failure: it prints
# "expect failure: REGEX" first, the failing PE's line must match REGEX
# (and with "expect lines: N", exactly N lines must),
# and the job must end within 5 s (10 s under SHMPI_TEST_LAUNCHER, across
# nodes) of the time it prints as "departs at MS" (milliseconds since
# 1970).  Exit 77 (skipped) passes through.
case "$prog" in
*_fails)
    out=$("${TIMEOUT:-timeout}" -k 10 "$limit" "$@" 2>&1)
    status=$?
    end=$(date +%s%3N)
    printf '%s\n' "$out"
    [ $status -eq 77 ] && exit 77
    regex=$(printf '%s\n' "$out" | sed -n 's/^expect failure: //p' | head -1)
    departs=$(printf '%s\n' "$out" | sed -n 's/^departs at \([0-9]*\)$/\1/p' | head -1)
    within=5000
    [ -n "$SHMPI_TEST_LAUNCHER" ] && within=10000
    if [ $status -eq 0 ] || [ $status -eq 124 ] || [ $status -eq 137 ]; then
        echo "run-spmd: FAIL: exit status $status, want a failed job"; exit 1
    fi
    if printf '%s\n' "$out" | grep -q '^FAIL'; then
        echo "run-spmd: FAIL: the program reported a failure"; exit 1
    fi
    if [ -z "$regex" ] || ! printf '%s\n' "$out" | grep -v '^expect failure: ' | grep -Eq "$regex"; then
        echo "run-spmd: FAIL: no line matching: $regex"; exit 1
    fi
    # "expect lines: N": exactly N lines match (one PE says it, not every PE).
    lines=$(printf '%s\n' "$out" | sed -n 's/^expect lines: \([0-9][0-9]*\)$/\1/p' | head -1)
    matched=$(printf '%s\n' "$out" | grep -v '^expect failure: ' | grep -Ec "$regex")
    if [ -n "$lines" ] && [ "$matched" -ne "$lines" ]; then
        echo "run-spmd: FAIL: $matched lines matching: $regex (want $lines)"; exit 1
    fi
    if [ -z "$departs" ] || [ $((end - departs)) -gt $within ]; then
        echo "run-spmd: FAIL: the job ended $((end - ${departs:-0})) ms after the departure (at most $within)"
        exit 1
    fi
    echo "run-spmd: the job failed as expected, $((end - departs)) ms after the departure"
    exit 0
    ;;
esac
if [ -n "$TIMEOUT" ] || command -v timeout >/dev/null 2>&1; then
    "${TIMEOUT:-timeout}" -k 10 "$limit" "$@"
else
    "$@"
fi
status=$?
[ $status -eq 124 ] && echo "run-spmd: $prog on $np PEs timed out after ${limit}s"
exit $status
