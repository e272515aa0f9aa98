#!/bin/sh
# The release tarball is the project: every file that README.md, docs/*.md
# and .ci/run name (a path of the source tree, or a link relative to docs/;
# a named folder stands for its files) is in it, and so is every file git
# tracks but .gitignore.  Run from a clone, after `make dist`:
#   sh tests/check-dist.sh _build/shmpi-VERSION.tar.gz
# Prints what is missing and "check-dist: ..."; exit status 0 when nothing is.
set -u
cd "$(dirname "$0")/.."
tarball=${1:?usage: check-dist.sh TARBALL}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export LC_ALL=C
# The tarball's files, without their top folder.
tar -tzf "$tarball" | sed -n 's|^[^/]*/||p' | grep -v '/$' | sort -u > "$work/dist" ||
    { echo "check-dist: cannot list $tarball"; exit 2; }
# tracked FOLDER: the files git tracks under FOLDER (none outside a clone).
tracked() { git ls-files -- "$1" 2>/dev/null; }

# Every word of the documents that looks like a file name or path.
for doc in README.md docs/*.md .ci/run; do
    grep -oE "[A-Za-z0-9_.+-]*(/[A-Za-z0-9_.+-]+)+/?|[A-Za-z0-9_+-]+\.(md|sh|c|cc|cpp|h|gp|png|txt|test|am|in|awk)|LICENSE|NEWS" "$doc" |
        sed -e 's/[.,:]*$//' | sort -u | while read -r word; do
        case $word in ../*|/*|_build*|_install*) continue ;; esac
        for path in "$word" "${doc%/*}/$word"; do
            path=${path#./}
            if [ -f "$path" ]; then echo "$path	$doc"; break
            elif [ -d "$path" ] && [ "$path" != . ]; then tracked "$path" | sed "s|\$|	$doc|"; break
            fi
        done
    done
done | sort -u > "$work/named"
cut -f1 "$work/named" | sort -u > "$work/named_files"
tracked . | grep -vx '.gitignore' | sort -u > "$work/tracked"
comm -23 "$work/named_files" "$work/dist" > "$work/missing_named"
comm -23 "$work/tracked" "$work/dist" > "$work/missing_tracked"
status=0
if [ -s "$work/missing_named" ]; then
    status=1
    echo "named by the documents but not in $tarball (add them to EXTRA_DIST):"
    while read -r path; do
        echo "  $path (named in $(awk -F '\t' -v p="$path" '$1 == p { printf "%s%s", sep, $2; sep = ", " }' "$work/named"))"
    done < "$work/missing_named"
fi
if [ -s "$work/missing_tracked" ]; then
    status=1
    echo "tracked by git but not in $tarball (add them to EXTRA_DIST):"
    sed 's/^/  /' "$work/missing_tracked"
fi
echo "check-dist: $(wc -l < "$work/named_files") files named by README.md, docs/*.md and .ci/run," \
    "$(wc -l < "$work/tracked") tracked files; missing from the tarball:" \
    "$(sort -u "$work/missing_named" "$work/missing_tracked" | wc -l)"
exit $status
