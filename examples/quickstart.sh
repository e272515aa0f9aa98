#!/bin/sh
# Quick start: install the Debian packages shmpi needs (when run as root),
# build and install shmpi into ./_install, then compile examples/ring.c with
# oshcc and run it on 4 PEs with oshrun.
# Extra configure options: SHMPI_CONFIGURE_FLAGS (CI passes --enable-werror).
# MPICH by its full path when Debian's mpich is installed (MPICC overrides):
# with Open MPI installed too, /usr/bin/mpicc may be Open MPI's.
set -e
cd "$(dirname "$0")/.."
top=$(pwd)
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq mpich libmpich-dev check autoconf automake libtool pkg-config \
        make gcc g++ >/dev/null
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
