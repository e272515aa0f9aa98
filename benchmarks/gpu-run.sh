#!/usr/bin/env bash
# gpu-run.sh - the device heap (docs/device-heap.md) on a real NVIDIA GPU: the
# device-heap tests on the CUDA driver at 2 and 4 PEs sharing the GPU (default
# and SHMPI_PSEUDO_NODE_SIZE=2), the example examples/device_ring.cu (built there
# with nvcc), and bench_device: device-heap put and get at 8 B, 64 KiB, 1 MiB and
# 64 MiB against raw cuMemcpyAsync through the same IPC mapping, in the same run.
# The machine is the 16-core one with an H100 of ../shared/manycore/README.md.
#
# Two steps:
#   here (Debian 12, root):  bash benchmarks/gpu-run.sh --pack
#       installs shmpi into /opt/b/shmpi against Debian's MPICH, builds the test and
#       the benchmark with its oshcc, and packs them with MPICH's runtime into
#       manycore/gpu-pack.tar.xz (../shared/manycore/pack.sh), with manycore/env.sh.
#   there, from the project root, carrying manycore/ (about 3 minutes):
#       bash benchmarks/gpu-run.sh manycore/gpu-pack.tar.xz
#       prints everything and writes it to $OUT/gpu-run.txt ($OUT or /tmp); the
#       last line is "gpu-run: N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)

if [ "${1:-}" = --pack ]; then
    set -e
    shared=${SHMPI_SHARED:-$top/../shared}
    build=${TMPDIR:-/tmp}/shmpi-gpu-build
    rm -rf "$build" && mkdir -p "$build/extra"
    if [ ! -x "$top/configure" ]; then (cd "$top" && sh autogen.sh >/dev/null); fi
    (cd "$build" && "$top/configure" --prefix=/opt/b/shmpi MPICC=/usr/bin/mpicc.mpich \
        MPICXX=/usr/bin/mpicxx.mpich >/dev/null && make -j2 install >/dev/null)
    oshcc=/opt/b/shmpi/bin/oshcc
    "$oshcc" -O2 -I"$top/tests/spmd" "$top/tests/spmd/device_heap.c" -o "$build/extra/device_heap" -ldl
    "$oshcc" -O2 "$top/benchmarks/bench_device.c" -o "$build/extra/bench_device" -ldl
    cp "$top/examples/device_ring.cu" "$build/extra/"
    mkdir -p "$top/manycore"
    cp "$shared/manycore/env.sh" "$top/manycore/"
    grep -qx /manycore/ "$top/.git/info/exclude" 2>/dev/null ||
        echo /manycore/ >>"$top/.git/info/exclude" 2>/dev/null || true
    bash "$shared/manycore/pack.sh" "$top/manycore/gpu-pack.tar.xz" \
        "$build/extra/device_heap" "$build/extra/bench_device" "$build/extra/device_ring.cu"
    echo "gpu-run: packed manycore/gpu-pack.tar.xz; there: bash benchmarks/gpu-run.sh manycore/gpu-pack.tar.xz"
    exit 0
fi

pack=${1:?usage: gpu-run.sh --pack | gpu-run.sh PACK.tar.xz}
out=${OUT:-/tmp}
log=$out/gpu-run.txt
mkdir -p "$out"
exec > >(tee "$log") 2>&1
start=$(date +%s)
# shellcheck disable=SC1091
. "$top/manycore/env.sh" "$pack" || { echo "gpu-run: cannot unpack $pack"; exit 1; }
export SHMPI_CUDA_LIBRARY=libcuda.so.1
read -ra launch <<<"${MPIEXEC:?env.sh sets MPIEXEC}" # hydra and its options, one word each
X=/opt/b/extra
passed=0 failed=0
step() { # step NAME LIMIT_S COMMAND...: runs it, counts it, prints its time
    name=$1 limit=$2; shift 2
    t0=$(date +%s%N)
    if timeout -k 5 "$limit" "$@"; then
        passed=$((passed + 1)); verdict=PASS
    else
        failed=$((failed + 1)); verdict="FAIL (status $?)"
    fi
    echo "$verdict: $name in $(( ($(date +%s%N) - t0) / 1000000 )) ms"
}
echo "gpu-run: $(hostname), $(nproc) CPUs; $(nvidia-smi -L 2>&1 | head -2 | tr '\n' ' ')"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -2

# 1. The device-heap tests on the real driver: 2 and 4 PEs on the one GPU.
for np in 2 4; do
    step "device_heap on $np PEs" 60 env SHMPI_DEVICE_HEAP_SIZE=64m "${launch[@]}" -n $np $X/device_heap
done
step "device_heap on 4 PEs, SHMPI_PSEUDO_NODE_SIZE=2" 60 \
    env SHMPI_DEVICE_HEAP_SIZE=64m SHMPI_PSEUDO_NODE_SIZE=2 "${launch[@]}" -n 4 $X/device_heap
# An AMO on the device heap must end the job with its one line (not hang or crash).
if out_amo=$(SHMPI_DEVICE_HEAP_SIZE=64m timeout -k 5 60 "${launch[@]}" -n 2 $X/device_heap amo 2>&1); then
    failed=$((failed + 1)); echo "FAIL: device_heap amo exited 0"
elif printf '%s\n' "$out_amo" | grep -q 'is in the device heap'; then
    passed=$((passed + 1)); echo "PASS: device_heap amo: $(printf '%s\n' "$out_amo" | grep -m1 'device heap')"
else
    failed=$((failed + 1)); echo "FAIL: device_heap amo:"; printf '%s\n' "$out_amo" | tail -5
fi

# 2. The example: kernels read the neighbour's device heap through shmem_ptr.
nvcc=$(command -v nvcc)
[ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ] && nvcc=/usr/local/cuda/bin/nvcc
if [ -n "$nvcc" ]; then
    step "nvcc device_ring.cu" 120 "$nvcc" -O2 -o /tmp/device_ring $X/device_ring.cu \
        -I/opt/b/shmpi/include -L/opt/b/shmpi/lib -lshmpi -Xlinker -rpath-link=/opt/b/lib
    for np in 2 4; do
        step "device_ring on $np PEs" 60 env SHMPI_DEVICE_HEAP_SIZE=64m "${launch[@]}" -n $np /tmp/device_ring
    done
else
    failed=$((failed + 1)); echo "FAIL: no nvcc (PATH or /usr/local/cuda/bin)"
fi

# 3. The benchmark: shmpi against raw cuMemcpyAsync, medians of 5 runs.
step "bench_device on 2 PEs" 150 env SHMPI_DEVICE_HEAP_SIZE=256m "${launch[@]}" -n 2 $X/bench_device -r 5

echo "gpu-run: $(( $(date +%s) - start )) s; log in $log"
echo "gpu-run: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
