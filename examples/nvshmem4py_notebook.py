#!/usr/bin/env python3
"""NVSHMEM4Py's tutorial notebook (NVIDIA's Accelerated Python User Guide,
"Chapter_nvshmem4py.ipynb") on shmpi: its code cells in order, with one import changed,
`import nvshmem.core as nvshmem` -> `import shmpi.core as nvshmem`.

    oshrun -n 4 python3 examples/nvshmem4py_notebook.py     # 2 or 4 PEs (or more)

With MPI4PY_MPIABI=mpich where mpi4py is bound to another MPI than shmpi's (docs/python.md).
Lines marked `# notebook:` differ from the notebook, each saying why: the notebook's own
slips (names it never defines, a put with a stray argument, fills that race with the
stream work after them) fail under NVSHMEM4Py as well.  Where cuda.core, CuPy, mpi4py or a
kernel compiler are missing (CI's machine), the example uses shmpi's stand-ins and says so
in its first line: shmpi.cuda's Device, system and VirtualMemoryResource, the package's own
arrays (array() returns them without CuPy; `arr[:] = x` and print work on them), numpy for
host values, the PE number from the launcher's environment.  Every PE checks the values it
sees; the job exits 1 on the first wrong one.  A watchdog (SHMPI_EXAMPLE_TIMEOUT seconds,
default 60) ends a cell that hangs, with the traceback of where.  PE 0 prints "cell N: ok"
after each cell and "notebook: done" at the end."""
import faulthandler
import os
import sys

import numpy

faulthandler.dump_traceback_later(float(os.environ.get("SHMPI_EXAMPLE_TIMEOUT", "60")),
                                  exit=True)
using = []


def note(what):
    using.append(what)


def done(cell):
    if nvshmem.my_pe() == 0:
        print("cell %s: ok" % cell, flush=True)


def expect(what, got, want):
    got = numpy.asarray(got).ravel().tolist()
    want = numpy.asarray(want).ravel().tolist()
    if [float(x) for x in got] != [float(x) for x in want]:
        print("PE %d: %s: got %s, want %s" % (nvshmem.my_pe(), what, got, want), flush=True)
        sys.exit(1)


def host(arr):  # numpy values of a CuPy array or the package's own (for the checks)
    return arr.get() if hasattr(arr, "get") else nvshmem.to_host(arr)


# ---- cell 5: initializing ------------------------------------------------------------------
try:
    from mpi4py import MPI
except ImportError:  # notebook: mpi4py is not installed here; the launcher says the rank
    MPI = None
    note("no mpi4py")
try:
    from cuda.core import Device, system  # cuda.core 1.x
except ImportError:
    try:
        from cuda.core.experimental import Device, system  # the notebook's, cuda.core 0.x
    except ImportError:
        from shmpi.cuda import Device, system
        note("shmpi.cuda's Device")
import shmpi.core as nvshmem  # was: import nvshmem.core as nvshmem

if MPI is not None:
    rank = MPI.COMM_WORLD.Get_rank()
else:
    rank = int(os.environ.get("PMI_RANK", os.environ.get("OMPI_COMM_WORLD_RANK", "0")))
dev = Device(rank % system.num_devices)
dev.set_current()

nvshmem.init(device=dev, mpi_comm=MPI.COMM_WORLD if MPI else None, initializer_method="mpi")
try:
    import cupy
    import cupy as cp  # notebook: cells 15 and 19 use cupy and cp without importing them
except ImportError:
    cupy = None
    cp = numpy  # host values, which the package's own arrays take in arr[:] = x
    note("no CuPy: the package's own arrays")
if nvshmem.my_pe() == 0:
    print("notebook: %d PEs; %s" % (nvshmem.n_pes(), ", ".join(using) or
                                    "mpi4py, cuda.core and CuPy"), flush=True)
done(5)

# ---- cell 8: querying and status ---------------------------------------------------------
print(nvshmem.get_version())
print(nvshmem.my_pe())
print(nvshmem.n_pes())
done(8)

# ---- cell 10: teams ------------------------------------------------------------------------
# notebook: size=min(2, n_pes) asks for PEs 0 and 2, past the last PE at 2 PEs (an invalid
# triplet for NVSHMEM too); every other PE is (n_pes + 1) // 2 of them.
team_strided = nvshmem.team_split_strided(
    nvshmem.Teams.TEAM_WORLD, start=0, stride=2, size=min(2, (nvshmem.n_pes() + 1) // 2),
    config=nvshmem.TeamConfig(), config_mask=0, new_team_name="STRIDED_TEAM"
)
print(f"Created team with handle {team_strided} using team_split_strided")
expect("team_split_strided membership", [team_strided is not None],
       [nvshmem.my_pe() % 2 == 0 and nvshmem.my_pe() < 4])

# Create a 2-d strided PE (requires >=4 PEs)
if nvshmem.n_pes() >= 4:
    x_team, y_team = nvshmem.team_split_2d(
        nvshmem.Teams.TEAM_WORLD, xrange=2,  # notebook: Teams.WORLD (Teams is never imported)
        xaxis_config=nvshmem.TeamConfig(), xaxis_mask=0,
        yaxis_config=nvshmem.TeamConfig(), yaxis_mask=0,
        new_team_name="TWO_D_TEAM"
    )
    print(f"Created team_split_2d teams. X-team: {x_team}, Y-team: {y_team}")
    expect("team_split_2d x team", [nvshmem.team_my_pe(x_team), nvshmem.team_n_pes(x_team)],
           [nvshmem.my_pe() % 2, 2])

# Create an arbitrary team
config_init = nvshmem.TeamConfig(version=2, num_contexts=1, uniqueid=1004)
my_pe = nvshmem.my_pe()
n_pes = nvshmem.n_pes()

if n_pes >= 4:
    # Let's say we want to make a team of PEs 2,3:
    if my_pe in (2, 3):
        # notebook: TeamConfig() and n_pes=n_pes, my_pe=my_pe: a team of n_pes members
        # that only 2 PEs join, with no unique id to meet by; config_init, 2 and the
        # index in the team are what team_init takes.
        config = config_init
        team_init = nvshmem.team_init(
            config, config_mask=0, n_pes=2, my_pe=my_pe - 2,
            new_team_name="USER_CREATED_TEAM"
        )
        print(f"Created team_init team. {team_init}")
        expect("team_init", [nvshmem.team_my_pe(team_init), nvshmem.team_n_pes(team_init)],
               [my_pe - 2, 2])
done(10)

# ---- cell 12: buffers ----------------------------------------------------------------------
buf = nvshmem.buffer(4096)
print(buf.handle, buf.size)
expect("buffer size", [buf.size, buf.handle != 0], [4096, True])
nvshmem.free(buf)
done(12)

# ---- cell 13: arrays -----------------------------------------------------------------------
shape = (1, 2, 3, 4, 5)
dtype = "float32"
arr = nvshmem.array(shape, dtype=dtype)
print(arr)
arr[:] = nvshmem.my_pe() + 1
print(arr)
expect("array fill", host(arr), numpy.full(shape, nvshmem.my_pe() + 1))
nvshmem.free_array(arr)
done(13)

# ---- cell 15: VMM memory, registered -------------------------------------------------------
try:
    from cuda.core import VirtualMemoryResource  # cuda.core 1.x
except ImportError:
    try:
        from cuda.core.experimental._memory import VirtualMemoryResource  # the notebook's
    except ImportError:
        from shmpi.cuda import VirtualMemoryResource
        if nvshmem.my_pe() == 0:
            print("cell 15: shmpi.cuda's VirtualMemoryResource", flush=True)
dev = Device()
resource = VirtualMemoryResource(dev)
# notebook: 512 MiB; SHMPI_EXAMPLE_VMM_BYTES makes it smaller where memory is short.
vmm_bytes = int(os.environ.get("SHMPI_EXAMPLE_VMM_BYTES", "536870912"))
try:
    buffer = resource.allocate(vmm_bytes)
except TypeError:  # notebook: cuda.core 1.x's allocate takes the stream (keyword) too
    buffer = resource.allocate(vmm_bytes, stream=dev.create_stream())
if cupy is not None:
    arr = cupy.from_dlpack(buffer, copy=False).view("float32")
else:  # notebook: CuPy's view of the buffer; the package's own view without it
    arr = nvshmem.Array(int(buffer.handle), (buffer.size // 4,), "float32", owner=buffer)
arr_reg = nvshmem.register_external_array(arr)
# Use the array however you'd like
# (not in the notebook: a put into the right neighbour's registered array, read back)
stream = dev.create_stream()
first = arr[:1024] if cupy is not None else nvshmem.Array(arr.ptr, (1024,), "float32")
mine = nvshmem.array((1024,), dtype="float32")
mine[:] = nvshmem.my_pe() + 0.5
dev.sync()  # CuPy's fill ran on its own stream
nvshmem.barrier_all(stream=stream)
nvshmem.put(first, mine, (nvshmem.my_pe() + 1) % nvshmem.n_pes(), stream=stream)
nvshmem.barrier_all(stream=stream)
stream.sync()
expect("put into registered VMM memory", host(first),
       numpy.full(1024, (nvshmem.my_pe() - 1) % nvshmem.n_pes() + 0.5))
nvshmem.free_array(mine)
# When you're done, unregister the array
arr_reg = nvshmem.unregister_external_array(arr)
del first, arr
buffer.close()
done(15)

# ---- cell 17: reduce on a stream -----------------------------------------------------------
device = Device()
stream = device.create_stream()

size = 10
src_array = nvshmem.array((size,), dtype="float32")
dest_array = nvshmem.array((size,), dtype="float32")

my_pe = nvshmem.my_pe()
n_pes = nvshmem.n_pes()

src_array[:] = my_pe + 1
device.sync()  # notebook: CuPy's fill and the reduce are on different streams

print("Array before reduction:", src_array, dest_array)

nvshmem.reduce(nvshmem.Teams.TEAM_WORLD, dest_array, src_array, "sum", stream=stream)
stream.sync()  # notebook: printing reads the array on another stream than the reduce's

print("Array after reduction:", src_array, dest_array)
expect("reduce sum", host(dest_array), numpy.full(size, n_pes * (n_pes + 1) / 2))
nvshmem.free_array(src_array)
nvshmem.free_array(dest_array)
done(17)

# ---- cell 19: put --------------------------------------------------------------------------
device = Device()
stream = device.create_stream()

size = 10
src_array = nvshmem.array((size,), dtype=cp.float32)
dest_array = nvshmem.array((size,), dtype=cp.float32)

my_pe = nvshmem.my_pe()
n_pes = nvshmem.n_pes()

src_array[:] = cp.ones(size, dtype=cp.float32) * my_pe
device.sync()  # notebook: the fill must land before the put reads it

target_pe = (my_pe + 1) % n_pes

nvshmem.put(dest_array, src_array, target_pe, stream=stream)  # notebook: (..., size, target_pe, ...)

stream.synchronize()
nvshmem.barrier_all(stream=stream)  # notebook: the left PE's put, before reading it
stream.synchronize()
expect("put to the right", host(dest_array), numpy.full(size, (my_pe - 1) % n_pes))

nvshmem.free_array(src_array)
nvshmem.free_array(dest_array)
done(19)

# ---- cell 21: a kernel storing through get_peer_array --------------------------------------
dev = Device()
stream = dev.create_stream()

array = nvshmem.array((1,), dtype="int32")
array[:] = -1
dev.sync()
nvshmem.barrier_all(stream=stream)
stream.sync()

my_pe = nvshmem.my_pe()
dst_pe = (my_pe + 1) % nvshmem.n_pes()

try:
    dev_dst = nvshmem.get_peer_array(array, dst_pe)  # notebook: get_peer_array(b, ...), b undefined
except nvshmem.ShmpiError:  # not mapped here (another node, SHMPI_DEVICE_IPC=0): shmem_ptr is NULL
    dev_dst = None

value = nvshmem.array((1,), dtype="int32")  # symmetric: every PE allocates it
kernel = None
if dev_dst is None:
    print("skip cell 21's store through get_peer_array (PE %d -> PE %d): no peer mapping "
          "(another node or SHMPI_DEVICE_IPC=0); a put stores the value instead"
          % (my_pe, dst_pe), flush=True)
    nvshmem.from_host(value, numpy.array([my_pe], numpy.int32))
    nvshmem.put(array, value, dst_pe, stream=stream)
    kernel = "a put (no peer mapping)"
else:
    try:
        from numba import cuda

        @cuda.jit
        def simple_shift(arr, dst_pe):
            arr[0] = dst_pe

        def launch(arr, value):  # notebook: [block, grid, 0, 0] ran on the legacy stream
            simple_shift[1, 1, cuda.external_stream(int(stream.handle)), 0](arr, value)

        launch(dev_dst, my_pe)
        kernel = "Numba"
    except Exception as e:  # Numba absent, or it cannot compile (numpy too new for it)
        numba_failed = "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else "")
        if cupy is not None:
            store = cupy.RawKernel(r"""
                extern "C" __global__ void simple_shift(int *arr, int dst_pe) { arr[0] = dst_pe; }
                """, "simple_shift")
            with cupy.cuda.ExternalStream(int(stream.handle)):
                store((1,), (1,), (dev_dst, cupy.int32(my_pe)))
            kernel = "CuPy's RawKernel (Numba: %s)" % numba_failed
        else:  # no kernel compiler here: a store from the host through the same mapping
            nvshmem.from_host(dev_dst, numpy.array([my_pe], numpy.int32))
            kernel = "a host store through the mapping (no Numba, no CuPy)"
if my_pe == 0:
    print("cell 21: the store ran as %s" % kernel, flush=True)
# notebook: the kernel stored my_pe into this PE's own array; into the right PE's it goes
# notebook: TEAM_NODE; the left PE may be on another node, whose store (a put) only a
# barrier of every PE orders before the read below
nvshmem.barrier(nvshmem.Teams.TEAM_WORLD, stream=stream)
stream.sync()
print(f"From PE {my_pe}, array contains {array}")
expect("store through get_peer_array", host(array), [(my_pe - 1) % nvshmem.n_pes()])

nvshmem.free_array(value)
nvshmem.free_array(array)  # notebook: free_array(arr_src), free_array(arr_dst): undefined
done(21)

# ---- cell 23: put_signal and signal_wait ---------------------------------------------------
dev = Device()
local_rank_per_node = dev.device_id
stream = dev.create_stream()

buf_src = nvshmem.array((4, 4), dtype="float32")  # notebook: nvshmem.core.array, and below
buf_src[:] = nvshmem.my_pe() + 1
buf_dst = nvshmem.array((4, 4), dtype="float32")
buf_dst[:] = 0

signal = nvshmem.array((1,), dtype="uint64")
signal[:] = 0
buf_sig, sz, type = nvshmem.array_get_buffer(signal)
dev.sync()  # notebook: the zero fills must land before PE 0's put_signal, everywhere
nvshmem.barrier_all(stream=stream)
stream.sync()

if nvshmem.my_pe() == 0:
    nvshmem.put_signal(buf_dst, buf_src, buf_sig, 1, nvshmem.SignalOp.SIGNAL_SET, remote_pe=1,
                       stream=stream)
    print(f"From PE {nvshmem.my_pe()} sent buf to remote PE 1 and set signal")

if nvshmem.my_pe() == 1:
    nvshmem.signal_wait(buf_sig, 1, nvshmem.ComparisonType.CMP_EQ, stream=stream)
    print(f"From PE {nvshmem.my_pe()} waited for signal")

stream.sync()
print(f"From PE {nvshmem.my_pe()} src={buf_src}, dst={buf_dst} signal={signal}")
if nvshmem.my_pe() == 1:
    expect("put_signal data", host(buf_dst), numpy.full((4, 4), 1))
    expect("put_signal signal", host(signal), [1])

nvshmem.barrier_all(stream=stream)  # notebook: PE 0 frees while PE 1 may still wait
stream.sync()
nvshmem.free_array(buf_src)
nvshmem.free_array(buf_dst)
nvshmem.free_array(signal)
done(23)

# ---- cell 25: finalize ---------------------------------------------------------------------
me = nvshmem.my_pe()
nvshmem.finalize()
faulthandler.cancel_dump_traceback_later()
if me == 0:
    print("notebook: done", flush=True)
