#!/usr/bin/env bash
# nvshmem-compare.sh - NVSHMEM's collectives on a stream beside shmpi's, on one GPU:
# builds bench_nvshmem_stream.cu over NVSHMEM's host library where the machine has it
# (Python's site-packages nvidia/nvshmem/{include,lib}), runs it and `bench_stream -q`
# on NP PEs with the same launcher, and prints one table: us per call + stream
# synchronize (PE 0, medians), NVSHMEM, shmpi and shmpi / NVSHMEM (below 1.00x: shmpi
# faster).  Run it under MPS with CUDA_MPS_ACTIVE_THREAD_PERCENTAGE set (NVSHMEM runs
# its stream routines with several PEs per GPU only under MPS); benchmarks/gpu-run.sh
# does, at 2 PEs (50 %) and 4 PEs (25 %).  Without NVSHMEM it prints one line and exits 0.
#
# usage: nvshmem-compare.sh NP BENCH_DIR LAUNCHER...
#   BENCH_DIR holds bench_stream and bench_nvshmem_stream.cu; LAUNCHER is MPICH's mpiexec
#   and its options (hydra: NVSHMEM_BOOTSTRAP=PMI reads its PMI-1 environment).
#   NVCC (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc), NVSHMEM_HOME
#   (default: found through python3) override.
set -u
np=${1:?usage: nvshmem-compare.sh NP BENCH_DIR LAUNCHER...}
dir=${2:?usage: nvshmem-compare.sh NP BENCH_DIR LAUNCHER...}
shift 2
launch=("$@")
home=${NVSHMEM_HOME:-$(python3 -c '
import importlib.util as u
s = u.find_spec("nvidia.nvshmem")
print(list(s.submodule_search_locations)[0] if s else "")' 2>/dev/null)}
if [ -z "$home" ]; then # another Python's site-packages
    for d in /usr/local/lib/python3*/*-packages/nvidia/nvshmem /usr/lib/python3*/*-packages/nvidia/nvshmem \
        "${HOME:-/root}"/.local/lib/python3*/site-packages/nvidia/nvshmem; do
        [ -f "$d/include/nvshmem.h" ] && { home=$d; break; }
    done
fi
if [ -z "$home" ] || [ ! -f "$home/include/nvshmem.h" ]; then
    echo "nvshmem-compare: no NVSHMEM here (python3 finds no nvidia.nvshmem with include/nvshmem.h; set NVSHMEM_HOME): skipped"
    exit 0
fi
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
lib=$home/lib
host=$(ls "$lib"/libnvshmem_host.so* 2>/dev/null | head -1)
[ -n "$host" ] || { echo "nvshmem-compare: no libnvshmem_host.so in $lib"; exit 1; }
prog=${TMPDIR:-/tmp}/bench_nvshmem_stream
cuda=$(cd "$(dirname "$nvcc")/.." 2>/dev/null && pwd)
# Host calls only, so first the host compiler (NVSHMEM's headers keep their device
# state out of a plain host build) over the host library and libcudart; then nvcc; then
# nvcc with relocatable device code and libnvshmem_device.a, for an NVSHMEM whose headers
# want it.
built=
if c++ -O2 -x c++ -o "$prog" "$dir/bench_nvshmem_stream.cu" -I"$home/include" -I"$cuda/include" \
    "$host" -L"$cuda/lib64" -lcudart -Wl,-rpath,"$lib:$cuda/lib64" 2>"$prog.err"; then
    built="c++ over $(basename "$host") and libcudart"
elif "$nvcc" -O2 -o "$prog" "$dir/bench_nvshmem_stream.cu" -I"$home/include" "$host" \
    -Xlinker -rpath="$lib" 2>>"$prog.err"; then
    built="nvcc over $(basename "$host")"
elif "$nvcc" -O2 -rdc=true -o "$prog" "$dir/bench_nvshmem_stream.cu" -I"$home/include" \
    "$host" "$lib/libnvshmem_device.a" -Xlinker -rpath="$lib" 2>>"$prog.err"; then
    built="nvcc -rdc=true over $(basename "$host") and libnvshmem_device.a"
else
    echo "nvshmem-compare: cannot build bench_nvshmem_stream.cu against $home:"
    tail -8 "$prog.err"
    exit 1
fi
echo "nvshmem-compare: bench_nvshmem_stream built with $built"
out=${TMPDIR:-/tmp}/nvshmem-compare-$np
echo "nvshmem-compare: NVSHMEM from $home; $np PEs, CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=${CUDA_MPS_ACTIVE_THREAD_PERCENTAGE:-unset}"
timeout -k 5 120 env LD_LIBRARY_PATH="$lib:${LD_LIBRARY_PATH:-}" NVSHMEM_BOOTSTRAP=PMI \
    NVSHMEM_REMOTE_TRANSPORT=none NVSHMEM_SYMMETRIC_SIZE=${NVSHMEM_SYMMETRIC_SIZE:-512M} \
    "${launch[@]}" -n "$np" "$prog" -r 5 >"$out.nvshmem" 2>&1
rc_n=$?
timeout -k 5 150 env SHMPI_DEVICE_HEAP_SIZE=64m "${launch[@]}" -n "$np" "$dir/bench_stream" -q -r 5 \
    >"$out.shmpi" 2>&1
rc_s=$?
[ "$rc_n" -eq 0 ] || { echo "nvshmem-compare: bench_nvshmem_stream exited $rc_n:"; tail -5 "$out.nvshmem"; }
[ "$rc_s" -eq 0 ] || { echo "nvshmem-compare: bench_stream exited $rc_s:"; tail -5 "$out.shmpi"; }
# shmpi's times: the barrier row and the collective rows of bench_stream's tables.
echo
echo "| $np PEs, MPS ${CUDA_MPS_ACTIVE_THREAD_PERCENTAGE:-?} % | bytes | NVSHMEM us | shmpi us | shmpi / NVSHMEM |"
echo "|---|---:|---:|---:|---:|"
awk -F'|' '
function trim(s) { gsub(/^ +| +$/, "", s); return s }
FNR == NR { if (NF >= 4 && $2 !~ /^-/) nv[trim($2) "|" trim($3)] = trim($4); order[++n] = trim($2) "|" trim($3); next }
$2 ~ /shmemx_barrier_all_on_stream/ { sh["barrier|-"] = trim($3) }
NF >= 7 && trim($2) ~ /^(broadcast|fcollect|alltoall|int64 sum reduce)$/ { sh[trim($2) "|" trim($3)] = trim($4) }
END {
    for (i = 1; i <= n; i++) {
        k = order[i]; if (!(k in nv)) continue
        split(k, p, "|")
        s = (k in sh) ? sh[k] : "n/a"
        r = (k in sh && nv[k] + 0 > 0) ? sprintf("%.2fx", sh[k] / nv[k]) : "n/a"
        printf "| %s | %s | %s | %s | %s |\n", p[1], p[2], nv[k], s, r
    }
}' "$out.nvshmem" "$out.shmpi"
[ "$rc_n" -eq 0 ] && [ "$rc_s" -eq 0 ]
