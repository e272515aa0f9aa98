#!/bin/sh
# What a site gets from `make install`, checked at PREFIX: the wrappers'
# -show/-showme/-showme:compile/-showme:link/--help, oshrun's usage and its
# note without -n, shmpi_info --version and --parsable, man pages through
# `man -M PREFIX/share/man` and their index (`man -k`), the documents and example programs in
# share/doc/shmpi, and the program of tests/install built against the
# install by its two projects and run on 2 and 4 PEs: make with pkg-config,
# and CMake with find_package(shmpi CONFIG).
#   sh tests/check-install.sh PREFIX
# Needs man, pkg-config and cmake (Debian: man-db pkg-config cmake); ends with
# "N passed, N failed" and exit status 0 only when everything passed.
set -u
src=$(cd "$(dirname "$0")/.." && pwd)
prefix=$(cd "${1:?usage: check-install.sh PREFIX}" && pwd -P) || exit 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
version=$(sed -n '/^shmpi /{s/^shmpi //;s/ .*//;p;q;}' "$src/NEWS")
bin=$prefix/bin
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok   $*"; }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }
# expect WHAT PATTERN COMMAND...: COMMAND succeeds and its output matches PATTERN (grep -E).
expect() {
    what=$1 pattern=$2; shift 2
    if "$@" > "$work/out" 2>&1 && grep -qE -- "$pattern" "$work/out"; then ok "$what"
    else fail "$what: '$*' printed:"; head -20 "$work/out"; fi
}
# status WHAT STATUS PATTERN COMMAND...: COMMAND exits with STATUS and its output matches PATTERN.
status() {
    what=$1 want=$2 pattern=$3; shift 3
    "$@" > "$work/out" 2>&1
    got=$?
    if [ "$got" -eq "$want" ] && grep -qE -- "$pattern" "$work/out"; then ok "$what"
    else fail "$what: '$*' exited $got (want $want) and printed:"; head -20 "$work/out"; fi
}
# refuse WHAT PATTERN COMMAND...: COMMAND succeeds and its output does not match.
refuse() {
    what=$1 pattern=$2; shift 2
    if "$@" > "$work/out" 2>&1 && ! grep -qE -- "$pattern" "$work/out"; then ok "$what"
    else fail "$what: '$*' printed:"; head -20 "$work/out"; fi
}

# The wrappers.
# (the MPI's C wrapper: mpicc, or Intel MPI's mpigcc)
expect "oshcc -show" "^/[^ ]*/mpi[a-z]*cc[^ ]* -I[^ ]*/include -L[^ ]*/lib( -L[^ ]*)* prog.c -o prog .*-lshmpi$" "$bin/oshcc" -show prog.c -o prog
expect "oshcc -showme" "^/[^ ]*/mpi[a-z]*cc[^ ]* .*-lshmpi$" "$bin/oshcc" prog.c -showme
refuse "oshcc -show -c (no library)" "-lshmpi" "$bin/oshcc" -show -c prog.c
expect "oshcc -showme:compile" "^-I[^ ]*/include( |$)" "$bin/oshcc" -showme:compile
expect "oshcc -showme:link" "^-L[^ ]*/lib -Wl,-rpath,[^ ]* -lshmpi( |$)" "$bin/oshcc" -showme:link
expect "oshc++ -show" "^/[^ ]*(mpicxx|mpic\+\+|mpiCC|mpigxx)[^ ]* .*-lshmpi$" "$bin/oshc++" -show prog.cc
expect "oshcc --help" "shmpi $version" "$bin/oshcc" --help
expect "oshrun --help" "shmpi $version" "$bin/oshrun" --help
status "oshrun without a program: its usage, status 2" 2 "^Usage: oshrun .*-n N PROGRAM" "$bin/oshrun"
status "oshrun -n 2 without a program: its usage, status 2" 2 "oshrun: no program to run" "$bin/oshrun" -n 2
expect "oshrun without -n: a note" "^oshrun: no -n N given: " "$bin/oshrun" true
expect "oshcc --version" "^oshcc \(shmpi\) $version$" "$bin/oshcc" --version
# A program linked with a -L of the system's library directory first (Debian's
# Python links every extension so) loads the libmpi that libshmpi loads, not
# the system MPI's libmpi.so found there.
libmpi_of() { ldd "$1" 2>/dev/null | awk '$1 ~ /^libmpi/ { print $1, $3 }' | sort -u; }
sysdir=/usr/lib/$(gcc -print-multiarch 2>/dev/null)
printf '#include <mpi.h>\nint main(void) { int on; MPI_Initialized(&on); return on; }\n' > "$work/uses_mpi.c"
if "$bin/oshcc" -L"$sysdir" "$work/uses_mpi.c" -o "$work/uses_mpi" > "$work/out" 2>&1; then
    want=$(libmpi_of "$prefix/lib/libshmpi.so") got=$(libmpi_of "$work/uses_mpi")
    if [ -n "$want" ] && [ "$got" = "$want" ]; then ok "oshcc -L$sysdir: the program loads $(echo $want)"
    else fail "oshcc -L$sysdir: the program loads '$(echo $got)', libshmpi '$(echo $want)'"; fi
else
    fail "oshcc -L$sysdir uses_mpi.c failed:"; head -20 "$work/out"
fi

# The info tool: its version, keys, paths and the whole environment table.
expect "shmpi_info --version" "^shmpi_info \(shmpi\) $version$" "$bin/shmpi_info" --version
"$bin/shmpi_info" --parsable > "$work/info" 2>&1 || fail "shmpi_info --parsable failed"
for key in "version:$version" "openshmem:version:1\.6" "mpi:family:." "mpi:version:." \
        "mpi:cc:/" "mpi:exec:/" "configure:line:" "path:prefix:/" "path:mandir:/"; do
    grep -qE "^$key" "$work/info" || fail "shmpi_info --parsable has no line $key"
done
info_prefix=$(sed -n 's/^path:prefix://p' "$work/info")
[ "$(cd "$info_prefix" 2>/dev/null && pwd -P)" = "$prefix" ] || fail "shmpi_info: prefix $info_prefix is not $prefix"
rows=$(awk -f "$src/tools/env_table.awk" "$src/src/runtime/env.c" | cut -f1,3 | tr '\t' :)
missing=0
for row in $rows; do grep -qx "env:${row%%:*}:default:${row#*:}" "$work/info" || missing=$((missing + 1)); done
if [ $missing -eq 0 ] && [ -n "$rows" ]; then ok "shmpi_info --parsable: $(echo $rows | wc -w) variables with their defaults"
else fail "shmpi_info --parsable lacks $missing variables of src/runtime/env.c"; fi
expect "shmpi_info" "SHMEM_SYMMETRIC_SIZE" "$bin/shmpi_info"
# (its helper in libexec: the running jobs, maybe none)
expect "shmpi_info --jobs" "^JOB +PES HERE" "$bin/shmpi_info" --jobs

# Man pages.
if command -v man >/dev/null; then
    for name in shmem_long_put_nbi shmem_team_split_strided shmem_put shmpi oshcc oshc++ oshrun shmpi_info; do
        expect "man $name" "^(SHMEM_|SHMPI|OSH)" env MANWIDTH=80 man -M "$prefix/share/man" "$name"
    done
    expect "man shmem_long_put_nbi shows its declaration" "void shmem_TYPENAME_put_nbi\(TYPE \*dest" \
        env MANWIDTH=200 man -M "$prefix/share/man" shmem_long_put_nbi
    expect "man shmem_long_put_nbi lists its type" "longlong \(long long\)" \
        env MANWIDTH=200 man -M "$prefix/share/man" shmem_long_put_nbi
    expect "man shmemx_device_malloc shows its example" "shmemx_device_malloc\(N \* sizeof" \
        env MANWIDTH=200 man -M "$prefix/share/man" shmemx_device_malloc
    # the index make install makes with mandb, where man-db is installed
    if command -v mandb >/dev/null; then
        expect "man -k shmem_put lists the pages (make install ran mandb)" "^shmem_put \(3\) +- copy" \
            man -M "$prefix/share/man" -k shmem_put
        expect "whatis shmem_put_nbi" "^shmem_put_nbi \(3\) +- copy" whatis -M "$prefix/share/man" shmem_put_nbi
    else
        echo "skip man -k: no mandb, so make install made no index (Debian: man-db)"
    fi
else
    fail "man not found (Debian: apt-get install man-db)"
fi

# The documents and the man pages' example programs.
for doc in README.md NEWS docs/design.md docs/device-heap.md examples/put.c; do
    if [ -s "$prefix/share/doc/shmpi/$doc" ]; then ok "share/doc/shmpi/$doc"
    else fail "no $prefix/share/doc/shmpi/$doc"; fi
done

# pkg-config: a make project (its Makefile takes the compiler and flags from shmpi.pc).
if command -v pkg-config >/dev/null; then
    cp -r "$src/tests/install" "$work/pc"
    expect "pkg-config sample builds" "neighbours" env PKG_CONFIG_PATH="$prefix/lib/pkgconfig" make -C "$work/pc"
    expect "pkg-config sample runs on 2 PEs" "PE 1 of 2 received 0: ok" timeout 60 "$bin/oshrun" -n 2 "$work/pc/neighbours"
else
    fail "pkg-config not found (Debian: apt-get install pkg-config)"
fi

# CMake: find_package(shmpi CONFIG) and the target shmpi::shmpi.
if command -v cmake >/dev/null; then
    expect "CMake sample configures" "Build files have been written" \
        cmake -S "$src/tests/install" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix"
    expect "CMake sample builds" "Built target neighbours" cmake --build "$work/cmake"
    expect "CMake sample runs on 4 PEs" "PE 3 of 4 received 2: ok" timeout 60 "$bin/oshrun" -n 4 "$work/cmake/neighbours"
else
    fail "cmake not found (Debian: apt-get install cmake)"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
