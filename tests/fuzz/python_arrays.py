#!/usr/bin/env python3
"""Fuzzes the array and stream readers of shmpi.core for a set time:

    python3 tests/fuzz/python_arrays.py [-t SECONDS] [-s SEED]

Hostile __cuda_array_interface__ dicts (shapes, strides, typestrs, data pointers: negative,
huge, of the wrong type, missing), DLPack capsules from numpy arrays of every dtype and
odd strides, numpy arrays (the buffer reader), the package's own Array with its
attributes changed, and streams of every kind.  Each object goes to the Python reader
(shmpi._interop.array_info / stream_handle), which must return a sane description
(0 <= ptr < 2**64, 0 <= nbytes < 2**63) or raise ShmpiInvalid and nothing else; and, where the compiled shmpi._fast is
built, to its readers, which must agree with the Python path wherever they answer (or
answer None: the Python path decides).  A crash ends the process (the run's status says
so).  Prints the executions, the disagreements and the bad exceptions, and "N passed, N
failed"; exit status 0 when nothing failed.  Needs numpy; no library, MPI or GPU (the
compiled readers get tables, no routines: they call nothing).
"""
import argparse
import ctypes
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "src", "python"))

import numpy as np  # noqa: E402

import shmpi.core as core  # noqa: E402
from shmpi import _interop  # noqa: E402
from shmpi._interop import DTYPES, REDUCE_OPS, ShmpiError  # noqa: E402

NAMES = list(DTYPES)
INTS = [0, 1, 2, 3, 7, 8, 16, -1, -8, 2**31, 2**32, 2**63 - 1, 2**63, 2**64 - 1, 2**64,
        2**100, -2**63, -2**64]
TYPESTRS = ([v[2] for v in DTYPES.values()] + ["|u1", "<f4", ">f4", ">i8", "<V2", "|b1",
            "<U4", "O", "", "<", "<i3", "<f16", "<c32", "|i1", "=f8", "<i", "<f0", "<u-1",
            "b1", "i4", "\x00", "<f4\x00", "<c8", "f", "<ff"])


class Cai:
    def __init__(self, cai, dtype=None):
        self.__cuda_array_interface__ = cai
        if dtype is not None:
            self.dtype = dtype


class RaisingCai:
    @property
    def __cuda_array_interface__(self):
        raise RuntimeError("no")


class Dl:
    def __init__(self, arr):
        self.arr = arr

    def __dlpack__(self, stream=None):
        return self.arr.__dlpack__()

    def __dlpack_device__(self):
        return (1, 0)


class BadDl:
    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, stream=None):
        return self.capsule

    def __dlpack_device__(self):
        return (2, 0)


class Strm:
    def __init__(self, attr, value):
        setattr(self, attr, value)


class StrmProto:
    def __init__(self, value):
        self.value = value

    def __cuda_stream__(self):
        return self.value


class ShiftedArray(core.Array):
    """An Array whose ptr is a property: getattr's answer, not the slot's."""
    @property
    def ptr(self):
        return self.base + 64

    @ptr.setter
    def ptr(self, value):
        self.base = value


class SubArray(core.Array):
    """An Array subclass; change_types() gives it a class attribute ptr now and then."""


class SubStream(core.Stream):
    """A Stream subclass; change_types() gives it a class attribute _handle now and then."""


def pick(rng, seq):
    return seq[rng.randrange(len(seq))]


def rand_int(rng):
    return pick(rng, INTS) if rng.random() < 0.6 else rng.randint(-2**66, 2**66)


def rand_shape(rng):
    r = rng.random()
    if r < 0.1:
        return pick(rng, [None, 3, "3", (1.5,), [2, None], (), ((2,),)])
    n = rng.randrange(0, 5)
    dims = tuple(rng.randrange(0, 5) if rng.random() < 0.8 else rand_int(rng) for _ in range(n))
    return list(dims) if rng.random() < 0.2 else dims


def rand_cai(rng):
    cai = {}
    if rng.random() < 0.95:
        cai["shape"] = rand_shape(rng)
    if rng.random() < 0.95:
        r = rng.random()
        cai["data"] = ((rand_int(rng), False) if r < 0.8 else
                       pick(rng, [None, (), (None, False), ("0x10",), 5, [16, True]]))
    if rng.random() < 0.9:
        cai["typestr"] = pick(rng, TYPESTRS) if rng.random() < 0.95 else rand_int(rng)
    if rng.random() < 0.4:
        shape = cai.get("shape")
        n = len(shape) if isinstance(shape, (tuple, list)) else rng.randrange(3)
        cai["strides"] = (tuple(pick(rng, [1, 2, 4, 8, 16, 0, -4, 3, 2**62]) * rng.randrange(1, 9)
                                for _ in range(n)) if rng.random() < 0.9 else pick(rng, [None, 4, "x"]))
    if rng.random() < 0.1:
        cai["mask"] = pick(rng, [None, 0, object()])
    cai["version"] = rng.randrange(4)
    if rng.random() < 0.05:
        return pick(rng, [None, [], "cai", 3, {"shape": (2,)}])
    return cai


def rand_numpy(rng):
    code = pick(rng, "?bhilqBHILQefdFDgGOUSV")
    try:
        dt = np.dtype(code if code not in "USV" else code + "4")
    except TypeError:
        dt = np.dtype("u1")
    shape = tuple(rng.randrange(0, 5) for _ in range(rng.randrange(0, 4)))
    a = np.zeros(shape, dtype=dt)
    r = rng.random()
    if r < 0.2 and a.ndim:
        a = a[::2]
    elif r < 0.3 and a.ndim > 1:
        a = a.T
    elif r < 0.4:
        a = a.newbyteorder() if a.dtype.itemsize > 1 else a
    elif r < 0.5:
        a.flags.writeable = False
    return a


def rand_own(rng):
    kind = pick(rng, [core.Array, core.Array, ShiftedArray, SubArray])
    a = kind(rng.randrange(0, 2**48) * 8, (rng.randrange(0, 5),), pick(rng, NAMES))
    change_own(rng, a)
    return a


def change_own(rng, a):
    """One of the attributes the readers take changed (or deleted), or none."""
    r = rng.random()
    if r < 0.2:
        a.ptr = rand_int(rng)
    elif r < 0.4:
        a.shape = rand_shape(rng)
    elif r < 0.5:
        a.dtype = pick(rng, ["float32", "float", "nope", 3, None])
    elif r < 0.6:
        a.device_type = pick(rng, [1, 2, 3, 13, -1, 2**16, "2", None])
    elif r < 0.65:
        try:
            delattr(a, pick(rng, ["ptr", "shape", "dtype", "device_type"]))
        except AttributeError:  # a property without a deleter
            pass
    elif r < 0.8 and isinstance(getattr(a, "shape", None), list) and a.shape:
        a.shape[0] = rand_int(rng)  # in place: the list the reader saw


def rand_array(rng):
    r = rng.random()
    if r < 0.45:
        return Cai(rand_cai(rng), dtype=pick(rng, [None, None, "bfloat16", np.dtype("f2")]))
    if r < 0.65:
        return rand_numpy(rng)
    if r < 0.75:
        return Dl(rand_numpy(rng))
    if r < 0.85:
        return rand_own(rng)
    if r < 0.9:
        return BadDl(pick(rng, [None, 3, rand_numpy(rng).__array_interface__.get("data")]))
    return pick(rng, [RaisingCai(), object(), None, 3, "x", core.Buffer(rng.randrange(2**40), 8)])


def rand_stream(rng):
    r = rng.random()
    if r < 0.3:
        return pick(rng, [None, True, False, 0, 5]) if rng.random() < 0.5 else rand_int(rng)
    if r < 0.5:
        s = pick(rng, [core.Stream, SubStream])(handle=abs(rand_int(rng)) % 2**64)
        change_stream(rng, s)
        return s
    if r < 0.7:
        return StrmProto(pick(rng, [(0, rand_int(rng)), (0,), None, (0, None), (0, "5"),
                                    [0, 3], (0, ctypes.c_void_p(77)), 5]))
    return Strm(pick(rng, ["cuda_stream", "ptr", "handle", "other"]),
                pick(rng, [rand_int(rng), None, "x", ctypes.c_void_p(9), 1.5]))


def change_stream(rng, s):
    if rng.random() < 0.2:
        s._handle = rand_int(rng)


def change_types(rng):
    """Class attributes that getattr finds before an object's slot, given and taken away:
    the compiled readers must notice (the types' version tags change)."""
    def shadow(base, name, value):  # getattr says value; setattr still sets the slot
        return property(lambda self: value, getattr(base, name).__set__)
    for kind, name, value in ((SubArray, "ptr", shadow(core.Array, "ptr", 4096)),
                              (SubStream, "_handle", shadow(core.Stream, "_handle", 77))):
        if name in vars(kind):
            delattr(kind, name)
        elif rng.random() < 0.3:
            setattr(kind, name, value)


def describe(obj):
    """An object's attributes for a message (slots included)."""
    slots = [n for k in type(obj).__mro__ for n in getattr(k, "__slots__", ())
             if n not in ("__dict__", "__weakref__")]
    found = {n: getattr(obj, n, "<unset>") for n in slots}
    found.update(getattr(obj, "__dict__", {}))
    return "%s %r" % (type(obj).__name__, found) if found else repr(obj)


def python_array(obj):
    try:
        info = _interop.array_info(obj, "fuzz")
    except ShmpiError:
        return "invalid"
    return (info.ptr, info.nbytes, NAMES.index(info.dtype))


def python_stream(obj):
    try:
        return _interop.stream_handle(obj)
    except ShmpiError:
        return "invalid"


def setup_fast():
    """shmpi._fast with the package's tables and no library routines: the readers only."""
    fast = core._fast
    if fast is None:
        return None
    libc = ctypes.CDLL(None)
    never = ctypes.cast(libc.getpid, ctypes.c_void_p).value  # never called by the readers
    singles = {n: never for n in core._FAST_SINGLES}
    moves = {k: [(0, 1, "") for _ in NAMES] for k in ("put", "get", "put_signal", "fcollect")}
    fast.setup(singles, [DTYPES[n][0] for n in NAMES], moves,
               [[(0, 1, "") for _ in REDUCE_OPS] for _ in NAMES], NAMES.index("uint8"))
    return fast


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-t", "--seconds", type=float, default=20)
    ap.add_argument("-s", "--seed", type=int, default=int(time.time()))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    fast = setup_fast()
    print("python_arrays: seed %d, %s" % (args.seed, core.PYTHON_PATH))
    runs = failed = answered = 0
    end = time.monotonic() + args.seconds
    while time.monotonic() < end:
        for _ in range(200):
            runs += 1
            obj = rand_array(rng)
            try:
                py = python_array(obj)
            except Exception as e:  # anything but ShmpiInvalid is a finding
                failed += 1
                print("FAIL array_info raised %s: %s for %r" % (type(e).__name__, e,
                                                              describe(obj)))
                py = None
            if isinstance(py, tuple) and not (0 <= py[0] < 2**64 and 0 <= py[1] < 2**63):
                failed += 1
                print("FAIL array_info took ptr %d, nbytes %d of %r" % (py[0], py[1],
                                                                      describe(obj)))
            if fast is not None:
                got = fast.read_array(obj)
                answered += got is not None
                if got is not None and got != py:
                    failed += 1
                    print("FAIL shmpi._fast read %r, the Python path %r, of %r"
                          % (got, py, describe(obj)))
            if fast is not None and isinstance(obj, core.Array):
                change_own(rng, obj)  # read again after a change: nothing is kept
                change_types(rng)
                got, py = fast.read_array(obj), python_array(obj)
                if got is not None and got != py:
                    failed += 1
                    print("FAIL shmpi._fast read %r after a change, the Python path %r, of %s"
                          % (got, py, describe(obj)))
            s = rand_stream(rng)
            if fast is not None and isinstance(s, core.Stream):
                fast.read_stream(s)
                change_stream(rng, s)
                change_types(rng)
            py_s = python_stream(s)
            if isinstance(py_s, int) and not 0 <= py_s < 2**64:
                failed += 1
                print("FAIL stream_handle took %d of %r" % (py_s, describe(s)))
            if fast is not None:
                got = fast.read_stream(s)
                if got is not None and got != py_s:
                    failed += 1
                    print("FAIL shmpi._fast stream %r, the Python path %r, of %r"
                          % (got, py_s, describe(s)))
            if failed > 50:
                break
        if failed > 50:
            break
    print("%d executions (array and stream each), seed %d; the compiled reader answered %d "
          "arrays itself" % (runs, args.seed, answered))
    print("%d passed, %d failed" % (runs - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
