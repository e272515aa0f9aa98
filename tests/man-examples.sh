#!/bin/sh
# The example programs of the man pages (docs/man/examples/*.c), built and run
# as a user would: each file's "Build and run:" line gives the command (oshcc,
# then oshrun on 2 or 4 PEs, with any variables it sets), run here with the
# install's wrappers under a timeout; the program must exit as its "Output"
# comment says (status 0 unless it ends with "(exit status N)") and print
# those lines (in any order when the comment says so; sorted before the
# comparison either way).  An example that asks for a device heap runs on
# the fake CUDA driver of tests/fake_cuda.c unless SHMPI_CUDA_LIBRARY is set.
#   sh tests/man-examples.sh PREFIX [NAME...]
# Prints one line per example and "N passed, N failed"; exit status 0 only
# when every example passed.  OSHRUN_ARGS is added to each oshrun (Open MPI:
# --oversubscribe).
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
prefix=$(cd "${1:?usage: man-examples.sh PREFIX [NAME...]}" && pwd) || exit 2
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
if [ $# -eq 0 ]; then
    set -- $(cd "$src/docs/man/examples" && ls *.c | sed 's/\.c$//')
fi
for name in "$@"; do
    file=$src/docs/man/examples/$name.c
    line=$(sed -n 's/^ \* Build and run: //p' "$file" | head -1)
    build=${line%%&&*} run=${line#*&& }
    case $build in oshcc*) ;; *) echo "FAIL $name: no 'Build and run: oshcc ... && oshrun ...' line"; failed=$((failed + 1)); continue ;; esac
    # the variables before oshrun, and its arguments
    vars=${run%%oshrun*} args=${run#*oshrun }
    sed -n '/^\/\* Output/,/\*\//{/^\/\* Output/d;/\*\//d;s/^ \* \{0,1\}//;p;}' "$file" > "$work/want"
    status=$(sed -n 's/^(exit status \([0-9]*\))$/\1/p' "$work/want")
    sed -i '/^(exit status [0-9]*)$/d' "$work/want"
    mkdir -p "$work/$name"
    cp "$file" "$work/$name/"
    # shellcheck disable=SC2086
    if ! (cd "$work/$name" && "$prefix/bin/oshcc" -Wall -Wextra -Werror ${build#oshcc }) > "$work/$name.build" 2>&1; then
        echo "FAIL $name: $build"; cat "$work/$name.build"; failed=$((failed + 1)); continue
    fi
    extra=
    case $vars in
    *SHMPI_DEVICE_HEAP_SIZE*)
        if [ -z "${SHMPI_CUDA_LIBRARY:-}" ]; then
            [ -f "$work/fake_cuda.so" ] || "${CC:-cc}" -shared -fPIC -fvisibility=hidden -o "$work/fake_cuda.so" \
                "$src/tests/fake_cuda.c" -lrt
            extra="SHMPI_CUDA_LIBRARY=$work/fake_cuda.so"
        fi ;;
    esac
    # shellcheck disable=SC2086
    # (with the install first on PATH, as README says: examples may run its tools)
    (cd "$work/$name" && env PATH="$prefix/bin:$PATH" $vars $extra timeout -k 5 60 "$prefix/bin/oshrun" ${OSHRUN_ARGS:-} $args) \
        > "$work/$name.out" 2> "$work/$name.err"
    got=$?
    if [ "$got" -ne "${status:-0}" ]; then
        echo "FAIL $name: $run exited $got (want ${status:-0})"; cat "$work/$name.out" "$work/$name.err"
        failed=$((failed + 1)); continue
    fi
    sort "$work/$name.out" > "$work/$name.got"
    if ! sort "$work/want" | cmp -s - "$work/$name.got"; then
        echo "FAIL $name: $run printed something else; want (any order):"; cat "$work/want"
        echo "got:"; cat "$work/$name.out" "$work/$name.err"
        failed=$((failed + 1)); continue
    fi
    echo "ok   $name: $run"
    passed=$((passed + 1))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
