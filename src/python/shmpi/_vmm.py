"""CUDA VMM memory (cuMemCreate + cuMemAddressReserve + cuMemMap) through the driver that
shmpi.cuda.driver() loads, as cuda.core's VirtualMemoryResource makes it: pinned device memory
that can be exported as a POSIX file descriptor, which shmemx_device_register needs to map it
in the other PEs (docs/device-heap.md, "Registration").

    buf = vmm_alloc(nbytes)          # buf.handle: the device address (int), buf.size
    ...register buf.handle, use it, unregister...
    buf.close()                      # unmap, free the range, release the allocation

The calls need a CUDA context current in the calling thread (shmpi.core.init makes the
device heap's context current)."""
import ctypes

from ._driver import check, driver

__all__ = ["vmm_alloc", "VmmBuffer"]

_HANDLE_POSIX_FD = 1        # CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR
_ALLOCATION_PINNED = 1      # CU_MEM_ALLOCATION_TYPE_PINNED
_LOCATION_DEVICE = 1        # CU_MEM_LOCATION_TYPE_DEVICE
_ACCESS_READWRITE = 3       # CU_MEM_ACCESS_FLAGS_PROT_READWRITE
_GRANULARITY_RECOMMENDED = 1


class _Location(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("id", ctypes.c_int)]


class _AllocFlags(ctypes.Structure):
    _fields_ = [("compressionType", ctypes.c_ubyte), ("gpuDirectRDMACapable", ctypes.c_ubyte),
                ("usage", ctypes.c_ushort), ("reserved", ctypes.c_ubyte * 4)]


class _AllocationProp(ctypes.Structure):
    """CUmemAllocationProp."""
    _fields_ = [("type", ctypes.c_int), ("requestedHandleTypes", ctypes.c_int),
                ("location", _Location), ("win32HandleMetaData", ctypes.c_void_p),
                ("allocFlags", _AllocFlags)]


class _AccessDesc(ctypes.Structure):
    """CUmemAccessDesc."""
    _fields_ = [("location", _Location), ("flags", ctypes.c_int)]


def _fn(name, *argtypes):
    """The driver's entry point `name` with its own prototype (lib[name] is a fresh function
    object, so shmpi.cuda's prototypes stay as they are)."""
    try:
        f = driver()[name]
    except AttributeError:
        raise OSError("shmpi: the CUDA driver has no %s (CUDA VMM needs CUDA 11.0 or later)"
                      % name) from None
    f.restype = ctypes.c_int
    f.argtypes = list(argtypes)
    return f


_u64, _size = ctypes.c_uint64, ctypes.c_size_t


class VmmBuffer:
    """nbytes (rounded up to the allocation granularity) of VMM device memory, mapped
    read-write for its device.  .handle: the device address (int); .size: the mapped bytes;
    .device_ordinal; close() undoes it (also on leaving a with block)."""

    def __init__(self, nbytes, device_ordinal=0):
        if nbytes <= 0:
            raise ValueError("shmpi: vmm_alloc: nbytes must be positive, not %r" % (nbytes,))
        self.device_ordinal = device_ordinal
        self.handle = 0
        self.size = 0
        self._allocation = None
        self._reserved = 0
        prop = _AllocationProp()
        prop.type = _ALLOCATION_PINNED
        prop.requestedHandleTypes = _HANDLE_POSIX_FD
        prop.location.type = _LOCATION_DEVICE
        prop.location.id = device_ordinal
        granularity = _size()
        check(_fn("cuMemGetAllocationGranularity", ctypes.POINTER(_size),
                  ctypes.POINTER(_AllocationProp), ctypes.c_int)(
                      ctypes.byref(granularity), ctypes.byref(prop), _GRANULARITY_RECOMMENDED),
              "cuMemGetAllocationGranularity")
        g = granularity.value or 1
        size = (nbytes + g - 1) // g * g
        try:
            base = _u64()
            check(_fn("cuMemAddressReserve", ctypes.POINTER(_u64), _size, _size, _u64, _u64)(
                ctypes.byref(base), size, g, 0, 0), "cuMemAddressReserve")
            self.handle, self._reserved = base.value, size
            allocation = _u64()
            check(_fn("cuMemCreate", ctypes.POINTER(_u64), _size,
                      ctypes.POINTER(_AllocationProp), _u64)(
                          ctypes.byref(allocation), size, ctypes.byref(prop), 0), "cuMemCreate")
            self._allocation = allocation.value
            check(_fn("cuMemMap", _u64, _size, _size, _u64, _u64)(
                self.handle, size, 0, self._allocation, 0), "cuMemMap")
            self.size = size
            access = _AccessDesc()
            access.location.type = _LOCATION_DEVICE
            access.location.id = device_ordinal
            access.flags = _ACCESS_READWRITE
            check(_fn("cuMemSetAccess", _u64, _size, ctypes.POINTER(_AccessDesc), _size)(
                self.handle, size, ctypes.byref(access), 1), "cuMemSetAccess")
        except BaseException:
            self.close()
            raise

    def close(self):
        """Unmaps, frees the address range and releases the allocation (once)."""
        if self.size:
            check(_fn("cuMemUnmap", _u64, _size)(self.handle, self.size), "cuMemUnmap")
            self.size = 0
        if self._allocation is not None:
            check(_fn("cuMemRelease", _u64)(self._allocation), "cuMemRelease")
            self._allocation = None
        if self._reserved:
            check(_fn("cuMemAddressFree", _u64, _size)(self.handle, self._reserved),
                  "cuMemAddressFree")
            self._reserved = 0
            self.handle = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return "VmmBuffer(handle=0x%x, size=%d, device_ordinal=%d)" % (
            self.handle, self.size, self.device_ordinal)


def vmm_alloc(nbytes, device_ordinal=0):
    """VMM device memory of at least nbytes on GPU device_ordinal, exportable as a POSIX
    file descriptor (what shmemx_device_register needs): a VmmBuffer."""
    return VmmBuffer(nbytes, device_ordinal)
