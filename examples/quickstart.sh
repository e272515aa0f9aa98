#!/bin/sh
# Quick start: install the Debian packages shmpi needs if some are missing
# (directly as root, through sudo otherwise), build and install shmpi into
# ./_install, then compile examples/ring.c with oshcc and run it on 4 PEs
# with oshrun.  Without apt-get, or without root and sudo, the packages must
# be there already (a compiler, MPI with mpicc and mpiexec, autotools, Check).
# Extra configure options: SHMPI_CONFIGURE_FLAGS (CI passes --enable-werror).
# MPICH by its full path when Debian's mpich is installed (MPICC overrides):
# with Open MPI installed too, /usr/bin/mpicc may be Open MPI's.
set -e
cd "$(dirname "$0")/.."
top=$(pwd)
pkgs="mpich libmpich-dev check autoconf automake libtool pkg-config make gcc g++"
missing=
if command -v dpkg-query >/dev/null && command -v apt-get >/dev/null; then
    for p in $pkgs; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
            missing="$missing $p"
    done
fi
if [ -n "$missing" ]; then
    if [ "$(id -u)" = 0 ]; then
        as_root=
    elif command -v sudo >/dev/null; then
        as_root=sudo
    else
        echo "quickstart: missing packages:$missing; not root and no sudo: install them" >&2
        exit 1
    fi
    echo "quickstart: installing$missing"
    $as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    # shellcheck disable=SC2086
    $as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi
./autogen.sh >/dev/null 2>&1
mkdir -p _build
cd _build
# shellcheck disable=SC2086
if [ -z "$MPICC" ] && [ -x /usr/bin/mpicc.mpich ]; then
    MPICC=/usr/bin/mpicc.mpich
fi
"$top/configure" --prefix="$top/_install" ${MPICC:+MPICC="$MPICC"} $SHMPI_CONFIGURE_FLAGS >/dev/null
make -j2 >/dev/null
make install >/dev/null
cd "$top"
_install/bin/oshcc examples/ring.c -o _build/ring
timeout 60 _install/bin/oshrun -n 4 _build/ring
