#!/usr/bin/env bash
# The README's "What is here" table against the tree (test docs.readme_tree).
#
#   tests/check_readme_tree.sh README TREE
#   tests/check_readme_tree.sh --control README TREE WORKDIR
#
# The section is the one headed "## What is here", up to the next "## ".  In each
# table row, every `backticked` item of the first column is a path relative to
# TREE; a trailing "/" makes it a folder.  Fails (exit 1), naming each, when
#   - a listed path does not exist (or a listed folder is not a folder), or
#   - a folder that must be listed has no row naming it "folder/".
# The paths that must be listed (the rule the README's section states):
# every top-level folder and every top-level file but README.md itself (so a
# scratch file left at the top fails), and every folder under src/, bench/ and
# tools/ that holds a file itself.  "Holds a file": the files of the git checkout (tracked,
# or new and not ignored: `git ls-files -co --exclude-standard`, minus deleted
# ones) when TREE is the top of one, else every file found below TREE, leaving
# out .git and build trees (a folder holding CMakeCache.txt).
#
# --control: the negative controls.  Runs the check on three altered copies of
# README in WORKDIR and passes only if each fails with the message it must
# give: one with a row for a path that does not exist, one without the row
# that lists the last folder that must be listed, one without the row that
# lists the first top-level file that must be listed.
set -euo pipefail

if [ "${1:-}" = --control ]; then
    [ $# -eq 4 ] || { echo "usage: $0 --control README TREE WORKDIR" >&2; exit 2; }
    readme=$2 tree=$3 work=$4
    self=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")
    mkdir -p "$work"
    failed=0
    # expect_failure NAME FILE MESSAGE: the check on FILE must fail and print MESSAGE.
    expect_failure() {
        local out rc=0
        out=$(bash "$self" "$2" "$tree" 2>&1) || rc=$?
        if [ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -qF -- "$3"; then
            echo "control $1: ok: the check failed with: $3"
        else
            echo "control $1: FAIL: expected exit status 1 and the message '$3', got $rc:"
            printf '%s\n' "$out" | sed 's/^/    /'
            failed=1
        fi
    }
    # 1. A row for a path that does not exist, as the table's first row.
    awk '/^## What is here/ { s = 1 } s && /^\|---/ && !done { print; print "| `src/no-such-folder/` | bogus |"; done = 1; next } { print }' \
        "$readme" >"$work/README.bogus.md"
    grep -q 'no-such-folder' "$work/README.bogus.md" || { echo "control: no table in $readme"; exit 1; }
    expect_failure bogus_row "$work/README.bogus.md" "listed but not in the tree: src/no-such-folder/"
    # without_row NAME ITEM FILE: README without the rows naming `ITEM`, in FILE;
    # the check on it must fail naming ITEM.
    without_row() {
        awk -v item="\`$2\`" '/^## / { s = ($0 ~ /^## What is here/) } s && /^\|/ && index($0, item) { next } { print }' \
            "$readme" >"$3"
        if cmp -s "$readme" "$3"; then
            echo "control: FAIL: $readme has no row naming \`$2\`"
            exit 1
        fi
        expect_failure "$1" "$3" "not listed: $2 "
    }
    # 2. Without the row of the last folder that must be listed.
    dir=$(bash "$self" --required "$tree" | grep '/$' | tail -n 1)
    [ -n "$dir" ] || { echo "control: no folder must be listed?"; exit 1; }
    without_row missing_row "$dir" "$work/README.norow.md"
    # 3. Without the row of the first top-level file that must be listed (what a
    #    scratch file left at the top looks like to the check).
    file=$(bash "$self" --required "$tree" | grep -v '/$' | head -n 1)
    [ -n "$file" ] || { echo "control: no top-level file must be listed?"; exit 1; }
    without_row missing_file_row "$file" "$work/README.nofile.md"
    [ "$failed" -eq 0 ] && echo "control: passed: the three altered READMEs were rejected"
    exit "$failed"
fi

# The files of the tree, one relative path a line.
tree_files() {
    local tree=$1 top
    if top=$(git -C "$tree" rev-parse --show-toplevel 2>/dev/null) &&
        [ "$(cd "$top" && pwd -P)" = "$(cd "$tree" && pwd -P)" ]; then
        git -C "$tree" ls-files -co --exclude-standard | while IFS= read -r f; do
            [ -e "$tree/$f" ] && printf '%s\n' "$f"
        done
    else
        (cd "$tree" && find . \( -name .git -o \( -type d -exec test -e '{}/CMakeCache.txt' \; \) \) -prune \
            -o -type f -print | sed 's|^\./||')
    fi
}

# The paths that must be listed, sorted: folders with their trailing "/",
# top-level files as they are.
required_paths() {
    tree_files "$1" | awk -F/ '
    NF == 1 && $1 != "README.md" { print $1 }          # every top-level file
    NF > 1 {
        print $1 "/"                               # every top-level folder
        if ($1 == "src" || $1 == "bench" || $1 == "tools") {
            d = $1; for (i = 2; i < NF; i++) d = d "/" $i
            print d "/"                            # the folder holding the file
        }
    }' | LC_ALL=C sort -u
}

if [ "${1:-}" = --required ]; then
    required_paths "$2"
    exit 0
fi

[ $# -eq 2 ] || { echo "usage: $0 README TREE | --control README TREE WORKDIR" >&2; exit 2; }
readme=$1 tree=$2

section=$(awk '/^## / { s = ($0 ~ /^## What is here[[:space:]]*$/) ; next } s' "$readme")
[ -n "$section" ] || { echo "readme_tree: FAIL: $readme has no section '## What is here'"; exit 1; }

# The listed items: backticked words of each row's first column.
items=$(printf '%s\n' "$section" | awk -F'|' '/^\|/ && !/^\|[-: |]*$/ && NF > 2 { print $2 }' |
    grep -o '`[^`]*`' | tr -d '`' | LC_ALL=C sort -u)
[ -n "$items" ] || { echo "readme_tree: FAIL: no paths in the first column of the table in $readme"; exit 1; }

fail=0
n_items=0
while IFS= read -r p; do
    n_items=$((n_items + 1))
    case $p in
    */) [ -d "$tree/${p%/}" ] || { echo "readme_tree: listed but not in the tree: $p"; fail=1; } ;;
    *) [ -e "$tree/$p" ] || { echo "readme_tree: listed but not in the tree: $p"; fail=1; } ;;
    esac
done <<<"$items"

n_dirs=0
while IFS= read -r d; do
    [ -n "$d" ] || continue
    n_dirs=$((n_dirs + 1))
    grep -qxF -- "$d" <<<"$items" || { echo "readme_tree: not listed: $d (no row of '## What is here' names \`$d\`)"; fail=1; }
done < <(required_paths "$tree")

if [ "$fail" -ne 0 ]; then
    echo "readme_tree: FAILED: $readme, '## What is here', against $tree"
    exit 1
fi
echo "readme_tree: passed: the $n_items listed paths exist, and each of the $n_dirs paths that must have a row has one"
