#!/usr/bin/env python3
"""bench_nvshmem4py.py - NVSHMEM's own host routines on CUDA streams, through its Python
binding (nvshmem.core, NVSHMEM4Py), beside bench_stream's shmpi rows (benchmarks/gpu-run.sh
runs both on the same GPU, with the same mpiexec):

    mpiexec -n 2 python3 benchmarks/bench_nvshmem4py.py [-r REPS] [-t SECONDS]

Rows (PE 0 to and from PE 1): putmem, getmem, putmem_signal on a stream at 8 B, 64 KiB,
1 MiB and 64 MiB: (a) enqueue, us per call of many back to back; (b) done, us per call +
stream.sync(); the 8-byte put_signal + signal_wait_until ping-pong on both streams (us per
round trip); barrier_all_on_stream + sync; int64 sum reduce on a stream at 8 B, 64 KiB,
1 MiB.  Medians of REPS runs (default 5).  The calls go through nvshmem.bindings, so each
includes Python's call overhead (about a microsecond): compare enqueue columns with care.

Needs no mpi4py: the PEs learn their rank from the launcher's environment (PMI_RANK,
PMI_SIZE of MPICH's hydra; OMPI_COMM_WORLD_*), initialize NVSHMEM by unique ID through a
file in a folder shared by the PEs of the job, and find the device as Device(0) (or
SHMPI_NVSHMEM_DEVICE).  The work runs in a child process per PE with a time limit (-t), so
a PE that NVSHMEM ends or hangs (two PEs on one GPU, say) still yields a table: each row it
could not measure says "n/a: REASON" (the last line the child printed).  It prints which of
CuPy, Numba, Torch and mpi4py import.  Without nvshmem.core it prints one line saying so
and exits 0.  Exit status 0 whenever the table is printed, n/a rows included (NVSHMEM
not running here is not shmpi's failure; the table says why).
"""
import argparse
import importlib.util
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time

SIZES = [8, 64 << 10, 1 << 20, 64 << 20]
COLL_SIZES = [8, 64 << 10, 1 << 20]
BATCH = 10


def rank_and_size():
    for r, n in (("PMI_RANK", "PMI_SIZE"), ("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"),
                 ("PMIX_RANK", "PMIX_SIZE")):
        if r in os.environ and n in os.environ:
            return int(os.environ[r]), int(os.environ[n])
    return 0, 1


def size_name(n):
    if n >= 1 << 20:
        return f"{n >> 20} MiB"
    if n >= 1024:
        return f"{n >> 10} KiB"
    return f"{n} B"


def present(name):
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


# ---- the worker: one per PE, in a child process -----------------------------------------
def worker(args, rank, npes, shared):
    import ctypes

    # One machine: the unique-ID bootstrap's sockets stay on the loopback interface.
    os.environ.setdefault("NVSHMEM_BOOTSTRAP_UID_SOCK_IFNAME", "lo")

    import numpy as np

    try:
        from cuda.core import Device
    except ImportError:
        from cuda.core.experimental import Device
    import nvshmem.bindings as b
    import nvshmem.core as nv

    dev = Device(int(os.environ.get("SHMPI_NVSHMEM_DEVICE", "0")))
    dev.set_current()
    stream = dev.create_stream()
    try:
        s = int(stream.__cuda_stream__()[1])
    except AttributeError:
        s = int(stream.handle)

    # The unique ID travels through a file of the shared folder.
    uid_path = os.path.join(shared, "uid")
    if rank == 0:
        uid = nv.get_unique_id()
        with open(uid_path + ".tmp", "wb") as f:
            f.write(uid._data.view(np.int8).tobytes())
        os.rename(uid_path + ".tmp", uid_path)
    else:
        uid = nv.get_unique_id(empty=True)
        while not os.path.exists(uid_path):
            time.sleep(0.01)
        with open(uid_path, "rb") as f:
            uid._data.view(np.int8)[:] = np.frombuffer(f.read(), dtype=np.int8)
    print(f"PE {rank}: nvshmem.core.init (uid) on {dev.name if hasattr(dev, 'name') else dev}",
          flush=True)
    nv.init(device=dev, uid=uid, rank=rank, nranks=npes, initializer_method="uid")
    print(f"PE {rank}: init done", flush=True)

    def ptr(buf):
        try:
            return int(buf.handle)
        except (TypeError, AttributeError):
            return int(buf._mnff.ptr)

    cuda = ctypes.CDLL("libcuda.so.1")

    def zero(p, n):
        if cuda.cuMemsetD8_v2(ctypes.c_ulonglong(p), ctypes.c_ubyte(0), ctypes.c_size_t(n)):
            raise RuntimeError("cuMemsetD8 failed")

    sig_set = int(getattr(getattr(nv, "SignalOp", None), "SIGNAL_SET", 0))
    cmp_ge = int(getattr(getattr(nv, "ComparisonType", None), "CMP_GE", 5))
    world = int(getattr(getattr(nv, "Teams", None), "TEAM_WORLD", 0))
    top = max(SIZES)
    dst_buf, src_buf, sig_buf = nv.buffer(top), nv.buffer(top), nv.buffer(64)
    dst, src, sig = ptr(dst_buf), ptr(src_buf), ptr(sig_buf)
    zero(dst, top), zero(src, top), zero(sig, 64)

    def sync():
        stream.sync()

    def barrier():
        b.barrier_all_on_stream(s)
        sync()

    barrier()
    rows = {}
    reps = args.reps
    counter = [0]

    def call(op, n):
        if op == "put":
            b.putmem_on_stream(dst, src, n, 1, s)
        elif op == "get":
            b.getmem_on_stream(src, dst, n, 1, s)
        else:
            counter[0] += 1
            b.putmem_signal_on_stream(dst, src, n, sig, counter[0], sig_set, 1, s)

    def timed(op, n, iters, enqueue_only):
        t0 = time.perf_counter()
        for _ in range(iters):
            call(op, n)
            if not enqueue_only:
                sync()
        t = (time.perf_counter() - t0) / iters * 1e6
        if enqueue_only:
            sync()
        return t

    if npes == 2:
        for op in ("put", "get", "put_signal"):
            for n in SIZES:
                if rank == 0:
                    enq_iters = 200 if n <= 65536 else 50 if n <= 1 << 20 else 4
                    done_iters = 100 if n <= 65536 else 20 if n <= 1 << 20 else 3
                    timed(op, n, 2, False)
                    enq = [timed(op, n, enq_iters, True) for _ in range(reps)]
                    done = [timed(op, n, done_iters, False) for _ in range(reps)]
                    rows[f"{op} {n}"] = [statistics.median(enq), statistics.median(done)]
                barrier()
        # ping-pong on word 1 of the signal buffer (word 0 took put_signal's values)
        pp, data = sig + 8, dst
        base, per = 0, []
        for r in range(reps + 1):
            runs = []
            for _ in range(20):
                def batch():
                    for i in range(base + 1, base + BATCH + 1):
                        if rank == 0:
                            b.putmem_signal_on_stream(data, src, 8, pp, i, sig_set, 1, s)
                            b.signal_wait_until_on_stream(pp, cmp_ge, i, s)
                        else:
                            b.signal_wait_until_on_stream(pp, cmp_ge, i, s)
                            b.putmem_signal_on_stream(data, src, 8, pp, i, sig_set, 0, s)
                if rank == 1:
                    batch()
                barrier()  # PE 1's waits are enqueued before PE 0 starts
                t0 = time.perf_counter()
                if rank == 0:
                    batch()
                sync()
                runs.append((time.perf_counter() - t0) / BATCH * 1e6)
                base += BATCH
            if r > 0:
                per.append(statistics.median(runs))
        rows["pingpong"] = [statistics.median(per)]
    # barrier
    barrier()
    t = []
    for _ in range(reps):
        barrier()
        t0 = time.perf_counter()
        for _ in range(100):
            barrier()
        t.append((time.perf_counter() - t0) / 100 * 1e6)
    rows["barrier"] = [statistics.median(t)]
    # int64 sum reduce
    red = getattr(b, "int64_sum_reduce_on_stream")
    for n in COLL_SIZES:
        iters = 50 if n <= 65536 else 10
        red(world, dst, src, max(1, n // 8), s)
        sync()
        t = []
        for _ in range(reps):
            barrier()
            t0 = time.perf_counter()
            for _ in range(iters):
                red(world, dst, src, max(1, n // 8), s)
                sync()
            t.append((time.perf_counter() - t0) / iters * 1e6)
        rows[f"reduce {n}"] = [statistics.median(t)]
    barrier()
    if rank == 0:
        with open(os.path.join(shared, "rows.json.tmp"), "w") as f:
            json.dump(rows, f)
        os.rename(os.path.join(shared, "rows.json.tmp"), os.path.join(shared, "rows.json"))
    for buf in (dst_buf, src_buf, sig_buf):
        nv.free(buf)
    nv.finalize()
    print(f"PE {rank}: finalized", flush=True)


# ---- the parent: runs the worker with a time limit, then (PE 0) prints the table ---------
def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-r", "--reps", type=int, default=5)
    ap.add_argument("-t", "--time-limit", type=float, default=80.0)
    ap.add_argument("--worker", metavar="SHARED")
    args = ap.parse_args()
    rank, npes = rank_and_size()
    if args.worker:
        worker(args, rank, npes, args.worker)
        return 0
    try:
        import nvshmem.core  # noqa: F401
    except Exception as e:  # noqa: BLE001 (whatever stops the import)
        if rank == 0:
            print(f"bench_nvshmem4py: n/a: nvshmem.core does not import here "
                  f"({type(e).__name__}: {e})")
        return 0
    have = {m: present(m) for m in ("cupy", "numba", "torch", "mpi4py")}
    shared = os.environ.get("SHMPI_NVSHMEM_SHARED",
                            os.path.join("/tmp", f"bench_nvshmem4py.{os.getppid()}"))
    os.makedirs(shared, exist_ok=True)
    cmd = [sys.executable, os.path.abspath(__file__), "--worker", shared, "-r", str(args.reps)]
    t0 = time.time()
    try:
        child = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 text=True, start_new_session=True)
        try:
            output, _ = child.communicate(timeout=args.time_limit)
            rc = child.returncode
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            output, _ = child.communicate()
            rc = None
    except OSError as e:
        output, rc = str(e), -1
    lines = [ln for ln in (output or "").splitlines() if ln.strip()]
    if rc == 0:
        reason = ""
    elif rc is None:
        reason = (f"PE {rank} timed out after {args.time_limit:.0f} s"
                  + (f" (last: {lines[-1][:160]})" if lines else ""))
    else:
        reason = f"PE {rank} exited {rc}" + (f": {lines[-1][:200]}" if lines else "")
    with open(os.path.join(shared, f"status.{rank}.tmp"), "w") as f:
        json.dump({"rc": rc, "reason": reason, "tail": lines[-8:]}, f)
    os.rename(os.path.join(shared, f"status.{rank}.tmp"), os.path.join(shared, f"status.{rank}"))
    if rank != 0:
        return 0 if rc == 0 else 1

    # PE 0: the others' status, the rows, the table.
    deadline = time.time() + 15
    status = {}
    while time.time() < deadline and len(status) < npes:
        for p in range(npes):
            path = os.path.join(shared, f"status.{p}")
            if p not in status and os.path.exists(path):
                with open(path) as f:
                    status[p] = json.load(f)
        time.sleep(0.05)
    rows = {}
    rows_path = os.path.join(shared, "rows.json")
    if os.path.exists(rows_path):
        with open(rows_path) as f:
            rows = json.load(f)
    reasons = [st["reason"] for p, st in sorted(status.items()) if st["reason"]]
    reasons += [f"PE {p} left no status" for p in range(npes) if p not in status]
    why = "n/a: " + (reasons[0][:100] if reasons else "no result")
    try:
        import nvshmem
        version = getattr(nvshmem, "__version__", "?")
    except Exception:  # noqa: BLE001
        version = "?"
    print(f"# bench_nvshmem4py, {npes} PEs: {' '.join(sys.argv)}")
    print(f"# nvshmem4py {version}; CuPy {'yes' if have['cupy'] else 'no'}, Numba "
          f"{'yes' if have['numba'] else 'no'}, Torch {'yes' if have['torch'] else 'no'}, mpi4py "
          f"{'yes' if have['mpi4py'] else 'no'} (none needed: raw nvshmem.core Buffers); "
          f"{time.time() - t0:.1f} s")
    for p, st in sorted(status.items()):
        if st["rc"] != 0:
            print(f"# PE {p}'s last lines: " + " | ".join(st["tail"]))
    print(f"\n## NVSHMEM host routines on a stream (us, median of {args.reps} runs; each call "
          "includes Python's overhead)\n")
    print("| row | bytes | enq | done |\n|---|---:|---:|---:|")

    def cell(key, i):
        return f"{rows[key][i]:.2f}" if key in rows else why

    missing = 0
    if npes == 2:
        for op in ("put", "get", "put_signal"):
            for n in SIZES:
                missing += f"{op} {n}" not in rows
                name = "putmem_signal" if op == "put_signal" else op + "mem"
                print(f"| {name}_on_stream | "
                      f"{size_name(n)} | {cell(f'{op} {n}', 0)} | {cell(f'{op} {n}', 1)} |")
        missing += "pingpong" not in rows
        print(f"| ping-pong: putmem_signal + signal_wait_until_on_stream, per round trip | 8 B | "
              f"- | {cell('pingpong', 0)} |")
    else:
        print("| put, get, put_signal, ping-pong | - | 2 PEs only | - |")
    missing += "barrier" not in rows
    print(f"| barrier_all_on_stream + sync | - | - | {cell('barrier', 0)} |")
    for n in COLL_SIZES:
        missing += f"reduce {n}" not in rows
        print(f"| int64_sum_reduce_on_stream + sync | {size_name(n)} | - | {cell(f'reduce {n}', 0)} |")
    if reasons:
        print("\nn/a: " + "; ".join(reasons))
    print(f"\nbench_nvshmem4py: {npes} PEs: "
          f"{'all rows measured' if not missing else f'{missing} rows n/a'}")
    shutil.rmtree(shared, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
