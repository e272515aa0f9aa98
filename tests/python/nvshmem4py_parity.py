#!/usr/bin/env python3
"""Name by name: NVSHMEM4Py's nvshmem.core (the wheel nvshmem4py-cu13 0.4.1, read from its
files: nvshmem.core is Python, so nothing is imported and no driver is needed) against
shmpi.core.

    pip download --no-deps -d /tmp/nv nvshmem4py-cu13==0.4.1
    python3 tests/python/nvshmem4py_parity.py --wheel /tmp/nv/nvshmem4py_cu13-0.4.1-*.whl
    python3 tests/python/nvshmem4py_parity.py --root SITE_PACKAGES   (an installed one)
    ... --table    prints docs/python.md's table rows instead of checking

For every name in the __all__ of nvshmem.core's modules (those its __init__ gathers): the
name in shmpi.core with its parameters (inspect.signature) against NVSHMEM4Py's (the
source's def).  "same": the same parameter names in the same order; "differs": shmpi's
parameters are named; "missing": shmpi.core has no such name.  A missing name, or one
that differs, must have its row in docs/python.md's table ("NVSHMEM4Py 0.4.1, name by
name") saying so, with the reason; a row saying "same" for a name that differs fails too.
Prints one line per failure and "N passed, N failed"; exit status 0 when none failed,
77 when no wheel or install is given or found (a skip)."""
import argparse
import ast
import importlib.util
import inspect
import os
import re
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(TOP, "src", "python"))
os.environ.setdefault("SHMPI_PY_NO_CUPY", "1")

import shmpi.core as core  # noqa: E402

DOC = os.path.join(TOP, "docs", "python.md")
HEADING = "### NVSHMEM4Py 0.4.1, name by name"


def modules_of(core_dir):
    """The modules nvshmem.core's __init__ gathers __all__ from, in its order."""
    tree = ast.parse(open(os.path.join(core_dir, "__init__.py")).read())
    mods = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            mods.append(node.module)
    return mods


def nvshmem_names(core_dir):
    """[(module, name, parameters or None for a class or a value)] of nvshmem.core."""
    out = []
    for mod in modules_of(core_dir):
        path = os.path.join(core_dir, *mod.split(".")) + ".py"
        tree = ast.parse(open(path).read())
        names, defs = [], {}
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__"
                                                    for t in node.targets):
                names = ast.literal_eval(node.value)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = node.args
                defs[node.name] = [p.arg for p in a.posonlyargs + a.args] + \
                    (["*" + a.vararg.arg] if a.vararg else []) + [p.arg for p in a.kwonlyargs]
        for name in names:
            out.append((mod, name, defs.get(name)))
    return out


def shmpi_params(obj):
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    return [("*" + p.name) if p.kind == p.VAR_POSITIONAL else p.name
            for p in sig.parameters.values() if p.kind != p.VAR_KEYWORD]


def compare(nv):
    """(status, detail) of one NVSHMEM4Py name in shmpi.core."""
    mod, name, params = nv
    obj = getattr(core, name, None)
    if obj is None:
        return "missing", ""
    if params is None or not callable(obj) or inspect.isclass(obj):
        return "same", ""
    mine = shmpi_params(obj)
    if mine is None or mine == params:
        return "same", ""
    # shmpi may take more keywords after NVSHMEM4Py's (device_heap=, n_pes=...)
    if mine[:len(params)] == params:
        return "same", "shmpi adds " + ", ".join(mine[len(params):])
    return "differs", "NVSHMEM4Py (%s), shmpi (%s)" % (", ".join(params), ", ".join(mine))


def doc_rows():
    """{name: the status cell} of docs/python.md's table."""
    text = open(DOC).read()
    if HEADING not in text:
        return {}
    rows = {}
    for line in text.split(HEADING, 1)[1].splitlines()[1:]:
        if line.startswith("#"):
            break
        m = re.match(r"\|\s*`([^`]+)`\s*\|\s*([^|]*)\|\s*(.*?)\s*\|\s*$", line)
        if m:
            rows[m.group(1)] = (m.group(2).strip(), m.group(3).strip())
    return rows


def find_core(args):
    if args.wheel:
        out = tempfile.mkdtemp(prefix="nvshmem4py.")
        with zipfile.ZipFile(args.wheel) as whl:
            whl.extractall(out)
        return os.path.join(out, "nvshmem", "core")
    if args.root:
        return os.path.join(args.root, "nvshmem", "core")
    spec = importlib.util.find_spec("nvshmem")  # finds it without importing it
    if spec is not None and spec.submodule_search_locations:
        return os.path.join(list(spec.submodule_search_locations)[0], "core")
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--wheel")
    ap.add_argument("--root")
    ap.add_argument("--table", action="store_true")
    args = ap.parse_args()
    core_dir = find_core(args)
    if core_dir is None or not os.path.isfile(os.path.join(core_dir, "__init__.py")):
        print("skip: no nvshmem4py (give --wheel or --root; pip download --no-deps "
              "nvshmem4py-cu13==0.4.1)")
        return 77
    names = nvshmem_names(core_dir)
    rows = doc_rows()
    if args.table:
        for nv in names:
            status, detail = compare(nv)
            print("| `%s` | %s | %s |" % (nv[1], nv[0], status + (": " + detail if detail else "")))
        return 0
    passed = failed = 0
    for nv in names:
        status, detail = compare(nv)
        name = nv[1]
        row = rows.get(name)
        if row is None:
            ok, why = False, "no row in docs/python.md's table"
        elif status == "missing":
            ok, why = row[1].startswith("missing:") and len(row[1]) > len("missing: "), \
                "missing from shmpi.core; the row must say \"missing: WHY\""
        elif status == "differs":
            ok, why = row[1].startswith("differs"), "differs (%s); the row says %r" % (
                detail, row[1])
        else:
            ok, why = row[1].startswith("same"), "same; the row says %r" % row[1]
        if ok:
            passed += 1
        else:
            failed += 1
            print("FAIL %s: %s" % (name, why))
    print("NVSHMEM4Py names: %d (%s)" % (len(names), core_dir))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
