#!/bin/sh
# gen-man.sh: writes shmpi's man pages into OUTDIR/man1, man3 and man7.
#
#   gen-man.sh SRCDIR OUTDIR VERSION [DOCDIR] < DECLS
#
# DECLS is every routine declaration of shmem.h, one a line, each after its
# chapter: "CHAPTER @ RET NAME (PARAMS);" (Makefile.am expands the routine
# list include/shmpi_routines.h with cpp to make it; shmem.h's inline
# deprecated forwarders come as "static inline ..." lines, of chapter amo).
# The extensions of include/shmemx.h (chapter shmemx) are read from that
# header as the C preprocessor ($CC -E -P, CC from the environment, default
# cc) expands it, with MPI_VERSION defined (shmemx_team_get_mpi_comm then
# takes an MPI_Comm *), so that the stream routines its X-macro list
# include/shmpi_stream.h declares are seen.  The routines are grouped into
# families, one page each: a typed, sized, ctx or _nbi form belongs to the
# page of its plain name (shmem_long_put_nbi, shmem_ctx_put8 and
# shmem_putmem are on shmem_put(3)), and every routine that is not its
# page's name gets a page ".so man3/PAGE.3", as does a C11 type-generic
# name that is no routine (shmem_put_nbi links to shmem_put(3)).  The
# stream routines of shmemx.h make families of their own (xfamily below):
# shmemx_long_put_nbi_on_stream and shmemx_put64_on_stream are on
# shmemx_putmem_on_stream(3), every reduction on shmemx_reduce_on_stream(3).
#
# What a page says is written once, in docs/man/pages/CHAPTER.txt (the
# format is at the top of docs/man/pages/rma.txt): its summary, description,
# every argument, return values, notes, example program
# (docs/man/examples/NAME.c, shown whole) and related pages.  Its synopsis
# is made here from the declarations: the C11 type-generic forms, then the
# C forms with TYPE/TYPENAME and SIZE standing for the typed and sized
# variants, then the types of this page.  The build stops when a family has
# no page, a page lacks a section, or an argument of its declarations is not
# described (or one described is not an argument).
#
# shmpi(7) gets the environment table of src/runtime/env.c; oshcc(1),
# oshrun(1), shmpi_info(1) come from docs/man/*.in.  The date of the pages
# is that of the newest release in NEWS.
set -e
src=$1 out=$2 version=$3 docdir=${4:-share/doc/shmpi}
[ -n "$version" ] || { echo "usage: gen-man.sh SRCDIR OUTDIR VERSION [DOCDIR] < DECLS" >&2; exit 2; }
man=$src/docs/man
date=$(sed -n '/^shmpi /{s/.*(\(.*\)).*/\1/;p;q;}' "$src/NEWS")
mkdir -p "$out/man1" "$out/man3" "$out/man7"
rm -f "$out"/man3/*.3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/decls"
[ -s "$work/decls" ] || { echo "gen-man.sh: no declarations on stdin" >&2; exit 1; }
# The extensions: each prototype of shmemx.h as the preprocessor expands it
# (one declaration a line, the spaces of its continuation lines squeezed),
# chapter shmemx.
# shellcheck disable=SC2086
${CC:-cc} -E -P -DMPI_VERSION -I"$src/include" "$src/include/shmemx.h" > "$work/shmemx.i" ||
    { echo "gen-man.sh: ${CC:-cc} -E cannot expand include/shmemx.h" >&2; exit 1; }
tr '\n' ' ' < "$work/shmemx.i" | tr -s ' ' | tr ';' '\n' |
    sed -n 's/^ *\([a-z][a-z0-9_ *]*[ *]shmemx_[a-z0-9_]*\) *(\([^(){}]*\)) *$/shmemx @ \1(\2);/p' > "$work/shmemx"
[ -s "$work/shmemx" ] || { echo "gen-man.sh: no shmemx_ prototypes in include/shmemx.h" >&2; exit 1; }
cat "$work/shmemx" >> "$work/decls"
# The types of the type tables (and the 16-bit floating types of the stream
# reductions), "TYPENAME<TAB>C TYPE", longest name first (longlong before
# long).
sed 's/R(X, /\nR(X, /g' "$src/include/shmpi_typetables.h" "$src/include/shmpi_stream.h" |
    sed -n 's/.*R(X, \([a-z0-9]*\), \([^,]*\), .*/\1	\2/p' |
    sort -u | awk -F '\t' '{ print length($1) "\t" $0 }' | sort -rn | cut -f2- > "$work/types"
# The C11 generic names.
sed -n 's/^#define \(shmem_[a-z0-9_]*\)(\.\.\.).*/\1/p' "$src/include/shmpi_routines.h" |
    sort -u > "$work/generics"
# The page texts, each line after its file's name.
for f in "$man"/pages/*.txt; do
    awk -v file="${f#"$src"/}" '{ print file "\t" $0 }' "$f"
done > "$work/pages"

awk -F '\t' -v out="$out" -v version="$version" -v date="$date" -v examples="$man/examples" \
    -v docdir="$docdir" '
function fail(msg) { print "gen-man.sh: " msg > "/dev/stderr"; bad = 1 }
FILENAME == ARGV[1] { ntypes++; tname[ntypes] = $1; ctype[$1] = $2; next }
FILENAME == ARGV[2] { generic[$0] = 1; next }
FILENAME == ARGV[3] { specclass[$2] = ($1 ~ /^deprecated/ ? "dep" : "std"); next }
FILENAME == ARGV[4] { page_line($1, substr($0, length($1) + 2)); next }
{ declaration($0) }

# ---- the page texts -----------------------------------------------------------
# @chapter CHAPTER<TAB>SECTIONS      the specification'"'"'s sections of a chapter
# @page NAME<TAB>SUMMARY             a block for one page, with its one-line summary
# @pages NAME NAME ...               a block for several pages: what follows is on each
# @description, @return, @notes      the text of that section follows (troff)
# @arg NAME DIRECTION                an argument (in, out or inout); its text follows
# @example FILE.c                    the example program (docs/man/examples/FILE.c)
# @see NAME NAME ...                 related pages (section 3 unless NAME(N))
# @c11 DECLARATION                   a type-generic form the declarations do not show
# @include HEADER ...                the headers of the synopsis (default shmem.h)
# Lines starting with # are comments; blank lines are ignored.
function page_line(file, line,    f, n, i, t, w) {
    where = file
    if (line ~ /^#/ || line ~ /^[ \t]*$/) return
    if (line ~ /^@/) {
        n = split(line, w, /[ \t]+/)
        if (w[1] == "@chapter") { spec[w[2]] = substr(line, index(line, "\t") + 1); return }
        if (w[1] == "@page") {
            nblocks++; ntargets = 1; target[1] = w[2]; section = ""
            if (w[2] in summary) fail(file ": page " w[2] " appears twice")
            summary[w[2]] = substr(line, index(line, "\t") + 1); source[w[2]] = file
            return
        }
        if (w[1] == "@pages") {
            nblocks++; ntargets = 0; section = ""
            for (i = 2; i <= n; i++) { target[++ntargets] = w[i]; named[w[i]] = file }
            return
        }
        if (w[1] == "@description" || w[1] == "@return" || w[1] == "@notes") { section = substr(w[1], 2); return }
        if (w[1] == "@arg") {
            if (w[3] !~ /^(in|out|inout)$/) fail(file ": @arg " w[2] ": direction " w[3] " is not in, out or inout")
            section = "arg"; argname = w[2]
            for (t = 1; t <= ntargets; t++) {
                if ((target[t], argname) in argdir) fail(file ": " target[t] ": argument " argname " described twice")
                argdir[target[t], argname] = w[3]
                args[target[t]] = args[target[t]] argname " "
            }
            return
        }
        if (w[1] == "@example") { for (t = 1; t <= ntargets; t++) example[target[t]] = w[2]; section = ""; return }
        if (w[1] == "@see") { for (t = 1; t <= ntargets; t++) for (i = 2; i <= n; i++) see[target[t]] = see[target[t]] w[i] " "; section = ""; return }
        if (w[1] == "@c11") { for (t = 1; t <= ntargets; t++) c11extra[target[t]] = c11extra[target[t]] substr(line, 6) "\n"; section = ""; return }
        if (w[1] == "@include") { for (t = 1; t <= ntargets; t++) include[target[t]] = substr(line, 10); section = ""; return }
        fail(file ": unknown directive " w[1]); return
    }
    if (section == "") { fail(file ": text outside a section: " line); return }
    for (t = 1; t <= ntargets; t++) {
        if (section == "arg") { argtext[target[t], argname] = argtext[target[t], argname] line "\n"; continue }
        # text of another block starts a paragraph of its own
        if (((target[t], section) in text) && last_block[target[t], section] != nblocks)
            text[target[t], section] = text[target[t], section] ".PP\n"
        last_block[target[t], section] = nblocks
        text[target[t], section] = text[target[t], section] line "\n"
    }
}

# ---- the declarations ----------------------------------------------------------
function declaration(decl,    chapter, name) {
    if (decl ~ /^static inline /) { chapter = "amo"; sub(/^static inline /, "", decl); sub(/\) *\{.*$/, ");", decl) }
    else { chapter = decl; sub(/ @ .*/, "", chapter); sub(/^[^@]*@ /, "", decl) }
    sub(/ \(/, "(", decl); gsub(/ \* /, " *", decl)
    name = decl; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
    if (name in seen) return
    seen[name] = 1; n++; order[n] = name; decl_of[name] = decl; chapter_of[name] = chapter
}
# The type name a routine name starts with (after shmem_ or shmemx_, and
# ctx_), or "".
function typename_of(name,    base, t) {
    if (name !~ /^shmemx?_/) return ""
    base = name; sub(/^shmemx?_/, "", base); sub(/^ctx_/, "", base)
    for (t = 1; t <= ntypes; t++)
        if (index(base, tname[t] "_") == 1) return tname[t]
    return ""
}
function family(name,    base, op, rest, t) {
    if (name ~ /^shmemx_/) return xfamily(name)
    if (name !~ /^shmem_/) return name
    base = substr(name, 7)
    if (base ~ /^ctx_/ && (("shmem_" substr(base, 5)) in seen)) base = substr(base, 5)
    t = typename_of(name)
    if (t != "") { sub(/^ctx_/, "", base); base = substr(base, length(t) + 2) }
    if (match(base, /^(put|get|iput|iget|ibput|ibget|collect|fcollect|broadcast|alltoall|alltoalls)(8|16|32|64|128|mem)(_|$)/)) {
        op = base; sub(/(8|16|32|64|128|mem)(_.*)?$/, "", op)
        rest = substr(base, length(op) + 1); sub(/^(8|16|32|64|128|mem)/, "", rest)
        base = op rest
    }
    sub(/_nbi$/, "", base); sub(/_nbi_/, "_", base)
    return "shmem_" base
}
# The family of an extension: shmemx_device_ordinal is on
# shmemx_device_init(3), shmemx_device_unregister on
# shmemx_device_register(3); a stream routine is on the page of its mem form
# without _nbi (shmemx_int_get_nbi_on_stream, shmemx_get32_on_stream:
# shmemx_getmem_on_stream; shmemx_put_signal64_on_stream:
# shmemx_putmem_signal_on_stream), the barriers on shmemx_barrier_on_stream,
# the reductions and reduce-scatters on shmemx_reduce_on_stream.
function xfamily(name,    base, t) {
    if (name == "shmemx_device_ordinal") return "shmemx_device_init"
    if (name == "shmemx_device_unregister") return "shmemx_device_register"
    if (name !~ /_on_stream$/) return name
    base = substr(name, 8); sub(/_on_stream$/, "", base)
    t = typename_of(name)
    if (t != "") base = substr(base, length(t) + 2)
    if (base ~ /_(reduce|reducescatter)$/) return "shmemx_reduce_on_stream"
    sub(/_nbi$/, "", base); sub(/(8|16|32|64|128)$/, "", base); sub(/mem/, "", base)
    if (base ~ /^(barrier_all|sync_all|team_sync)$/) base = "barrier"
    if (base ~ /^(put|get|broadcast|fcollect|alltoall)$/) base = base "mem"
    if (base == "put_signal") base = "putmem_signal"
    return "shmemx_" base "_on_stream"
}
# The parameters of a declaration, in p[1..]; returns their number.
function params(decl, p,    list, k, i) {
    list = decl; sub(/^[^(]*\(/, "", list); sub(/\);$/, "", list)
    if (list == "void") return 0
    k = split(list, p, /, /)
    return k
}
function param_name(param,    nm) { nm = param; sub(/\[\]$/, "", nm); sub(/.*[ *]/, "", nm); return nm }
function shown_type(c) {
    if (c == "shmpi_complexd_t") return "double _Complex"
    if (c == "shmpi_complexf_t") return "float _Complex"
    return c
}
# `text` with the whole word(s) `word` replaced by `by`.
function replace_word(text, word, by,    out, i) {
    out = ""
    while ((i = index(text, word)) > 0) {
        if ((i == 1 || substr(text, i - 1, 1) !~ /[A-Za-z0-9_]/) && substr(text, i + length(word), 1) !~ /[A-Za-z0-9_]/) {
            out = out substr(text, 1, i - 1) by; text = substr(text, i + length(word))
        } else { out = out substr(text, 1, i + length(word) - 1); text = substr(text, i + length(word)) }
    }
    return out text
}
# Escapes a line of C for troff.
function troff_code(line) {
    gsub(/\\/, "\\e", line)
    if (line ~ /^[.'"'"']/) line = "\\&" line
    return line
}

# ---- the synopsis: shapes of the declarations of a page --------------------------
# A shape is a declaration with its type name (TYPENAME, TYPE) or size (SIZE)
# generalized: shmem_TYPENAME_put(TYPE *dest, ...) stands for every typed put.
# Each routine is of a class: "std" (a routine of OpenSHMEM 1.6), "dep" (one
# 1.6 lists as deprecated) or "ext" (one 1.6 does not define), from the
# list of the specification, tests/api/openshmem-1.6-c-api.txt (shmemx.h
# has pages of its own, counted as "std" here).  The synopsis shows each
# class in a subsection of its own, C11 then C, with the types or sizes of
# each shape in that class: tests/man_spec.test reads the names back from
# the page and compares them with the list.
function class_of(name) {
    if (chapter_of[name] == "shmemx") return "std"
    if (name in specclass) return specclass[name]
    return "ext"
}
# A prototype broken at its commas into lines of at most 72 characters (79
# where man indents them), the continuations under its first parameter.
function wrap(decl,    open, rest, p, np, j, piece, line, out, ind) {
    if (length(decl) <= 72) return decl
    open = index(decl, "("); rest = substr(decl, open + 1); sub(/\);$/, "", rest)
    np = split(rest, p, /, /)
    ind = ""; for (j = open <= 40 ? open : 8; j > 0; j--) ind = ind " "
    line = substr(decl, 1, open); out = ""
    for (j = 1; j <= np; j++) {
        piece = p[j] (j < np ? "," : ");")
        if (line ~ /\($/) line = line piece
        else if (length(line) + 1 + length(piece) <= 72) line = line " " piece
        else { out = out line "\n"; line = ind piece }
    }
    return out line
}
# The types of a list "t1 t2 ...", as the synopsis says them.
function type_list(set,    tl, nt, q, line) {
    nt = split(set, tl, / /) - 1; line = ""
    for (q = 1; q <= nt; q++)
        line = line (q > 1 ? ", " : "") (shown_type(ctype[tl[q]]) == tl[q] ? tl[q] : tl[q] " (" shown_type(ctype[tl[q]]) ")")
    return line
}
function size_list(set,    tl, k, q, line) {
    k = split(set, tl, / /) - 1; line = tl[1]
    for (q = 2; q <= k; q++) line = line (q < k ? ", " : " or ") tl[q]
    return line
}
function synopsis(page, list, m,    i, name, t, key, nk, keys, k, j, decl, c, cls, c11, nb, bset, bprotos, bkind, set, g, hdr, best, title, subs, kind) {
    nk = 0
    delete kmember; delete kfirst; delete kt; delete ks; delete kcls; delete ktyped; delete ksized
    for (i = 1; i < m; i++) {
        name = list[i]; t = typename_of(name); cls = class_of(name)
        if (t != "") {
            key = name; sub("_" t "_", "_TYPENAME_", key)
            ktyped[key] = 1; kt[key, cls] = kt[key, cls] t " "
        } else if (match(name, /^shmemx?_(ctx_)?(put_signal|put|get|iput|iget|ibput|ibget|collect|fcollect|broadcast|alltoall|alltoalls)(8|16|32|64|128)(_|$)/)) {
            key = name; sub(/(8|16|32|64|128)/, "SIZE", key)
            t = substr(name, RSTART, RLENGTH); sub(/^[a-z_]*[a-z]/, "", t); sub(/_$/, "", t)
            ksized[key] = 1; ks[key, cls] = ks[key, cls] t " "
        } else { key = name; kcls[key, cls] = 1 }
        if (!(key in kmember)) { keys[++nk] = key; kfirst[key] = name }
        kmember[key] = kmember[key] name " "
    }
    # each class: the C11 forms of its shapes, and its C shapes in blocks
    # that share their types (or sizes), each block followed by them
    subs = 0
    for (c = 1; c <= 3; c++) {
        cls = c == 1 ? "std" : c == 2 ? "dep" : "ext"
        c11[cls] = ""; nb = 0
        for (k = 1; k <= nk; k++) {
            key = keys[k]; decl = decl_of[kfirst[key]]
            if (ktyped[key]) { set = kt[key, cls]; if (set == "") continue; decl = generalize(key); kind = "T" }
            else if (ksized[key]) { set = ks[key, cls]; if (set == "") continue; decl = generic_decl(decl, key); kind = "S" }
            else { if (!((key, cls) in kcls)) continue; set = ""; kind = "" }
            for (j = 1; j <= nb && !(bkind[j] == kind && bset[j] == set); j++) ;
            if (j > nb) { nb++; bkind[nb] = kind; bset[nb] = set; bprotos[nb] = "" }
            bprotos[j] = bprotos[j] wrap(decl) "\n"
            # its type-generic form, in the best class of the shape: without
            # ctx_ and TYPENAME_, when C11 has that name
            if (ktyped[key]) best = kt[key, "std"] != "" ? "std" : kt[key, "dep"] != "" ? "dep" : "ext"
            else if (ksized[key]) best = ks[key, "std"] != "" ? "std" : ks[key, "dep"] != "" ? "dep" : "ext"
            else best = cls
            g = key; sub(/^shmem_ctx_/, "shmem_", g); sub(/TYPENAME_/, "", g)
            if (best == cls && g in generic && (ktyped[key] || g != key)) c11[cls] = c11[cls] wrap(generic_decl(decl, g)) "\n"
        }
        nblocks_of[cls] = nb
        for (j = 1; j <= nb; j++) { blk_kind[cls, j] = bkind[j]; blk_set[cls, j] = bset[j]; blk_protos[cls, j] = bprotos[j] }
        if (cls != "std" && (nb || c11[cls] != "")) subs = 1
    }
    if (c11extra[page] != "") {
        k = split(c11extra[page], hdr, "\n")
        for (i = 1; i < k; i++) c11["std"] = c11["std"] wrap(hdr[i]) "\n"
    }
    if (c11["std"] != "") subs = 1
    print ".SH SYNOPSIS" > file
    print ".nf" > file
    if (page in include) { k = split(include[page], hdr, / +/); for (i = 1; i <= k; i++) print ".B #include " hdr[i] > file }
    else print ".B #include <shmem.h>" > file
    print ".fi" > file
    for (c = 1; c <= 3; c++) {
        cls = c == 1 ? "std" : c == 2 ? "dep" : "ext"
        title = cls == "std" ? "" : cls == "dep" ? ", deprecated" : ", beyond OpenSHMEM 1.6"
        if (c11[cls] != "") {
            print ".SS C11" (cls == "std" ? " (type-generic; in C++ the same names are overloads)" : title) > file
            print ".nf" > file; printf "%s", c11[cls] > file; print ".fi" > file
        }
        if (nblocks_of[cls] == 0) continue
        print (subs ? ".SS C" title : ".PP") > file
        for (j = 1; j <= nblocks_of[cls]; j++) {
            if (j > 1) print ".PP" > file
            print ".nf" > file; printf "%s", blk_protos[cls, j] > file; print ".fi" > file
            if (blk_kind[cls, j] == "T") print ".PP\nTYPENAME (with TYPE where it differs) is one of " type_list(blk_set[cls, j]) "." > file
            if (blk_kind[cls, j] == "S") print ".PP\nSIZE is " size_list(blk_set[cls, j]) " (bits per element)." > file
        }
        if (cls == "dep") print ".PP\nOpenSHMEM 1.6 deprecates these forms; it still defines them, for old programs." > file
        if (cls == "ext") print ".PP\nshmpi adds these forms; OpenSHMEM 1.6 does not define them, so a portable program does not use them." > file
    }
}
# A declaration with its routine name replaced by `g`.
function generic_decl(decl, g) { sub(/[A-Za-z0-9_]*\(/, g "(", decl); return decl }
# The declaration of shape `key`: its TYPE positions are those where the
# first two members of the shape differ (int pe stays int in shmem_int_put).
function generalize(key,    mem, nm, j, p, q, np, ret, r2, t, out) {
    nm = split(kmember[key], mem, / /) - 1
    if (nm < 2) { fail("cannot tell TYPE in the one typed form of " key); return decl_of[mem[1]] }
    t = typename_of(mem[1]); np = params(decl_of[mem[1]], p); params(decl_of[mem[2]], q)
    ret = decl_of[mem[1]]; sub(/[ *]*shmemx?_[A-Za-z0-9_]*\(.*/, "", ret)
    r2 = decl_of[mem[2]]; sub(/[ *]*shmemx?_[A-Za-z0-9_]*\(.*/, "", r2)
    out = (ret != r2 ? replace_word(ret, ctype[t], "TYPE") : ret)
    out = out (decl_of[mem[1]] ~ /\*shmemx?_/ ? " *" : " ") key "("
    for (j = 1; j <= np; j++) {
        if (p[j] != q[j]) p[j] = replace_word(p[j], ctype[t], "TYPE")
        out = out (j > 1 ? ", " : "") p[j]
    }
    return out (np ? "" : "void") ");"
}

END {
    for (k = 1; k <= n; k++) {
        name = order[k]; page = family(name)
        if (!(page in members)) { npages++; pages[npages] = page; pchapter[page] = chapter_of[name] }
        members[page] = members[page] name "\n"
    }
    for (page in named) if (!(page in members)) fail(named[page] ": @pages names " page ", which is no family")
    for (page in summary) if (!(page in members)) fail(source[page] ": @page " page " is no family")
    for (p = 1; p <= npages; p++) {
        page = pages[p]; ch = pchapter[page]
        if (!(page in summary)) { fail("docs/man/pages/" ch ".txt has no @page " page); continue }
        for (s = 1; s <= 3; s++) {
            sec = s == 1 ? "description" : s == 2 ? "return" : "notes"
            if (!((page, sec) in text)) fail(source[page] ": " page " has no @" sec)
        }
        if (!(page in example)) fail(source[page] ": " page " has no @example")
        if (!(page in see)) fail(source[page] ": " page " has no @see")
        if (!(ch in spec)) fail("no @chapter " ch " (for " page ")")
        m = split(members[page], list, "\n")
        # every argument of its declarations is described, and only those;
        # shown in the order of the declarations (a parameter another form
        # adds goes after the one it follows there), ctx first where a form
        # takes it first (not shmem_ctx_create(options, ctx))
        delete used; na = 0; ctxfirst = 0
        for (i = 1; i < m; i++) {
            np = params(decl_of[list[i]], pl); after = 0
            for (j = 1; j <= np; j++) {
                a = param_name(pl[j])
                if (a == "...") continue
                if (j == 1 && a == "ctx") ctxfirst = 1
                if (!(a in used)) {
                    for (q = na; q > after; q--) al[q + 1] = al[q]
                    al[after + 1] = a; na++
                    used[a] = 1
                    if (!((page, a) in argdir)) { fail(source[page] ": " page ": argument " a " of " list[i] " is not described"); argdir[page, a] = "in" }
                }
                for (after = 1; al[after] != a; after++) ;
            }
        }
        for (i = 2; i <= na && ctxfirst; i++) if (al[i] == "ctx") { for (q = i; q > 1; q--) al[q] = al[q - 1]; al[1] = "ctx" }
        k = split(args[page], described, / /) - 1
        for (i = 1; i <= k; i++) if (!(described[i] in used)) fail(source[page] ": " page ": @arg " described[i] " is no argument of its routines")
        file = out "/man3/" page ".3"
        print ".\\\" Generated by docs/man/gen-man.sh from " source[page] " and the declarations." > file
        print ".TH " toupper(page) " 3 \"" date "\" \"shmpi " version "\" \"OpenSHMEM routines\"" > file
        print ".SH NAME" > file
        print page " \\- " summary[page] > file
        synopsis(page, list, m)
        print ".SH DESCRIPTION" > file
        printf "%s", text[page, "description"] > file
        print ".SH ARGUMENTS" > file
        if (na == 0) print "None." > file
        for (i = 1; i <= na; i++) {
            a = al[i]; d = argdir[page, a]
            print ".TP\n.BR " a " \" (" (d == "inout" ? "in and out" : d) ")\"" > file
            printf "%s", argtext[page, a] > file
        }
        print ".SH RETURN VALUES" > file
        printf "%s", text[page, "return"] > file
        print ".SH NOTES" > file
        printf "%s", text[page, "notes"] > file
        print ".SH EXAMPLES" > file
        ex = examples "/" example[page]
        if ((getline line < ex) <= 0) fail(source[page] ": " page ": no example " ex)
        else {
            print "This program is installed as " docdir "/examples/" example[page] "." > file
            print ".PP\n.nf\n.ft CR" > file
            do print troff_code(line) > file; while ((getline line < ex) > 0)
            close(ex)
            print ".ft\n.fi" > file
        }
        print ".SH SEE ALSO" > file
        k = split(see[page], sl, / /) - 1
        for (i = 1; i <= k; i++) {
            ref = sl[i]; sec = "3"
            if (match(ref, /\([0-9]\)$/)) { sec = substr(ref, RSTART + 1, 1); ref = substr(ref, 1, RSTART - 1) }
            print ".BR " ref " (" sec ")," > file
        }
        print ".BR shmpi (7)" > file
        print ".PP\nOpenSHMEM Application Programming Interface, version 1.6: " spec[ch] "." > file
        close(file)
        for (i = 1; i < m; i++) {
            if (list[i] == page) continue
            link = out "/man3/" list[i] ".3"
            print ".so man3/" page ".3" > link
            close(link)
        }
    }
    # a C11 type-generic name that is no routine (shmem_put_nbi, ...): a
    # link to the page of its family, which shows it
    for (g in generic) {
        page = family(g)
        if ((g in seen) || (g in members) || !(page in members)) continue
        link = out "/man3/" g ".3"
        print ".so man3/" page ".3" > link
        close(link)
    }
    exit bad
}' "$work/types" "$work/generics" "$src/tests/api/openshmem-1.6-c-api.txt" "$work/pages" "$work/decls"

# shmpi(7), with the environment table; oshcc(1), oshrun(1), shmpi_info(1).
awk -f "$src/tools/env_table.awk" "$src/src/runtime/env.c" | awk -F '\t' '{
    print ".TP"
    printf ".B %s\n", $1
    printf "%sdefault: %s.\n", ($2 == "-" ? "" : "(or " $2 ") "), $3
    print $4 }' > "$work/env"
[ -s "$work/env" ] || { echo "gen-man.sh: no environment table in src/runtime/env.c" >&2; exit 1; }
# (a line "@EXAMPLE NAME.c@" shows docs/man/examples/NAME.c whole, as the
# family pages do)
for page in shmpi.7 oshcc.1 oshrun.1 shmpi_info.1; do
    section=${page##*.}
    awk -v version="$version" -v date="$date" -v env="$work/env" -v examples="$man/examples" \
        -v docdir="$docdir" '
        /^@ENV_TABLE@$/ { while ((getline line < env) > 0) print line; next }
        /^@EXAMPLE [a-z_0-9]*\.c@$/ {
            name = substr($2, 1, length($2) - 1); ex = examples "/" name
            print "This program is installed as " docdir "/examples/" name "."
            print ".PP\n.nf\n.ft CR"
            while ((getline line < ex) > 0) {
                gsub(/\\/, "\\e", line)
                if (line ~ /^[.\047]/) line = "\\&" line
                print line
            }
            close(ex)
            print ".ft\n.fi"
            next }
        { gsub(/@VERSION@/, version); gsub(/@DATE@/, date); print }' \
        "$man/$page.in" > "$out/man$section/$page"
done
echo ".so man1/oshcc.1" > "$out/man1/oshc++.1"
