"""shmpi.core: NVSHMEM4Py's nvshmem.core names and signatures (0.1.x, and 0.4.1's as
docs/python.md's table says) over shmpi's stream routines (shmemx.h: shmemx_*_on_stream,
shmemx_device_*), through ctypes, the hot routines through the compiled shmpi._fast where
it is built (get_version().python_path says which), and host memory (host_array) without a
GPU.

    import shmpi.core as nvshmem        # for code written `nvshmem.init(...)`
    # or: import shmpi as nvshmem       # for code written `nvshmem.core.init(...)`

init() starts OpenSHMEM over MPI (unless shmem4py or the program did) and the device heap;
array()/buffer() allocate symmetric device memory (shmemx_device_malloc); put/get/put_signal,
signal_op/signal_wait, quiet and the collectives enqueue on a CUDA stream and return at once.
Arrays: anything with __cuda_array_interface__ or DLPack.  Streams: anything with
__cuda_stream__, CuPy/Torch/Numba streams, an int handle, or None (the default stream).
docs/python.md, "GPU streams from Python"."""
import ctypes
import enum
import math
import os
import sys
import warnings

from . import _lib
from ._interop import (DTYPES, REDUCE_OPS, kDLCPU, Array, Buffer, ShmpiError, ShmpiInvalid, array_info,
                       dtype_name, itemsize, move_routine, reduce_ops, reduce_routine,
                       stream_handle)
from .cuda import Stream, to_host, from_host

__all__ = [
    # setup
    "init", "finalize", "init_status", "get_version", "my_pe", "n_pes", "team_my_pe",
    "team_n_pes", "Teams", "InitStatus", "Version",
    # teams
    "Team", "TeamConfig", "team_split_strided", "team_split_2d", "team_init", "team_destroy",
    "team_translate_pe", "get_team_unique_id", "TeamUniqueId",
    # memory
    "array", "buffer", "free_array", "free", "get_peer_array", "get_peer_buffer",
    "register_external_array", "unregister_external_array", "register_external_buffer",
    "unregister_external_buffer", "array_get_buffer", "Array", "Buffer", "bytearray",
    "tensor", "bytetensor", "free_tensor", "get_peer_tensor", "tensor_get_buffer",
    "register_external_tensor", "unregister_external_tensor",
    # RMA and signals
    "put", "get", "put_signal", "signal_op", "signal_wait", "quiet", "SignalOp", "p", "g",
    "host_array", "free_host_array",
    "ComparisonType",
    # collectives
    "barrier", "sync", "barrier_all", "sync_all", "reduce", "reducescatter", "fcollect",
    "alltoall", "broadcast",
    # errors, helpers
    "ShmpiError", "ShmpiInvalid", "NvshmemError", "NvshmemInvalid", "Stream", "to_host",
    "from_host", "device_ordinal",
]

NvshmemError = ShmpiError
NvshmemInvalid = ShmpiInvalid


class Teams(enum.IntEnum):
    """The predefined teams: shmem.h's SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED, shmemx.h's
    SHMEMX_TEAM_NODE (the PEs of this machine, NVSHMEM's NVSHMEMX_TEAM_NODE) and
    SHMEMX_TEAM_SAME_MYPE_NODE (the PEs whose index on their machine is this PE's).
    The values are the C handles.  Teams made by team_split_*/team_init are Team objects."""
    TEAM_INVALID = 0
    TEAM_WORLD = 1
    TEAM_SHARED = 2
    TEAM_NODE = 3
    TEAM_SAME_MYPE_NODE = 4


class SignalOp(enum.IntEnum):
    """shmem.h's SHMEM_SIGNAL_SET and SHMEM_SIGNAL_ADD."""
    SIGNAL_SET = 0
    SIGNAL_ADD = 1


class ComparisonType(enum.IntEnum):
    """shmem.h's SHMEM_CMP_*.  A stream waits (signal_wait) for CMP_EQ, CMP_GE, CMP_GT."""
    CMP_EQ = 0
    CMP_NE = 1
    CMP_GT = 2
    CMP_GE = 3
    CMP_LT = 4
    CMP_LE = 5


class InitStatus(enum.IntEnum):
    STATUS_NOT_INITIALIZED = 0
    STATUS_IS_INITIALIZED = 2


class Version:
    """python_path: which path the hot routines take, "compiled (shmpi._fast)" or
    "ctypes (why)" (docs/python.md, "The compiled fast path")."""

    def __init__(self, openshmem_spec_version="", nvshmem4py_version="", libnvshmem_version="",
                 python_path=""):
        self.openshmem_spec_version = openshmem_spec_version
        self.nvshmem4py_version = nvshmem4py_version
        self.libnvshmem_version = libnvshmem_version
        self.python_path = python_path

    def __repr__(self):
        return ("shmpi.core: library %s, OpenSHMEM %s, package %s, calls %s"
                % (self.libnvshmem_version, self.openshmem_spec_version, self.nvshmem4py_version,
                   self.python_path))


# host_only: init(device_heap=False); barrier_all/sync_all/quiet are then the host's.
_state = {"initialized": False, "we_started": False, "host_only": False}
# Symmetric allocations of array()/buffer(), in order: data pointer -> bytes.
_allocations = {}
# Ranges of register_external_array(): data pointer -> bytes.
_registered = {}


# ---- setup ------------------------------------------------------------------------------
def _device_ordinal(device):
    if device is None:
        return -1
    if isinstance(device, bool):
        raise ShmpiInvalid("shmpi: init: device %r is no GPU" % (device,))
    if isinstance(device, int):
        return device
    for attr in ("device_id", "id", "index"):  # cuda.core Device, CuPy Device, torch.device
        v = getattr(device, attr, None)
        if isinstance(v, int):
            return v
        if attr == "index" and hasattr(device, "type") and v is None:
            return -1
    raise ShmpiInvalid("shmpi: init: cannot read a GPU ordinal from %s (give an int, or an "
                       "object with .device_id, .id or .index)" % type(device).__name__)


def _heap_bytes(heap_size):
    if heap_size is None:
        return 0
    if isinstance(heap_size, int):
        if heap_size < 0:
            raise ShmpiInvalid("shmpi: init: heap_size %d is negative" % heap_size)
        return heap_size
    s = str(heap_size).strip().lower()
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
    mult = 1
    if s[-1:] == "b":
        s = s[:-1]
    if s[-1:] in units:
        mult, s = units[s[-1]], s[:-1]
    if not s.isdigit():
        raise ShmpiInvalid("shmpi: init: heap_size %r is no size (bytes, or 16m, 1g)" % (heap_size,))
    return int(s) * mult


def _library_initialized():
    flag = ctypes.c_int(0)
    _lib.load().shmem_query_initialized(ctypes.byref(flag))
    return bool(flag.value)


def init(device=None, uid=None, rank=None, nranks=None, mpi_comm=None, initializer_method="",
         heap_size=0, thread_level=None, device_heap=True):
    """Starts OpenSHMEM over MPI, unless it runs already (shmem4py, or the program, called
    shmem_init: then it is not started again), then the device heap:
    shmemx_device_init(device, heap_size), a no-op if shmem_init started it (with
    SHMPI_DEVICE_HEAP_SIZE set).  Collective over all PEs.

    device: a GPU ordinal, an object with .device_id (cuda.core), .id (CuPy) or .index
    (Torch), or None for the context current in this thread (else the PE's index on its
    machine modulo the GPUs).  heap_size: bytes (or "16m", "1g"); 0 means
    SHMPI_DEVICE_HEAP_SIZE, else 1 GiB.  initializer_method: "mpi" (or "emulated_mpi",
    or "" meaning "mpi"); "uid" is NVSHMEM's own and not supported.  mpi_comm: the PEs are
    those of MPI_COMM_WORLD; a communicator given must hold them all, in their order.
    thread_level: if given, shmem_init_thread(thread_level) instead of shmem_init().
    device_heap=False: no device heap (no GPU needed): host_array() and the host routines."""
    if initializer_method not in ("", "mpi", "emulated_mpi"):
        raise ShmpiInvalid("shmpi: init: initializer_method %r: shmpi starts over MPI only "
                           "(initializer_method=\"mpi\")" % (initializer_method,))
    if uid is not None:
        raise ShmpiInvalid("shmpi: init: unique-id start-up (uid=) is NVSHMEM's own; "
                           "use initializer_method=\"mpi\"")
    ordinal = _device_ordinal(device)
    nbytes = _heap_bytes(heap_size)
    lib = _lib.load()
    if not _library_initialized():
        if thread_level is not None:
            provided = ctypes.c_int(-1)
            if lib.shmem_init_thread(int(thread_level), ctypes.byref(provided)) != 0:
                raise ShmpiError("shmpi: shmem_init_thread(%d) failed" % int(thread_level))
        else:
            lib.shmem_init()
        _state["we_started"] = True
    rc = _lib.need("shmemx_device_init")(ordinal, nbytes) if device_heap else 0
    if rc != 0:
        raise ShmpiError("shmpi: shmemx_device_init(%d, %d) returned %d" % (ordinal, nbytes, rc))
    _state["initialized"] = True
    _state["host_only"] = not device_heap
    _fast_setup()
    _fast_state()
    if mpi_comm is not None and hasattr(mpi_comm, "Get_size"):
        if mpi_comm.Get_size() != n_pes() or mpi_comm.Get_rank() != my_pe():
            raise ShmpiInvalid("shmpi: init: mpi_comm has %d ranks (this one %d), but the PEs "
                               "are MPI_COMM_WORLD's (%d, this one %d)"
                               % (mpi_comm.Get_size(), mpi_comm.Get_rank(), n_pes(), my_pe()))


def finalize():
    """Frees what array()/buffer() left allocated (collective; with a warning), and calls
    shmem_finalize if init() started OpenSHMEM (shmem4py's, say, is left to it)."""
    if not _state["initialized"]:
        return
    lib = _lib.load()
    for allocations, free, what in ((_allocations, lib.shmemx_device_free, "symmetric arrays"),
                                    (_host_allocations, lib.shmem_free, "host arrays")):
        if allocations:
            warnings.warn("shmpi.core.finalize: %d %s were not freed; freeing them"
                          % (len(allocations), what), stacklevel=2)
            for ptr in reversed(list(allocations)):
                free(ptr)
            allocations.clear()
    _state["initialized"] = False
    _fast_state()
    if _state["we_started"]:
        _state["we_started"] = False
        lib.shmem_finalize()


def init_status():
    if _lib._lib is None or not _library_initialized():
        return InitStatus.STATUS_NOT_INITIALIZED
    return InitStatus.STATUS_IS_INITIALIZED


def get_version():
    from . import __version__
    lib = _lib.load()
    major, minor = ctypes.c_int(), ctypes.c_int()
    f = getattr(lib, "shmem_info_get_version", None)
    spec = ""
    if f is not None:
        f.restype, f.argtypes = None, [ctypes.POINTER(ctypes.c_int)] * 2
        f(ctypes.byref(major), ctypes.byref(minor))
        spec = "%d.%d" % (major.value, minor.value)
    return Version(spec, __version__, _lib.path() or "", PYTHON_PATH)


def _need_init(what):
    if not _state["initialized"]:
        raise ShmpiInvalid("shmpi: %s: call shmpi.core.init() first" % what)


def my_pe():
    return _lib.load().shmem_my_pe()


def n_pes():
    return _lib.load().shmem_n_pes()


def _team(team, what):
    t = int(team)
    if t <= 0:
        raise ShmpiInvalid("shmpi: %s: team %r is invalid" % (what, team))
    return ctypes.c_void_p(t)


def team_my_pe(team):
    return _lib.load().shmem_team_my_pe(_team(team, "team_my_pe"))


def team_n_pes(team):
    return _lib.load().shmem_team_n_pes(_team(team, "team_n_pes"))


def device_ordinal():
    """The device heap's GPU ordinal (shmemx_device_ordinal), -1 without a heap."""
    return _lib.need("shmemx_device_ordinal")()


# ---- teams -------------------------------------------------------------------------------
class Team(int):
    """A team made by team_split_strided, team_split_2d or team_init: an int (the C handle,
    shmem_team_t) with the name it was given; accepted wherever a team is."""

    def __new__(cls, handle, name):
        t = int.__new__(cls, handle)
        t.name = name
        return t

    def __repr__(self):
        return "Team(%s, 0x%x)" % (self.name, int(self))

    __str__ = __repr__


class _TeamConfigC(ctypes.Structure):  # shmem.h's shmem_team_config_t
    _fields_ = [("num_contexts", ctypes.c_int)]


class TeamConfig:
    """NVSHMEM's nvshmem_team_config_t: version, num_contexts, uniqueid (for team_init).
    shmpi passes num_contexts to shmem_team_split_* (config_mask bit 0,
    SHMEM_TEAM_NUM_CONTEXTS); version is accepted and not used."""

    def __init__(self, version=1, num_contexts=0, uniqueid=0):
        self.version = int(version)
        self.num_contexts = int(num_contexts)
        self.uniqueid = int(uniqueid)

    def _c(self):
        return _TeamConfigC(self.num_contexts)

    def __repr__(self):
        return "TeamConfig(version=%d, num_contexts=%d, uniqueid=%d)" % (
            self.version, self.num_contexts, self.uniqueid)


# Teams made here, by name: team_destroy takes a name too.
_teams = {}


def _team_config(config, mask, what):
    if config is None:
        config = TeamConfig()
    if not isinstance(config, TeamConfig):
        raise ShmpiInvalid("shmpi: %s: config %r is no TeamConfig" % (what, config))
    c = config._c()
    return c, int(mask) & 1  # SHMEM_TEAM_NUM_CONTEXTS is the only bit shmem.h has


def _made_team(handle, name, default):
    if not handle:
        return None  # this PE is not in the new team (SHMEM_TEAM_INVALID)
    t = Team(handle, name if name is not None else "%s_%x" % (default, handle))
    _teams[t.name] = t
    return t


def team_split_strided(parent_team, start, stride, size, config=None, config_mask=0,
                       new_team_name=None):
    """The parent's PEs start, start+stride, ... (size of them) as a new team
    (shmem_team_split_strided; collective over the parent team).  Returns a Team, or None
    on PEs outside it.  ShmpiInvalid for a triplet outside the parent team."""
    _need_init("team_split_strided")
    parent = _team(parent_team, "team_split_strided")
    n = _lib.load().shmem_team_n_pes(parent)
    start, stride, size = int(start), int(stride), int(size)
    if size < 1 or start < 0 or stride < 1 or start + (size - 1) * stride >= n:
        raise ShmpiInvalid("shmpi: team_split_strided: start %d, stride %d, size %d: the last "
                           "PE %d is not in the parent team (0..%d)"
                           % (start, stride, size, start + (size - 1) * stride, n - 1))
    c, mask = _team_config(config, config_mask, "team_split_strided")
    new = ctypes.c_void_p()
    rc = _lib.need("shmem_team_split_strided")(parent, start, stride, size, ctypes.byref(c),
                                              mask, ctypes.byref(new))
    _check_rc(rc, "shmem_team_split_strided")
    return _made_team(new.value, new_team_name, "TEAM")


def team_split_2d(parent_team, xrange, xaxis_config=None, xaxis_mask=0, yaxis_config=None,
                  yaxis_mask=0, new_team_name=None):
    """The parent's PEs as a grid xrange wide: (x team: my row, y team: my column)
    (shmem_team_split_2d; collective over the parent team).  With new_team_name the teams
    are named NAME_X and NAME_Y."""
    _need_init("team_split_2d")
    parent = _team(parent_team, "team_split_2d")
    if int(xrange) < 1:
        raise ShmpiInvalid("shmpi: team_split_2d: xrange %d is not positive" % int(xrange))
    xc, xm = _team_config(xaxis_config, xaxis_mask, "team_split_2d")
    yc, ym = _team_config(yaxis_config, yaxis_mask, "team_split_2d")
    x, y = ctypes.c_void_p(), ctypes.c_void_p()
    rc = _lib.need("shmem_team_split_2d")(parent, int(xrange), ctypes.byref(xc), xm,
                                         ctypes.byref(x), ctypes.byref(yc), ym, ctypes.byref(y))
    _check_rc(rc, "shmem_team_split_2d")
    base = new_team_name
    return (_made_team(x.value, base + "_X" if base else None, "TEAM_X"),
            _made_team(y.value, base + "_Y" if base else None, "TEAM_Y"))


TeamUniqueId = int  # get_team_unique_id's ids are ints


def get_team_unique_id():
    """A job-unique id for team_init's TeamConfig(uniqueid=...) (shmemx_team_get_uniqueid):
    one PE gets it and tells the others (as NVSHMEM's get_team_unique_id)."""
    _need_init("get_team_unique_id")
    uid = ctypes.c_uint64()
    _check_rc(_lib.need("shmemx_team_get_uniqueid")(ctypes.byref(uid)), "shmemx_team_get_uniqueid")
    return uid.value


def team_init(team_config, config_mask, npes=None, pe_idx_in_team=None, new_team_name=None,
              n_pes=None, my_pe=None):
    """A team of the npes PEs that call team_init with the same team_config.uniqueid, this
    one its PE pe_idx_in_team (shmemx_team_init; collective over those PEs only).
    (n_pes=, my_pe= are accepted for npes=, pe_idx_in_team=.)"""
    _need_init("team_init")
    npes = n_pes if npes is None else npes
    idx = my_pe if pe_idx_in_team is None else pe_idx_in_team
    if npes is None or idx is None:
        raise ShmpiInvalid("shmpi: team_init: give npes and pe_idx_in_team")
    npes, idx = int(npes), int(idx)
    if npes < 1 or not 0 <= idx < npes:
        raise ShmpiInvalid("shmpi: team_init: pe_idx_in_team %d is not in 0..%d (npes %d)"
                           % (idx, npes - 1, npes))
    c, mask = _team_config(team_config, config_mask, "team_init")
    uid = team_config.uniqueid if team_config is not None else 0
    new = ctypes.c_void_p()
    rc = _lib.need("shmemx_team_init")(ctypes.c_uint64(uid), npes, idx, ctypes.byref(c), mask,
                                       ctypes.byref(new))
    _check_rc(rc, "shmemx_team_init")
    t = _made_team(new.value, new_team_name, "TEAM")
    if t is None:
        raise ShmpiError("shmpi: team_init: no team came of uniqueid %d" % uid)
    return t


def team_destroy(team):
    """Destroys a team of team_split_*/team_init, given as the Team, its handle or its
    name (shmem_team_destroy; collective over the team).  Predefined teams are refused."""
    _need_init("team_destroy")
    if isinstance(team, str):
        if team not in _teams:
            raise ShmpiInvalid("shmpi: team_destroy: no team is named %r" % team)
        team = _teams[team]
    if 0 <= int(team) <= max(Teams):
        raise ShmpiInvalid("shmpi: team_destroy: %r is a predefined team" % (team,))
    _lib.load().shmem_team_destroy(_team(team, "team_destroy"))
    for name, t in list(_teams.items()):
        if int(t) == int(team):
            del _teams[name]


def team_translate_pe(src_team, src_pe, dest_team):
    """The number in dest_team of src_team's PE src_pe, or -1 if it is not in dest_team
    (shmem_team_translate_pe)."""
    _need_init("team_translate_pe")
    return _lib.load().shmem_team_translate_pe(_team(src_team, "team_translate_pe"), int(src_pe),
                                               _team(dest_team, "team_translate_pe"))


# ---- memory -----------------------------------------------------------------------------
_cupy = []


def _cupy_module():
    if not _cupy:
        if os.environ.get("SHMPI_PY_NO_CUPY"):
            _cupy.append(None)
        else:
            try:
                import cupy
                _cupy.append(cupy)
            except Exception:
                _cupy.append(None)
    return _cupy[0]


def _symmetric_malloc(nbytes, what):
    _need_init(what)
    if nbytes <= 0:
        raise ShmpiInvalid("shmpi: %s: %d bytes: nothing to allocate" % (what, nbytes))
    ptr = _lib.load().shmemx_device_malloc(nbytes)
    if not ptr:
        raise ShmpiError("shmpi: %s: shmemx_device_malloc(%d) returned NULL: the device heap "
                         "is full (a larger heap_size in init, or SHMPI_DEVICE_HEAP_SIZE)"
                         % (what, nbytes))
    _allocations[ptr] = nbytes
    return ptr


def _wrap(ptr, shape, name, order, owner_obj=None, like=None):
    """An array over device memory at ptr: CuPy's when CuPy is there and has the dtype
    (or `like` is a CuPy array), Torch's when `like` is a Torch tensor, else Array."""
    cupy = _cupy_module()
    ordinal = max(device_ordinal(), 0)
    mod = type(like).__module__ if like is not None else ""
    if mod.startswith("torch"):
        import torch
        return torch.from_dlpack(Array(ptr, shape, name, ordinal, order, owner_obj))
    if cupy is not None and name != "bfloat16" and (like is None or mod.startswith("cupy")):
        nbytes = math.prod(shape) * itemsize(name)
        mem = cupy.cuda.UnownedMemory(ptr, nbytes, owner_obj, ordinal)
        return cupy.ndarray(shape, dtype=name, memptr=cupy.cuda.MemoryPointer(mem, 0),
                            order=order)
    return Array(ptr, shape, name, ordinal, order, owner_obj)


def buffer(size, release=False, except_on_del=True):
    """size bytes of symmetric device memory (collective) as a Buffer: .handle (the device
    address) and .size (bytes), viewed through DLPack and __cuda_array_interface__ as uint8,
    accepted wherever an array is.  Free it with free()."""
    ptr = _symmetric_malloc(int(size), "buffer")
    return Buffer(ptr, int(size), max(device_ordinal(), 0))


def array_get_buffer(array):
    """(Buffer, size in bytes, dtype name) of a symmetric array (of array(), or registered):
    the untyped memory under it, which put_signal/signal_wait and the rest accept."""
    _need_init("array_get_buffer")
    info = array_info(array, "array_get_buffer")
    return Buffer(info.ptr, info.nbytes, max(device_ordinal(), 0), owner=array), info.nbytes, \
        info.dtype


def array(shape, dtype="float32", release=False, morder="C"):
    """A symmetric device array (shmemx_device_malloc; collective): a CuPy array when CuPy
    imports (and has the dtype), else a shmpi.core.Array.  Free it with free_array()."""
    if isinstance(shape, int):
        shape = (shape,)
    shape = tuple(int(n) for n in shape)
    name = dtype_name(dtype)
    if morder not in ("C", "F"):
        raise ShmpiInvalid("shmpi: array: morder %r is neither \"C\" nor \"F\"" % (morder,))
    ptr = _symmetric_malloc(max(math.prod(shape), 1) * itemsize(name), "array")
    return _wrap(ptr, shape, name, morder)


def _free_symmetric(obj, what):
    _need_init(what)
    info = array_info(obj, what)
    if info.ptr not in _allocations:
        raise ShmpiInvalid("shmpi: %s: 0x%x is no array of shmpi.core.array()/buffer() (or "
                           "it was freed)" % (what, info.ptr))
    del _allocations[info.ptr]
    _lib.load().shmemx_device_free(info.ptr)


def free_array(array):
    """Frees an array of array() (collective)."""
    _free_symmetric(array, "free_array")


def free(buffer):
    """Frees a buffer of buffer() (collective)."""
    _free_symmetric(buffer, "free")


def get_peer_array(array, peer_pe=None):
    """The array of PE peer_pe that corresponds to `array` (symmetric), mapped into this
    process (shmem_ptr), of the same kind, shape and dtype: a kernel of this GPU may load and
    store it.  ShmpiError where the peer's memory is not mapped (another node)."""
    _need_init("get_peer_array")
    pe = my_pe() if peer_pe is None else _pe(peer_pe, "get_peer_array")
    info = array_info(array, "get_peer_array")
    peer = _lib.load().shmem_ptr(info.ptr, pe)
    if not peer:
        raise ShmpiError("shmpi: get_peer_array: shmem_ptr(0x%x, %d) is NULL: PE %d's memory is "
                         "not mapped here (another node, or not symmetric)" % (info.ptr, pe, pe))
    if isinstance(array, Buffer):
        return Buffer(peer, info.nbytes, array.device_id, owner=array)
    order = getattr(array, "order", "C") if isinstance(array, Array) else "C"
    flags = getattr(array, "flags", None)
    if flags is not None and getattr(flags, "f_contiguous", False) and not getattr(
            flags, "c_contiguous", True):
        order = "F"
    return _wrap(peer, info.shape, info.dtype, order, array, like=array)


def get_peer_buffer(buffer, pe):
    """The Buffer of PE pe that corresponds to `buffer` (symmetric), mapped into this
    process (shmem_ptr): get_peer_array for buffers."""
    if not isinstance(buffer, Buffer):
        info = array_info(buffer, "get_peer_buffer")
        buffer = Buffer(info.ptr, info.nbytes, max(device_ordinal(), 0), owner=buffer)
    return get_peer_array(buffer, pe)


def register_external_array(array):
    """Makes device memory the program allocated (cudaMalloc, the same size on every PE)
    symmetric: shmemx_device_register (collective).  Returns the array itself: its
    address names the peers' arrays in put/get/signals/collectives and get_peer_array."""
    _need_init("register_external_array")
    info = array_info(array, "register_external_array")
    rc = _lib.need("shmemx_device_register")(info.ptr, info.nbytes)
    if rc != 0:
        raise ShmpiError("shmpi: register_external_array: shmemx_device_register(0x%x, %d) "
                         "returned %d (not device memory, or overlapping a registered range)"
                         % (info.ptr, info.nbytes, rc))
    _registered[info.ptr] = info.nbytes
    return array


def unregister_external_array(array):
    """Undoes register_external_array (collective): shmemx_device_unregister."""
    _need_init("unregister_external_array")
    info = array_info(array, "unregister_external_array")
    rc = _lib.need("shmemx_device_unregister")(info.ptr)
    if rc != 0:
        raise ShmpiError("shmpi: unregister_external_array: shmemx_device_unregister(0x%x) "
                         "returned %d (no registered range starts there)" % (info.ptr, rc))
    _registered.pop(info.ptr, None)


register_external_buffer = register_external_array
unregister_external_buffer = unregister_external_array
register_external_tensor = register_external_array  # a tensor is an array (DLPack)
unregister_external_tensor = unregister_external_array


def bytearray(shape, release=False, morder="C"):
    """A symmetric uint8 array (NVSHMEM4Py's interop.cupy.bytearray): array(shape, "uint8")."""
    return array(shape, "uint8", release, morder)


# NVSHMEM4Py's interop.torch: the same memory as Torch tensors (through DLPack).
def tensor(shape, dtype=None, release=False):
    """A symmetric device tensor (collective) of Torch's dtype (default torch.float32)."""
    import torch
    dtype = torch.float32 if dtype is None else dtype
    shape = (shape,) if isinstance(shape, int) else tuple(int(n) for n in shape)
    name = dtype_name(dtype)
    ptr = _symmetric_malloc(max(math.prod(shape), 1) * itemsize(name), "tensor")
    return torch.from_dlpack(Array(ptr, shape, name, max(device_ordinal(), 0)))


def bytetensor(shape, release=False):
    import torch
    return tensor(shape, torch.uint8, release)


free_tensor = free_array
get_peer_tensor = get_peer_array
tensor_get_buffer = array_get_buffer


# ---- host memory: the symmetric heap of shmem_malloc, as numpy arrays ------------------
# host_array()'s allocations: data pointer -> bytes.
_host_allocations = {}


def host_array(shape, dtype="float32"):
    """A numpy array over symmetric host memory (shmem_malloc; collective), so a program
    runs without a GPU (init(device_heap=False)): put/get/p/g take it as the symmetric
    side, with no stream.  Free it with free_host_array()."""
    import numpy
    _need_init("host_array")
    shape = (shape,) if isinstance(shape, int) else tuple(int(n) for n in shape)
    name = dtype_name(dtype)
    if name == "bfloat16":
        raise ShmpiInvalid("shmpi: host_array: numpy has no bfloat16")
    if any(n < 0 for n in shape):
        raise ShmpiInvalid("shmpi: host_array: shape %r has a negative dimension" % (shape,))
    count = math.prod(shape)
    nbytes = max(count, 1) * itemsize(name)
    ptr = _lib.load().shmem_malloc(nbytes)
    if not ptr:
        raise ShmpiError("shmpi: host_array: shmem_malloc(%d) returned NULL: the symmetric "
                         "heap is full (SHMEM_SYMMETRIC_SIZE)" % nbytes)
    _host_allocations[ptr] = nbytes
    memory = (ctypes.c_char * nbytes).from_address(ptr)
    return numpy.frombuffer(memory, dtype=name, count=count).reshape(shape)


def free_host_array(array):
    """Frees an array of host_array() (collective: shmem_free)."""
    _need_init("free_host_array")
    info = array_info(array, "free_host_array")
    if info.ptr not in _host_allocations:
        raise ShmpiInvalid("shmpi: free_host_array: 0x%x is no array of host_array() (or it "
                           "was freed)" % info.ptr)
    del _host_allocations[info.ptr]
    _lib.load().shmem_free(info.ptr)


def _host_element(array, remote_pe, what):
    _need_init(what)
    info = array_info(array, what)
    if info.device_type != kDLCPU:
        raise ShmpiInvalid("shmpi: %s: the array is device memory; p and g take host_array()s"
                           % what)
    if info.nbytes < 1:
        raise ShmpiInvalid("shmpi: %s: the array is empty" % what)
    return info, _pe(remote_pe, what)


def p(dst, value, remote_pe):
    """dst's first element on PE remote_pe = value (dst: a host_array(); shmem_putmem of
    one element, as shmem_TYPE_p)."""
    import numpy
    info, pe = _host_element(dst, remote_pe, "p")
    v = numpy.array([value], dtype=info.dtype)
    _lib.load().shmem_putmem(info.ptr, v.ctypes.data, v.nbytes, pe)


def g(src, remote_pe):
    """src's first element on PE remote_pe (src: a host_array(); shmem_TYPE_g)."""
    import numpy
    info, pe = _host_element(src, remote_pe, "g")
    v = numpy.zeros(1, dtype=info.dtype)
    _lib.load().shmem_getmem(v.ctypes.data, info.ptr, v.nbytes, pe)
    return v[0].item()


# ---- RMA and signals --------------------------------------------------------------------
def _pe(pe, what):
    p = int(pe)
    n = n_pes()
    if not 0 <= p < n:
        raise ShmpiInvalid("shmpi: %s: remote_pe %d is not a PE (0..%d)" % (what, p, n - 1))
    return p


def _signal_ptr(signal_var, what):
    info = array_info(signal_var, what + " signal_var")
    if info.nbytes < 8:
        raise ShmpiInvalid("shmpi: %s: signal_var has %d bytes, a signal needs 8 (uint64)"
                           % (what, info.nbytes))
    if info.ptr % 8:
        raise ShmpiInvalid("shmpi: %s: signal_var 0x%x is not 8-byte aligned" % (what, info.ptr))
    return info.ptr


def _rma(kind, dst, src, remote_pe, stream, signal=None):
    what = kind
    _need_init(what)
    d = array_info(dst, what + " dst")
    s = array_info(src, what + " src")
    pe = _pe(remote_pe, what)
    h = stream_handle(stream)
    nbytes = min(d.nbytes, s.nbytes)
    symmetric = s if kind == "get" else d
    if symmetric.device_type == kDLCPU and signal is None:
        # the host's symmetric heap (host_array): OpenSHMEM's own routines, no stream
        if stream is not None:
            raise ShmpiInvalid("shmpi: %s: the symmetric array is host memory (host_array): "
                               "give no stream" % what)
        host = _lib.load().shmem_getmem if kind == "get" else _lib.load().shmem_putmem
        host(d.ptr, s.ptr, nbytes, pe)
        return
    name = d.dtype if d.dtype == s.dtype else "uint8"
    routine, elem = move_routine(kind, name)
    f = _lib.need(routine)
    if signal is None:
        f(d.ptr, s.ptr, nbytes // elem, pe, h)
    else:
        sig, value, op = signal
        f(d.ptr, s.ptr, nbytes // elem, sig, int(value), int(op), pe, h)


def put(dst, src, remote_pe=-1, stream=None):
    """Copies src (local: device or host) into dst on PE remote_pe (symmetric), on `stream`:
    min(dst.nbytes, src.nbytes) bytes.  A dst of host_array() is put by shmem_putmem
    (stream None)."""
    _rma("put", dst, src, remote_pe, stream)


def get(dst, src, remote_pe=-1, stream=None):
    """Copies src on PE remote_pe (symmetric) into the local dst, on `stream`.  A src of
    host_array() is read by shmem_getmem (stream None): dst holds it on return."""
    _rma("get", dst, src, remote_pe, stream)


def put_signal(dst, src, signal_var, signal_val, signal_op, remote_pe=-1, stream=None):
    """put, then signal_var on remote_pe set to (SIGNAL_SET) or increased by (SIGNAL_ADD)
    signal_val, after the data, on `stream`."""
    _need_init("put_signal")
    op = _signal_kind(signal_op, "put_signal")
    _rma("put_signal", dst, src, remote_pe, stream,
         (_signal_ptr(signal_var, "put_signal"), signal_val, op))


def _signal_kind(op, what):
    try:
        return SignalOp(int(op))
    except (ValueError, TypeError):
        raise ShmpiInvalid("shmpi: %s: signal_op %r is neither SignalOp.SIGNAL_SET nor "
                           "SIGNAL_ADD" % (what, op)) from None


def signal_op(signal_var, signal_val, signal_op, remote_pe=-1, stream=None):
    """signal_var on PE remote_pe set to / increased by signal_val, on `stream`."""
    _need_init("signal_op")
    op = _signal_kind(signal_op, "signal_op")
    _lib.need("shmemx_signal_op_on_stream")(_signal_ptr(signal_var, "signal_op"),
                                            int(signal_val), int(op),
                                            _pe(remote_pe, "signal_op"), stream_handle(stream))


_STREAM_CMPS = (ComparisonType.CMP_EQ, ComparisonType.CMP_GE, ComparisonType.CMP_GT)


def signal_wait(signal_var, signal_val, signal_op, stream=None):
    """Holds `stream` (not the host) until the local signal_var compares with signal_val
    by signal_op (a ComparisonType: CMP_EQ, CMP_GE or CMP_GT, what the driver's stream
    waits can do)."""
    _need_init("signal_wait")
    try:
        cmp = ComparisonType(int(signal_op))
    except (ValueError, TypeError):
        raise ShmpiInvalid("shmpi: signal_wait: %r is no ComparisonType" % (signal_op,)) from None
    if cmp not in _STREAM_CMPS:
        raise ShmpiInvalid("shmpi: signal_wait: %s: a stream waits for CMP_EQ, CMP_GE or CMP_GT "
                           "only (the CUDA driver's stream waits)" % cmp.name)
    _lib.need("shmemx_signal_wait_until_on_stream")(_signal_ptr(signal_var, "signal_wait"),
                                                    int(cmp), int(signal_val),
                                                    stream_handle(stream))


def quiet(stream=None):
    """`stream` waits for this PE's earlier puts (of the stream, and the host routines'
    nonblocking copies to the device heap)."""
    _need_init("quiet")
    if _state["host_only"] and stream is None:
        _lib.load().shmem_quiet()
        return
    _lib.need("shmemx_quiet_on_stream")(stream_handle(stream))


# ---- collectives ------------------------------------------------------------------------
def _check_rc(rc, routine):
    if rc:
        raise ShmpiError("shmpi: %s returned %d" % (routine, rc))


def barrier(team, stream=None):
    """A barrier of `team` on `stream` (the stream waits, not the host)."""
    _need_init("barrier")
    _check_rc(_lib.need("shmemx_barrier_on_stream")(_team(team, "barrier"), stream_handle(stream)),
              "shmemx_barrier_on_stream")


def sync(team, stream=None):
    """A sync of `team` on `stream`."""
    _need_init("sync")
    _check_rc(_lib.need("shmemx_team_sync_on_stream")(_team(team, "sync"), stream_handle(stream)),
              "shmemx_team_sync_on_stream")


def barrier_all(stream=None):
    _need_init("barrier_all")
    if _state["host_only"] and stream is None:
        _lib.load().shmem_barrier_all()
        return
    _lib.need("shmemx_barrier_all_on_stream")(stream_handle(stream))


def sync_all(stream=None):
    _need_init("sync_all")
    if _state["host_only"] and stream is None:
        _lib.load().shmem_sync_all()
        return
    _lib.need("shmemx_sync_all_on_stream")(stream_handle(stream))


def _pair(coll, dst, src):
    _need_init(coll)
    d = array_info(dst, coll + " dst")
    s = array_info(src, coll + " src")
    if d.dtype != s.dtype:
        raise ShmpiInvalid("shmpi: %s: dst is %s but src is %s" % (coll, d.dtype, s.dtype))
    return d, s


def reduce(team, dst_array, src_array, op, stream=None):
    """dst_array (on every PE of team) = op over the team's src_arrays, elementwise, for
    dst_array's elements; op: "sum", "prod", "min", "max", and for integers "and", "or",
    "xor".  On `stream`."""
    d, s = _pair("reduce", dst_array, src_array)
    routine = reduce_routine("reduce", d.dtype, op)
    if s.size < d.size:
        raise ShmpiInvalid("shmpi: reduce: src has %d elements, dst %d" % (s.size, d.size))
    _check_rc(_lib.need(routine)(_team(team, "reduce"), d.ptr, s.ptr, d.size,
                                 stream_handle(stream)), routine)


def reducescatter(team, dst_array, src_array, op, stream=None):
    """Reduces the team's src_arrays (team_n_pes blocks of dst_array's size) and gives each
    PE its block: PE i of the team gets block i.  On `stream`."""
    d, s = _pair("reducescatter", dst_array, src_array)
    routine = reduce_routine("reducescatter", d.dtype, op)
    n = team_n_pes(team)
    if s.size < d.size * n:
        raise ShmpiInvalid("shmpi: reducescatter: src has %d elements, needs %d (dst's %d for "
                           "each of %d PEs)" % (s.size, d.size * n, d.size, n))
    _check_rc(_lib.need(routine)(_team(team, "reducescatter"), d.ptr, s.ptr, d.size,
                                 stream_handle(stream)), routine)


def fcollect(team, dst_array, src_array, stream=None):
    """dst_array = the team's src_arrays one after another, in team order.  On `stream`."""
    d, s = _pair("fcollect", dst_array, src_array)
    n = team_n_pes(team)
    if d.size < s.size * n:
        raise ShmpiInvalid("shmpi: fcollect: dst has %d elements, needs %d (src's %d from each "
                           "of %d PEs)" % (d.size, s.size * n, s.size, n))
    routine, elem = move_routine("fcollect", d.dtype)
    _check_rc(_lib.need(routine)(_team(team, "fcollect"), d.ptr, s.ptr,
                                 s.nbytes // elem, stream_handle(stream)), routine)


def alltoall(team, dst_array, src_array, stream=None):
    """Block j of src_array goes to PE j, into block i (this PE's) of its dst_array; a block
    is src_array's size over team_n_pes.  On `stream`."""
    d, s = _pair("alltoall", dst_array, src_array)
    n = team_n_pes(team)
    if s.size % n:
        raise ShmpiInvalid("shmpi: alltoall: src's %d elements do not split into %d blocks"
                           % (s.size, n))
    if d.size < s.size:
        raise ShmpiInvalid("shmpi: alltoall: dst has %d elements, src %d" % (d.size, s.size))
    routine, elem = move_routine("alltoall", d.dtype)
    _check_rc(_lib.need(routine)(_team(team, "alltoall"), d.ptr, s.ptr,
                                 s.nbytes // n // elem, stream_handle(stream)), routine)


def broadcast(team, dst_array, src_array, root=0, stream=None):
    """dst_array on every PE of team = src_array of the team's PE root (dst's size).
    On `stream`."""
    d, s = _pair("broadcast", dst_array, src_array)
    n = team_n_pes(team)
    if not 0 <= int(root) < n:
        raise ShmpiInvalid("shmpi: broadcast: root %d is no PE of the team (0..%d)" % (root, n - 1))
    if s.size < d.size:
        raise ShmpiInvalid("shmpi: broadcast: src has %d elements, dst %d" % (s.size, d.size))
    routine, elem = move_routine("broadcast", d.dtype)
    _check_rc(_lib.need(routine)(_team(team, "broadcast"), d.ptr, s.ptr, d.nbytes // elem,
                                 int(root), stream_handle(stream)), routine)


# ---- the compiled fast path (shmpi._fast; docs/python.md, "The compiled fast path") -------
# The routines below are replaced by shmpi._fast's, which do the common case in C and
# hand everything else, unchanged, to these Python functions (kept as _py.NAME).
_FAST_ROUTINES = ("put", "get", "put_signal", "signal_op", "signal_wait", "barrier_all",
                  "sync_all", "quiet", "barrier", "sync", "reduce", "fcollect")
_FAST_SINGLES = ("shmem_n_pes", "shmem_team_n_pes", "shmem_putmem", "shmem_getmem", "shmemx_signal_op_on_stream",
                 "shmemx_signal_wait_until_on_stream", "shmemx_barrier_all_on_stream",
                 "shmemx_sync_all_on_stream", "shmemx_quiet_on_stream",
                 "shmemx_barrier_on_stream", "shmemx_team_sync_on_stream")


def _load_fast():
    """(shmpi._fast or None, PYTHON_PATH's text)."""
    if os.environ.get("SHMPI_PY_NO_FAST", "0") not in ("", "0"):
        return None, "ctypes (SHMPI_PY_NO_FAST is set)"
    try:
        from . import _fast
    except ImportError as e:
        return None, "ctypes (no compiled shmpi._fast: %s)" % e
    return _fast, "compiled (shmpi._fast)"


def _typestr_table():
    """typestr -> dtype index for every typestr dtype_name takes of the usual forms."""
    names = list(DTYPES)
    table = {}
    for order in ("", "<", "|", "=", ">"):
        for kind in "biufc":
            for size in (1, 2, 4, 8, 16):
                ts = "%s%s%d" % (order, kind, size)
                try:
                    table[ts] = names.index(dtype_name(ts))
                except ShmpiInvalid:
                    pass
    return table


def _numpy_formats():
    """numpy's buffer format -> dtype index, for the dtypes array_info reads from numpy
    arrays (through DLPack) as the same dtype: shmpi._fast reads numpy arrays by their
    buffer, only where that agrees."""
    numpy = sys.modules.get("numpy")
    names = list(DTYPES)
    table = {}
    if numpy is None:
        return table
    for code in "?bhilqBHILQefdFD":
        try:
            a = numpy.zeros(2, dtype=code)
            table[memoryview(a).format] = names.index(array_info(a).dtype)
        except Exception:  # a dtype DLPack or shmpi does not take: the Python path
            pass
    return table


def _fast_bind():
    fast, why = _load_fast()
    if fast is None:
        return None, why
    names = list(DTYPES)
    slow = {name: globals()[name] for name in _FAST_ROUTINES}
    fast.bind(slow, Array, Stream, ShmpiError, {n: i for i, n in enumerate(names)},
              _typestr_table(), {DTYPES[n][3]: i for i, n in enumerate(names)}, _numpy_formats)
    return fast, why


def _fast_setup():
    """Gives shmpi._fast the library's routines (at init: the library is loaded)."""
    if _fast is None:
        return
    lib = _lib.load()

    def address(name):
        f = _lib.routine(name) if name else None
        return ctypes.cast(f, ctypes.c_void_p).value or 0 if f is not None else 0
    names = list(DTYPES)
    moves = {}
    for kind in ("put", "get", "put_signal", "fcollect"):
        moves[kind] = []
        for n in names:
            routine, elem = move_routine(kind, n)
            moves[kind].append((address(routine), elem, routine))
    reduces = []
    for n in names:
        row = []
        for op in REDUCE_OPS:
            routine = reduce_routine("reduce", n, op) if op in reduce_ops(n) else ""
            row.append((address(routine), 1, routine))
        reduces.append(row)
    singles = {name: ctypes.cast(getattr(lib, name), ctypes.c_void_p).value or 0
               for name in _FAST_SINGLES if hasattr(lib, name)}
    try:
        _fast.setup(singles, [itemsize(n) for n in names], moves, reduces, names.index("uint8"))
    except ValueError:  # a library without some routine: the Python path says so per call
        pass


def _fast_state():
    """Gives shmpi._fast what it reads of _state on every call (at each change)."""
    if _fast is not None:
        _fast.state(_state["initialized"], _state["host_only"])


class _PythonRoutines:
    """The Python functions of the hot routines (the reference, and the fallback)."""


_py = _PythonRoutines()
for _name in _FAST_ROUTINES:
    setattr(_py, _name, globals()[_name])
_fast, PYTHON_PATH = _fast_bind()
if _fast is not None:
    for _name in _FAST_ROUTINES:
        globals()[_name] = getattr(_fast, _name)
del _name
