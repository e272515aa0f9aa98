#!/bin/sh
# Does an installed shmpi provide the OpenSHMEM C API?
#
#   tests/api/check-exports.sh PREFIX [VERSION]
#
# VERSION is 1.5 or 1.6 (default): the routines of tests/api/openshmem-VERSION-c-api.txt
# ("category<TAB>name", deprecated ones included).  A routine counts when a program
# compiled and linked with PREFIX/bin/oshcc can take its address (so shmem.h declares it
# and the library, or shmem.h inline, defines it); its profiling name pNAME counts when
# PREFIX/lib/libshmpi.so exports it.  Prints the missing names and the lines
#   routines: N missing of M
#   profiling names: N missing of M
# Exit status 0 when nothing is missing, 1 otherwise, 2 on a usage error.
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
prefix=${1:?usage: check-exports.sh PREFIX [1.5|1.6]}
version=${2:-1.6}
list=$here/openshmem-$version-c-api.txt
[ -f "$list" ] || { echo "check-exports: no list $list" >&2; exit 2; }
[ -x "$prefix/bin/oshcc" ] || { echo "check-exports: no $prefix/bin/oshcc" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cut -f2 "$list" | sort -u > "$work/wanted"

# probe FILE_OF_NAMES: an object and a program that take every name's address.
probe() {
    { echo '#include <shmem.h>'
      echo 'void (*const shmpi_probe[])(void) = {'
      sed 's/.*/    (void (*)(void))\&&,/' "$1"
      echo '};'
      echo 'int main(void) { return shmpi_probe[0] == 0; }'
    } > "$work/probe.c"
    "$prefix/bin/oshcc" -w -fmax-errors=0 "$work/probe.c" -o "$work/probe" > "$work/probe.log" 2>&1
}
# Names the compiler or the linker rejected, from its messages; the rest are probed
# again until the probe builds (a message this misses makes the names go one by one).
cp "$work/wanted" "$work/present"
rounds=0
until probe "$work/present"; do
    rounds=$((rounds + 1))
    grep -oE "'[A-Za-z_][A-Za-z0-9_]*' undeclared|undefined reference to .[A-Za-z_][A-Za-z0-9_]*" \
        "$work/probe.log" | sed -E "s/ undeclared//; s/undefined reference to .//; s/'//g" |
        sort -u > "$work/rejected"
    if [ ! -s "$work/rejected" ] || [ "$rounds" -gt 5 ]; then
        : > "$work/one_by_one"
        while read -r name; do
            echo "$name" > "$work/one"
            probe "$work/one" && echo "$name" >> "$work/one_by_one"
        done < "$work/present"
        mv "$work/one_by_one" "$work/present"
        break
    fi
    comm -23 "$work/present" "$work/rejected" > "$work/next"
    mv "$work/next" "$work/present"
done
comm -23 "$work/wanted" "$work/present" > "$work/missing"

lib=$prefix/lib/libshmpi.so
nm -D --defined-only "$lib" 2>/dev/null | awk '{ print $NF }' | sort -u > "$work/exported"
sed 's/^/p/' "$work/wanted" | comm -23 - "$work/exported" > "$work/pmissing"

status=0
for kind in missing pmissing; do
    if [ -s "$work/$kind" ]; then
        status=1
        echo "$kind:"; head -40 "$work/$kind" | sed 's/^/  /'
        n=$(wc -l < "$work/$kind"); [ "$n" -gt 40 ] && echo "  ... and $((n - 40)) more"
    fi
done
total=$(wc -l < "$work/wanted")
echo "routines: $(wc -l < "$work/missing") missing of $total (OpenSHMEM $version)"
echo "profiling names: $(wc -l < "$work/pmissing") missing of $total"
exit $status
