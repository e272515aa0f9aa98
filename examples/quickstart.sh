#!/bin/sh
# Quick start: install the Debian packages shmpi needs if some are missing
# (directly as root, through sudo otherwise), build and install shmpi into
# ./_install, then compile examples/ring.c with oshcc and run it on 4 PEs
# with oshrun.  Without apt-get, or without root and sudo, the packages must
# be there already (a compiler, MPI with mpicc and mpiexec, autotools, Check).
# Extra configure options: SHMPI_CONFIGURE_FLAGS (CI passes --enable-werror).
# MPICH by its full path when Debian's mpich is installed (MPICC overrides):
# with Open MPI installed too, /usr/bin/mpicc may be Open MPI's.
#
# Each step says when it starts and how long it took; what the tools print
# goes to _build/quickstart.log, whose last lines are shown if a step fails.
# It ends with where shmpi is installed and what to type next.
set -e
cd "$(dirname "$0")/.."
top=$(pwd)
mkdir -p _build
log=$top/_build/quickstart.log
: > "$log"
begin=$(date +%s)

seconds() { # seconds SINCE: "12s" or "3m 05s"
    s=$(($(date +%s) - $1))
    if [ "$s" -ge 60 ]; then printf '%dm %02ds' $((s / 60)) $((s % 60)); else printf '%ds' "$s"; fi
}
# step TEXT COMMAND...: runs COMMAND with its output in the log.
step() {
    text=$1
    shift
    started=$(date +%s)
    printf 'quickstart: %s ... ' "$text"
    printf '\n==== %s: %s\n' "$text" "$*" >> "$log"
    if "$@" >> "$log" 2>&1; then
        echo "done ($(seconds "$started"))"
    else
        status=$?
        echo "FAILED (status $status, after $(seconds "$started"))"
        echo "quickstart: the last 25 lines of $log:"
        tail -n 25 "$log" | sed 's/^/    /'
        echo "quickstart: $text failed; the whole output is in $log"
        exit 1
    fi
}

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
        sudo -v # a password prompt, if any, on the terminal rather than in the log
    else
        echo "quickstart: missing packages:$missing; not root and no sudo: install them" >&2
        exit 1
    fi
    install_packages() {
        # shellcheck disable=SC2086
        $as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
            $as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
    }
    step "installing$missing" install_packages
fi
if [ -z "$MPICC" ] && [ -x /usr/bin/mpicc.mpich ]; then
    MPICC=/usr/bin/mpicc.mpich
fi
configure() {
    cd "$top/_build"
    # shellcheck disable=SC2086
    "$top/configure" --prefix="$top/_install" ${MPICC:+MPICC="$MPICC"} $SHMPI_CONFIGURE_FLAGS
    status=$?
    cd "$top"
    return $status
}
step "autogen.sh (autoreconf)" ./autogen.sh
step "configure in _build${SHMPI_CONFIGURE_FLAGS:+ ($SHMPI_CONFIGURE_FLAGS)}" configure
step "make -j2 (the library, the tools, the man pages)" make -C _build -j2
step "make install into _install" make -C _build install
step "oshcc examples/ring.c" _install/bin/oshcc examples/ring.c -o _build/ring
echo "quickstart: oshrun -n 4 _build/ring:"
printf '\n==== oshrun -n 4 _build/ring\n' >> "$log"
if ! timeout 60 _install/bin/oshrun -n 4 _build/ring > _build/ring.out 2>&1; then
    sed 's/^/    /' _build/ring.out
    cat _build/ring.out >> "$log"
    echo "quickstart: the ring did not run on 4 PEs; the whole output is in $log"
    exit 1
fi
sed 's/^/    /' _build/ring.out
cat _build/ring.out >> "$log"

cat <<EOF
quickstart: done in $(seconds "$begin"); the log is _build/quickstart.log
shmpi is installed in $top/_install (built in _build):
  bin: oshcc, oshc++, oshrun, shmpi_info; include: shmem.h, shmemx.h; lib: libshmpi
  share/man (indexed for man -k where man-db is installed); share/doc/shmpi
Next:
  export PATH=$top/_install/bin:\$PATH MANPATH=$top/_install/share/man:
  oshcc examples/ring.c -o ring && oshrun -n 4 ./ring
  man shmem_put; man shmpi; man -k shmem_atomic
  make -C _build check-quick    # a first check of the tests, under a minute
  sh tests/run-all.sh           # every test in 3 modes: 15 minutes on 2 quiet CPUs
EOF
