#!/usr/bin/env python3
"""NVSHMEM4Py's host flows on shmpi: the code of an nvshmem.core program with one line
changed, `import nvshmem.core as nvshmem` -> `import shmpi.core as nvshmem`.

    oshrun -n 4 python3 examples/nvshmem4py_flows.py

(with the install's site-packages on PYTHONPATH, docs/python.md).  The flows, in order:
init, teams, array, register_external_array, reduce on a stream, put + synchronize,
get_peer_array, barrier on a stream, put_signal + signal_wait, finalize.  PE 0 prints one
line per flow; every PE checks the values it sees and exits 1 on the first wrong one.
CuPy is used when it imports (array() returns CuPy arrays then); without it, the
shmpi.core.Array that array() returns is filled and read with to_host/from_host.  A
watchdog (SHMPI_EXAMPLE_TIMEOUT seconds, default 60) ends a flow that hangs, with the
traceback of where."""
import faulthandler
import os
import sys

import shmpi.core as nvshmem  # was: import nvshmem.core as nvshmem

faulthandler.dump_traceback_later(float(os.environ.get("SHMPI_EXAMPLE_TIMEOUT", "60")),
                                  exit=True)
from shmpi.cuda import empty as cuda_empty, free as cuda_free

try:
    import cupy
except ImportError:
    cupy = None

N = 8


def say(text):
    if nvshmem.my_pe() == 0:
        print(text, flush=True)


def expect(flow, got, want):
    got, want = [float(x) for x in got], [float(x) for x in want]
    if got != want:
        print("PE %d: %s: got %s, want %s" % (nvshmem.my_pe(), flow, got, want), flush=True)
        sys.exit(1)


def fill(arr, values):
    if cupy is not None and isinstance(arr, cupy.ndarray):
        arr[...] = cupy.asarray(values, dtype=arr.dtype)
        cupy.cuda.runtime.deviceSynchronize()
    else:
        nvshmem.from_host(arr, values)


def read(arr):
    if cupy is not None and isinstance(arr, cupy.ndarray):
        return cupy.asnumpy(arr).tolist()
    data = nvshmem.to_host(arr)  # numpy's array, or a bytearray without numpy
    if isinstance(data, bytearray):
        return list(memoryview(data).cast({"float32": "f", "uint64": "Q"}[arr.dtype]))
    return list(data)


# 1. init over MPI (with cuda.core: dev = Device(local_rank); dev.set_current();
#    nvshmem.init(device=dev, ...); stream = dev.create_stream())
nvshmem.init(device=None, mpi_comm=None, initializer_method="mpi")
me, npes = nvshmem.my_pe(), nvshmem.n_pes()
right, left = (me + 1) % npes, (me - 1) % npes
stream = nvshmem.Stream()
say("init: %d PEs over MPI, device heap on GPU %d" % (npes, nvshmem.device_ordinal()))

# 2. teams
node = nvshmem.Teams.TEAM_NODE
# TEAM_NODE: every PE on one machine, fewer where the job spans machines
expect("teams", [nvshmem.team_my_pe(nvshmem.Teams.TEAM_WORLD),
                 1 <= nvshmem.team_n_pes(node) <= npes, 0 <= nvshmem.team_my_pe(node)],
       [me, True, True])
say("teams: TEAM_WORLD %d PEs, TEAM_NODE %d PEs, TEAM_SHARED %d PEs"
    % (nvshmem.team_n_pes(nvshmem.Teams.TEAM_WORLD), nvshmem.team_n_pes(node),
       nvshmem.team_n_pes(nvshmem.Teams.TEAM_SHARED)))

# 3. symmetric arrays
# (one destination per flow: a PE may be a flow ahead of its neighbour, and puts into
# the neighbour's arrays)
src = nvshmem.array((N,), dtype="float32")
got, total, dst, recv = (nvshmem.array((N,), dtype="float32") for _ in range(4))
fill(src, [me * 10 + i for i in range(N)])
for a in (got, total, dst, recv):
    fill(a, [0] * N)
expect("array", read(src), [me * 10 + i for i in range(N)])
say("array: %s of %d float32 on every PE" % (type(src).__name__, N))

# 4. memory the program allocated, made symmetric
ext = cupy.zeros(N, dtype="float32") if cupy is not None else cuda_empty((N,), "float32")
fill(ext, [me + 0.5] * N)
nvshmem.register_external_array(ext)
nvshmem.barrier_all(stream=stream)
stream.synchronize()
nvshmem.get(got, ext, right, stream=stream)
stream.synchronize()
expect("register_external_array", read(got), [right + 0.5] * N)
say("register_external_array: the right PE's external array read with get")

# 5. a reduction on a stream
nvshmem.reduce(nvshmem.Teams.TEAM_WORLD, total, src, "sum", stream=stream)
stream.synchronize()
expect("reduce", read(total), [10 * npes * (npes - 1) // 2 + npes * i for i in range(N)])
say("reduce: sum over %d PEs on a stream" % npes)

# 6. put on a stream, then synchronize (and a barrier: every PE's put has landed)
nvshmem.put(dst, src, right, stream=stream)
nvshmem.barrier(nvshmem.Teams.TEAM_WORLD, stream=stream)
stream.synchronize()
expect("put", read(dst), [left * 10 + i for i in range(N)])
say("put: to the right PE on a stream, then stream.synchronize()")

# 7. the right PE's array, mapped here (where it can be: not on another node, nor with
# SHMPI_DEVICE_IPC=0, where get_peer_array raises ShmpiError as shmem_ptr is NULL)
try:
    peer = nvshmem.get_peer_array(src, right)
except nvshmem.ShmpiError:
    peer = None
    print("skip get_peer_array (PE %d -> PE %d): no peer mapping (another node or "
          "SHMPI_DEVICE_IPC=0)" % (nvshmem.my_pe(), right), flush=True)
if peer is not None:
    expect("get_peer_array", read(peer), [right * 10 + i for i in range(N)])
    say("get_peer_array: PE %d's array read through its mapping" % right)

# 8. a barrier on a stream
nvshmem.barrier(nvshmem.Teams.TEAM_WORLD, stream=stream)
stream.synchronize()
say("barrier: on a stream")

# 9. put_signal, and a stream that waits for the signal
sig = nvshmem.array((1,), dtype="uint64")  # collective, so every PE has it before a put_signal
fill(sig, [0])
nvshmem.barrier(nvshmem.Teams.TEAM_WORLD, stream=stream)  # every PE's zero is in place
stream.synchronize()
nvshmem.put_signal(recv, src, sig, 1, nvshmem.SignalOp.SIGNAL_SET, right, stream=stream)
nvshmem.signal_wait(sig, 1, nvshmem.ComparisonType.CMP_EQ, stream=stream)
stream.synchronize()
expect("put_signal", read(recv), [left * 10 + i for i in range(N)])
say("put_signal + signal_wait: data, then the signal, on a stream")

# 10. free and finalize
nvshmem.barrier(nvshmem.Teams.TEAM_WORLD, stream=stream)
stream.synchronize()
nvshmem.unregister_external_array(ext)
for a in (sig, recv, dst, total, got, src):
    nvshmem.free_array(a)
if cupy is None:
    cuda_free(ext)
stream.close()
say("finalize: done")
nvshmem.finalize()
