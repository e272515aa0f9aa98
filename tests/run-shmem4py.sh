#!/bin/sh
# Python through shmem4py: builds the shmem4py snapshot against an installed
# shmpi, runs its test suite on 1, 2 and 4 PEs and its demo programs on 4
# PEs, each under a timeout, and prints the counts of each suite run; then
# checks that one PE's uncaught exception ends the job at 2, 4 and 8 PEs (the
# others in barriers or in sum_reduce; sum_reduce also with SHMPI_MPI_ONLY=1,
# SHMPI_PSEUDO_NODE_SIZE=2 and, as root, across emulated nodes: about 30 s more).
#
#   tests/run-shmem4py.sh [PREFIX] [TARBALL]
#
# PREFIX   the shmpi install (default _install): PREFIX/bin/oshcc builds the
#          module, PREFIX/bin/oshrun launches
# TARBALL  shmem4py sources (default ../shared/thirdparty/shmem4py.tar.gz,
#          unpacking to shmem4py/); users get the same with pip install shmem4py
#
# Needs /usr/bin/python3 with Debian's python3-venv python3-numpy python3-cffi
# python3-dev python3-setuptools python3-wheel (nothing is downloaded).
# shmem4py knows OpenSHMEM libraries by their vendor macros and falls back to stubs that clash with a
# complete shmem.h for one it does not know; shmpi is complete, so it is
# built as for Sandia OpenSHMEM, whose settings say "every routine is there"
# (CFLAGS=-DPySHMEM_VENDOR_Sandia=1 in docs/python.md's recipe, which installs it).
# Exit status 0 when everything ran with no failure and no skip.
# SHMEM4PY_TIMEOUT (default 600) limits each suite run, 120 each demo.
# SHMEM4PY_PYTHON names a python whose venv has shmem4py already (tests/python-recipes.sh
# installed it from PyPI by docs/python.md's recipe): no install here, TARBALL (PyPI's sdist,
# which ships test/ and demo/) gives the tests.
set -u
cd "$(dirname "$0")/.."
top=$(pwd)
prefix=$(cd "${1:-_install}" && pwd) || exit 2
tarball=${2:-../shared/thirdparty/shmem4py.tar.gz}
python=/usr/bin/python3
limit=${SHMEM4PY_TIMEOUT:-600}
[ -x "$prefix/bin/oshcc" ] || { echo "run-shmem4py: no $prefix/bin/oshcc"; exit 2; }
[ -f "$tarball" ] || { echo "run-shmem4py: no $tarball"; exit 2; }
"$python" -c 'import numpy, cffi, setuptools' ||
    { echo "run-shmem4py: $python needs python3-numpy python3-cffi python3-setuptools"; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -xzf "$tarball" -C "$work"
src=$work/$(tar -tzf "$tarball" | head -1 | cut -d/ -f1)
cd "$src" || exit 2
if [ -n "${SHMEM4PY_PYTHON:-}" ]; then
    python=$SHMEM4PY_PYTHON
    echo "run-shmem4py: the tests of $(basename "$tarball") with $python"
else
# Install: docs/python.md's recipe (the first sh block of "## The install, line
# by line"), line for line, with HOME a folder whose shmpi is PREFIX and pip
# finding the snapshot under its sdist name instead of PyPI; the tests then run
# its venv's python.
echo "run-shmem4py: installing shmem4py into a venv against $prefix (docs/python.md's recipe)"
awk '/^## The install, line by line$/ { sect = 1; next } /^#/ { sect = 0 } sect && /^```sh$/ { body = 1; next }
    body && /^```$/ { exit } body { print }' "$top/docs/python.md" > "$work/recipe.sh"
s4p_version=$(sed -n "s/^__version__ = '\(.*\)'$/\1/p" "$src/src/shmem4py/__init__.py")
mkdir "$work/home" "$work/dist"
ln -s "$prefix" "$work/home/shmpi"
(cd "$top" && cp "$tarball" "$work/dist/shmem4py-$s4p_version.tar.gz") || exit 2
# (the recipe names Debian's /usr/bin/python3, whose numpy and cffi the venv
# sees; PATH puts its folder first for any other python3 the build runs)
if [ ! -s "$work/recipe.sh" ] || ! (cd "$work/home" && HOME=$work/home PIP_NO_INDEX=1 \
    PIP_FIND_LINKS=$work/dist PATH=$(dirname "$python"):$PATH sh -ex "$work/recipe.sh") \
    > "$work/build.log" 2>&1; then
    tail -30 "$work/build.log"; echo "run-shmem4py: docs/python.md's recipe failed"; exit 1
fi
python=$work/home/shmpi-venv/bin/python
fi
failed=0
for np in 1 2 4; do
    # Each PE writes its own log: PEs printing to one stream interleave their
    # lines ("----Ran 110 tests") and a summary could go unseen.
    rm -f "$work"/test$np.pe*
    timeout -k 10 "$limit" "$prefix/bin/oshrun" -n "$np" /bin/sh -c \
        'exec "$0" -m unittest discover -s test > "$1.pe${PMI_RANK:-${OMPI_COMM_WORLD_RANK:-0}}" 2>&1' \
        "$python" "$work/test$np" > "$work/test$np.launcher" 2>&1
    status=$?
    cat "$work/test$np.launcher" "$work"/test$np.pe* > "$work/test$np.log" 2>/dev/null
    # Report the run count the PEs share and the largest failure and skip
    # counts; a PE that printed no summary leaves the count of PEs short.
    counts=$(awk '
        /^Ran [0-9]+ test/ { n++; if (run == "" || $2 < run) run = $2 }
        /^(OK|FAILED)/ { f = 0; s = 0
            if (match($0, /failures=[0-9]+/)) f += substr($0, RSTART + 9, RLENGTH - 9)
            if (match($0, /errors=[0-9]+/)) f += substr($0, RSTART + 7, RLENGTH - 7)
            if (match($0, /skipped=[0-9]+/)) s = substr($0, RSTART + 8, RLENGTH - 8)
            if (f > fail) fail = f; if (s > skip) skip = s }
        END { printf "%d %d %d %d", run, fail, skip, n }' "$work"/test$np.pe* /dev/null)
    set -- $counts
    echo "shmem4py tests on $np PEs: $1 run, $2 failed, $3 skipped ($4 PEs reported, exit $status)"
    if [ "$status" -ne 0 ] || [ "$2" -ne 0 ] || [ "$3" -ne 0 ] || [ "$4" -ne "$np" ] || [ "$1" -eq 0 ]; then
        failed=$((failed + 1)); grep -E '^(FAIL|ERROR|skipped)|skipped ' "$work/test$np.log" | head -20
        tail -20 "$work/test$np.log"
    fi
done
ran=0 bad=0
for demo in demo/*.py demo/api/*.py; do
    ran=$((ran + 1))
    if ! (cd "$(dirname "$demo")" && timeout -k 10 120 "$prefix/bin/oshrun" -n 4 "$python" -u \
        "$(basename "$demo")") > "$work/demo.log" 2>&1; then
        bad=$((bad + 1)); echo "demo $demo failed:"; tail -10 "$work/demo.log"
    fi
done
echo "shmem4py demos on 4 PEs: $ran run, $bad failed"
[ "$bad" -eq 0 ] || failed=$((failed + 1))

# ---- One PE's uncaught exception ends the job ----------------------------------------
# The last PE raises after allocating a symmetric array while the others go
# on into barriers, or into sum_reduce: the job must end with the traceback
# and one shmpi line naming the PE that raised (it waits in shmem_free or
# shmem_finalize at exit), within 5 s of the exception (docs/design.md,
# "Waits that explain themselves").
cat > "$work/uncaught.py" <<'PY'
import sys, time
from shmem4py import shmem
me, n = shmem.my_pe(), shmem.n_pes()
a = shmem.zeros(4, dtype='i')
src = shmem.ones(1, dtype='i')
dst = shmem.zeros(1, dtype='i')
shmem.barrier_all()
if me == n - 1:
    print("departs at %d" % int(time.time() * 1000), flush=True)
    raise RuntimeError("PE %d fails on purpose" % me)
for i in range(4):
    if sys.argv[1] == "barrier":
        shmem.barrier_all()
    else:
        shmem.sum_reduce(dst, src)
PY
# uncaught WAIT_IN NP WHERE: one run; WHERE is "default", VAR=VALUE (a suite mode)
# or "nodes" (tests/launch-nodes.sh: 2 PEs on 2 nodes, 4 on 2x2, 8 on 4x2).
uncaught() {
    wait_in=$1 np=$2 where=$3
    case $where in
    default) launch="$prefix/bin/oshrun -n $np" ;;
    nodes)
        case $np in 2) layout=2x1 ;; 4) layout=2x2 ;; *) layout=4x2 ;; esac
        launch="sh $top/tests/launch-nodes.sh $layout" ;;
    *) launch="env $where $prefix/bin/oshrun -n $np" ;;
    esac
    timeout -k 10 60 $launch "$python" -u "$work/uncaught.py" "$wait_in" > "$work/uncaught.log" 2>&1
    status=$?
    end=$(date +%s%3N)
    departs=$(sed -n 's/^departs at \([0-9]*\)$/\1/p' "$work/uncaught.log" | head -1)
    took=$((end - ${departs:-0}))
    lines=$(grep -Ec "shmpi: PE [0-9]+: .*(PE $((np - 1)) waits in|waits in .*reduce|waits in shmem_barrier_all).*collectives called in different orders" "$work/uncaught.log")
    name="shmem4py uncaught exception on $np PEs ($where), others in $wait_in"
    if [ "$status" -eq 0 ] || [ "$status" -eq 124 ] || [ "$status" -eq 137 ] ||
        [ -z "$departs" ] || [ "$took" -gt 5000 ] ||
        ! grep -q "^RuntimeError: PE $((np - 1)) fails on purpose" "$work/uncaught.log" ||
        [ "$lines" -ne 1 ]; then
        echo "$name: FAIL (exit $status, ended ${took} ms after it, $lines shmpi lines)"
        tail -20 "$work/uncaught.log"; failed=$((failed + 1))
    else
        echo "$name: the job ended ${took} ms after it (exit $status): $(grep -E '^shmpi: PE' "$work/uncaught.log" | head -1)"
    fi
}
for wait_in in barrier sum_reduce; do
    for np in 2 4 8; do
        uncaught $wait_in $np default
    done
done
# Others in sum_reduce, in the suite's other modes and across emulated nodes (as root).
wheres="SHMPI_MPI_ONLY=1 SHMPI_PSEUDO_NODE_SIZE=2"
# (launch-nodes.sh with the install's own launcher: it runs Hydra only, and
# another MPI's Hydra on PATH cannot start this MPI's program)
MPIEXEC=${MPIEXEC:-$("$prefix/bin/shmpi_info" --parsable 2>/dev/null | sed -n 's/^mpi:exec://p')}
export MPIEXEC
if sh "$top/tests/launch-nodes.sh" --check >/dev/null 2>&1; then
    wheres="$wheres nodes"
else
    echo "skip shmem4py across emulated nodes: $(sh "$top/tests/launch-nodes.sh" --check 2>&1 | head -1)"
fi
for where in $wheres; do
    for np in 2 4 8; do
        uncaught sum_reduce $np "$where"
    done
done
cd "$top"
[ "$failed" -eq 0 ]
