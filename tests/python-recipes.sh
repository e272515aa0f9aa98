#!/bin/sh
# The Python recipes run as they stand, from PyPI, into a fresh virtual environment (the
# sh blocks of docs/python.md's "## The install, line by line", in order, with HOME a
# folder whose shmpi is PREFIX and README's `export PATH=$HOME/shmpi/bin:$PATH`), each
# followed by the suites of what it installed:
#   1. shmem4py 1.0.0 built against shmpi; then shmem4py's own tests and demos (from
#      its PyPI sdist, through tests/run-shmem4py.sh) on 1, 2 and 4 PEs, and one PE's
#      uncaught exception ending the job;
#   2. shmpi's own package (src/python, pip install); then its checks
#      (tests/python/run_gpu_python.py on the fake CUDA driver without MPI and at 2 and 4
#      PEs, tests/python/host_only.py with no driver) on the installed package, not the
#      sources';
#   3. mpi4py 4.1.2 built with the MPI shmpi was built with (shmpi_info's mpi:cc); then
#      mpi4py and shmem4py in one job (one MPI_COMM_WORLD, MPICH);
#   4. cuda-core from PyPI and the notebook example (examples/nvshmem4py_notebook.py) on
#      2 PEs, on the fake driver: cuda-core without cuda-bindings does not import, so the
#      notebook takes its stand-ins (shmpi.cuda) and says so; with mpi4py from step 3.
#
#   tests/python-recipes.sh [PREFIX [BUILD]]
#
# PREFIX  the shmpi install (default _install); BUILD the build folder with the fake
#         driver (default _build; make check builds tests/.libs/fake_cuda.so)
# Needs PyPI, Debian's python3-venv python3-dev python3-numpy python3-cffi
# python3-setuptools python3-wheel (docs/python.md says why).  pip's cache is the fresh
# HOME's, so every run downloads and builds everything (a shmem4py wheel cached by an
# earlier run would link that run's libshmpi).  Each step has a timeout
# (SHMPI_RECIPE_TIMEOUT, 600 s).  Prints "N passed, M failed" and the time taken.
set -u
cd "$(dirname "$0")/.."
top=$(pwd)
prefix=$(cd "${1:-_install}" && pwd) || exit 2
build=$(cd "${2:-_build}" && pwd) || exit 2
fake=$build/tests/.libs/fake_cuda.so
limit=${SHMPI_RECIPE_TIMEOUT:-600}
for f in "$prefix/bin/shmpi_info" "$fake"; do
    [ -f "$f" ] || { echo "python-recipes: no $f"; echo "0 passed, 1 failed"; exit 1; }
done
start=$(date +%s)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/home"
ln -s "$prefix" "$work/home/shmpi"
# Block N of docs/python.md's install section into recipeN.sh.
awk -v dir="$work" '/^## The install, line by line$/ { sect = 1; next } /^#/ { sect = 0 }
    sect && /^```sh$/ { n++; body = 1; next } body && /^```$/ { body = 0; next }
    body { print > (dir "/recipe" n ".sh") }' "$top/docs/python.md"
HOME=$work/home
PATH=$HOME/shmpi/bin:$PATH
PIP_CACHE_DIR=$HOME/.cache/pip # (the fresh HOME's, whatever the caller's environment says)
export HOME PATH PIP_CACHE_DIR
venv=$HOME/shmpi-venv
python=$venv/bin/python
passed=0 failed=0
# step NAME COMMAND...: one check, its output in a log shown on failure; with expect set,
# its output must also have a line matching that pattern.
expect=
step() {
    name=$1
    shift
    t0=$(date +%s)
    timeout -k 10 "$limit" "$@" > "$work/step.log" 2>&1
    status=$?
    took=$(($(date +%s) - t0))
    if [ "$status" -eq 0 ] && { [ -z "$expect" ] || grep -q "$expect" "$work/step.log"; }; then
        passed=$((passed + 1))
        echo "ok   $name (${took} s): $(grep -v '^ok ' "$work/step.log" | grep . | tail -n 1)"
    else
        failed=$((failed + 1))
        echo "FAIL $name (exit $status, ${took} s${expect:+, wants a line '$expect'}):"
        grep -v '^ok ' "$work/step.log" | tail -n 30
    fi
    expect=
}
# recipe N: the install's block N, run in the folder of shmpi's sources in the venv block 1
# made (a user's shell where block 1 ran has it activated).
recipe() {
    [ -s "$work/recipe$1.sh" ] || { echo "docs/python.md's install section has no sh block $1" >&2; return; }
    { echo "set -ex"; [ "$1" -gt 1 ] && echo ". $venv/bin/activate"; cat "$work/recipe$1.sh"; } \
        > "$work/run$1.sh"
    echo "$work/run$1.sh"
}
step "Python recipe 1 (shmem4py from PyPI)" sh "$(recipe 1)"
s4p=$("$python" -c 'import shmem4py; print(shmem4py.__version__)' 2>/dev/null)
step "shmem4py $s4p's tests and demos from its sdist on 1, 2, 4 PEs" sh -c '
    "$1" -m pip download --no-deps --no-binary :all: --no-build-isolation -d "$2/dist" \
        "shmem4py==$3" >/dev/null &&
    SHMEM4PY_PYTHON=$1 sh tests/run-shmem4py.sh "$4" "$2/dist/shmem4py-$3.tar.gz"' \
    - "$python" "$work" "$s4p" "$prefix"
grep -h -E '^shmem4py (tests|demos) on' "$work/step.log"
step "Python recipe 2 (shmpi's package)" sh "$(recipe 2)"
# The package's checks on what pip installed (SHMPI_PY_INSTALLED=1), the library found
# as the package finds it (no SHMPI_LIBRARY), compiled path where Python.h is there.
fast=0
"$python" -c 'import os, sysconfig; exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' && fast=1
runner=$top/tests/python/run_gpu_python.py
gpu="env -u SHMPI_LIBRARY SHMPI_PY_INSTALLED=1 SHMPI_PY_EXPECT_FAST=$fast SHMPI_CUDA_LIBRARY=$fake SHMPI_DEVICE_HEAP_SIZE=16m"
step "shmpi's package: unit checks" $gpu "$python" "$runner" --unit
for np in 2 4; do
    step "shmpi's package on $np PEs, fake driver" $gpu oshrun -n $np "$python" "$runner"
done
step "shmpi's package: host memory, no driver, 2 PEs" env -u SHMPI_LIBRARY SHMPI_PY_INSTALLED=1 \
    SHMPI_CUDA_LIBRARY=/nonexistent/libcuda.so.1 SHMPI_DEVICE_HEAP_SIZE=0 \
    oshrun -n 2 "$python" "$top/tests/python/host_only.py"
step "Python recipe 3 (mpi4py from PyPI)" sh "$(recipe 3)"
# One job, one MPI: mpi4py's COMM_WORLD is shmem4py's PEs, and its MPI is MPICH.
cat > "$work/one_mpi.py" <<'PY'
from mpi4py import MPI
from shmem4py import shmem
comm = MPI.COMM_WORLD
got = comm.allgather((shmem.my_pe(), shmem.n_pes()))
want = [(r, comm.Get_size()) for r in range(comm.Get_size())]
assert got == want, (got, want)
assert "MPICH" in MPI.Get_library_version(), MPI.Get_library_version()
if comm.Get_rank() == 0:
    print("mpi4py %s on %s: ranks are PEs" % (__import__("mpi4py").__version__,
                                                MPI.Get_library_version().splitlines()[0]))
PY
step "mpi4py and shmem4py in one job of 2 PEs" oshrun -n 2 "$python" "$work/one_mpi.py"
# The notebook: its first line says what it uses; "notebook: done" is its end.
expect="^notebook: done"
step "Python recipe 4 (cuda-core, the notebook on 2 PEs)" env SHMPI_CUDA_LIBRARY="$fake" \
    SHMPI_DEVICE_HEAP_SIZE=16m SHMPI_EXAMPLE_VMM_BYTES=1048576 sh "$(recipe 4)"
grep -h "^notebook: [0-9]* PEs" "$work/step.log"
echo "python recipes took $(($(date +%s) - start)) s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
