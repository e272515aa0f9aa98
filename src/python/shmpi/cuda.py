"""A little of the CUDA driver through ctypes, for programs without cuda.core, CuPy or Torch:
streams (Stream), copies between host and device (to_host, from_host) and plain device
memory (empty).  The driver is the library named by SHMPI_CUDA_LIBRARY (default
libcuda.so.1), the one libshmpi loads, so both share one driver state (tests load
tests/.libs/fake_cuda.so this way).  The calls need the device heap's context current in the
calling thread: shmpi makes it current in the thread that starts the device heap
(shmpi.core.init, or shmem_init with SHMPI_DEVICE_HEAP_SIZE set)."""
import ctypes

from ._driver import check, driver
from ._interop import Array, ShmpiInvalid, array_info, dtype_name, itemsize

__all__ = ["Stream", "to_host", "from_host", "empty", "free", "driver", "check", "Device",
           "system", "copy_bytes", "VirtualMemoryResource"]


class Stream:
    """A CUDA stream created through the driver (cuStreamCreate), or one wrapped by handle.

    s = Stream(); ...; s.synchronize(); s.close().  It has __cuda_stream__ (so shmpi.core
    and cuda.core take it), .handle and .ptr (ints), sync() as synchronize()'s alias, and
    works as a context manager that closes it."""

    # a slot, so that shmpi._fast reads _handle without getattr's dictionary lookup;
    # __dict__ keeps other attributes settable
    __slots__ = ("_handle", "_owned", "__dict__", "__weakref__")

    def __init__(self, handle=None, non_blocking=False):
        if handle is None:
            h = ctypes.c_void_p()
            check(driver().cuStreamCreate(ctypes.byref(h), 1 if non_blocking else 0),
                  "cuStreamCreate")
            self._handle, self._owned = h.value or 0, True
        else:
            self._handle, self._owned = int(handle), False

    @property
    def handle(self):
        return self._handle

    ptr = handle

    def __cuda_stream__(self):
        return (0, self._handle)

    def __int__(self):
        return self._handle

    def synchronize(self):
        """Waits until everything enqueued on the stream has run."""
        check(driver().cuStreamSynchronize(self._handle), "cuStreamSynchronize")

    sync = synchronize

    def query(self):
        """True if the stream has nothing left to run."""
        status = driver().cuStreamQuery(self._handle)
        if status == 600:  # CUDA_ERROR_NOT_READY
            return False
        check(status, "cuStreamQuery")
        return True

    def close(self):
        """Destroys a stream this object created (after its work has run)."""
        if self._owned and self._handle:
            check(driver().cuStreamDestroy_v2(self._handle), "cuStreamDestroy_v2")
        self._handle, self._owned = 0, False

    destroy = close

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return "shmpi.cuda.Stream(0x%x)" % self._handle


# Copies between host and device wait on a stream of their own: the synchronous
# cuMemcpy* may return once pageable host bytes are staged, before they land (the driver's
# "API synchronization behavior"), and a late zero fill would then overwrite a peer's put.
# A non-blocking stream also keeps them out of the legacy stream's implicit waits on the
# program's streams (one of which may wait for another PE).
_copy_streams = {}


def _copy_stream():
    ctx = ctypes.c_void_p()
    check(driver().cuCtxGetCurrent(ctypes.byref(ctx)), "cuCtxGetCurrent")
    if not ctx.value:
        check(201, "a copy between host and device")
    s = _copy_streams.get(ctx.value)
    if s is None:
        h = ctypes.c_void_p()
        check(driver().cuStreamCreate(ctypes.byref(h), 1), "cuStreamCreate")  # NON_BLOCKING
        s = _copy_streams[ctx.value] = h.value
    return s


def copy_bytes(dst_ptr, src_ptr, nbytes):
    """Copies nbytes between any two of host and device memory and returns once they
    have landed (cuMemcpyAsync on shmpi's own stream, then cuStreamSynchronize)."""
    if nbytes == 0:
        return
    s = _copy_stream()
    check(driver().cuMemcpyAsync(dst_ptr, src_ptr, nbytes, s), "cuMemcpyAsync")
    check(driver().cuStreamSynchronize(s), "cuStreamSynchronize")


def to_host(arr, stream=None):
    """A host copy of a device array (any object shmpi.core takes): a numpy array of the
    same shape and dtype when numpy is there (bfloat16 as uint16), else a bytearray.  The
    copy is synchronous and ordered with nothing: synchronize the streams that write the
    array first, or pass one as `stream` to synchronize it here."""
    info = array_info(arr, "to_host")
    if stream is not None:
        from ._interop import stream_handle
        check(driver().cuStreamSynchronize(stream_handle(stream)), "cuStreamSynchronize")
    try:
        import numpy
    except ImportError:
        numpy = None
    if numpy is not None:
        name = "uint16" if info.dtype == "bfloat16" else info.dtype
        order = getattr(arr, "order", "C") if isinstance(arr, Array) else "C"
        out = numpy.empty(info.shape, dtype=name, order=order)
        copy_bytes(out.ctypes.data, info.ptr, info.nbytes)
        return out
    out = bytearray(info.nbytes)
    if info.nbytes:
        buf = (ctypes.c_char * info.nbytes).from_buffer(out)
        copy_bytes(ctypes.addressof(buf), info.ptr, info.nbytes)
    return out


def from_host(arr, data, stream=None):
    """Copies host data (a numpy array, bytes, bytearray, memoryview or list of numbers of
    the array's dtype) into the device array `arr`; returns arr once the bytes have landed
    (not merely been staged), so a peer's later put cannot be overwritten by them.
    Ordered with nothing: synchronize the streams that use the array first, or pass one
    as `stream` to synchronize it here."""
    info = array_info(arr, "from_host")
    if stream is not None:
        from ._interop import stream_handle
        check(driver().cuStreamSynchronize(stream_handle(stream)), "cuStreamSynchronize")
    if isinstance(data, (list, tuple)) or (hasattr(data, "shape") and hasattr(data, "dtype")
                                           and not isinstance(data, memoryview)):
        try:
            import numpy
        except ImportError:
            numpy = None
        if numpy is not None:
            name = "uint16" if info.dtype == "bfloat16" else info.dtype
            data = numpy.ascontiguousarray(numpy.asarray(data, dtype=name))
            view = memoryview(data).cast("B")
        else:
            import array as pyarray
            codes = {"int8": "b", "uint8": "B", "bool": "B", "int16": "h", "uint16": "H",
                     "int32": "i", "uint32": "I", "int64": "q", "uint64": "Q",
                     "float32": "f", "float64": "d"}
            if info.dtype not in codes:
                raise ShmpiInvalid("shmpi: from_host of a list into %s needs numpy" % info.dtype)
            view = memoryview(pyarray.array(codes[info.dtype], data)).cast("B")
    else:
        view = memoryview(data).cast("B")
    if view.nbytes > info.nbytes:
        raise ShmpiInvalid("shmpi: from_host: %d bytes do not fit the array's %d"
                           % (view.nbytes, info.nbytes))
    if view.nbytes:
        if view.readonly:
            view = memoryview(bytearray(view))
        buf = (ctypes.c_char * view.nbytes).from_buffer(view)
        copy_bytes(info.ptr, ctypes.addressof(buf), view.nbytes)
    return arr


class _DeviceMemory:
    """cuMemAlloc memory, freed when the last array over it goes (or by free())."""

    def __init__(self, nbytes):
        p = ctypes.c_uint64()
        check(driver().cuMemAlloc_v2(ctypes.byref(p), max(int(nbytes), 1)), "cuMemAlloc_v2")
        self.ptr = p.value

    def free(self):
        if self.ptr:
            ptr, self.ptr = self.ptr, 0
            check(driver().cuMemFree_v2(ptr), "cuMemFree_v2")


def empty(shape, dtype="float32", device_id=0):
    """A new device array of plain device memory (cuMemAlloc; not symmetric: give it to
    shmpi.core.register_external_array to make it so).  Free it with free(arr)."""
    name = dtype_name(dtype)
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    n = 1
    for d in shape:
        n *= int(d)
    mem = _DeviceMemory(n * itemsize(name))
    return Array(mem.ptr, shape, name, device_id, owner=mem)


def free(arr):
    """Frees the memory of an array that empty() made."""
    owner = getattr(arr, "_owner", None)
    if not isinstance(owner, _DeviceMemory):
        raise ShmpiInvalid("shmpi: free() takes arrays of shmpi.cuda.empty()")
    owner.free()


class _System:
    """cuda.core's `system`, the part the NVSHMEM4Py tutorial uses."""

    @property
    def num_devices(self):
        n = ctypes.c_int(0)
        check(driver().cuDeviceGetCount(ctypes.byref(n)), "cuDeviceGetCount")
        return n.value


system = _System()


class Device:
    """A stand-in for cuda.core's Device where cuda.core is not installed: Device(ordinal)
    (None: the current context's device, else 0), .device_id, .set_current() (its primary
    context), .create_stream() (a Stream), .sync() (cuCtxSynchronize)."""

    def __init__(self, device_id=None):
        if device_id is None:
            device_id = 0
            ctx, dev = ctypes.c_void_p(), ctypes.c_int()
            if (driver().cuCtxGetCurrent(ctypes.byref(ctx)) == 0 and ctx.value and
                    driver().cuCtxGetDevice(ctypes.byref(dev)) == 0):
                device_id = dev.value
        self.device_id = int(device_id)

    def set_current(self):
        dev = ctypes.c_int()
        check(driver().cuDeviceGet(ctypes.byref(dev), self.device_id), "cuDeviceGet")
        ctx = ctypes.c_void_p()
        check(driver().cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev.value),
              "cuDevicePrimaryCtxRetain")
        check(driver().cuCtxSetCurrent(ctx), "cuCtxSetCurrent")

    def create_stream(self, options=None):
        return Stream(non_blocking=True)

    def sync(self):
        check(driver().cuCtxSynchronize(), "cuCtxSynchronize")

    def __repr__(self):
        return "shmpi.cuda.Device(%d)" % self.device_id


class VirtualMemoryResource:
    """A stand-in for cuda.core's VirtualMemoryResource where cuda.core is not installed:
    allocate(size) gives a Buffer (.handle, .size, DLPack) of memory made with the driver's
    VMM calls (cuMemCreate, exportable as a POSIX file descriptor, so that
    shmpi.core.register_external_array can share it); Buffer.close() releases it."""

    def __init__(self, device=None, config=None):
        self.device_id = int(getattr(device, "device_id", 0) or 0)

    def allocate(self, size, stream=None):
        from ._interop import Buffer
        from ._vmm import vmm_alloc
        mem = vmm_alloc(int(size), self.device_id)
        return Buffer(mem.handle, int(size), self.device_id, owner=mem)
