"""Finding and loading libshmpi (ctypes, RTLD_GLOBAL), and typed access to its routines.

Where the library comes from, first found first:
  1. a libshmpi already mapped into this process (shmem4py loaded it): one library,
     one state, so host arrays of shmem4py and device arrays of shmpi.core mix;
  2. SHMPI_LIBRARY (a path);
  3. the libdir recorded when the package was built (_paths.py: make's libdir, or for
     pip install the shmpi_info on PATH's, else pkg-config's; src/python/setup.py);
  4. the folders above the package (PREFIX/lib/pythonX.Y/site-packages/shmpi);
  5. where none of these has one: the libdir of the shmpi_info on PATH (`shmpi_info
     --parsable`), else pkg-config's; then ctypes.util.find_library("shmpi") (ldconfig,
     LD_LIBRARY_PATH).
Nothing is loaded before the first call that needs the library.
"""
import ctypes
import ctypes.util
import os

from ._errors import ShmpiError

_lib = None
_path = None

c_team = ctypes.c_void_p      # shmem_team_t: a pointer-sized handle
c_stream = ctypes.c_void_p    # shmemx_stream_t (CUstream)
c_ptr = ctypes.c_void_p
c_size = ctypes.c_size_t


def _mapped_libshmpi():
    """The path of a libshmpi this process has mapped already, or None."""
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                fields = line.split(None, 5)
                if len(fields) == 6:
                    path = fields[5].strip()
                    if os.path.basename(path).startswith("libshmpi.so"):
                        return path
    except OSError:
        pass
    return None


def _libraries_in(folder):
    names = [os.path.join(folder, n) for n in ("libshmpi.so.0", "libshmpi.so")] if folder else []
    return [p for p in names if os.path.exists(p)]


def _output(*argv):
    import subprocess
    try:
        return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              universal_newlines=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return ""


def installed_libdir():
    """The libdir of the shmpi installed where PATH and pkg-config find one (`shmpi_info
    --parsable`'s path:libdir, else `pkg-config --variable=libdir shmpi`), or None.
    src/python/setup.py records it at pip install time."""
    for line in _output("shmpi_info", "--parsable").splitlines():
        if line.startswith("path:libdir:"):
            return line[len("path:libdir:"):]
    return _output("pkg-config", "--variable=libdir", "shmpi").strip() or None


def candidates():
    """The paths tried, in order (see the module's docstring)."""
    paths = []
    mapped = _mapped_libshmpi()
    if mapped:
        paths.append(mapped)
    env = os.environ.get("SHMPI_LIBRARY")
    if env:
        paths.append(env)
    try:
        from ._paths import LIBDIR
    except ImportError:
        LIBDIR = None
    here = os.path.dirname(os.path.abspath(__file__))
    dirs = [LIBDIR] if LIBDIR else []
    dirs += [os.path.normpath(os.path.join(here, *[".."] * up)) for up in (3, 4)]
    for d in dirs:
        paths += _libraries_in(d)
    if not paths:
        paths += _libraries_in(installed_libdir())
    found = ctypes.util.find_library("shmpi")
    if found:
        paths.append(found)
    return paths


def load():
    """The loaded library (a ctypes.CDLL); loads it on the first call."""
    global _lib, _path
    if _lib is not None:
        return _lib
    tried = []
    for path in candidates():
        try:
            lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
            continue
        _lib, _path = lib, path
        _declare(lib)
        return lib
    raise ShmpiError("shmpi: cannot load libshmpi: set SHMPI_LIBRARY to its path"
                     + (" (tried: %s)" % "; ".join(tried) if tried else
                        " or put the bin folder of shmpi's install on PATH (none found: not "
                        "where the package was built against, nor next to it, nor by "
                        "shmpi_info or ctypes.util.find_library)"))


def path():
    """The path of the loaded library, or None before it is loaded."""
    return _path


def _declare(lib):
    def d(name, restype, *argtypes):
        f = getattr(lib, name)
        f.restype = restype
        f.argtypes = list(argtypes)
    i, v = ctypes.c_int, None
    d("shmem_init", v)
    d("shmem_init_thread", i, i, ctypes.POINTER(i))
    d("shmem_finalize", v)
    d("shmem_query_initialized", v, ctypes.POINTER(i))
    d("shmem_my_pe", i)
    d("shmem_n_pes", i)
    d("shmem_team_my_pe", i, c_team)
    d("shmem_team_n_pes", i, c_team)
    d("shmem_ptr", c_ptr, c_ptr, i)
    d("shmem_barrier_all", v)
    d("shmem_sync_all", v)
    d("shmem_quiet", v)
    d("shmem_malloc", c_ptr, c_size)
    d("shmem_free", v, c_ptr)
    d("shmem_putmem", v, c_ptr, c_ptr, c_size, i)
    d("shmem_getmem", v, c_ptr, c_ptr, c_size, i)
    d("shmem_int64_sum_reduce", i, c_team, c_ptr, c_ptr, c_size)
    pp = ctypes.c_void_p  # pointers to shmem_team_config_t and shmem_team_t
    d("shmem_team_split_strided", i, c_team, i, i, i, pp, ctypes.c_long, pp)
    d("shmem_team_split_2d", i, c_team, i, pp, ctypes.c_long, pp, pp, ctypes.c_long, pp)
    d("shmem_team_destroy", v, c_team)
    d("shmem_team_translate_pe", i, c_team, i, c_team)
    d("shmemx_device_heap_available", i)
    d("shmemx_device_malloc", c_ptr, c_size)
    d("shmemx_device_free", v, c_ptr)


_routines = {}

# The parameter lists of the stream routines, by the shape of their names
# (include/shmpi_stream.h).
_RMA = [c_ptr, c_ptr, c_size, ctypes.c_int, c_stream]
_PUT_SIGNAL = [c_ptr, c_ptr, c_size, c_ptr, ctypes.c_uint64, ctypes.c_int, ctypes.c_int, c_stream]
_COLL = [c_team, c_ptr, c_ptr, c_size, c_stream]
_BROADCAST = [c_team, c_ptr, c_ptr, c_size, ctypes.c_int, c_stream]


def routine(name):
    """The C routine `name` of the library with its prototype, or None if the
    library has no such routine.  Stream routines get theirs from their names."""
    if name in _routines:
        return _routines[name]
    lib = load()
    try:
        f = getattr(lib, name)
    except AttributeError:
        _routines[name] = None
        return None
    if name.endswith(("put_signal_on_stream", "put_signal_nbi_on_stream",
                      "putmem_signal_on_stream", "putmem_signal_nbi_on_stream")):
        f.restype, f.argtypes = None, _PUT_SIGNAL
    elif name.endswith(("_put_on_stream", "_get_on_stream", "_put_nbi_on_stream",
                        "_get_nbi_on_stream", "putmem_on_stream", "getmem_on_stream")):
        f.restype, f.argtypes = None, _RMA
    elif name.endswith(("broadcast_on_stream", "broadcastmem_on_stream")):
        f.restype, f.argtypes = ctypes.c_int, _BROADCAST
    elif name.endswith(("reduce_on_stream", "reducescatter_on_stream", "fcollect_on_stream",
                        "fcollectmem_on_stream", "alltoall_on_stream", "alltoallmem_on_stream")):
        f.restype, f.argtypes = ctypes.c_int, _COLL
    elif name == "shmemx_signal_op_on_stream":
        f.restype, f.argtypes = None, [c_ptr, ctypes.c_uint64, ctypes.c_int, ctypes.c_int, c_stream]
    elif name == "shmemx_signal_wait_until_on_stream":
        f.restype, f.argtypes = None, [c_ptr, ctypes.c_int, ctypes.c_uint64, c_stream]
    elif name in ("shmemx_quiet_on_stream", "shmemx_barrier_all_on_stream",
                  "shmemx_sync_all_on_stream"):
        f.restype, f.argtypes = None, [c_stream]
    elif name in ("shmemx_barrier_on_stream", "shmemx_team_sync_on_stream"):
        f.restype, f.argtypes = ctypes.c_int, [c_team, c_stream]
    elif name == "shmemx_device_init":
        f.restype, f.argtypes = ctypes.c_int, [ctypes.c_int, c_size]
    elif name == "shmemx_device_ordinal":
        f.restype, f.argtypes = ctypes.c_int, []
    elif name == "shmemx_device_register":
        f.restype, f.argtypes = ctypes.c_int, [c_ptr, c_size]
    elif name == "shmemx_device_unregister":
        f.restype, f.argtypes = ctypes.c_int, [c_ptr]
    elif name == "shmemx_team_get_uniqueid":
        f.restype, f.argtypes = ctypes.c_int, [ctypes.c_void_p]
    elif name == "shmemx_team_init":
        f.restype, f.argtypes = ctypes.c_int, [ctypes.c_uint64, ctypes.c_int, ctypes.c_int,
                                               ctypes.c_void_p, ctypes.c_long, ctypes.c_void_p]
    _routines[name] = f
    return f


def need(name):
    """routine(name), or a ShmpiError saying the library lacks it."""
    f = routine(name)
    if f is None:
        raise ShmpiError("shmpi: %s has no routine %s (a library older than the stream "
                         "routines of shmemx.h?)" % (_path, name))
    return f
