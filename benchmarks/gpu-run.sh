#!/usr/bin/env bash
# gpu-run.sh - the device heap and the operations on CUDA streams
# (docs/device-heap.md) on a real NVIDIA GPU, in this order:
#   1. stream_probe: do the driver's stream waits (cuStreamWaitValue64) progress
#      when another process writes the word through CUDA IPC, how fast is a
#      stream ping-pong, is data written before the signal seen after the wait
#      (20 s at most);
#   2. the device-heap tests at 2 and 4 PEs sharing the GPU (default and
#      SHMPI_PSEUDO_NODE_SIZE=2), the AMO refusal, examples/device_ring.cu (nvcc);
#   3. the stream tests tests/spmd/device_stream at 2 and 4 PEs, with
#      SHMPI_PSEUDO_NODE_SIZE=2 and the late start (shmemx_device_init),
#      tests/spmd/stream_reduce (every reduction on a stream through shmpi's
#      kernel, the small collectives; at 2 and 4 PEs, and split at 3), and
#      tests/spmd/device_vmm (CUDA VMM memory registered, both ways of passing
#      its file descriptors);
#   4. the Python package (src/python/shmpi): tests/python/run_gpu_python.py at 2
#      and 4 PEs (with CuPy as it is installed, and with SHMPI_PY_NO_CUPY=1),
#      examples/nvshmem4py_flows.py and examples/nvshmem4py_notebook.py
#      (NVSHMEM4Py's tutorial notebook, at 2 and 4 PEs, with mpi4py bound to the
#      carried MPICH: MPI4PY_MPIABI=mpich), when they were in the tree at pack time;
#   5. where nvidia-cuda-mps-control exists: the Python suite, the notebook and
#      bench_stream again under MPS (PEs sharing a GPU without it are time-sliced),
#      and NVSHMEM's collectives on a stream beside shmpi's in one table
#      (nvshmem-compare.sh: bench_nvshmem_stream.cu built here over NVSHMEM's host
#      library where Python's site-packages have nvidia/nvshmem, and bench_stream -q)
#      at 2 PEs with CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=50 and 4 PEs with 25;
#   6. bench_stream (stream RMA, ping-pong, barrier, collectives against the raw
#      driver calls and the host collectives) at 2 and 4 PEs, bench_device
#      (device-heap put/get against raw cuMemcpyAsync, and with SHMPI_DEVICE_IPC=0
#      the network path against the same transfer by hand), and
#      bench_nvshmem4py.py (NVSHMEM's own stream routines, where it runs), and
#      bench_python_stream.py (shmpi.core's call beside the C call, with shmpi.core's,
#      CuPy's and Torch's arrays; shmpi._fast built there where python3 has its headers).
# The machine is the 16-core one with an H100 of ../shared/manycore/README.md.
#
# Two steps:
#   here (Debian 12, root):  bash benchmarks/gpu-run.sh --pack
#       installs shmpi into /opt/b/shmpi against Debian's MPICH, builds the tests,
#       the probe and the benchmarks with its oshcc (and the fake driver of
#       tests/fake_cuda.c), and packs them with MPICH's runtime into
#       manycore/gpu-pack.tar.xz (../shared/manycore/pack.sh), with manycore/env.sh.
#   there, from the project root, carrying manycore/ (about 6 to 9 minutes; every
#   step has a time limit and the whole run stops starting steps after
#   SHMPI_GPU_RUN_BUDGET seconds, default 520):
#       bash benchmarks/gpu-run.sh manycore/gpu-pack.tar.xz
#       prints everything and writes it to $OUT/gpu-run.txt ($OUT or /tmp); the
#       last line is "gpu-run: N passed, N failed".
#   SHMPI_GPU_RUN_ONLY=TEXT runs only the steps whose name has TEXT (the others say SKIP):
#       SHMPI_GPU_RUN_ONLY=NVSHMEM, NVSHMEM beside shmpi under MPS alone (about 2 minutes).
#   SHMPI_GPU_RUN_FAKE=1 runs the second step without a GPU (here): the packed fake
#       driver (tests/fake_cuda.c) stands in for libcuda.so.1 (times mean nothing),
#       nvidia-smi and nvcc are skipped; SHMPI_GPU_RUN_FAKE=PATH names another fake.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)

if [ "${1:-}" = --pack ]; then
    set -e
    shared=${SHMPI_SHARED:-$top/../shared}
    build=${TMPDIR:-/tmp}/shmpi-gpu-build
    rm -rf "$build" && mkdir -p "$build/extra"
    if [ ! -x "$top/configure" ]; then (cd "$top" && sh autogen.sh >/dev/null); fi
    (cd "$build" && "$top/configure" --prefix=/opt/b/shmpi MPICC=/usr/bin/mpicc.mpich \
        MPICXX=/usr/bin/mpicxx.mpich >/dev/null && make -j2 install >/dev/null &&
        make tests/fake_cuda.la >/dev/null)
    oshcc=/opt/b/shmpi/bin/oshcc
    x=$build/extra
    files=()
    for t in device_heap device_stream device_vmm stream_reduce; do
        if [ -f "$top/tests/spmd/$t.c" ]; then
            "$oshcc" -O2 -I"$top/tests/spmd" "$top/tests/spmd/$t.c" -o "$x/$t" -ldl
            files+=("$x/$t")
        else
            echo "gpu-run: no tests/spmd/$t.c in the tree: not packed"
        fi
    done
    for b in bench_device bench_stream stream_probe; do
        "$oshcc" -O2 "$top/benchmarks/$b.c" "$top/benchmarks/bench_stats.c" -o "$x/$b" -ldl
        files+=("$x/$b")
    done
    cp "$build/tests/.libs/fake_cuda.so" "$x/" # for SHMPI_GPU_RUN_FAKE=1
    cp "$top/examples/device_ring.cu" "$top/benchmarks/bench_nvshmem4py.py" \
        "$top/benchmarks/bench_nvshmem_stream.cu" "$top/benchmarks/nvshmem-compare.sh" "$x/"
    files+=("$x/fake_cuda.so" "$x/device_ring.cu" "$x/bench_nvshmem4py.py"
        "$x/bench_nvshmem_stream.cu" "$x/nvshmem-compare.sh")
    # The Python package and its runner and example, as they are in the tree now.
    if [ -f "$top/src/python/shmpi/__init__.py" ]; then
        mkdir -p "$x/python/shmpi"
        cp "$top"/src/python/shmpi/*.py "$x/python/shmpi/"
        rm -f "$x/python/shmpi/_paths.py" # the library comes from SHMPI_LIBRARY there
        for f in tests/python/run_gpu_python.py examples/nvshmem4py_flows.py \
            examples/nvshmem4py_notebook.py src/python/shmpi/_fast.c \
            benchmarks/bench_python_stream.py benchmarks/bench_python_stream.c \
            benchmarks/bench_stats.h; do
            if [ -f "$top/$f" ]; then cp "$top/$f" "$x/python/"; else echo "gpu-run: no $f in the tree: not packed"; fi
        done
        files+=("$x/python")
    else
        echo "gpu-run: no src/python/shmpi in the tree: the Python steps will be skipped"
    fi
    mkdir -p "$top/manycore"
    cp "$shared/manycore/env.sh" "$top/manycore/"
    grep -qx /manycore/ "$top/.git/info/exclude" 2>/dev/null ||
        echo /manycore/ >>"$top/.git/info/exclude" 2>/dev/null || true
    bash "$shared/manycore/pack.sh" "$top/manycore/gpu-pack.tar.xz" "${files[@]}"
    echo "gpu-run: packed manycore/gpu-pack.tar.xz; there: bash benchmarks/gpu-run.sh manycore/gpu-pack.tar.xz"
    exit 0
fi

pack=${1:?usage: gpu-run.sh --pack | gpu-run.sh PACK.tar.xz}
out=${OUT:-/tmp}
log=$out/gpu-run.txt
mkdir -p "$out"
exec > >(tee "$log") 2>&1
start=$(date +%s)
budget=${SHMPI_GPU_RUN_BUDGET:-520}
fake=${SHMPI_GPU_RUN_FAKE:-0}
# shellcheck disable=SC1091
. "$top/manycore/env.sh" "$pack" || { echo "gpu-run: cannot unpack $pack"; exit 1; }
read -ra launch <<<"${MPIEXEC:?env.sh sets MPIEXEC}" # hydra and its options, one word each
X=/opt/b/extra
[ "$fake" != 0 ] && [ "$fake" != 1 ] && [ ! -f "$fake" ] && { echo "gpu-run: SHMPI_GPU_RUN_FAKE=$fake: no such file"; exit 1; }
if [ "$fake" != 0 ]; then
    [ "$fake" = 1 ] && fake=$X/fake_cuda.so
    export SHMPI_CUDA_LIBRARY=$fake
    unset SHMPI_FAKE_CUDA_DELAY_US
    unbound=() # no binding to cores here: fewer CPUs than PEs
    for w in "${launch[@]}"; do
        case "$w" in -bind-to) drop=1 ;; *) [ "${drop:-0}" = 1 ] && drop=0 || unbound+=("$w") ;; esac
    done
    launch=("${unbound[@]}")
else
    export SHMPI_CUDA_LIBRARY=libcuda.so.1
fi
passed=0 failed=0 skipped=0
only=${SHMPI_GPU_RUN_ONLY:-}
step() { # step NAME LIMIT_S COMMAND...: runs it within the budget, counts it, prints its time
    name=$1 limit=$2; shift 2
    if [ -n "$only" ] && [[ "$name" != *"$only"* ]]; then
        skipped=$((skipped + 1)); echo "SKIP: $name (SHMPI_GPU_RUN_ONLY=$only)"; return
    fi
    left=$((budget - ($(date +%s) - start)))
    if [ "$left" -lt 10 ]; then
        failed=$((failed + 1)); echo "FAIL: $name: not run, the run's $budget s are spent"; return
    fi
    [ "$limit" -gt "$left" ] && limit=$left
    t0=$(date +%s%N)
    timeout -k 5 "$limit" "$@"
    rc=$?
    if [ "$rc" -eq 0 ]; then
        passed=$((passed + 1)); verdict=PASS
    else
        failed=$((failed + 1)); verdict="FAIL (status $rc$([ "$rc" -ge 124 ] && [ "$rc" -le 137 ] && echo ", the $limit s limit?"))"
    fi
    echo "$verdict: $name in $(( ($(date +%s%N) - t0) / 1000000 )) ms"
}
skip() { skipped=$((skipped + 1)); echo "SKIP: $*"; }
if [ "$fake" != 0 ]; then
    echo "gpu-run: $(hostname), $(nproc) CPUs; SHMPI_GPU_RUN_FAKE: the fake driver $SHMPI_CUDA_LIBRARY, no GPU (times mean nothing)"
else
    echo "gpu-run: $(hostname), $(nproc) CPUs; $(nvidia-smi -L 2>&1 | head -2 | tr '\n' ' ')"
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -2
fi

# 1. The probe: stream waits between two processes on the one GPU.
step "stream_probe on 2 processes" 20 "${launch[@]}" -n 2 $X/stream_probe -T 18

# 2. The device-heap tests on the real driver: 2 and 4 PEs on the one GPU.
for np in 2 4; do
    step "device_heap on $np PEs" 60 env SHMPI_DEVICE_HEAP_SIZE=64m "${launch[@]}" -n $np $X/device_heap
done
step "device_heap on 4 PEs, SHMPI_PSEUDO_NODE_SIZE=2" 60 \
    env SHMPI_DEVICE_HEAP_SIZE=64m SHMPI_PSEUDO_NODE_SIZE=2 "${launch[@]}" -n 4 $X/device_heap
# The path across nodes on the one GPU: no peer mapped (SHMPI_DEVICE_IPC=0).
step "device_heap on 4 PEs, SHMPI_DEVICE_IPC=0" 60 \
    env SHMPI_DEVICE_HEAP_SIZE=64m SHMPI_DEVICE_IPC=0 "${launch[@]}" -n 4 $X/device_heap
# An AMO on the device heap must end the job with its one line (not hang or crash).
if [ -n "$only" ]; then
    skip "device_heap amo (SHMPI_GPU_RUN_ONLY=$only)"
elif out_amo=$(SHMPI_DEVICE_HEAP_SIZE=64m timeout -k 5 60 "${launch[@]}" -n 2 $X/device_heap amo 2>&1); then
    failed=$((failed + 1)); echo "FAIL: device_heap amo exited 0"
elif printf '%s\n' "$out_amo" | grep -q 'is in the device heap'; then
    passed=$((passed + 1)); echo "PASS: device_heap amo: $(printf '%s\n' "$out_amo" | grep -m1 'device heap')"
else
    failed=$((failed + 1)); echo "FAIL: device_heap amo:"; printf '%s\n' "$out_amo" | tail -5
fi

# The example: kernels read the neighbour's device heap through shmem_ptr.
nvcc=$(command -v nvcc)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
if [ "$fake" != 0 ]; then
    skip "nvcc device_ring.cu and its runs (SHMPI_GPU_RUN_FAKE)"
elif [ -n "$nvcc" ]; then
    step "nvcc device_ring.cu" 120 "$nvcc" -O2 -o /tmp/device_ring $X/device_ring.cu \
        -I/opt/b/shmpi/include -L/opt/b/shmpi/lib -lshmpi -Xlinker -rpath-link=/opt/b/lib
    for np in 2 4; do
        step "device_ring on $np PEs" 60 env SHMPI_DEVICE_HEAP_SIZE=64m "${launch[@]}" -n $np /tmp/device_ring
    done
else
    failed=$((failed + 1)); echo "FAIL: no nvcc (PATH or /usr/local/cuda/bin)"
fi

# 3. The stream tests on the real driver (each sets its own SHMPI_DEVICE_HEAP_SIZE).
# On the fake driver the test checks stream ordering with slow copies, as `make check` does.
ds=(env)
[ "$fake" != 0 ] && ds+=(SHMPI_FAKE_CUDA_DELAY_US=1000)
if [ -x $X/device_stream ]; then
    for np in 2 4; do
        step "device_stream on $np PEs" 60 "${ds[@]}" "${launch[@]}" -n $np $X/device_stream
    done
    step "device_stream on 4 PEs, SHMPI_PSEUDO_NODE_SIZE=2" 60 \
        "${ds[@]}" SHMPI_PSEUDO_NODE_SIZE=2 "${launch[@]}" -n 4 $X/device_stream
    step "device_stream late (shmemx_device_init) on 2 PEs" 60 "${ds[@]}" "${launch[@]}" -n 2 $X/device_stream late
else
    skip "device_stream: tests/spmd/device_stream.c was not in the tree at pack time"
fi

# Every reduction type and operator on a stream, and the small collectives, against host
# references: the reduction kernel as the GPU runs it (tests/spmd/stream_reduce).
if [ -x $X/stream_reduce ]; then
    for np in 2 4; do
        step "stream_reduce on $np PEs" 60 "${launch[@]}" -n $np $X/stream_reduce
    done
    step "stream_reduce split (SHMPI_STREAM_PUSH_MAX=0) on 3 PEs" 60 "${launch[@]}" -n 3 $X/stream_reduce split
else
    skip "stream_reduce: tests/spmd/stream_reduce.c was not in the tree at pack time"
fi

# CUDA VMM memory (cuMemCreate) registered and shared as file descriptors, both ways.
if [ -x $X/device_vmm ]; then
    for np in 2 4; do
        step "device_vmm on $np PEs" 60 env SHMPI_DEVICE_HEAP_SIZE=64m "${launch[@]}" -n $np $X/device_vmm
    done
    step "device_vmm on 2 PEs, SHMPI_FD_PASSING=socket" 60 \
        env SHMPI_DEVICE_HEAP_SIZE=64m SHMPI_FD_PASSING=socket "${launch[@]}" -n 2 $X/device_vmm
else
    skip "device_vmm: tests/spmd/device_vmm.c was not in the tree at pack time"
fi

# 4. The Python package on the real driver (pure Python over libshmpi through ctypes).
py=(env PYTHONPATH=$X/python SHMPI_LIBRARY=/opt/b/shmpi/lib/libshmpi.so SHMPI_DEVICE_HEAP_SIZE=64m)
if [ ! -d $X/python/shmpi ]; then
    skip "Python package: src/python/shmpi was not in the tree at pack time"
elif ! command -v python3 >/dev/null; then
    skip "Python package: no python3 here"
else
    if [ ! -f $X/python/run_gpu_python.py ]; then
        skip "run_gpu_python.py: not in the tree at pack time"
    elif ! python3 -c 'import numpy' 2>/dev/null; then
        skip "run_gpu_python.py: python3 here has no numpy, which the runner needs"
    else
        with=$(python3 -c 'import cupy' 2>/dev/null && echo "with CuPy" || echo "without CuPy")
        step "run_gpu_python.py on 2 PEs ($with)" 90 "${py[@]}" "${launch[@]}" -n 2 python3 $X/python/run_gpu_python.py
        step "run_gpu_python.py on 4 PEs ($with)" 90 "${py[@]}" "${launch[@]}" -n 4 python3 $X/python/run_gpu_python.py
        if [ "$with" = "with CuPy" ]; then
            step "run_gpu_python.py on 2 PEs, SHMPI_PY_NO_CUPY=1" 90 "${py[@]}" SHMPI_PY_NO_CUPY=1 \
                "${launch[@]}" -n 2 python3 $X/python/run_gpu_python.py
        fi
    fi
    if [ -f $X/python/nvshmem4py_flows.py ]; then
        step "nvshmem4py_flows.py on 2 PEs" 60 "${py[@]}" "${launch[@]}" -n 2 python3 $X/python/nvshmem4py_flows.py
    else
        skip "nvshmem4py_flows.py: not in the tree at pack time"
    fi
    if [ ! -f $X/python/nvshmem4py_notebook.py ]; then
        skip "nvshmem4py_notebook.py: not in the tree at pack time"
    elif ! python3 -c 'import numpy' 2>/dev/null; then
        skip "nvshmem4py_notebook.py: python3 here has no numpy, which its checks need"
    else
        # mpi4py there is bound to the image's Open MPI: MPICH's library under the name
        # it loads, and MPI4PY_MPIABI=mpich, bind it to the carried MPICH.
        [ -e /opt/b/lib/libmpi.so.12 ] || ln -sf libmpich.so.12 /opt/b/lib/libmpi.so.12 2>/dev/null
        nb=("${py[@]}" MPI4PY_MPIABI=mpich SHMPI_EXAMPLE_VMM_BYTES=${SHMPI_EXAMPLE_VMM_BYTES:-536870912})
        for np in 2 4; do
            step "nvshmem4py_notebook.py on $np PEs" 90 "${nb[@]}" "${launch[@]}" -n $np python3 $X/python/nvshmem4py_notebook.py
        done
    fi
fi

# 5. The same GPU shared under MPS (several PEs on one GPU are time-sliced without it):
# the Python suite, the notebook and the stream benchmark again, with the MPS daemon.
mps_ctl=$(command -v nvidia-cuda-mps-control)
if [ "$fake" = 0 ] && [ -n "$mps_ctl" ]; then
    export CUDA_MPS_PIPE_DIRECTORY=/tmp/shmpi-mps CUDA_MPS_LOG_DIRECTORY=/tmp/shmpi-mps-log
    mkdir -p $CUDA_MPS_PIPE_DIRECTORY $CUDA_MPS_LOG_DIRECTORY
    if "$mps_ctl" -d; then
        sleep 1
        if [ -f $X/python/run_gpu_python.py ] && python3 -c 'import numpy' 2>/dev/null; then
            step "MPS: run_gpu_python.py on 2 PEs" 90 "${py[@]}" "${launch[@]}" -n 2 python3 $X/python/run_gpu_python.py
        fi
        if [ -n "${nb[*]:-}" ]; then
            for np in 2 4; do
                step "MPS: nvshmem4py_notebook.py on $np PEs" 90 "${nb[@]}" "${launch[@]}" -n $np python3 $X/python/nvshmem4py_notebook.py
            done
        fi
        step "MPS: bench_stream on 2 PEs" 120 env SHMPI_DEVICE_HEAP_SIZE=256m "${launch[@]}" -n 2 $X/bench_stream -r 5
        # NVSHMEM beside shmpi, each PE with its share of the GPU (NVSHMEM's setting).
        if [ -f $X/nvshmem-compare.sh ]; then
            for np_pct in "2 50" "4 25"; do
                read -r np pct <<<"$np_pct"
                step "MPS $pct %: NVSHMEM beside shmpi on $np PEs" 200 \
                    env CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=$pct NVCC="${nvcc:-nvcc}" \
                    bash $X/nvshmem-compare.sh $np $X "${launch[@]}"
            done
        else
            skip "NVSHMEM beside shmpi: benchmarks/nvshmem-compare.sh was not in the tree at pack time"
        fi
        echo quit | "$mps_ctl"
    else
        failed=$((failed + 1)); echo "FAIL: nvidia-cuda-mps-control -d did not start MPS"
    fi
    unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
else
    skip "MPS runs: $([ "$fake" != 0 ] && echo SHMPI_GPU_RUN_FAKE || echo no nvidia-cuda-mps-control)"
fi

# 6. The benchmarks: shmpi against the raw driver calls in the same run, medians of 5.
step "bench_stream on 2 PEs" 120 env SHMPI_DEVICE_HEAP_SIZE=256m "${launch[@]}" -n 2 $X/bench_stream -r 5
step "bench_stream on 4 PEs (barrier, collectives)" 90 \
    env SHMPI_DEVICE_HEAP_SIZE=64m "${launch[@]}" -n 4 $X/bench_stream -r 5
step "bench_device on 2 PEs" 120 env SHMPI_DEVICE_HEAP_SIZE=256m "${launch[@]}" -n 2 $X/bench_device -r 5
# The network path forced, against the same transfer by hand (pinned copy, host-heap
# put, quiet, copy at the target on a flag): 8 B .. 64 MiB.
step "bench_device on 2 PEs, SHMPI_DEVICE_IPC=0" 150 \
    env SHMPI_DEVICE_HEAP_SIZE=256m SHMPI_DEVICE_IPC=0 "${launch[@]}" -n 2 $X/bench_device -r 5
# NVSHMEM's own stream routines on the same GPU (prints n/a where NVSHMEM cannot run).
if command -v python3 >/dev/null; then
    step "bench_nvshmem4py.py on 2 PEs" 100 "${launch[@]}" -n 2 python3 $X/bench_nvshmem4py.py -t 80
else
    skip "bench_nvshmem4py.py: no python3 here"
fi

# What a shmpi.core call adds to the C call, with the compiled shmpi._fast built here for
# this python3 where its headers are (else the ctypes path, as the table's title says).
if [ -f $X/python/bench_python_stream.py ] && command -v python3 >/dev/null; then
    pyinc=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
    suffix=$(python3 -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
    if [ -f "$pyinc/Python.h" ] && cc -O2 -std=c11 -fPIC -shared -I"$pyinc" \
        -o "$X/python/shmpi/_fast$suffix" $X/python/_fast.c; then
        echo "gpu-run: shmpi._fast built for $(python3 -V)"
    else
        echo "gpu-run: shmpi._fast not built here (no Python.h or cc): the ctypes path"
    fi
    for arrays in own cupy torch; do
        if [ "$arrays" != own ] && ! python3 -c "import $arrays" 2>/dev/null; then
            skip "Python on a stream, $arrays arrays: no $arrays here"
            continue
        fi
        step "Python on a stream, $arrays arrays, 2 PEs" 90 "${py[@]}" SHMPI_FAKE_CUDA_LATE_US=0 \
            "${launch[@]}" -n 2 python3 $X/python/bench_python_stream.py --arrays $arrays
    done
else
    skip "bench_python_stream.py: not in the tree at pack time, or no python3 here"
fi

echo "gpu-run: $(( $(date +%s) - start )) s; $skipped skipped; log in $log"
echo "gpu-run: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
