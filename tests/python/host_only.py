#!/usr/bin/env python3
"""shmpi.core without a GPU (tests/gpu_python.test runs it on 2 and 4 PEs, no CUDA driver):
init(device_heap=False), numpy arrays on the host's symmetric heap (host_array), put/get/p/g
between PEs with barrier_all (the host's, with no stream), and the refusals.  Every PE
checks what it sees and prints its failures; PE 0 prints "N passed, N failed" (its own) last;
the exit status is 1 on a PE with a failed check."""
import os
import sys

# SHMPI_PY_INSTALLED=1 (tests/python-recipes.sh): the package pip installed, not the sources'.
if os.environ.get("SHMPI_PY_INSTALLED") != "1":
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                    "src", "python"))
import numpy as np  # noqa: E402

import shmpi.core as nvshmem  # noqa: E402
from shmpi._interop import ShmpiInvalid  # noqa: E402

failures = []
passed = 0


def check(name, cond, detail=""):
    global passed
    if cond:
        passed += 1
    else:
        failures.append("FAIL %s (PE %d): %s" % (name, nvshmem.my_pe(), detail))


def raises(name, exc, fn, *args, **kw):
    try:
        fn(*args, **kw)
    except exc:
        check(name, True)
        return
    except Exception as e:  # the wrong exception
        check(name, False, "%s: %s" % (type(e).__name__, e))
        return
    check(name, False, "raised nothing")


nvshmem.init(device_heap=False)
me, n = nvshmem.my_pe(), nvshmem.n_pes()
right, left = (me + 1) % n, (me - 1) % n
a = nvshmem.host_array((4,), "int64")
b = nvshmem.host_array((2, 3), "float64")
check("host_array is numpy over symmetric memory", isinstance(a, np.ndarray) and a.shape == (4,)
      and a.dtype == np.int64 and b.shape == (2, 3))
a[:] = -1
nvshmem.barrier_all()
nvshmem.put(a, np.arange(4, dtype=np.int64) + 10 * me, right)
nvshmem.barrier_all()
check("put lands on the right PE", list(a) == [10 * left + i for i in range(4)], list(a))
got = np.zeros(4, dtype=np.int64)
nvshmem.get(got, a, right)
check("get reads the right PE", list(got) == [10 * me + i for i in range(4)], list(got))
nvshmem.barrier_all()
nvshmem.p(b, 1.5 + me, right)
nvshmem.barrier_all()
check("p writes the first element", b.flat[0] == 1.5 + left, b.flat[0])
check("g reads the first element", nvshmem.g(b, left) == 1.5 + (left - 1) % n)
nvshmem.barrier_all()
raises("put to host memory on a stream refused", ShmpiInvalid, nvshmem.put, a, got, right,
       stream=5)
raises("p to PE n refused", ShmpiInvalid, nvshmem.p, a, 1, n)
raises("p to device-typed memory refused", ShmpiInvalid, nvshmem.p,
       nvshmem.Array(0x1000, (1,), "int64"), 1, right)
if os.environ.get("SHMPI_PY_INSTALLED") == "1":
    check("the installed package, not the sources'", "site-packages" in nvshmem.__file__,
          nvshmem.__file__)
check("the path in use is reported", nvshmem.get_version().python_path
      in (nvshmem.PYTHON_PATH,) and nvshmem.PYTHON_PATH != "")
nvshmem.free_host_array(b)
raises("free_host_array twice refused", ShmpiInvalid, nvshmem.free_host_array, b)
nvshmem.free_host_array(a)
nvshmem.barrier_all()
nvshmem.finalize()
for line in failures:
    print(line, flush=True)
if me == 0:
    print("%d passed, %d failed" % (passed, len(failures)))
sys.exit(1 if failures else 0)
