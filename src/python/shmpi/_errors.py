"""The package's exceptions, at its bottom: every module may raise them."""


class ShmpiError(Exception):
    """A routine of the library or of the CUDA driver failed (nvshmem.core's NvshmemError)."""


class ShmpiInvalid(ShmpiError, ValueError):
    """An argument shmpi cannot use: a dtype without routines, an object that is no array
    or stream, sizes that do not fit (nvshmem.core's NvshmemInvalid)."""
