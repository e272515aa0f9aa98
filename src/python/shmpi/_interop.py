"""What shmpi.core reads from the objects it is given, without CuPy, Torch, Numba or numpy:
dtypes (and the typed C routines they choose), arrays (__cuda_array_interface__ v3, DLPack),
streams (__cuda_stream__, .cuda_stream, .ptr, .handle, int, None), and the package's own
device array (shmpi.core.Array), which exports both array protocols."""
import ctypes
import math

from ._errors import ShmpiError, ShmpiInvalid  # noqa: F401 (their home for the modules above)


# ---- dtypes -------------------------------------------------------------------------------
# canonical name: (bytes, C type name of shmemx.h, typestr, DLPack (code, bits))
# DLPack codes: 0 int, 1 uint, 2 float, 4 bfloat, 5 complex, 6 bool.
DTYPES = {
    "bool": (1, "uint8", "|b1", (6, 8)),
    "int8": (1, "int8", "|i1", (0, 8)),
    "int16": (2, "int16", "<i2", (0, 16)),
    "int32": (4, "int32", "<i4", (0, 32)),
    "int64": (8, "int64", "<i8", (0, 64)),
    "uint8": (1, "uint8", "|u1", (1, 8)),
    "uint16": (2, "uint16", "<u2", (1, 16)),
    "uint32": (4, "uint32", "<u4", (1, 32)),
    "uint64": (8, "uint64", "<u8", (1, 64)),
    "float16": (2, "half", "<f2", (2, 16)),
    "bfloat16": (2, "bfloat16", "<V2", (4, 16)),
    "float32": (4, "float", "<f4", (2, 32)),
    "float64": (8, "double", "<f8", (2, 64)),
    "complex64": (8, "complexf", "<c8", (5, 64)),
    "complex128": (16, "complexd", "<c16", (5, 128)),
}
SUPPORTED = ("bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, "
             "bfloat16, float32, float64, complex64, complex128")
# Names numpy, CuPy, Torch and C give the same types (numpy's meanings: "int" and
# "float" are 64 bits).
_ALIASES = {
    "int": "int64", "long": "int64", "int_": "int64", "intp": "int64", "longlong": "int64",
    "uint": "uint64", "ulong": "uint64", "uintp": "uint64", "ulonglong": "uint64",
    "short": "int16", "ushort": "uint16", "intc": "int32", "uintc": "uint32",
    "byte": "int8", "ubyte": "uint8", "char": "int8", "uchar": "uint8",
    "half": "float16", "float": "float64", "double": "float64", "single": "float32",
    "float_": "float64", "complex": "complex128", "cfloat": "complex128",
    "csingle": "complex64", "cdouble": "complex128", "complex_": "complex128",
    "bool_": "bool", "bool8": "bool", "bf16": "bfloat16",
}
_NUMPY_CODES = {"?": "bool", "b": "int8", "h": "int16", "i": "int32", "l": "int64",
                "q": "int64", "B": "uint8", "H": "uint16", "I": "uint32", "L": "uint64",
                "Q": "uint64", "e": "float16", "f": "float32", "d": "float64",
                "F": "complex64", "D": "complex128"}
_KINDS = {"b": "bool", "i": "int", "u": "uint", "f": "float", "c": "complex"}


def dtype_name(dtype):
    """The canonical name of a dtype given as a string ("float32", "<f4", "f", "int"),
    a numpy/CuPy dtype or scalar type, a Torch dtype, a Python type (int, float,
    complex, bool) or a DLPack (code, bits) pair; ShmpiInvalid naming it otherwise."""
    given = dtype
    if isinstance(dtype, tuple) and len(dtype) == 2:
        for name, (_, _, _, dl) in DTYPES.items():
            if dl == tuple(dtype):
                return name
        raise ShmpiInvalid("shmpi: DLPack dtype (code %d, bits %d) has no shmpi routines "
                           "(supported: %s)" % (dtype[0], dtype[1], SUPPORTED))
    if dtype is bool:
        return "bool"
    if dtype is int:
        return "int64"
    if dtype is float:
        return "float64"
    if dtype is complex:
        return "complex128"
    if not isinstance(dtype, str):
        # numpy/CuPy dtypes and scalar types have .name or __name__; Torch's print
        # "torch.float32"; ml_dtypes' bfloat16 is named so.
        name = getattr(dtype, "name", None)
        if not isinstance(name, str):
            name = getattr(dtype, "__name__", None)
        if not isinstance(name, str):
            name = str(dtype)
        dtype = name
    s = dtype.strip()
    if s in _NUMPY_CODES:  # numpy's one-character codes, case-sensitive
        return _NUMPY_CODES[s]
    if s.startswith("torch."):
        s = s[len("torch."):]
    if s.lower() in DTYPES:
        return s.lower()
    if s.lower() in _ALIASES:
        return _ALIASES[s.lower()]
    # A typestr: [<>|=]kind[bytes], the kind case-sensitive ("U4" is text, "u4" uint32)
    t = s
    order = ""
    if t[:1] in "<>|=":
        order, t = t[0], t[1:]
    if len(t) >= 1 and t[0] in _KINDS and (len(t) == 1 or t[1:].isdigit()):
        if order == ">" and t[1:] not in ("", "1"):
            raise ShmpiInvalid("shmpi: dtype %r is big-endian: no shmpi routines" % (given,))
        kind = _KINDS[t[0]]
        if len(t) == 1:
            raise ShmpiInvalid("shmpi: dtype %r has no size" % (given,))
        nbytes = int(t[1:])
        name = "bool" if kind == "bool" else "%s%d" % (kind, nbytes * 8)
        if name in DTYPES and (kind != "bool" or nbytes == 1):
            return name
    raise ShmpiInvalid("shmpi: dtype %r has no shmpi routines (supported: %s)"
                       % (str(given), SUPPORTED))


def itemsize(name):
    return DTYPES[name][0]


def c_type(name):
    """The TYPENAME of the shmemx_TYPENAME_* routines for a canonical dtype."""
    return DTYPES[name][1]


# Reductions of the stream routines (include/shmpi_stream.h): the OpenSHMEM 1.6 team
# reduction types, and sum/prod/min/max on half and bfloat16.
REDUCE_OPS = ("sum", "prod", "min", "max", "and", "or", "xor")
_INT_OPS = REDUCE_OPS
_FLOAT_OPS = ("sum", "prod", "min", "max")
_COMPLEX_OPS = ("sum", "prod")


def reduce_ops(name):
    """The reduction operators the C side has for a canonical dtype."""
    c = c_type(name)
    if c in ("complexf", "complexd"):
        return _COMPLEX_OPS
    if c in ("half", "bfloat16", "float", "double"):
        return _FLOAT_OPS
    return _INT_OPS


def reduce_routine(coll, name, op):
    """shmemx_TYPENAME_OP_reduce_on_stream (coll "reduce") or ..._reducescatter_on_stream
    for dtype `name` and operator `op`; ShmpiInvalid if the C side has none."""
    o = str(op).lower() if op is not None else None
    if o not in REDUCE_OPS:
        raise ShmpiInvalid("shmpi: %s: operator %r is none of %s" % (coll, op, ", ".join(REDUCE_OPS)))
    if o not in reduce_ops(name):
        raise ShmpiInvalid("shmpi: %s: operator %r is not defined for dtype %s (it has %s)"
                           % (coll, o, name, ", ".join(reduce_ops(name))))
    return "shmemx_%s_%s_%s_on_stream" % (c_type(name), o, coll)


# Typed data-movement routines (put/get/put_signal, broadcast/fcollect/alltoall) exist for
# the fixed-width integers, float and double; other dtypes move as bytes (the mem forms).
_TYPED_MOVES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                "float", "double")


def move_routine(kind, name):
    """(routine name, element size) for moving dtype `name`: the typed form where the C
    side has one (shmemx_int32_put_on_stream), else the byte form (shmemx_putmem_on_stream)
    with element size 1.  kind: put, get, put_signal, broadcast, fcollect, alltoall."""
    c = c_type(name)
    if c in _TYPED_MOVES:
        return "shmemx_%s_%s_on_stream" % (c, kind), itemsize(name)
    mem = {"put": "putmem", "get": "getmem", "put_signal": "putmem_signal",
           "broadcast": "broadcastmem", "fcollect": "fcollectmem", "alltoall": "alltoallmem"}
    return "shmemx_%s_on_stream" % mem[kind], 1


# ---- streams ------------------------------------------------------------------------------
def _as_int(value):
    if value is None:
        return 0
    if isinstance(value, int):
        return value
    if isinstance(value, ctypes.c_void_p):  # Numba's ctypes handles
        return value.value or 0
    if hasattr(value, "value") and not hasattr(value, "__int__"):
        return int(value.value or 0)
    return int(value)  # cuda.bindings' CUstream and the like


def stream_handle(stream):
    """The CUstream handle (an int) of a stream given as None (the default stream, 0), an
    int handle, an object with __cuda_stream__ (returning (version, handle)), a CuPy stream
    (.ptr), a Torch stream (.cuda_stream) or a Numba stream (.handle)."""
    h = _stream_handle(stream)
    if not 0 <= h < 1 << 64:
        raise ShmpiInvalid("shmpi: %s gave stream handle %d, not a CUstream (0..2**64-1)"
                           % (type(stream).__name__, h))
    return h


def _stream_handle(stream):
    if stream is None:
        return 0
    if isinstance(stream, bool):
        raise ShmpiInvalid("shmpi: %r is no CUDA stream" % (stream,))
    if isinstance(stream, int):
        if stream < 0:
            raise ShmpiInvalid("shmpi: stream handle %d is negative" % stream)
        return stream
    proto = getattr(stream, "__cuda_stream__", None)
    if proto is not None:
        value = proto() if callable(proto) else proto
        try:
            return _as_int(value[1])
        except (TypeError, IndexError, ValueError):
            raise ShmpiInvalid("shmpi: %s.__cuda_stream__ gave %r, not (version, handle)"
                               % (type(stream).__name__, value)) from None
    for attr in ("cuda_stream", "ptr", "handle"):
        if hasattr(stream, attr):
            try:
                return _as_int(getattr(stream, attr))
            except (TypeError, ValueError):
                pass
    raise ShmpiInvalid("shmpi: cannot read a CUDA stream from %s (give an int handle, None, "
                       "or an object with __cuda_stream__, .cuda_stream, .ptr or .handle)"
                       % type(stream).__name__)


# ---- DLPack ------------------------------------------------------------------------------
kDLCPU, kDLCUDA, kDLCUDAHost, kDLCUDAManaged = 1, 2, 3, 13


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    pass


_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensor))
DLManagedTensor._fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p),
                            ("deleter", _DELETER)]

_NAME = b"dltensor"
_api = ctypes.pythonapi
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_IsValid.restype = ctypes.c_int
_api.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
# The destructor's view of the capsule: a bare pointer (it is being freed).
_is_valid_raw = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_IsValid", _api))
_get_pointer_raw = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", _api))

# Exported tensors not yet deleted: address of the DLManagedTensor -> what keeps it valid.
_live = {}


@_DELETER
def _deleter(managed):
    _live.pop(ctypes.addressof(managed.contents), None)


@ctypes.CFUNCTYPE(None, ctypes.c_void_p)
def _capsule_destructor(capsule):
    # A capsule nobody consumed (still named "dltensor") deletes its tensor.
    if _is_valid_raw(capsule, _NAME):
        address = _get_pointer_raw(capsule, _NAME)
        if address:
            _live.pop(address, None)


def live_exports():
    """How many exported DLPack tensors are not deleted yet (for tests)."""
    return len(_live)


def make_capsule(ptr, shape, strides, name, device_type, device_id, owner):
    """A "dltensor" PyCapsule for the memory at ptr; `owner` is kept alive until the
    consumer calls the deleter (or the capsule dies unconsumed)."""
    ndim = len(shape)
    managed = DLManagedTensor()
    shape_arr = (ctypes.c_int64 * max(ndim, 1))(*shape)
    strides_arr = (ctypes.c_int64 * max(ndim, 1))(*strides) if strides is not None else None
    t = managed.dl_tensor
    t.data = ptr
    t.device = DLDevice(device_type, device_id)
    t.ndim = ndim
    code, bits = DTYPES[name][3]
    t.dtype = DLDataType(code, bits, 1)
    t.shape = ctypes.cast(shape_arr, ctypes.POINTER(ctypes.c_int64))
    t.strides = (ctypes.cast(strides_arr, ctypes.POINTER(ctypes.c_int64)) if strides_arr
                 else ctypes.POINTER(ctypes.c_int64)())
    t.byte_offset = 0
    managed.manager_ctx = None
    managed.deleter = _deleter
    address = ctypes.addressof(managed)
    _live[address] = (managed, shape_arr, strides_arr, owner)
    return _api.PyCapsule_New(address, _NAME, ctypes.cast(_capsule_destructor, ctypes.c_void_p))


def read_capsule(capsule):
    """(ptr, shape, strides in elements or None, dtype name, device type, device id) of an
    unconsumed "dltensor" capsule; the capsule stays unconsumed (its producer frees it)."""
    if not _api.PyCapsule_IsValid(capsule, _NAME):
        raise ShmpiInvalid("shmpi: __dlpack__ gave no \"dltensor\" capsule (a consumed or "
                           "versioned one?)")
    address = _api.PyCapsule_GetPointer(capsule, _NAME)
    t = DLManagedTensor.from_address(address).dl_tensor
    if t.dtype.lanes != 1:
        raise ShmpiInvalid("shmpi: DLPack dtype with %d lanes has no shmpi routines" % t.dtype.lanes)
    name = dtype_name((t.dtype.code, t.dtype.bits))
    if t.ndim < 0 or (t.ndim and not t.shape):
        raise ShmpiInvalid("shmpi: DLPack tensor of %d dimensions without a shape" % t.ndim)
    shape = tuple(t.shape[i] for i in range(t.ndim))
    strides = tuple(t.strides[i] for i in range(t.ndim)) if t.strides else None
    ptr = (t.data or 0) + t.byte_offset
    return ptr, shape, strides, name, t.device.device_type, t.device.device_id


# ---- arrays --------------------------------------------------------------------------------
def _c_strides(shape):
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step *= n
    return tuple(reversed(strides))


def _f_strides(shape):
    strides, step = [], 1
    for n in shape:
        strides.append(step)
        step *= n
    return tuple(strides)


def _contiguous(shape, strides_elems):
    """True if element strides describe C- or Fortran-contiguous memory."""
    if strides_elems is None:
        return True
    live = [(n, s) for n, s in zip(shape, strides_elems) if n != 1]
    shape1 = tuple(n for n, _ in live)
    strides1 = tuple(s for _, s in live)
    return strides1 in (_c_strides(shape1), _f_strides(shape1))


class ArrayInfo:
    """What shmpi needs of an array: its data pointer, bytes, elements, dtype, device."""
    __slots__ = ("ptr", "shape", "dtype", "nbytes", "size", "device_type", "device_id", "obj")

    def __init__(self, ptr, shape, dtype, device_type=kDLCUDA, device_id=0, obj=None):
        self.ptr = int(ptr or 0)
        self.shape = tuple(int(n) for n in shape)
        self.dtype = dtype
        self.size = math.prod(self.shape)
        self.nbytes = self.size * itemsize(dtype)
        self.device_type = device_type
        self.device_id = device_id
        self.obj = obj


def _bfloat16_says(obj):
    d = getattr(obj, "dtype", None)
    return d is not None and str(getattr(d, "name", d)).lower().endswith("bfloat16")


def array_info(obj, what="array"):
    """ArrayInfo of an array given by __cuda_array_interface__ (versions 0-3), DLPack
    (__dlpack__ and __dlpack_device__), or a buffer with .handle and .size (cuda.core's
    Buffer: bytes); ShmpiInvalid for anything else, for non-contiguous arrays, and for
    descriptions that are no memory (a negative dimension, a pointer outside 0..2**64-1,
    fields of the wrong kind: tests/fuzz/python_arrays.py)."""
    try:
        info = _array_info(obj, what)
    except ShmpiError:
        raise
    except (TypeError, ValueError, BufferError, KeyError, IndexError, AttributeError,
            OverflowError) as e:
        raise ShmpiInvalid("shmpi: %s: cannot read %s as an array (%s: %s)"
                           % (what, type(obj).__name__, type(e).__name__, e)) from None
    if any(n < 0 for n in info.shape):
        raise ShmpiInvalid("shmpi: %s: shape %r has a negative dimension" % (what, info.shape))
    if not 0 <= info.ptr < 1 << 64:
        raise ShmpiInvalid("shmpi: %s: data pointer %d is no address (0..2**64-1)"
                           % (what, info.ptr))
    if info.nbytes >= 1 << 63:
        raise ShmpiInvalid("shmpi: %s: shape %r is %d bytes, more than memory holds"
                           % (what, info.shape, info.nbytes))
    return info


def _array_info(obj, what):
    if isinstance(obj, Array):
        return ArrayInfo(obj.ptr, obj.shape, obj.dtype, obj.device_type, obj.device_id, obj)
    bf16 = _bfloat16_says(obj)
    try:  # Torch's raises for dtypes it cannot describe (bfloat16): DLPack then
        cai = getattr(obj, "__cuda_array_interface__", None)
    except Exception:
        cai = None
    if cai is not None and not (bf16 and hasattr(obj, "__dlpack__")):
        if not isinstance(cai, dict) or "data" not in cai or "shape" not in cai:
            raise ShmpiInvalid("shmpi: %s: __cuda_array_interface__ lacks data or shape" % what)
        if cai.get("mask") is not None:
            raise ShmpiInvalid("shmpi: %s: masked arrays are not supported" % what)
        shape = tuple(cai["shape"])
        name = "bfloat16" if bf16 else dtype_name(cai.get("typestr", "|u1"))
        strides = cai.get("strides")
        if strides is not None:
            size = itemsize(name)
            if any(s % size for s in strides):
                raise ShmpiInvalid("shmpi: %s: strides %r are no multiple of the element size"
                                   % (what, strides))
            if not _contiguous(shape, tuple(s // size for s in strides)):
                raise ShmpiInvalid("shmpi: %s is not contiguous (strides %r)" % (what, strides))
        return ArrayInfo(cai["data"][0], shape, name, kDLCUDA, _device_of(obj), obj)
    if hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__"):
        capsule = obj.__dlpack__()
        ptr, shape, strides, name, dev_type, dev_id = read_capsule(capsule)
        del capsule
        if bf16:
            name = "bfloat16"
        if not _contiguous(shape, strides):
            raise ShmpiInvalid("shmpi: %s is not contiguous (strides %r)" % (what, strides))
        if dev_type not in (kDLCUDA, kDLCUDAManaged, kDLCUDAHost, kDLCPU):
            raise ShmpiInvalid("shmpi: %s lives on DLPack device type %d, neither CUDA nor host"
                               % (what, dev_type))
        return ArrayInfo(ptr, shape, name, dev_type, dev_id, obj)
    if hasattr(obj, "handle") and hasattr(obj, "size") and isinstance(obj.size, int):
        return ArrayInfo(_as_int(obj.handle), (obj.size,), "uint8", kDLCUDA, 0, obj)
    raise ShmpiInvalid("shmpi: %s: %s has neither __cuda_array_interface__ nor "
                       "__dlpack__/__dlpack_device__" % (what, type(obj).__name__))


def _device_of(obj):
    dev = getattr(obj, "device", None)
    for attr in ("id", "index", "device_id"):
        v = getattr(dev, attr, None)
        if isinstance(v, int):
            return v
    return 0


class Array:
    """A contiguous array in device memory, as shmpi.core.array() returns it without CuPy:
    shape, dtype (a canonical name such as "float32"), nbytes, ptr (the data pointer), and
    both __cuda_array_interface__ (v3) and __dlpack__/__dlpack_device__, so CuPy
    (cupy.asarray, cupy.from_dlpack), Torch (torch.from_dlpack, torch.as_tensor) and Numba
    (numba.cuda.as_cuda_array) view it without a copy.  It does not own the memory."""

    # slots, so that shmpi._fast reads ptr, shape, dtype and device_type without getattr's
    # dictionary lookups; __dict__ keeps other attributes settable
    __slots__ = ("ptr", "shape", "dtype", "itemsize", "size", "nbytes", "ndim", "order",
                 "device_id", "device_type", "_owner", "__dict__", "__weakref__")

    def __init__(self, ptr, shape, dtype="uint8", device_id=0, order="C", owner=None,
                 device_type=kDLCUDA):
        if isinstance(shape, int):
            shape = (shape,)
        self.ptr = int(ptr or 0)
        self.shape = tuple(int(n) for n in shape)
        if any(n < 0 for n in self.shape):
            raise ShmpiInvalid("shmpi: negative dimension in shape %r" % (shape,))
        self.dtype = dtype_name(dtype)
        self.itemsize = itemsize(self.dtype)
        self.size = math.prod(self.shape)
        self.nbytes = self.size * self.itemsize
        self.ndim = len(self.shape)
        if order not in ("C", "F"):
            raise ShmpiInvalid("shmpi: order %r is neither \"C\" nor \"F\"" % (order,))
        self.order = order
        self.device_id = int(device_id)
        self.device_type = device_type
        self._owner = owner

    @property
    def data_ptr(self):
        return self.ptr

    def _elem_strides(self):
        if self.order == "C" or self.ndim < 2:
            return None
        return _f_strides(self.shape)

    @property
    def __cuda_array_interface__(self):
        if self.device_type not in (kDLCUDA, kDLCUDAManaged):
            raise AttributeError("__cuda_array_interface__ (not device memory)")
        strides = self._elem_strides()
        return {"shape": self.shape, "typestr": DTYPES[self.dtype][2],
                "data": (self.ptr, False), "version": 3,
                "strides": None if strides is None else tuple(s * self.itemsize for s in strides),
                "descr": [("", DTYPES[self.dtype][2])], "stream": None}

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        if copy:
            raise BufferError("shmpi.core.Array exports its memory without copies")
        return make_capsule(self.ptr, self.shape, self._elem_strides(), self.dtype,
                            self.device_type, self.device_id, self)

    def __dlpack_device__(self):
        return (self.device_type, self.device_id)

    def get(self):
        """A host copy (numpy), as CuPy's .get(): shmpi.cuda.to_host(self)."""
        from .cuda import to_host
        return to_host(self)

    def __setitem__(self, key, value):
        """arr[:] = value (a scalar or a host array of the whole shape): filled from the
        host, landed when it returns (shmpi.cuda.from_host).  Only whole-array assignment."""
        if key not in (slice(None), Ellipsis, ()):
            raise ShmpiInvalid("shmpi.core.Array: only arr[:] = value is supported (CuPy or "
                               "Torch views of the array do the rest)")
        import numpy
        from .cuda import from_host
        name = "uint16" if self.dtype == "bfloat16" else self.dtype
        data = numpy.broadcast_to(numpy.asarray(value, dtype=name), self.shape)
        from_host(self, numpy.array(data, order=self.order))

    def __str__(self):
        try:
            return str(self.get())
        except Exception:  # no numpy, or no context: the description
            return repr(self)

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d array")
        return self.shape[0]

    def reshape(self, *shape, order=None):
        if len(shape) == 1 and not isinstance(shape[0], int):
            shape = tuple(shape[0])
        shape = list(shape)
        if shape.count(-1) == 1:
            known = math.prod(n for n in shape if n != -1)
            shape[shape.index(-1)] = self.size // known if known else 0
        if math.prod(shape) != self.size:
            raise ShmpiInvalid("shmpi: cannot reshape %d elements to %r" % (self.size, tuple(shape)))
        return Array(self.ptr, shape, self.dtype, self.device_id, order or self.order,
                     self._owner or self, self.device_type)

    def view(self, dtype):
        name = dtype_name(dtype)
        if self.nbytes % itemsize(name):
            raise ShmpiInvalid("shmpi: %d bytes are no whole number of %s" % (self.nbytes, name))
        return Array(self.ptr, (self.nbytes // itemsize(name),), name, self.device_id, "C",
                     self._owner or self, self.device_type)

    def __repr__(self):
        return "shmpi.core.Array(ptr=0x%x, shape=%r, dtype=%s, device=%d)" % (
            self.ptr, self.shape, self.dtype, self.device_id)


class Buffer(Array):
    """Untyped device memory as NVSHMEM4Py's buffers (cuda.core's Buffer) are: .handle (the
    device address, an int) and .size (bytes), viewed through DLPack and
    __cuda_array_interface__ as a 1-D uint8 array, so `cupy.from_dlpack(buf).view("float32")`
    and `torch.from_dlpack(buf)` see it without a copy.  Every routine that takes an array
    takes a Buffer."""

    def __init__(self, ptr, size, device_id=0, owner=None, device_type=kDLCUDA):
        super().__init__(ptr, (int(size),), "uint8", device_id, "C", owner, device_type)

    @property
    def handle(self):
        return self.ptr

    @property
    def device(self):
        return self.device_id

    @property
    def is_device_accessible(self):
        return self.device_type in (kDLCUDA, kDLCUDAManaged)

    @property
    def is_host_accessible(self):
        return self.device_type != kDLCUDA

    def __repr__(self):
        return "shmpi.core.Buffer(handle=0x%x, size=%d, device=%d)" % (
            self.ptr, self.size, self.device_id)

    __str__ = __repr__

    def close(self):
        """Releases memory this Buffer owns (VirtualMemoryResource.allocate's); a no-op for
        buffer()'s, which free() releases."""
        owner = self._owner
        if owner is not None and hasattr(owner, "close"):
            owner.close()
        self._owner = None
