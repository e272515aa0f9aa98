"""shmpi from Python: NVSHMEM4Py-style host calls on CUDA streams (shmpi.core) over the
stream routines of shmpi's shmemx.h, and a little of the CUDA driver (shmpi.cuda).

    import shmpi.core as nvshmem     # code written nvshmem.init(...), nvshmem.array(...)
    import shmpi as nvshmem          # code written nvshmem.core.init(...)

Pure Python (ctypes) with a compiled fast path for the hot routines where the build made
shmpi._fast (shmpi.core.get_version().python_path says which is in use): it loads libshmpi on first use (SHMPI_LIBRARY, the install's libdir,
or one shmem4py loaded already) and needs neither CuPy, Torch, Numba nor numpy.
docs/python.md, "GPU streams from Python"."""
__version__ = "0.1.0"

# The compiled shmpi._fast of a build folder (make's src/python/shmpi) joins the sources'
# package when both folders are on sys.path, as the tests run it.
__path__ = __import__("pkgutil").extend_path(__path__, __name__)

from . import core, cuda  # noqa: E402,F401  (neither loads a library on import)
