#!/bin/sh
# icount.sh - instructions per call of the on-node hot paths of two builds
# of shmpi, counted by callgrind (benchmarks/icount.c): deterministic where
# wall-clock A B B A runs (abba.sh) are not.
#
# usage: benchmarks/icount.sh BUILD_A BUILD_B
#   BUILD_A, BUILD_B  configured build directories with the library built
# Environment: MPIEXEC (default mpiexec), MPICC (default the build's).
# Prints a table: each operation's instructions per call in A and in B and
# B - A; 2 PEs for RMA, AMOs and quiet, 1 PE for barrier_all and the reduction.
set -u
[ $# -eq 2 ] || { sed -n '2,11p' "$0"; exit 2; }
command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null ||
    { echo "icount: needs valgrind (callgrind, callgrind_annotate)" >&2; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
iter=$(sed -n 's/^#define ITER //p' "$here/icount.c")
for side in A B; do
    if [ $side = A ]; then build=$(cd "$1" && pwd); else build=$(cd "$2" && pwd); fi
    src=$(sed -n 's/^abs_top_srcdir = //p' "$build/Makefile")
    cc=${MPICC:-$(sed -n 's/^MPICC = //p' "$build/Makefile")}
    "$cc" -O2 -I"$src/include" "$here/icount.c" -o "$work/icount-$side" \
        -L"$build/.libs" -lshmpi -Wl,-rpath,"$build/.libs" ||
        { echo "icount: cannot build against $build" >&2; exit 1; }
    for np in 1 2; do
        "${MPIEXEC:-mpiexec}" -n $np valgrind --tool=callgrind --collect-atstart=no \
            --toggle-collect='op_*' --callgrind-out-file="$work/cg.$side.$np.%p" \
            "$work/icount-$side" >/dev/null 2>&1 ||
            { echo "icount: the $np-PE run against $build failed" >&2; exit 1; }
        # PE 0's file has the counts (the other PE measures nothing)
        for f in "$work"/cg.$side.$np.*; do
            callgrind_annotate --inclusive=yes "$f" 2>/dev/null |
                sed -n "s/^ *\([0-9,]*\) .*op_\([a-z_0-9]*\).*/$np \2 \1/p" | tr -d ,
        done >> "$work/counts.$side"
    done
done
echo "# icount: A = $1, B = $2, $iter calls each, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "| operation | PEs | A instructions/call | B instructions/call | B - A |"
echo "|---|---|---|---|---|"
awk -v iter="$iter" '
    FNR == 1 { side++ }
    $3 > 0 && ($1 == 2 || $2 == "barrier_all" || $2 == "sum_reduce") {
        key = $2 " | " $1; if (!(key in seen)) { seen[key] = 1; order[++n] = key }
        count[side, key] = $3 / iter }
    END { for (i = 1; i <= n; i++) { k = order[i]
        printf "| %s | %.1f | %.1f | %+.1f |\n", k, count[1, k], count[2, k], count[2, k] - count[1, k] } }
' "$work/counts.A" "$work/counts.B"
