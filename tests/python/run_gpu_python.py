#!/usr/bin/env python3
"""Tests of the Python package shmpi (src/python/shmpi), run by tests/gpu_python.test.

    python3 run_gpu_python.py --unit         unit checks only: no MPI job, no library, no GPU
    mpiexec -n N python3 run_gpu_python.py   unit checks, then every routine of shmpi.core
                                             on N PEs against host (numpy) references

The multi-PE part needs a CUDA driver: SHMPI_CUDA_LIBRARY (tests/.libs/fake_cuda.so),
SHMPI_LIBRARY (the built libshmpi.so) and SHMPI_DEVICE_HEAP_SIZE.  With SHMPI_TEST_LATE=1
it unsets SHMPI_DEVICE_HEAP_SIZE first, so that init() starts the device heap late
(shmemx_device_init with heap_size=16m); with SHMPI_TEST_PREINIT=1 it loads the library and
calls shmem_init itself first, as shmem4py would.  numpy is needed here (not by the package).

PE 0 prints "ok   NAME" per check; a failure prints "FAIL NAME: ..." on the PE that saw it;
a check that needs CuPy or Torch where it is absent prints "skip NAME: ...".  The checks do
not depend on which of CuPy, Torch and cuda.core are installed (SHMPI_PY_NO_CUPY=1 makes
array() return the package's own arrays even where CuPy is).  A watchdog ends the job when
no check has finished for SHMPI_PY_CHECK_TIMEOUT seconds (default 60), naming the group
and the last check, with every thread's traceback: a failing check never becomes a hang.
The last line is "N passed, N failed": the checks of all PEs together.  Exit status 0 if
nothing failed."""
import ctypes
import faulthandler
import os
import subprocess
import sys
import threading
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
# SHMPI_PY_INSTALLED=1 (tests/python-recipes.sh): the package pip installed, not the sources'.
INSTALLED = os.environ.get("SHMPI_PY_INSTALLED") == "1"
SOURCES = [] if INSTALLED else [os.path.join(TOP, "src", "python")]
sys.path[0:0] = SOURCES

import numpy as np  # noqa: E402

import shmpi  # noqa: E402
import shmpi.core as nvshmem  # noqa: E402
from shmpi import _interop, _lib, cuda  # noqa: E402
from shmpi._interop import ShmpiInvalid  # noqa: E402

passed = 0
failed = 0
skipped = 0
ME = 0
# What the watchdog names: the group running, the last check done, and when.
WHERE = {"group": "start", "check": "(none yet)", "since": time.monotonic()}


def watchdog(limit):
    """Ends the job (exit 3: the launcher ends the other PEs) when no check has finished
    for `limit` seconds, naming where this PE is, with every thread's traceback."""
    def watch():
        while True:
            time.sleep(1)
            idle = time.monotonic() - WHERE["since"]
            if idle > limit:
                print("FAIL watchdog: PE %d: no check finished for %.0f s (SHMPI_PY_CHECK_TIMEOUT)"
                      " in group %s, after check %r; ending the job"
                      % (ME, idle, WHERE["group"], WHERE["check"]), flush=True)
                faulthandler.dump_traceback(all_threads=True)
                sys.stderr.flush()
                os._exit(3)
    threading.Thread(target=watch, name="watchdog", daemon=True).start()


def skip(name, why, every_pe=False):
    global skipped
    skipped += 1
    WHERE["since"] = time.monotonic()
    if ME == 0 or every_pe:
        print("skip %s: %s" % (name, why), flush=True)


NO_PEER_MAPPING = "no peer mapping (another node or SHMPI_DEVICE_IPC=0)"


def peer_mapped(name, array, pe):
    """Whether PE pe's copy of symmetric `array` is mapped here (shmem_ptr is not NULL), as
    get_peer_array needs; where not (another node, SHMPI_DEVICE_IPC=0) the check `name` is
    skipped on this PE with a line saying so."""
    if _lib.load().shmem_ptr(_interop.array_info(array).ptr, pe):
        return True
    skip("%s (PE %d -> PE %d)" % (name, ME, pe), NO_PEER_MAPPING, every_pe=True)
    return False


def check(name, cond, detail=""):
    global passed, failed
    WHERE["check"], WHERE["since"] = name, time.monotonic()
    if cond:
        passed += 1
        if ME == 0:
            print("ok   %s" % name, flush=True)
    else:
        failed += 1
        print("FAIL %s%s%s" % ("PE %d: " % ME if ME else "", name,
                               ": %s" % detail if detail else ""), flush=True)


def raises(name, exc, fn, *args, must_say=None, **kw):
    try:
        fn(*args, **kw)
    except exc as e:
        msg = str(e)
        check(name, must_say is None or all(w in msg for w in must_say),
              "message %r lacks %r" % (msg, must_say))
        return
    except Exception as e:  # the wrong exception
        check(name, False, "raised %s: %s" % (type(e).__name__, e))
        return
    check(name, False, "raised nothing")


def group(fn):
    """Runs one group of checks; an exception counts as one failure and is shown."""
    WHERE["group"], WHERE["since"] = fn.__name__, time.monotonic()
    try:
        if os.environ.get("SHMPI_TEST_HANG_IN") == fn.__name__ and ME == N - 1 > 0:
            threading.Event().wait()  # the watchdog's own test: the last PE hangs here
        fn()
    except Exception as e:
        check(fn.__name__, False, "%s: %s\n%s" % (type(e).__name__, e, traceback.format_exc()))


# ---- unit checks: no MPI, no library ---------------------------------------------------------
def unit_dtypes():
    from shmpi._interop import c_type, dtype_name, move_routine, reduce_routine
    cases = [("int8", "int8"), (np.int16, "int16"), (np.dtype("<i4"), "int32"), ("int64", "int64"),
             (np.uint8, "uint8"), ("uint16", "uint16"), ("<u4", "uint32"), (np.uint64, "uint64"),
             (np.float16, "half"), ("bfloat16", "bfloat16"), ("torch.bfloat16", "bfloat16"),
             (np.float32, "float"), ("float64", "double"), (np.complex64, "complexf"),
             ("complex128", "complexd"), (bool, "uint8"), ("f", "float"), ("d", "double"),
             ("B", "uint8"), ("int", "int64"), (float, "double"), ("e", "half")]
    for given, ctype in cases:
        got = c_type(dtype_name(given))
        check("dtype %s -> %s" % (getattr(given, "__name__", given), ctype), got == ctype, got)
    check("reduce float32 sum", reduce_routine("reduce", "float32", "sum")
          == "shmemx_float_sum_reduce_on_stream")
    check("reducescatter int32 xor", reduce_routine("reducescatter", "int32", "xor")
          == "shmemx_int32_xor_reducescatter_on_stream")
    check("reduce float16 max", reduce_routine("reduce", "float16", "MAX")
          == "shmemx_half_max_reduce_on_stream")
    check("reduce bool or", reduce_routine("reduce", "bool", "or")
          == "shmemx_uint8_or_reduce_on_stream")
    raises("reduce float32 and: refused", ShmpiInvalid, reduce_routine, "reduce", "float32", "and",
           must_say=["float32", "and"])
    raises("reduce complex64 max: refused", ShmpiInvalid, reduce_routine, "reduce", "complex64",
           "max", must_say=["complex64"])
    raises("reduce op avg: refused", ShmpiInvalid, reduce_routine, "reduce", "int32", "avg",
           must_say=["avg"])
    check("put int32 typed", move_routine("put", "int32") == ("shmemx_int32_put_on_stream", 4))
    check("put float16 as bytes", move_routine("put", "float16") == ("shmemx_putmem_on_stream", 1))
    check("broadcast float64 typed", move_routine("broadcast", "float64")
          == ("shmemx_double_broadcast_on_stream", 8))
    check("alltoall complex128 as bytes", move_routine("alltoall", "complex128")
          == ("shmemx_alltoallmem_on_stream", 1))
    check("put_signal bfloat16 as bytes", move_routine("put_signal", "bfloat16")
          == ("shmemx_putmem_signal_on_stream", 1))
    for bad in ("U5", "U4", np.dtype("O"), "M8[s]", ">i4", np.longdouble, "float128", "V3", "int128"):
        raises("dtype %s refused, named" % bad, ShmpiInvalid, dtype_name, bad,
               must_say=[str(getattr(bad, "__name__", bad))])


class _CupyStream:
    ptr = 0x1234


class _TorchStream:
    cuda_stream = 0x5678


class _NumbaStream:
    def __init__(self, v):
        self.handle = ctypes.c_void_p(v)


class _CoreStream:
    def __cuda_stream__(self):
        return (0, 0x9abc)


class _BadStream:
    def __cuda_stream__(self):
        return "nonsense"


def unit_streams():
    h = _interop.stream_handle
    check("stream None -> 0", h(None) == 0)
    check("stream int", h(77) == 77)
    check("stream __cuda_stream__", h(_CoreStream()) == 0x9abc)
    check("stream .ptr (CuPy)", h(_CupyStream()) == 0x1234)
    check("stream .cuda_stream (Torch)", h(_TorchStream()) == 0x5678)
    check("stream .handle (Numba, ctypes)", h(_NumbaStream(0x42)) == 0x42)
    check("stream .handle NULL", h(_NumbaStream(None)) == 0)
    check("stream shmpi Stream(handle)", h(cuda.Stream(handle=12)) == 12)
    check("Stream.__cuda_stream__", cuda.Stream(handle=13).__cuda_stream__() == (0, 13))
    raises("stream negative refused", ShmpiInvalid, h, -1)
    raises("stream bool refused", ShmpiInvalid, h, True)
    raises("stream object refused", ShmpiInvalid, h, object(), must_say=["object"])
    raises("stream bad __cuda_stream__ refused", ShmpiInvalid, h, _BadStream())


class _Cai:
    def __init__(self, ptr, shape, typestr, strides=None, version=3, dtype=None):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr, "data": (ptr, False),
                                         "strides": strides, "version": version}
        if dtype is not None:
            self.dtype = dtype


class _Buffer:  # cuda.core's Buffer: .handle and .size
    handle = 0x7000
    size = 96


def unit_arrays():
    info = _interop.array_info(_Cai(0xdead0, (3, 4), "<f4"))
    check("CAI v3: ptr, bytes, dtype", (info.ptr, info.nbytes, info.dtype, info.shape)
          == (0xdead0, 48, "float32", (3, 4)), vars(info) if hasattr(info, "__dict__") else "")
    info = _interop.array_info(_Cai(0x1000, (5,), "<i8", version=2))
    check("CAI v2 int64", (info.nbytes, info.dtype) == (40, "int64"))
    info = _interop.array_info(_Cai(0x1000, (3, 4), "<f4", strides=(4, 12)))
    check("CAI Fortran strides accepted", info.nbytes == 48)
    raises("CAI strided refused", ShmpiInvalid, _interop.array_info,
           _Cai(0x1000, (3, 4), "<f4", strides=(32, 4)), must_say=["contiguous"])
    info = _interop.array_info(_Cai(0x1000, (4,), "<V2", dtype="bfloat16"))
    check("CAI with dtype bfloat16", info.dtype == "bfloat16" and info.nbytes == 8)
    raises("CAI dtype refused, named", ShmpiInvalid, _interop.array_info,
           _Cai(0x1000, (4,), "<M8"), must_say=["<M8"])
    host = np.arange(6, dtype=np.int32)
    info = _interop.array_info(host)
    check("DLPack (numpy): ptr, dtype, host device",
          (info.ptr, info.dtype, info.shape, info.device_type) == (host.ctypes.data, "int32", (6,), 1))
    info = _interop.array_info(np.zeros((2, 3), dtype=np.float16))
    check("DLPack float16", (info.dtype, info.nbytes) == ("float16", 12))
    raises("DLPack strided refused", ShmpiInvalid, _interop.array_info, host[::2],
           must_say=["contiguous"])
    info = _interop.array_info(_Buffer())
    check("Buffer (.handle, .size) as bytes", (info.ptr, info.nbytes, info.dtype)
          == (0x7000, 96, "uint8"))
    raises("non-array refused", ShmpiInvalid, _interop.array_info, object(),
           must_say=["__cuda_array_interface__", "__dlpack__"])


def unit_own_array():
    a = nvshmem.Array(0x10000, (2, 3), "float32", device_id=1)
    cai = a.__cuda_array_interface__
    check("Array CAI v3", cai["version"] == 3 and cai["data"] == (0x10000, False)
          and cai["typestr"] == "<f4" and cai["shape"] == (2, 3) and cai["strides"] is None)
    check("Array nbytes/size/ndim", (a.nbytes, a.size, a.ndim, len(a)) == (24, 6, 2, 2))
    check("Array __dlpack_device__ (kDLCUDA, id)", a.__dlpack_device__() == (2, 1))
    before = _interop.live_exports()
    cap = a.__dlpack__()
    ptr, shape, strides, name, dt, did = _interop.read_capsule(cap)
    check("DLPack capsule: data, shape, dtype, device",
          (ptr, shape, strides, name, dt, did) == (0x10000, (2, 3), None, "float32", 2, 1))
    check("capsule alive until deleted", _interop.live_exports() == before + 1)
    del cap
    check("unconsumed capsule frees its tensor", _interop.live_exports() == before)
    f = nvshmem.Array(0x10000, (2, 3), "int16", order="F")
    check("Fortran Array strides", f.__cuda_array_interface__["strides"] == (2, 4)
          and _interop.read_capsule(f.__dlpack__())[2] == (1, 2))
    b = nvshmem.Array(0x20000, (4,), "bfloat16")
    check("bfloat16 capsule code 4", _interop.read_capsule(b.__dlpack__())[3] == "bfloat16")
    check("Array reshape/view", a.reshape(3, 2).shape == (3, 2) and a.view("uint8").shape == (24,)
          and a.reshape(-1).shape == (6,))
    # A consumer that renames the capsule and calls the deleter: numpy, on host memory.
    host = np.arange(12, dtype=np.float64).reshape(3, 4)
    h = nvshmem.Array(host.ctypes.data, (3, 4), "float64", device_type=1, owner=host)
    view = np.from_dlpack(h)
    check("numpy.from_dlpack of an Array", view.shape == (3, 4) and view.dtype == np.float64
          and (view == host).all() and view.ctypes.data == host.ctypes.data)
    check("consumer's deleter ran? (tensor alive while viewed)", _interop.live_exports() == before + 1)
    del view
    check("consumer's deleter frees the tensor", _interop.live_exports() == before)
    raises("Array dtype refused, named", ShmpiInvalid, nvshmem.Array, 0, (1,), "object",
           must_say=["object"])
    raises("Array with copy=True refused", BufferError, a.__dlpack__, copy=True)


def unit_errors():
    raises("put before init refused", ShmpiInvalid, nvshmem.put, None, None, 0,
           must_say=["init"])
    raises("init uid refused", ShmpiInvalid, nvshmem.init, initializer_method="uid",
           must_say=["mpi"])
    raises("init device object refused", ShmpiInvalid, nvshmem.init, device=object())
    from shmpi.core import _device_ordinal, _heap_bytes

    class Dev:
        device_id = 1
    check("device .device_id", _device_ordinal(Dev()) == 1 and _device_ordinal(None) == -1)
    check("heap sizes", _heap_bytes("16m") == 16 << 20 and _heap_bytes(4096) == 4096
          and _heap_bytes("1g") == 1 << 30)
    raises("heap size 12q refused", ShmpiInvalid, _heap_bytes, "12q")
    check("enums", (nvshmem.Teams.TEAM_WORLD, nvshmem.Teams.TEAM_SHARED, nvshmem.Teams.TEAM_NODE)
          == (1, 2, 3) and nvshmem.SignalOp.SIGNAL_ADD == 1 and nvshmem.ComparisonType.CMP_GE == 3)
    check("nvshmem.core names", all(hasattr(nvshmem, n) for n in (
        "init", "finalize", "my_pe", "n_pes", "team_my_pe", "team_n_pes", "array", "buffer",
        "free_array", "free", "get_peer_array", "register_external_array", "put", "get",
        "put_signal", "signal_op", "signal_wait", "quiet", "barrier", "sync", "reduce",
        "reducescatter", "fcollect", "alltoall", "broadcast", "NvshmemError", "NvshmemInvalid")))
    os.environ["SHMPI_LIBRARY_SAVED"] = os.environ.get("SHMPI_LIBRARY", "")
    os.environ["SHMPI_LIBRARY"] = "/nonexistent/libshmpi.so"
    check("SHMPI_LIBRARY is a candidate", "/nonexistent/libshmpi.so" in _lib.candidates())
    saved = os.environ.pop("SHMPI_LIBRARY_SAVED")
    if saved:
        os.environ["SHMPI_LIBRARY"] = saved
    else:
        del os.environ["SHMPI_LIBRARY"]
    code = ("import sys; sys.modules['numpy'] = None; sys.modules['cupy'] = None; "
            "sys.modules['torch'] = None; sys.modules['numba'] = None; "
            "sys.path[0:0] = %r; import shmpi.core as n; a = n.Array(1, (2,), 'int32'); "
            "a.__dlpack__(); print('fine')" % SOURCES)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    check("imports without numpy, CuPy, Torch, Numba", out.stdout.strip() == "fine", out.stderr)


def unit_python_path():
    """The path the hot routines take: compiled (shmpi._fast) where SHMPI_PY_EXPECT_FAST=1
    (gpu_python.test sets it where make built the extension for this python3), the ctypes
    path with SHMPI_PY_NO_FAST=1."""
    path = nvshmem.PYTHON_PATH
    expect = os.environ.get("SHMPI_PY_EXPECT_FAST")
    if INSTALLED:
        check("the installed package, not the sources'",
              not os.path.abspath(shmpi.__file__).startswith(os.path.join(TOP, "src")),
              shmpi.__file__)
    if os.environ.get("SHMPI_PY_NO_FAST", "0") not in ("", "0"):
        check("SHMPI_PY_NO_FAST: the ctypes path", path.startswith("ctypes")
              and nvshmem.put is nvshmem._py.put, path)
    elif expect == "1":
        check("the compiled path (shmpi._fast)", path.startswith("compiled")
              and type(nvshmem.put).__name__ == "builtin_function_or_method", path)
    elif expect == "0":
        check("the ctypes path (no shmpi._fast for this python3)", path.startswith("ctypes"), path)
    import inspect
    check("fast routines keep their signatures", str(inspect.signature(nvshmem.put_signal))
          == "(dst, src, signal_var, signal_val, signal_op, remote_pe=-1, stream=None)",
          str(inspect.signature(nvshmem.put_signal)))


def unit():
    for g in (unit_dtypes, unit_streams, unit_arrays, unit_own_array, unit_errors,
              unit_python_path):
        group(g)


# ---- multi-PE checks ----------------------------------------------------------------------
L = None
N = 1
RIGHT = LEFT = 0
S = None
WORLD = nvshmem.Teams.TEAM_WORLD


def host_barrier():
    L.shmem_barrier_all()


def np_dtype(name):
    return np.uint16 if name == "bfloat16" else np.dtype("bool" if name == "bool" else name)


def values(name, pe, n, base=0):
    """Deterministic values of PE pe, exact in every dtype (small integers)."""
    k = np.arange(n) + base
    if name == "bool":
        return ((k + pe) % 2).astype(bool)
    if name == "bfloat16":  # bfloat16 bits of small integers: the top half of float32
        f = ((k + pe) % 8 + 1).astype(np.float32)
        return (f.view(np.uint32) >> 16).astype(np.uint16)
    if name.startswith("complex"):
        return ((k + pe) % 5 + 1 + 1j * (pe % 3)).astype(name)
    if name.startswith("uint") or name == "int8":
        return ((k + 3 * pe) % 7 + 1).astype(name)
    return ((k + 3 * pe) % 7 + 1).astype(name)


def bf16_to_f32(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def f32_to_bf16(f):
    return (np.asarray(f, dtype=np.float32).view(np.uint32) >> 16).astype(np.uint16)


def new(shape, name, fill=None):
    a = nvshmem.array(shape, dtype=name)
    if fill is not None:
        nvshmem.from_host(a, fill)
    return a


def host(a):
    return nvshmem.to_host(a)


PRE = None  # the library as "another binding" (shmem4py) loaded and started it


def mp_init():
    global L, N, ME, RIGHT, LEFT, S, PRE
    late = os.environ.get("SHMPI_TEST_LATE") == "1"
    if os.environ.get("SHMPI_TEST_PREINIT") == "1":
        # As shmem4py does: its own load of libshmpi and shmem_init, before shmpi.core;
        # shmpi.core must find that library without SHMPI_LIBRARY and not start it again.
        PRE = ctypes.CDLL(os.environ.pop("SHMPI_LIBRARY"), mode=ctypes.RTLD_GLOBAL)
        PRE.shmem_init()
    if late:
        os.environ.pop("SHMPI_DEVICE_HEAP_SIZE", None)
        nvshmem.init(initializer_method="mpi", heap_size="16m")
    else:
        nvshmem.init(device=None, mpi_comm=None, initializer_method="mpi")
    L = _lib.load()
    ME, N = nvshmem.my_pe(), nvshmem.n_pes()
    if PRE is not None:
        check("another binding's shmem_init: same library, not started again",
              _lib.path() == _lib._mapped_libshmpi() and not nvshmem._state["we_started"],
              "%s %s" % (_lib.path(), nvshmem._state))
    RIGHT, LEFT = (ME + 1) % N, (ME - 1) % N
    check("init (%s): device heap" % ("late, heap_size=16m" if late else "SHMPI_DEVICE_HEAP_SIZE"),
          L.shmemx_device_heap_available() == 1 and nvshmem.device_ordinal() >= 0)
    nvshmem.init(initializer_method="mpi")  # again: a no-op
    check("init twice", nvshmem.init_status() == nvshmem.InitStatus.STATUS_IS_INITIALIZED)
    if "PMI_RANK" in os.environ:
        check("my_pe/n_pes = MPI rank/size", (ME, N) == (int(os.environ["PMI_RANK"]),
                                                       int(os.environ["PMI_SIZE"])))
    S = nvshmem.Stream()
    check("Stream through the driver", S.handle != 0 and nvshmem.Stream.__name__ == "Stream")


def mp_names():
    missing = []
    from shmpi._interop import DTYPES, move_routine, reduce_ops, reduce_routine
    for name in DTYPES:
        for op in reduce_ops(name):
            for coll in ("reduce", "reducescatter"):
                r = reduce_routine(coll, name, op)
                if _lib.routine(r) is None:
                    missing.append(r)
        for kind in ("put", "get", "put_signal", "broadcast", "fcollect", "alltoall"):
            r = move_routine(kind, name)[0]
            if _lib.routine(r) is None:
                missing.append(r)
    check("every routine the dtypes choose is in the library", not missing, " ".join(missing[:8]))


def mp_teams():
    check("TEAM_WORLD", (nvshmem.team_my_pe(WORLD), nvshmem.team_n_pes(WORLD)) == (ME, N))
    node = nvshmem.Teams.TEAM_NODE
    # Emulated nodes (tests/launch-nodes.sh) place PEs in blocks of SHMPI_TEST_PPN.
    ppn = int(os.environ.get("SHMPI_TEST_PPN", N))
    check("TEAM_NODE (%d PEs a machine, in blocks)" % ppn,
          (nvshmem.team_my_pe(node), nvshmem.team_n_pes(node)) == (ME % ppn, ppn),
          "%d of %d" % (nvshmem.team_my_pe(node), nvshmem.team_n_pes(node)))
    shared = nvshmem.Teams.TEAM_SHARED
    check("TEAM_SHARED", 1 <= nvshmem.team_n_pes(shared) <= N
          and 0 <= nvshmem.team_my_pe(shared) < nvshmem.team_n_pes(shared))


def optional(name):
    """The module `name` if it imports (CuPy, Torch, cuda.core), else None."""
    try:
        return __import__(name, fromlist=["_"])
    except Exception:
        return None


def cupy_in_play():
    """CuPy as shmpi.core uses it: None where absent or SHMPI_PY_NO_CUPY is set."""
    return nvshmem._cupy_module()


def mp_memory():
    a = nvshmem.array((4, 2), dtype="float32")
    info = _interop.array_info(a)
    cp = cupy_in_play()
    kind = "CuPy's ndarray" if cp is not None else "shmpi.core.Array"
    check("array(): %s of the right shape, dtype, bytes, device" % kind,
          isinstance(a, cp.ndarray if cp is not None else nvshmem.Array)
          and tuple(a.shape) == (4, 2) and info.dtype == "float32" and info.nbytes == 32
          and tuple(int(v) for v in a.__dlpack_device__()) == (2, nvshmem.device_ordinal()),
          "%r" % (a,))
    nvshmem.from_host(a, np.full((4, 2), ME, np.float32))
    check("from_host/to_host round trip", (host(a) == ME).all())
    b = nvshmem.buffer(64)
    check("buffer(): a Buffer of 64 bytes, .handle and .size",
          isinstance(b, nvshmem.Buffer) and b.size == 64 and b.nbytes == 64
          and b.handle == b.ptr != 0 and b.dtype == "uint8")
    host_barrier()
    for pe in range(N):
        name = "get_peer_array(a, %d) shows PE %d's values" % (pe, pe)
        if not peer_mapped(name, a, pe):
            raises("get_peer_array(a, %d) unmapped: ShmpiError naming the PE" % pe,
                   nvshmem.ShmpiError, nvshmem.get_peer_array, a, pe,
                   must_say=["PE %d's memory is not mapped" % pe])
            continue
        peer = nvshmem.get_peer_array(a, pe)
        ok = tuple(peer.shape) == tuple(a.shape) and _interop.array_info(peer).dtype == "float32" \
            and (host(peer) == pe).all()
        check(name, ok)
    check("get_peer_array(a, me) is a",
          _interop.array_info(nvshmem.get_peer_array(a, ME)).ptr == info.ptr)
    host_barrier()
    nvshmem.free(b)
    nvshmem.free_array(a)
    raises("free_array twice refused", ShmpiInvalid, nvshmem.free_array, a, must_say=["freed"])
    raises("array of an unsupported dtype, named", ShmpiInvalid, nvshmem.array, (2,), "U4",
           must_say=["U4"])
    raises("array of 0 bytes refused", ShmpiInvalid, nvshmem.buffer, 0)


def mp_copies_land():
    """from_host returns once its bytes have landed: a zero fill followed at once by a
    barrier and the left PE's put must leave the put's data (on a driver that returns
    from a pageable copy once staged, a late fill would erase it)."""
    for rounds, n in ((8, 1 << 16), (4, 1 << 20)):
        bad = 0
        for r in range(rounds):
            dst = nvshmem.array((n,), dtype="uint8")
            mine = new((n,), "uint8", np.full(n, (ME + r) % 251 + 1, np.uint8))
            nvshmem.from_host(dst, np.zeros(n, np.uint8))
            host_barrier()
            nvshmem.put(dst, mine, RIGHT, stream=S)
            S.synchronize()
            host_barrier()
            got = host(dst)
            bad += int(not (got == (LEFT + r) % 251 + 1).all())
            host_barrier()
            nvshmem.free_array(mine)
            nvshmem.free_array(dst)
        check("from_host of %d bytes lands before it returns (%d rounds)" % (n, rounds), bad == 0,
              "%d of %d rounds lost the put" % (bad, rounds))


def mp_buffers():
    b = nvshmem.buffer(4096)
    dl = _interop.read_capsule(b.__dlpack__())
    check("Buffer: DLPack uint8 of its size at its handle", dl[:4] == (b.handle, (4096,), None,
                                                                       "uint8"))
    cai = b.__cuda_array_interface__
    check("Buffer: __cuda_array_interface__", cai["data"][0] == b.handle and cai["shape"] == (4096,)
          and cai["typestr"] == "|u1")
    sig = new((1,), "uint64", np.zeros(1, np.uint64))
    sbuf, size, dtype = nvshmem.array_get_buffer(sig)
    info = _interop.array_info(sig)
    check("array_get_buffer: (Buffer, bytes, dtype)", isinstance(sbuf, nvshmem.Buffer)
          and sbuf.handle == info.ptr and (size, dtype) == (8, "uint64"))
    # A buffer wherever an array goes: put_signal and signal_wait on buffers.
    src = nvshmem.buffer(256)
    dst = nvshmem.buffer(256)
    nvshmem.from_host(src, np.full(256, ME + 1, np.uint8))
    nvshmem.from_host(dst, np.zeros(256, np.uint8))
    s2 = nvshmem.Stream()
    host_barrier()
    nvshmem.put_signal(dst, src, sbuf, ME + 1, nvshmem.SignalOp.SIGNAL_SET, RIGHT, stream=S)
    nvshmem.signal_wait(sbuf, LEFT + 1, nvshmem.ComparisonType.CMP_EQ, stream=s2)
    s2.synchronize()
    check("put_signal/signal_wait on Buffers", (host(dst) == LEFT + 1).all()
          and host(sig)[0] == LEFT + 1)
    S.synchronize()
    host_barrier()
    got = nvshmem.buffer(256)
    nvshmem.get(got, src, RIGHT, stream=S)
    S.synchronize()
    check("get into a Buffer", (host(got) == RIGHT + 1).all())
    name = "get_peer_buffer: a Buffer of the peer's bytes"
    if peer_mapped(name, src, RIGHT):
        peer = nvshmem.get_peer_buffer(src, RIGHT)
        check(name, isinstance(peer, nvshmem.Buffer)
              and peer.size == 256 and (host(peer) == RIGHT + 1).all())
    view = nvshmem.Array(b.handle, (1024,), "float32", b.device_id, owner=b)
    nvshmem.from_host(view, np.arange(1024, dtype=np.float32) + ME)
    check("a Buffer viewed as float32 through the package's Array",
          (host(b).view(np.float32) == np.arange(1024, dtype=np.float32) + ME).all())
    cp = optional("cupy")
    if cp is not None:
        arr = cp.from_dlpack(b).view(cp.float32)
        check("cupy.from_dlpack(buffer).view(float32)", arr.shape == (1024,)
              and int(arr.data.ptr) == b.handle and float(arr[3].get()) == 3.0 + ME)
    else:
        skip("cupy.from_dlpack(buffer)", "CuPy does not import here")
    torch = optional("torch")
    if torch is not None and getattr(torch, "cuda", None) is not None and torch.cuda.is_available():
        t = torch.from_dlpack(b)
        check("torch.from_dlpack(buffer)", t.numel() == 4096 and t.data_ptr() == b.handle
              and t.dtype == torch.uint8)
    else:
        skip("torch.from_dlpack(buffer)", "Torch with CUDA does not import here")
    host_barrier()
    s2.close()
    for x in (got, dst, src, b):
        nvshmem.free(x)
    nvshmem.free_array(sig)
    raises("free of a non-symmetric Buffer refused", ShmpiInvalid, nvshmem.free,
           nvshmem.Buffer(0x1000, 8), must_say=["0x1000"])


def mp_new_teams():
    """team_split_strided, team_split_2d, team_init, team_translate_pe, team_destroy,
    TEAM_SAME_MYPE_NODE, and the stream collectives on them."""
    evens = nvshmem.team_split_strided(WORLD, 0, 2, (N + 1) // 2, nvshmem.TeamConfig(), 0,
                                       "EVENS")
    src = new((4,), "int64", values("int64", ME, 4))  # symmetric: every PE allocates
    dst = new((4,), "int64")
    if ME % 2 == 0:
        check("team_split_strided: the even PEs", isinstance(evens, nvshmem.Team)
              and evens.name == "EVENS" and nvshmem.team_n_pes(evens) == (N + 1) // 2
              and nvshmem.team_my_pe(evens) == ME // 2, repr(evens))
        members = team_members(evens)
        nvshmem.reduce(evens, dst, src, "sum", stream=S)
        S.synchronize()
        want = reference("sum", "int64", [values("int64", pe, 4) for pe in members])
        check("reduce on a team of team_split_strided", (host(dst) == want).all())
        check("team_translate_pe(evens, 0, WORLD) == 0",
              nvshmem.team_translate_pe(evens, 0, WORLD) == 0)
        nvshmem.team_destroy(evens)
    else:
        check("team_split_strided: None outside the team", evens is None)
    host_barrier()
    nvshmem.free_array(dst)
    nvshmem.free_array(src)
    if N > 1:
        raises("team_split_strided past the parent refused", ShmpiInvalid,
               nvshmem.team_split_strided, WORLD, 0, 2, N, nvshmem.TeamConfig(), 0,
               must_say=["stride"])
    if N >= 2 and N % 2 == 0:
        x, y = nvshmem.team_split_2d(WORLD, 2, nvshmem.TeamConfig(), 0, nvshmem.TeamConfig(), 0,
                                     "GRID")
        check("team_split_2d: rows of 2 and columns", x.name == "GRID_X" and y.name == "GRID_Y"
              and nvshmem.team_n_pes(x) == 2 and nvshmem.team_my_pe(x) == ME % 2
              and nvshmem.team_n_pes(y) == N // 2 and nvshmem.team_my_pe(y) == ME // 2)
        nvshmem.barrier(x, stream=S)
        nvshmem.barrier(y, stream=S)
        S.synchronize()
        check("barrier on a stream over both 2d teams", True)
        host_barrier()
        nvshmem.team_destroy("GRID_X")
        nvshmem.team_destroy(y)
    host_barrier()
    if _lib.routine("shmemx_team_init") is None:
        check("the library has shmemx_team_init and SHMEMX_TEAM_SAME_MYPE_NODE", False)
        return
    same = nvshmem.Teams.TEAM_SAME_MYPE_NODE
    node = nvshmem.Teams.TEAM_NODE
    mates = team_members(same)
    check("TEAM_SAME_MYPE_NODE: the PEs of my index on their machine",
          ME in mates and all(nvshmem.team_translate_pe(WORLD, pe, node) == -1
                              or pe == ME for pe in mates),
          "%r" % mates)
    # team_init: the PEs other than 0 (reverse order), and then every PE, by unique id.
    if N >= 2:
        uid = nvshmem.get_team_unique_id() if ME == 1 else 0
        box = new((1,), "uint64", np.array([uid], np.uint64))
        nvshmem.broadcast(WORLD, box, box, 1, stream=S)
        S.synchronize()
        uid = int(host(box)[0])
        check("get_team_unique_id: nonzero, the same everywhere", uid != 0)
        if ME != 0:
            t = nvshmem.team_init(nvshmem.TeamConfig(uniqueid=uid), 0, N - 1, N - 1 - ME,
                                  "ALL_BUT_0")
            check("team_init of PEs 1..n-1 in reverse order", nvshmem.team_n_pes(t) == N - 1
                  and nvshmem.team_my_pe(t) == N - 1 - ME
                  and nvshmem.team_translate_pe(t, 0, WORLD) == N - 1)
            nvshmem.sync(t, stream=S)
            S.synchronize()
            nvshmem.team_destroy(t)
        host_barrier()
        nvshmem.free_array(box)
    raises("team_destroy of TEAM_WORLD refused", ShmpiInvalid, nvshmem.team_destroy, WORLD,
           must_say=["predefined"])
    host_barrier()


RMA_DTYPES = ("int8", "uint16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
              "complex64", "bool")


def mp_put_get():
    for name in RMA_DTYPES:
        n = 5
        src = new((n,), name, values(name, ME, n))
        dst = new((n,), name, np.zeros(n, np_dtype(name)))
        host_barrier()
        nvshmem.put(dst, src, RIGHT, stream=S)
        S.synchronize()
        host_barrier()
        check("put %s to the right" % name, (host(dst) == values(name, LEFT, n)).all(),
              "%r != %r" % (host(dst), values(name, LEFT, n)))
        got = new((n,), name, np.zeros(n, np_dtype(name)))
        nvshmem.get(got, src, RIGHT, stream=S)
        S.synchronize()
        check("get %s from the right" % name, (host(got) == values(name, RIGHT, n)).all())
        host_barrier()
        for x in (got, dst, src):
            nvshmem.free_array(x)
    # A host (numpy) source, and quiet on the stream.
    dst = new((3,), "int64", np.zeros(3, np.int64))
    host_barrier()
    nvshmem.put(dst, np.array([ME, ME + 1, ME + 2], np.int64), RIGHT, stream=S)
    nvshmem.quiet(S)
    S.synchronize()
    host_barrier()
    check("put from host memory + quiet", (host(dst) == [LEFT, LEFT + 1, LEFT + 2]).all())
    raises("put to PE n_pes refused", ShmpiInvalid, nvshmem.put, dst, dst, N, stream=S,
           must_say=["remote_pe"])
    host_barrier()
    nvshmem.free_array(dst)


def mp_signals():
    n = 6
    src = new((n,), "float32", values("float32", ME, n))
    dst = new((n,), "float32", np.zeros(n, np.float32))
    sig = new((1,), "uint64", np.zeros(1, np.uint64))
    s2 = nvshmem.Stream()
    host_barrier()
    nvshmem.put_signal(dst, src, sig, ME + 1, nvshmem.SignalOp.SIGNAL_SET, RIGHT, stream=S)
    nvshmem.signal_wait(sig, LEFT + 1, nvshmem.ComparisonType.CMP_EQ, stream=s2)
    s2.synchronize()  # the signal came, so the data did
    check("put_signal SET + signal_wait EQ: data before signal",
          (host(dst) == values("float32", LEFT, n)).all() and host(sig)[0] == LEFT + 1)
    S.synchronize()
    host_barrier()
    nvshmem.signal_op(sig, 5, nvshmem.SignalOp.SIGNAL_ADD, RIGHT, stream=S)
    nvshmem.signal_wait(sig, LEFT + 5, nvshmem.ComparisonType.CMP_GT, stream=s2)
    s2.synchronize()
    check("signal_op ADD + signal_wait GT", host(sig)[0] == LEFT + 6, host(sig))
    S.synchronize()
    host_barrier()
    nvshmem.signal_op(sig, 100, nvshmem.SignalOp.SIGNAL_SET, RIGHT, stream=S)
    nvshmem.signal_wait(sig, 100, nvshmem.ComparisonType.CMP_GE, stream=s2)
    s2.synchronize()
    check("signal_op SET + signal_wait GE", host(sig)[0] == 100)
    S.synchronize()
    host_barrier()
    raises("signal_wait CMP_NE refused before the C side", ShmpiInvalid, nvshmem.signal_wait,
           sig, 0, nvshmem.ComparisonType.CMP_NE, stream=s2, must_say=["CMP_NE"])
    small = new((1,), "uint32")
    raises("a 4-byte signal refused", ShmpiInvalid, nvshmem.signal_op, small, 1,
           nvshmem.SignalOp.SIGNAL_SET, RIGHT, stream=S, must_say=["8"])
    raises("signal_op 7 refused", ShmpiInvalid, nvshmem.signal_op, sig, 1, 7, RIGHT, stream=S)
    host_barrier()
    s2.close()
    for x in (small, sig, dst, src):
        nvshmem.free_array(x)


def mp_barriers():
    old = os.environ.get("SHMPI_FAKE_CUDA_DELAY_US")
    os.environ["SHMPI_FAKE_CUDA_DELAY_US"] = "3000"  # copies visibly late: a barrier must wait
    try:
        for label, fn in (("barrier(TEAM_WORLD)", lambda: nvshmem.barrier(WORLD, stream=S)),
                          ("sync(TEAM_WORLD)", lambda: nvshmem.sync(WORLD, stream=S)),
                          ("barrier_all", lambda: nvshmem.barrier_all(stream=S)),
                          ("barrier(TEAM_NODE)",
                           lambda: nvshmem.barrier(nvshmem.Teams.TEAM_NODE, stream=S))):
            x = new((4,), "int32", np.zeros(4, np.int32))
            mine = new((4,), "int32", np.full(4, ME + 10, np.int32))
            seen = new((4,), "int32", np.zeros(4, np.int32))
            host_barrier()
            nvshmem.put(x, mine, RIGHT, stream=S)
            nvshmem.quiet(S)
            fn()
            nvshmem.get(seen, x, ME, stream=S)  # after the barrier, on the stream
            S.synchronize()
            name = "%s on a stream orders the left PE's put" % label
            ppn = int(os.environ.get("SHMPI_TEST_PPN", N))
            if label == "barrier(TEAM_NODE)" and LEFT // ppn != ME // ppn:
                skip("%s (PE %d)" % (name, ME), "the left PE is on another node", every_pe=True)
            else:
                check(name, (host(seen) == LEFT + 10).all(), str(host(seen)))
            host_barrier()
            for a in (seen, mine, x):
                nvshmem.free_array(a)
        nvshmem.sync_all(stream=S)
        S.synchronize()
        check("sync_all on a stream", True)
    finally:
        if old is None:
            os.environ.pop("SHMPI_FAKE_CUDA_DELAY_US", None)
        else:
            os.environ["SHMPI_FAKE_CUDA_DELAY_US"] = old


def team_members(team):
    f = L.shmem_team_translate_pe
    f.restype, f.argtypes = ctypes.c_int, [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
    return [f(ctypes.c_void_p(int(team)), i, ctypes.c_void_p(int(WORLD)))
            for i in range(nvshmem.team_n_pes(team))]


def reference(op, name, blocks):
    if name == "bfloat16":
        return f32_to_bf16(reference(op, "float32", [bf16_to_f32(b) for b in blocks]))
    acc = blocks[0].copy()
    for b in blocks[1:]:
        if op == "sum":
            acc = acc + b
        elif op == "prod":
            acc = acc * b
        elif op == "min":
            acc = np.minimum(acc, b)
        elif op == "max":
            acc = np.maximum(acc, b)
        elif op == "and":
            acc = acc & b
        elif op == "or":
            acc = acc | b
        elif op == "xor":
            acc = acc ^ b
    return acc.astype(blocks[0].dtype)


def same(got, want, name):
    if name.startswith(("float", "complex")):
        return np.allclose(got, want, rtol=1e-2)
    return (got == want).all()


REDUCE_CASES = [("int8", ("sum", "prod", "min", "max", "and", "or", "xor")),
                ("uint16", ("sum", "max", "xor")), ("int32", ("sum", "prod", "min", "and")),
                ("int64", ("sum", "max", "or")), ("uint64", ("sum", "min", "and")),
                ("float16", ("sum", "prod", "min", "max")), ("bfloat16", ("sum", "max")),
                ("float32", ("sum", "prod", "min", "max")), ("float64", ("sum", "min")),
                ("complex64", ("sum", "prod")), ("complex128", ("sum",)), ("bool", ("or", "and"))]


def mp_reduce():
    n = 7
    for name, ops in REDUCE_CASES:
        src = new((n,), name, values(name, ME, n))
        dst = new((n,), name)
        for op in ops:
            nvshmem.reduce(WORLD, dst, src, op, stream=S)
            S.synchronize()
            want = reference(op, name, [values(name, pe, n) for pe in range(N)])
            got = host(dst)
            check("reduce %s %s" % (name, op), same(got, want, name), "%r != %r" % (got, want))
        host_barrier()
        nvshmem.free_array(dst)
        nvshmem.free_array(src)
    for team in (nvshmem.Teams.TEAM_NODE, nvshmem.Teams.TEAM_SHARED):
        members = team_members(team)
        src = new((3,), "int64", values("int64", ME, 3))
        dst = new((3,), "int64")
        nvshmem.reduce(team, dst, src, "sum", stream=S)
        S.synchronize()
        want = reference("sum", "int64", [values("int64", pe, 3) for pe in members])
        check("reduce on %s %r" % (team.name, members), (host(dst) == want).all())
        host_barrier()
        nvshmem.free_array(dst)
        nvshmem.free_array(src)
    a = new((2,), "float32")
    b = new((2,), "int32")
    raises("reduce of different dtypes refused", ShmpiInvalid, nvshmem.reduce, WORLD, a, b, "sum",
           stream=S, must_say=["float32", "int32"])
    raises("reduce float32 xor refused", ShmpiInvalid, nvshmem.reduce, WORLD, a, a, "xor",
           stream=S, must_say=["xor", "float32"])
    host_barrier()
    nvshmem.free_array(b)
    nvshmem.free_array(a)


def mp_reducescatter():
    k = 3
    for name, op in (("int32", "sum"), ("float32", "max"), ("uint8", "xor"), ("float16", "sum")):
        src = new((k * N,), name, values(name, ME, k * N))
        dst = new((k,), name)
        nvshmem.reducescatter(WORLD, dst, src, op, stream=S)
        S.synchronize()
        full = reference(op, name, [values(name, pe, k * N) for pe in range(N)])
        want = full[ME * k:(ME + 1) * k]
        check("reducescatter %s %s" % (name, op), same(host(dst), want, name),
              "%r != %r" % (host(dst), want))
        host_barrier()
        nvshmem.free_array(dst)
        nvshmem.free_array(src)


def mp_moves():
    k = 3
    for name in ("int32", "float64", "float16", "complex128", "bfloat16"):
        src = new((k,), name, values(name, ME, k))
        dst = new((k * N,), name)
        nvshmem.fcollect(WORLD, dst, src, stream=S)
        S.synchronize()
        want = np.concatenate([values(name, pe, k) for pe in range(N)])
        check("fcollect %s" % name, (host(dst) == want).all())
        host_barrier()
        nvshmem.free_array(dst)
        nvshmem.free_array(src)

        src = new((k * N,), name, np.concatenate([values(name, ME * N + j, k) for j in range(N)]))
        dst = new((k * N,), name)
        nvshmem.alltoall(WORLD, dst, src, stream=S)
        S.synchronize()
        want = np.concatenate([values(name, i * N + ME, k) for i in range(N)])
        check("alltoall %s" % name, (host(dst) == want).all(), "%r != %r" % (host(dst), want))
        host_barrier()
        nvshmem.free_array(dst)
        nvshmem.free_array(src)

        for root in sorted({0, N - 1}):
            src = new((k,), name, values(name, 50 + ME, k))
            dst = new((k,), name, np.zeros(k, np_dtype(name)))
            nvshmem.broadcast(WORLD, dst, src, root, stream=S)
            S.synchronize()
            check("broadcast %s from %d" % (name, root),
                  (host(dst) == values(name, 50 + root, k)).all())
            host_barrier()
            nvshmem.free_array(dst)
            nvshmem.free_array(src)
    a = new((4,), "int32")
    b = new((4 * N + 1,), "int32")
    raises("fcollect with a small dst refused", ShmpiInvalid, nvshmem.fcollect, WORLD, a, a,
           stream=S)
    if N > 1:
        raises("alltoall of an uneven src refused", ShmpiInvalid, nvshmem.alltoall, WORLD, b, b,
               stream=S, must_say=["blocks"])
    raises("broadcast from a root outside the team refused", ShmpiInvalid, nvshmem.broadcast,
           WORLD, a, a, N, stream=S, must_say=["root"])
    host_barrier()
    nvshmem.free_array(b)
    nvshmem.free_array(a)


def mp_external():
    ext = cuda.empty((8,), "int64")
    cuda.from_host(ext, np.arange(8, dtype=np.int64) + 100 * ME)
    check("register_external_array returns the array", nvshmem.register_external_array(ext) is ext)
    host_barrier()
    got = new((8,), "int64")
    nvshmem.get(got, ext, RIGHT, stream=S)
    S.synchronize()
    check("get from a registered array", (host(got) == np.arange(8) + 100 * RIGHT).all(), host(got))
    host_barrier()
    nvshmem.put(ext, got, RIGHT, stream=S)  # the right PE's values, back to it
    S.synchronize()
    host_barrier()
    check("put into a registered array", (host(ext) == np.arange(8) + 100 * ME).all(), host(ext))
    name = "get_peer_array of a registered array"
    if peer_mapped(name, ext, RIGHT):
        peer = nvshmem.get_peer_array(ext, RIGHT)
        check(name, (host(peer) == np.arange(8) + 100 * RIGHT).all())
    host_barrier()
    nvshmem.unregister_external_array(ext)
    nvshmem.free_array(got)
    cuda.free(ext)


def mp_vmm():
    """VMM memory (cuMemCreate, through shmpi.cuda's VirtualMemoryResource, or cuda.core's
    where it imports) registered as symmetric memory: shared with the peers as a file
    descriptor, then put/get/get_peer_array as on any symmetric array."""
    core = optional("cuda.core")
    resource = None
    if core is not None and hasattr(core, "VirtualMemoryResource"):
        try:
            resource = core.VirtualMemoryResource(core.Device())
            kind = "cuda.core's VirtualMemoryResource"
        except Exception:
            resource = None
    if resource is None:
        resource = cuda.VirtualMemoryResource()
        kind = "shmpi.cuda's VirtualMemoryResource"
    nbytes = 2 << 20
    try:
        buf = resource.allocate(nbytes)
    except TypeError:  # cuda.core 1.x: the stream too
        buf = resource.allocate(nbytes, stream=core.Device().create_stream())
    ext = nvshmem.Array(int(buf.handle), (nbytes // 8,), "int64", owner=buf)
    cuda.from_host(ext, np.arange(nbytes // 8, dtype=np.int64) + 1000 * ME)
    check("register_external_array of VMM memory (%s)" % kind,
          nvshmem.register_external_array(ext) is ext)
    host_barrier()
    got = new((16,), "int64")
    nvshmem.get(got, ext, RIGHT, stream=S)
    S.synchronize()
    check("get from registered VMM memory", (host(got) == np.arange(16) + 1000 * RIGHT).all())
    name = "get_peer_array of VMM memory"
    if peer_mapped(name, ext, LEFT):
        peer = nvshmem.get_peer_array(ext, LEFT)
        check(name, (host(peer)[:16] == np.arange(16) + 1000 * LEFT).all())
        del peer
    nvshmem.put(ext, got, RIGHT, stream=S)  # the right PE's first values, back to it
    nvshmem.barrier_all(stream=S)
    S.synchronize()
    check("put into registered VMM memory", (host(ext)[:16] == np.arange(16) + 1000 * ME).all())
    host_barrier()
    nvshmem.unregister_external_array(ext)
    nvshmem.free_array(got)
    del ext
    buf.close()


def mp_summary():
    """Adds every PE's counts (shmem_int64_sum_reduce on the host heap)."""
    buf = L.shmem_malloc(32)
    counts = (ctypes.c_int64 * 4).from_address(buf)
    counts[0], counts[1] = passed, failed
    host_barrier()
    L.shmem_int64_sum_reduce(ctypes.c_void_p(int(WORLD)), buf + 16, buf, 2)
    total = counts[2], counts[3]
    L.shmem_free(buf)
    return total


def main():
    unit()
    if "--unit" in sys.argv[1:]:
        print("%d passed, %d failed" % (passed, failed), flush=True)
        return 0 if failed == 0 else 1
    watchdog(float(os.environ.get("SHMPI_PY_CHECK_TIMEOUT", "60")))
    group(mp_init)
    if S is None:  # no start: nothing else can run
        print("%d passed, %d failed" % (passed, failed), flush=True)
        return 1
    for g in (mp_names, mp_teams, mp_memory, mp_copies_land, mp_put_get, mp_signals,
              mp_barriers, mp_buffers, mp_new_teams, mp_reduce, mp_reducescatter, mp_moves,
              mp_external, mp_vmm):
        group(g)
    S.close()
    total_passed, total_failed = mp_summary()
    nvshmem.finalize()
    if PRE is not None:
        flag = ctypes.c_int(0)
        PRE.shmem_query_initialized(ctypes.byref(flag))
        if flag.value != 1:
            total_failed += 1
            print("FAIL PE %d: finalize ended the other binding's OpenSHMEM" % ME, flush=True)
        PRE.shmem_finalize()
    if ME == 0:
        print("%d passed, %d failed%s" % (total_passed, total_failed,
                                          ", %d skipped" % skipped if skipped else ""), flush=True)
    return 0 if total_failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
