#!/usr/bin/env python3
"""bench_python_stream.py - what shmpi.core adds to the C call, per call, on a stream:

    mpiexec -n 2 python3 benchmarks/bench_python_stream.py [-n CALLS] [-b BATCH]

For put, get, put_signal, signal_wait, signal_op, barrier_all, a team sync (sync of
TEAM_WORLD), sum_reduce (reduce "sum") and fcollect of 8 B (one int64) on one stream, in one
run and one process per PE: the C routine called from C (benchmarks/bench_python_stream.c,
compiled here, through the function pointer ctypes took from the same library), the same
call through shmpi.core as a program writes it (the compiled path where shmpi._fast is
built), and through shmpi.core's Python functions (the ctypes path, core._py), on the same
arrays (shmpi.core.array) and stream (shmpi.core.Stream()).  Each column is the best of
CALLS/BATCH batches of BATCH calls back to back (us per call, the fastest batch); the three
kinds alternate batch by batch, so drift touches all alike.  While a batch is timed the
stream is held by a host function at its head (bench_python_stream.c's bench_hold, as
nvbench holds a stream with a blocking kernel), so the calls only enqueue and the stream's
worker does not run beside them; it is released and synchronized after each batch,
untimed (--unheld: not held).  The one-sided rows (put, get, put_signal, signal_wait,
signal_op) are timed by PE 0 alone, to PE 1, while PE 1 waits in shmem_barrier_all (asleep
after its polling); the collective rows by both PEs.  --arrays cupy or torch hands the Python calls CuPy's or
Torch's views of the same arrays (a GPU).  "python - C" is the compiled column less C; the goals
(docs/python.md): at most 0.5 us for put/get/put_signal, 1.0 us for the rest.  PE 0
prints the table, the command and the commit.

Without a GPU run it on the fake driver with its copies prompt (tests/fake_cuda.c):
    SHMPI_CUDA_LIBRARY=_build/tests/.libs/fake_cuda.so SHMPI_FAKE_CUDA_LATE_US=0 \\
    SHMPI_DEVICE_HEAP_SIZE=16m SHMPI_LIBRARY=_build/.libs/libshmpi.so \\
    PYTHONPATH=src/python:_build/src/python mpiexec -n 2 python3 benchmarks/bench_python_stream.py
Exit status 0 when every row meets its goal, 1 otherwise.

With --host, no GPU: init(device_heap=False) and PySHMEM's evaluation on the host's
symmetric heap (host_array), 8 B to 1 MiB: put rate (calls per second of put back to back,
then a quiet) and get latency (us per get), C (shmem_putmem/shmem_getmem from C) beside
shmpi.core (compiled and ctypes paths), and the us shmpi.core adds per put (goal 0.5 us).
"""
import argparse
import ctypes
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "src", "python"))
os.environ.setdefault("SHMPI_PY_NO_CUPY", "1")  # the package's own arrays on every machine

import shmpi.core as nvshmem  # noqa: E402
from shmpi import _driver, _lib  # noqa: E402

GOALS = {"put": 0.5, "get": 0.5, "put_signal": 0.5}
GOAL_OTHER = 1.0
ONE_SIDED = ("put", "get", "put_signal", "signal_wait", "signal_op")  # the first rows


def c_helper():
    """The compiled bench_python_stream.c (a shared object in a temporary folder)."""
    out = os.path.join(tempfile.mkdtemp(prefix="bench_python_stream."), "helper.so")
    cc = os.environ.get("CC", "cc")
    subprocess.run([cc, "-O2", "-shared", "-fPIC", "-o", out,
                    os.path.join(HERE, "bench_python_stream.c")], check=True)
    helper = ctypes.CDLL(out)
    p, i, n, u64, L = ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t, ctypes.c_uint64, ctypes.c_long
    for name, params in (("bench_rma", [p, p, p, n, i, p, L]),
                         ("bench_put_signal", [p, p, p, n, p, u64, i, i, p, L]),
                         ("bench_signal_op", [p, p, u64, i, i, p, L]),
                         ("bench_signal_wait", [p, p, i, u64, p, L]),
                         ("bench_stream_only", [p, p, L]),
                         ("bench_team_stream", [p, p, p, L]),
                         ("bench_coll", [p, p, p, p, n, p, L]),
                         ("bench_host_rma", [p, p, p, n, i, L])):
        f = getattr(helper, name)
        f.restype, f.argtypes = ctypes.c_double, params
    helper.bench_hold.restype, helper.bench_hold.argtypes = ctypes.c_int, [p, p]
    helper.bench_release.restype, helper.bench_release.argtypes = None, []
    return helper


def address(name):
    return ctypes.c_void_p(ctypes.cast(getattr(_lib.load(), name), ctypes.c_void_p).value)


def python_loop(call, names):
    """A function timing `iters` calls of the literal `call` (no argument unpacking)."""
    src = ("def loop(iters):\n    t = perf()\n    for _ in range(iters):\n        %s\n"
           "    return (perf() - t) / iters / 1000\n" % call)
    scope = dict(names, perf=time.perf_counter_ns)
    exec(compile(src, "<bench %s>" % call, "exec"), scope)
    return scope["loop"]


def array_view(array, kind):
    """The Python calls' view of a shmpi.core.Array: itself, or CuPy's or Torch's view of its
    memory (no copy), as a program holding those arrays passes them."""
    if kind == "cupy":
        import cupy
        return cupy.asarray(array)
    if kind == "torch":
        import torch
        return torch.from_dlpack(array)
    return array


def commit():
    try:
        return subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def fastest(kinds, batches, batch, settle, barrier, prepare=lambda: None):
    """{kind: us per call of its fastest batch}: each kind warmed up once, then `batches`
    rounds of one batch per kind in turn, `prepare()` before and `settle()` after each batch
    (untimed), `barrier()` before the rounds and after them."""
    times = {k: [] for k, _ in kinds}
    for _, f in kinds:
        prepare()
        f(batch)
        settle()
    barrier()
    for _ in range(batches):
        for k, f in kinds:
            prepare()
            times[k].append(f(batch))
            settle()
    barrier()
    return {k: min(v) for k, v in times.items()}


def size_name(n):
    return "%d MiB" % (n >> 20) if n >= 1 << 20 else "%d KiB" % (n >> 10) if n >= 1024 \
        else "%d B" % n


def host_main(args, helper):
    """PySHMEM's table on the host heap: put rate and get latency, C beside shmpi.core."""
    nvshmem.init(device_heap=False)
    me, npes = nvshmem.my_pe(), nvshmem.n_pes()
    lib = _lib.load()
    peer = 1 - me
    import numpy
    sizes = [8, 64, 512, 4096, 32768, 262144, 1 << 20]
    sym = nvshmem.host_array((max(sizes),), "uint8")
    local = numpy.ones(max(sizes), dtype=numpy.uint8)
    put_c, get_c = address("shmem_putmem"), address("shmem_getmem")
    rows = []
    for size in sizes:
        dst, src = sym[:size], local[:size]
        calls = max(min(args.calls, (64 << 20) // size), 20)
        batch = max(min(args.batch, calls), 1)
        D, S = ctypes.c_void_p(dst.ctypes.data), ctypes.c_void_p(src.ctypes.data)
        kinds = {
            "put C": lambda k: helper.bench_host_rma(put_c, D, S, size, peer, k),
            "put compiled": python_loop("put(dst, src, peer)", dict(put=nvshmem.put, dst=dst,
                                                                     src=src, peer=peer)),
            "put ctypes": python_loop("put(dst, src, peer)", dict(put=nvshmem._py.put, dst=dst,
                                                                   src=src, peer=peer)),
            "get C": lambda k: helper.bench_host_rma(get_c, S, D, size, peer, k),
            "get compiled": python_loop("get(src, dst, peer)", dict(get=nvshmem.get, dst=dst,
                                                                     src=src, peer=peer)),
            "get ctypes": python_loop("get(src, dst, peer)", dict(get=nvshmem._py.get, dst=dst,
                                                                   src=src, peer=peer)),
        }
        rows.append((size, fastest(list(kinds.items()), max(calls // batch, 1), batch,
                                   lib.shmem_quiet, lib.shmem_barrier_all)))
        if me == 0 and args.verbose:
            print("row %d: %s" % (size, rows[-1][1]), file=sys.stderr, flush=True)
    nvshmem.free_host_array(sym)
    failed = 0
    if me == 0:
        print("bench_python_stream --host: %s, commit %s, %s, %d PEs" % (
            time.strftime("%Y-%m-%d", time.gmtime()), commit(),
            nvshmem.get_version().python_path, npes))
        print("command: mpiexec -n 2 python3 %s" % " ".join(sys.argv))
        print("put rate: 1/(us per put) of the fastest batch; get latency: us per get")
        print()
        print("| size | C put rate | shmpi.core put rate | ctypes put rate | C get | "
              "shmpi.core get | ctypes get | put: python - C |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- |")

        def rate(us):
            per_s = 1e6 / us if us > 0 else float("inf")
            return "%.2f M/s" % (per_s / 1e6) if per_s >= 1e6 else "%.1f k/s" % (per_s / 1e3)
        for size, t in rows:
            extra = t["put compiled"] - t["put C"]
            ok = extra <= 0.5 or size > 4096  # the goal is per call: small puts show it
            failed += not ok
            print("| %s | %s | %s | %s | %.3f us | %.3f us | %.3f us | %.3f us%s |" % (
                size_name(size), rate(t["put C"]), rate(t["put compiled"]),
                rate(t["put ctypes"]), t["get C"], t["get compiled"], t["get ctypes"], extra,
                "" if size > 4096 else (" PASS" if ok else " FAIL")))
    nvshmem.finalize()
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--host", action="store_true", help="the host heap's table (no GPU)")
    ap.add_argument("-n", "--calls", type=int, default=10000, help="calls per column and row")
    ap.add_argument("-b", "--batch", type=int, default=20, help="calls per timed batch")
    ap.add_argument("--arrays", choices=("own", "cupy", "torch"), default="own",
                    help="what the Python calls are given: shmpi.core's arrays, or CuPy's or "
                    "Torch's views of them (a GPU)")
    ap.add_argument("--unheld", action="store_true",
                    help="time the calls with the stream running, not held by a host function")
    ap.add_argument("-v", "--verbose", action="store_true", help="each row on stderr when done")
    args = ap.parse_args()
    if args.host:
        return host_main(args, c_helper())
    nvshmem.init()
    me, npes = nvshmem.my_pe(), nvshmem.n_pes()
    if npes != 2:
        print("bench_python_stream: run on 2 PEs (mpiexec -n 2)", file=sys.stderr)
        return 2
    peer = 1 - me
    lib = _lib.load()
    helper = c_helper()
    s = nvshmem.Stream()
    h = ctypes.c_void_p(s.handle)
    dst, src = nvshmem.array((1,), "int64"), nvshmem.array((1,), "int64")
    red = nvshmem.array((1,), "int64")
    coll = nvshmem.array((npes,), "int64")
    sig = nvshmem.array((1,), "uint64")
    world = nvshmem.Teams.TEAM_WORLD
    team = ctypes.c_void_p(int(world))
    SET, GE = nvshmem.SignalOp.SIGNAL_SET, nvshmem.ComparisonType.CMP_GE
    p = ctypes.c_void_p
    D, S, G, R, C = p(dst.ptr), p(src.ptr), p(sig.ptr), p(red.ptr), p(coll.ptr)
    u64 = ctypes.c_uint64
    # name, the call as a program writes it, the C loop and its arguments (what shmpi.core
    # calls: the typed routine of int64, the count in elements)
    rows = [
        ("put", "put(dst, src, peer, stream=s)",
         lambda n: helper.bench_rma(address("shmemx_int64_put_on_stream"), D, S,
                                    ctypes.c_size_t(1), peer, h, n)),
        ("get", "get(dst, src, peer, stream=s)",
         lambda n: helper.bench_rma(address("shmemx_int64_get_on_stream"), D, S,
                                    ctypes.c_size_t(1), peer, h, n)),
        ("put_signal", "put_signal(dst, src, sig, 1, SET, peer, stream=s)",
         lambda n: helper.bench_put_signal(address("shmemx_int64_put_signal_on_stream"), D, S,
                                           ctypes.c_size_t(1), G, u64(1), 0, peer, h, n)),
        ("signal_wait", "signal_wait(sig, 0, GE, stream=s)",
         lambda n: helper.bench_signal_wait(address("shmemx_signal_wait_until_on_stream"), G,
                                            3, u64(0), h, n)),
        ("signal_op", "signal_op(sig, 1, SET, peer, stream=s)",
         lambda n: helper.bench_signal_op(address("shmemx_signal_op_on_stream"), G, u64(1), 0,
                                          peer, h, n)),
        ("barrier_all", "barrier_all(stream=s)",
         lambda n: helper.bench_stream_only(address("shmemx_barrier_all_on_stream"), h, n)),
        ("team sync", "sync(world, stream=s)",
         lambda n: helper.bench_team_stream(address("shmemx_team_sync_on_stream"), team, h, n)),
        ("sum_reduce", "reduce(world, red, src, 'sum', stream=s)",
         lambda n: helper.bench_coll(address("shmemx_int64_sum_reduce_on_stream"), team, R, S,
                                     ctypes.c_size_t(1), h, n)),
        ("fcollect", "fcollect(world, coll, src, stream=s)",
         lambda n: helper.bench_coll(address("shmemx_int64_fcollect_on_stream"), team, C, S,
                                     ctypes.c_size_t(1), h, n)),
    ]
    views = {k: array_view(a, args.arrays)
             for k, a in dict(dst=dst, src=src, sig=sig, red=red, coll=coll).items()}
    names = dict(views, peer=peer, s=s, world=world, SET=SET, GE=GE)
    py_fast = dict(names, **{n: getattr(nvshmem, n) for n in
                             ("put", "get", "put_signal", "signal_wait", "signal_op",
                              "barrier_all", "sync", "reduce", "fcollect")})
    py_ctypes = dict(names, **{n: getattr(nvshmem._py, n) for n in
                               ("put", "get", "put_signal", "signal_wait", "signal_op",
                                "barrier_all", "sync", "reduce", "fcollect")})
    batches = max(args.calls // args.batch, 1)
    results = []
    prepare, settle = lambda: None, s.synchronize
    if not args.unheld:
        launch_host_func = ctypes.c_void_p(ctypes.cast(
            _driver.driver().cuLaunchHostFunc, ctypes.c_void_p).value)

        def prepare():
            if helper.bench_hold(launch_host_func, h) != 0:
                raise RuntimeError("bench_python_stream: cuLaunchHostFunc failed")

        def settle():
            helper.bench_release()
            s.synchronize()
    # The one-sided rows come first, timed by PE 0 alone while PE 1 waits in
    # shmem_barrier_all (asleep after 10 ms of polling): the CPUs serve one caller.
    joined = False
    for name, call, c_loop in rows:
        one_sided = name in ONE_SIDED
        if one_sided and me != 0:
            continue
        if not one_sided and not joined:
            lib.shmem_barrier_all()  # PE 1 joins here
            joined = True
        kinds = [("C", c_loop), ("compiled", python_loop(call, py_fast)),
                 ("ctypes", python_loop(call, py_ctypes))]
        barrier = (lambda: None) if one_sided else lib.shmem_barrier_all
        results.append((name, fastest(kinds, batches, args.batch, settle, barrier, prepare)))
        if me == 0 and args.verbose:
            print("row %s: %s" % (name, results[-1][1]), file=sys.stderr, flush=True)
    nvshmem.free_array(dst)
    nvshmem.free_array(src)
    nvshmem.free_array(red)
    nvshmem.free_array(coll)
    nvshmem.free_array(sig)
    s.close()
    failed = 0
    if me == 0:
        print("bench_python_stream: %s, commit %s, %s, %s arrays" % (
            time.strftime("%Y-%m-%d", time.gmtime()), commit(),
            nvshmem.get_version().python_path, args.arrays))
        print("command: %s" % " ".join(
            ["%s=%s" % (k, os.environ[k]) for k in sorted(os.environ)
             if k.startswith("SHMPI_FAKE_CUDA")] + ["mpiexec -n 2 python3"] + sys.argv))
        print("%d calls per column and row in batches of %d, the fastest batch, us per call"
              % (batches * args.batch, args.batch))
        print()
        print("| call (8 B, on a stream) | C | shmpi.core | python - C | goal | ctypes path |"
              " ctypes - C |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for name, t in results:
            extra = t["compiled"] - t["C"]
            goal = GOALS.get(name, GOAL_OTHER)
            ok = extra <= goal
            failed += not ok
            print("| %s | %.3f | %.3f | %.3f | <= %.1f %s | %.3f | %.3f |" % (
                name, t["C"], t["compiled"], extra, goal, "PASS" if ok else "FAIL",
                t["ctypes"], t["ctypes"] - t["C"]))
        print()
        print("%d of %d rows within their goals" % (len(results) - failed, len(results)))
    nvshmem.finalize()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
