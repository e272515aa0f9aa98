#!/usr/bin/env python3
"""file_circles.py ARROWS DEFS FILE...: the circles of files (rooms) of src/, for layers.test.

A room is folder/X: X.c with X.h, or a header alone.  ARROWS holds "from to why" lines (the
includes, the calls nm sees between objects); DEFS "function room" lines (the functions the
objects define, none where nothing is built).  A HEADER's inline bodies and macros add an
arrow to the room defining a function they call: nm credits such a call to the object that
includes the header, not to the header.  A Python FILE (.py) is a room of its own, with an
arrow to each module of its package that it imports (at the top or inside a function).
A circle is a strongly connected set of rooms.
Prints, where no circle is wider than 2, the widest ("2 base/error base/shmpi"), exit 0;
else each wider circle ("circle of N files in src/: room...") with the arrows inside it, exit 3.
"""
import ast, collections, os, re, sys

why = collections.defaultdict(set)  # (from, to) -> the includes and functions behind it
for line in open(sys.argv[1]):
    a, b, w = line.split(None, 2)
    why[a, b].add(w.strip())
defs = dict(line.split() for line in open(sys.argv[2]))
not_code = re.compile(r"/\*.*?\*/|//[^\n]*|\"(\\.|[^\"\\\n])*\"|'(\\.|[^'\\\n])*'", re.S)
def python_imports(path, room):
    """Arrows of a module to the modules of its own package that it imports."""
    folder = os.path.dirname(path)
    package = os.path.basename(folder)
    for node in ast.walk(ast.parse(open(path).read())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            names = [node.module] if node.module else [a.name for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name.split(".", 1)[1] for a in node.names if a.name.startswith(package + ".")]
        else:
            continue
        for name in names:
            if os.path.exists(os.path.join(folder, name.split(".")[0] + ".py")):
                why[room, package + "/" + name.split(".")[0]].add("import %s (line %d)" % (name, node.lineno))


for h in sys.argv[3:]:
    room = os.path.splitext("/".join(h.split("/")[-2:]))[0]
    if h.endswith(".py"):
        python_imports(h, room)
        continue
    text = open(h).read().replace("\\\n", " ")
    text = not_code.sub(" ", text)
    # The code that runs where the header is used: inside braces, and macros.
    code, depth = [], 0
    for line in text.split("\n"):
        if line.lstrip().startswith("#define"):
            code.append(line + "\n")
            continue
        for ch in line:
            depth = max(0, depth + (ch == "{") - (ch == "}"))
            code.append(ch if depth > 0 else " ")
        code.append("\n")
    for name in re.findall(r"\b(\w+)\s*\(", "".join(code)):
        if name in defs:
            why[room, defs[name]].add(name + "() in " + os.path.basename(h))

arrows = collections.defaultdict(set)
for a, b in why:
    if a != b:
        arrows[a].add(b)
rooms = sorted(set(arrows) | {b for bs in arrows.values() for b in bs})

def reach(start):
    seen, todo = set(), [start]
    while todo:
        for b in arrows[todo.pop()] - seen:
            seen.add(b)
            todo.append(b)
    return seen

reached = {r: reach(r) for r in rooms}
circles = sorted({tuple(sorted({r} | {s for s in reached[r] if r in reached[s]})) for r in rooms},
                 key=lambda c: (-len(c), c))
wide = [c for c in circles if len(c) > 2]
for c in wide:
    print("circle of %d files in src/: %s" % (len(c), " ".join(c)))
    for a in c:
        for b in sorted(arrows[a] & set(c)):
            print("    %s -> %s: %s" % (a, b, ", ".join(sorted(why[a, b]))))
if not wide:
    print(len(circles[0]), *circles[0]) if circles else print(0)
sys.exit(3 if wide else 0)
