#!/bin/sh
# Builds the libFuzzer targets of tests/fuzz/ from the sources (clang,
# -fsanitize=fuzzer,address,undefined; independent of the configured build)
# and runs each for SECONDS (default 30), starting from its seeds in
# tests/fuzz/seeds/NAME (new inputs go to a temporary corpus, not there).
#   env          every variable of src/runtime/env.c's table, parsed
#   status_page  status pages read and put in words (src/wait/status_text.c)
#   status_args  shmpi_status's command line (tools/shmpi_status.c)
#   python_arrays  the Python package's array and stream readers
#                (tests/fuzz/python_arrays.py), with FUZZ_PYTHON (a python3 with
#                numpy; make fuzz finds one) and PYTHONPATH naming the build's package
# Targets run FUZZ_JOBS at a time (default: one per CPU): each fuzzer is one
# process, so on 2 CPUs two run side by side for their full SECONDS each.
# Prints one line per target with its executions; exit status 1 if a target
# found a crash (the input is kept in the printed folder), 77 without clang
# or its fuzzer runtime (Debian: apt-get install clang libclang-rt-14-dev).
# Usage: sh tests/fuzz/run.sh [SECONDS] [TARGET...]; CC: FUZZ_CC (clang).
cd "$(dirname "$0")/../.." || exit 99
seconds=${1:-30}
[ $# -gt 0 ] && shift
targets=${*:-env status_page status_args${FUZZ_PYTHON:+ python_arrays}}
cc=${FUZZ_CC:-clang}
if ! command -v "$cc" >/dev/null 2>&1; then
    echo "fuzz: skipped: no $cc (Debian: apt-get install clang libclang-rt-14-dev)"; exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/shmpi-fuzz.XXXXXX") || exit 99
flags="-std=c11 -D_GNU_SOURCE -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all"
if ! printf 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }\n' > "$work/probe.c" ||
    ! $cc $flags -o "$work/probe" "$work/probe.c" >/dev/null 2>&1; then
    echo "fuzz: skipped: $cc cannot link -fsanitize=fuzzer (Debian: apt-get install libclang-rt-14-dev)"
    rm -rf "$work"; exit 77
fi
# env.c includes the library's headers, and so mpi.h.
# The MPI wrapper: MPICC (make fuzz passes the configured one), else mpicc; MPICH's
# wrappers print their command with -show, Open MPI's with -showme.
mpicc=${MPICC:-mpicc}
mpi_show=$($mpicc -show 2>/dev/null) || mpi_show=$($mpicc -showme 2>/dev/null)
mpi_include=$(echo "$mpi_show" | tr ' ' '\n' | grep '^-I' | tr '\n' ' ')
mpi_libs=$(echo "$mpi_show" | tr ' ' '\n' | grep -E '^-(L|l)' | tr '\n' ' ')
dirs=
for d in base shape wait device team ops coll runtime; do dirs="$dirs -Isrc/$d"; done
# fuzz_target T: builds and runs one target; its lines go to $work/T.out, and
# $work/T.failed marks a crash or a failed build.
fuzz_target() {
    t=$1
    case $t in
    env) sources="src/base/parse.c src/ops/amo_ops.c" extra="$dirs -Iinclude $mpi_include" libs=$mpi_libs ;;
    status_page | status_args) sources=src/wait/status_text.c extra=-Isrc/wait libs= ;;
    python_arrays)
        if [ -z "${FUZZ_PYTHON:-}" ]; then
            echo "fuzz: python_arrays: no python3 with numpy (FUZZ_PYTHON)"; return 1
        fi
        "$FUZZ_PYTHON" tests/fuzz/python_arrays.py -t "$seconds" > "$work/$t.log" 2>&1
        result=$?
        tail -3 "$work/$t.log"
        [ $result -eq 0 ] && rm -f "$work/$t.log"
        return $result ;;
    *) echo "fuzz: no target $t"; return 1 ;;
    esac
    # shellcheck disable=SC2086
    if ! $cc $flags $extra -o "$work/$t" "tests/fuzz/$t.c" $sources $libs 2> "$work/$t.build"; then
        echo "fuzz: $t: build failed:"; cat "$work/$t.build"; return 1
    fi
    mkdir -p "$work/corpus-$t" "$work/crash-$t"
    "$work/$t" -max_total_time="$seconds" -print_final_stats=1 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$work/crash-$t/" "$work/corpus-$t" "tests/fuzz/seeds/$t" \
        > "$work/$t.log" 2>&1
    result=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$t.log")
    if [ $result -ne 0 ] || [ -n "$(ls "$work/crash-$t")" ]; then
        echo "fuzz: $t: CRASH after ${runs:-?} executions; input and log kept in $work:"
        grep -E 'ERROR|runtime error|Assertion|SUMMARY' "$work/$t.log" | head -5
        return 1
    fi
    echo "fuzz: $t: ${runs:-?} executions in $seconds s, no crash"
    rm -rf "${work:?}/$t" "$work/corpus-$t" "$work/crash-$t" "$work/$t.log" "$work/$t.build"
}
# The targets dealt round-robin to FUZZ_JOBS lanes; each lane runs its targets in turn.
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
lane=0
while [ $lane -lt "$jobs" ]; do
    i=0
    lane_targets=
    for t in $targets; do
        [ $((i % jobs)) -eq $lane ] && lane_targets="$lane_targets $t"
        i=$((i + 1))
    done
    [ -n "$lane_targets" ] && (
        for t in $lane_targets; do
            fuzz_target "$t" > "$work/$t.out" 2>&1 || : > "$work/$t.failed"
        done
    ) &
    lane=$((lane + 1))
done
wait
status=0
for t in $targets; do
    cat "$work/$t.out"
    [ -e "$work/$t.failed" ] && status=1
    rm -f "$work/$t.out"
done
[ $status -eq 0 ] && rm -rf "$work"
exit $status
