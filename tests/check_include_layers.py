#!/usr/bin/env python3
"""The include rule of docs/architecture.md ("Folders and includes"): no folder of src/
includes, directly or through others, a folder that includes it
(tests docs.include_layers and docs.include_layers_control).

    check_include_layers.py SRC_DIR
    check_include_layers.py --control SRC_DIR WORK_DIR

A quoted include is resolved as the compiler does here: next to the including
file, then from src/ and, for a file of src/arch/<arch>/, from that folder (both
on the include path); one that is a public header (include/) is outside src/ and
not counted, and one that resolves nowhere fails the check (it could hide an
edge).  An include in angle
brackets that names a file of src/arch/<arch>/ (<arch.h>, <os_arch.h>,
<uaccess/accessors.h>) is an architecture's side of an interface the generic
code declares, reached through the include directory src/arch/<arch>: it is
listed, not counted.  Every folder-to-folder edge that lies on a cycle is
printed with the includes that make it; exit 1 if there is one.
--control: copies SRC_DIR to WORK_DIR, adds to src/os/os.h an include of a
header of src/ that includes os/, and passes only if the check then fails
naming that edge.
"""
import contextlib
import io
import os
import re
import shutil
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+([<"])([^>"]+)[>"]')
SOURCES = re.compile(r'\.(c|h|S|inc|def)$')


def folder_graph(src):
    edges, interfaces, unresolved = {}, [], []
    arches = [a for a in os.listdir(os.path.join(src, 'arch')) if os.path.isdir(os.path.join(src, 'arch', a))]
    for dirpath, _, files in os.walk(src):
        here = os.path.relpath(dirpath, src)
        for f in sorted(files):
            if not SOURCES.search(f):
                continue
            path = os.path.join(dirpath, f)
            with open(path, errors='replace') as fh:
                for line in fh:
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    quote, name = m.groups()
                    who = os.path.relpath(path, src)
                    if quote == '<':
                        if any(os.path.exists(os.path.join(src, 'arch', a, name)) for a in arches):
                            interfaces.append(f'{who} -> <{name}>')
                        continue
                    candidates = [os.path.join(dirpath, name), os.path.join(src, name)]
                    if who.startswith('arch' + os.sep):  # its architecture's include directory
                        candidates.append(os.path.join(src, 'arch', who.split(os.sep)[1], name))
                    target = next((c for c in candidates if os.path.exists(c)), None)
                    if target is None:
                        if not os.path.exists(os.path.join(src, '..', 'include', name)):
                            unresolved.append(f'{who} -> "{name}"')
                        continue
                    there = os.path.relpath(os.path.dirname(os.path.normpath(target)), src)
                    if there != here:
                        edges.setdefault(here, {}).setdefault(there, []).append(f'{who} -> "{name}"')
    return edges, interfaces, unresolved


def reachable(edges, start):
    seen, todo = set(), [start]
    while todo:
        for nxt in edges.get(todo.pop(), {}):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def check(src):
    edges, interfaces, unresolved = folder_graph(src)
    for u in unresolved:
        print(f'FAIL: a quoted include this check cannot resolve (so cannot place): {u}')
    cycles = [(a, b) for a in sorted(edges) for b in sorted(edges[a]) if a in reachable(edges, b)]
    for a, b in cycles:
        print(f'FAIL: {a}/ -> {b}/ lies on a cycle: ' + '; '.join(edges[a][b][:3]))
    nedges = sum(len(v) for v in edges.values())
    bad = cycles or unresolved
    print(f'{"ok" if not bad else "FAIL"}: {nedges} folder-to-folder edges in {src}, {len(cycles)} on a cycle; '
          f'{len(interfaces)} architecture interface includes (not counted): ' + ', '.join(sorted(set(
              i.split(' -> ')[1] for i in interfaces))))
    return not bad


def control(src, work):
    tree = os.path.join(work, 'src')
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(src, tree)
    os_h = os.path.join(tree, 'os', 'os.h')
    with open(os_h) as fh:
        text = fh.read()
    with open(os_h, 'w') as fh:   # select.h's folder (src/) includes os/os.h
        fh.write(text.replace('#define ALTMEM_OS_H', '#define ALTMEM_OS_H\n#include "select.h"', 1))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        passed = check(tree)
    print(out.getvalue(), end='')
    if passed or 'FAIL: os/ -> ./ lies on a cycle' not in out.getvalue():
        print('FAIL: control: os/os.h including select.h was not reported as a cycle')
        return False
    print('ok: control: an include from os/ back up to src/ is reported')
    return True


if __name__ == '__main__':
    if len(sys.argv) == 4 and sys.argv[1] == '--control':
        sys.exit(0 if control(sys.argv[2], sys.argv[3]) else 1)
    if len(sys.argv) != 2:
        print(__doc__.split('\n\n')[1], file=sys.stderr)
        sys.exit(2)
    sys.exit(0 if check(sys.argv[1]) else 1)
