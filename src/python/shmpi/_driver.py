"""The CUDA driver through ctypes: the library named by SHMPI_CUDA_LIBRARY (default
libcuda.so.1), the one libshmpi loads, so both share one driver state; its errors raised as
ShmpiError.  The bottom of the package's CUDA side: shmpi.cuda and _vmm call it."""
import ctypes
import os

from ._errors import ShmpiError

_driver = None


def driver():
    """The CUDA driver library (ctypes.CDLL), loaded on the first call."""
    global _driver
    if _driver is None:
        name = os.environ.get("SHMPI_CUDA_LIBRARY") or "libcuda.so.1"
        try:
            lib = ctypes.CDLL(name)
        except OSError as e:
            raise ShmpiError("shmpi: cannot load the CUDA driver %r (SHMPI_CUDA_LIBRARY): %s"
                             % (name, e)) from None
        u, p, s = ctypes.c_uint, ctypes.c_void_p, ctypes.c_size_t
        protos = {
            "cuInit": [u],
            "cuGetErrorString": [ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)],
            "cuStreamCreate": [ctypes.POINTER(p), u],
            "cuStreamSynchronize": [p],
            "cuStreamDestroy_v2": [p],
            "cuStreamQuery": [p],
            "cuMemcpyAsync": [ctypes.c_uint64, ctypes.c_uint64, s, p],
            "cuMemAlloc_v2": [ctypes.POINTER(ctypes.c_uint64), s],
            "cuMemFree_v2": [ctypes.c_uint64],
            "cuCtxGetCurrent": [ctypes.POINTER(p)],
            "cuCtxGetDevice": [ctypes.POINTER(ctypes.c_int)],
            "cuCtxSetCurrent": [p],
            "cuCtxSynchronize": [],
            "cuDeviceGet": [ctypes.POINTER(ctypes.c_int), ctypes.c_int],
            "cuDeviceGetCount": [ctypes.POINTER(ctypes.c_int)],
            "cuDevicePrimaryCtxRetain": [ctypes.POINTER(p), ctypes.c_int],
        }
        for fname, args in protos.items():
            f = getattr(lib, fname, None)
            if f is not None:
                f.restype = ctypes.c_int
                f.argtypes = args
        _driver = lib
        check(lib.cuInit(0), "cuInit")
    return _driver


def _has(name):
    return getattr(driver(), name, None) is not None


def check(status, what):
    """Raises ShmpiError naming `what` and the driver's error when status is not 0."""
    if status == 0:
        return
    text = ctypes.c_char_p()
    known = _has("cuGetErrorString") and driver().cuGetErrorString(status, ctypes.byref(text)) == 0
    msg = text.value.decode(errors="replace") if known and text.value else "unknown error"
    hint = ""
    if status in (3, 201):  # not initialized, invalid context
        hint = ": no CUDA context is current in this thread (call shmpi.core.init first)"
    raise ShmpiError("shmpi: %s failed: CUDA error %d (%s)%s" % (what, status, msg, hint))
