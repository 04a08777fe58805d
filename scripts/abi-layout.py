#!/usr/bin/env python3
"""The layout half of altmem's ABI baseline (docs/abi.md), from the public headers.

    abi-layout.py gen HEADER... > layout.c     a C program that prints the layout
    abi-layout.py api HEADER...                the ALTMEM_API function names, one a line
    abi-layout.py names HEADER...              every public name: functions, typedefs,
                                               struct and enum tags, members, enum
                                               constants, macros (not ALTMEM__*, ALTMEM_API
                                               or include guards), for tests/man.cmake

The program (built against the same headers with the compiler under test, then run)
prints, in header order:
  - every public struct: sizeof, _Alignof, and offsetof/sizeof of every member,
    members of nested unions as `fn.memcpy` (anonymous, or a union of the headers);
  - every public enum: sizeof and the value of every constant;
  - every object-like ALTMEM_* macro with an integer value (ALTMEM_FEAT_*,
    ALTMEM_POLICY_*...), except ALTMEM_VERSION_* (they change with every release,
    which the SONAME policy covers);
  - the text of every other macro, the internal ALTMEM__* ones included: what
    ALTMEM_ALTERNATIVE expands to is compiled into programs (the patch-site record
    that altmem_alternative_bind reads, section names, isolation sizes);
  - the prototype of every ALTMEM_API function and every public typedef, with
    whitespace normalised (a changed parameter type is an ABI change that the
    symbol list cannot see).
Struct and member lists come from the headers themselves, so a new member is in the
output without anyone listing it.  Only the C the public headers use is parsed:
struct/union/enum definitions at file scope, declarators with pointers, arrays and
function pointers, `#define NAME value`.
"""
import re
import sys

SKIP_MACROS = re.compile(r'^(ALTMEM_API|ALTMEM_VERSION_\w+|ALTMEM_H|ALTMEM_ALTERNATIVE_H)$')


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


def join_continuations(text):
    return re.sub(r'\\\n', ' ', text)


def match_brace(s, i):
    """s[i] == '{': index of the matching '}'."""
    depth = 0
    for j in range(i, len(s)):
        if s[j] == '{':
            depth += 1
        elif s[j] == '}':
            depth -= 1
            if depth == 0:
                return j
    raise ValueError('unbalanced braces')


def split_top(s, sep):
    """Split s at sep characters outside (), [] and {}."""
    out, depth, cur = [], 0, ''
    for c in s:
        if c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
        if c == sep and depth == 0:
            out.append(cur)
            cur = ''
        else:
            cur += c
    if cur.strip():
        out.append(cur)
    return out


def declarator_name(d):
    m = re.search(r'\(\s*\*\s*(\w+)\s*\)', d)        # function pointer: (*name)(...)
    if m:
        return m.group(1)
    d = re.sub(r'(\[[^\]]*\]\s*)+$', '', d.strip())   # arrays
    m = re.search(r'(\w+)\s*$', d)
    return m.group(1) if m else None


def members(body, prefix='', known=None):
    """Member names of a struct/union body; nested anonymous-type members expanded,
    and so are members whose type is a struct or union of the headers (known)."""
    known = known or {}
    names = []
    for decl in split_top(body, ';'):
        decl = decl.strip()
        if not decl:
            continue
        m = re.match(r'(struct|union)\s+(altmem_\w+)\s+(\w+)$', decl)
        if m and m.group(2) in known:
            names.append(prefix + m.group(3))
            names.extend(prefix + m.group(3) + '.' + inner for inner in known[m.group(2)])
            continue
        m = re.match(r'(struct|union)\s*(\w+)?\s*\{', decl)
        if m:
            open_at = decl.index('{')
            close_at = match_brace(decl, open_at)
            inner = decl[open_at + 1:close_at]
            rest = decl[close_at + 1:]
            for d in split_top(rest, ','):
                n = declarator_name(d)
                if n:
                    names.append(prefix + n)
                    names.extend(members(inner, prefix + n + '.', known))
            continue
        for d in split_top(decl, ','):
            n = declarator_name(d)
            if n:
                names.append(prefix + n)
    return names


def parse(paths):
    known = {}           # struct/union name -> its members, for members of that type
    items = []           # ('struct' or 'union', name, [members]) / ('enum', name, [consts]) / ('macro', name) / ('proto', text)
    api = []
    names = []           # public names, in header order
    for path in paths:
        raw = open(path, encoding='utf-8').read()
        text = strip_comments(join_continuations(raw))
        # Preprocessor lines: object-like macros with a value; then drop them all.
        for line in text.split('\n'):
            m = re.match(r'\s*#\s*define\s+(ALTMEM_\w+)(\(?)(.*)$', line)
            if m and m.group(1).startswith('ALTMEM_VERSION_'):
                names.append(m.group(1))
            if not m or SKIP_MACROS.match(m.group(1)):
                continue
            if not m.group(1).startswith('ALTMEM__'):
                names.append(m.group(1))
            value = m.group(3).strip()
            if not m.group(2) and not m.group(1).startswith('ALTMEM__') and value and \
                    re.fullmatch(r'[\w\s()<>|&~+*-]+', value):
                items.append(('macro', m.group(1)))
            else:
                # Text that programs built with the headers carry (the patch-site record
                # of ALTMEM_ALTERNATIVE, its section names, isolation sizes): any edit is
                # a change to check against binaries built with the old text.
                sep = '(' if m.group(2) else ' '
                items.append(('text', '#define ' + m.group(1) + sep + ' '.join(value.split())))
        code = '\n'.join(l for l in text.split('\n') if not re.match(r'\s*#', l))
        i = 0
        pat = re.compile(r'\b(struct|union|enum)\s+(altmem_\w+)\s*\{|\btypedef\b|\bALTMEM_API\b')
        while True:
            m = pat.search(code, i)
            if not m:
                break
            if m.group(1):
                open_at = code.index('{', m.start())
                close_at = match_brace(code, open_at)
                body = code[open_at + 1:close_at]
                names.append(m.group(2))
                if m.group(1) in ('struct', 'union'):
                    mems = members(body, '', known)
                    known[m.group(2)] = mems
                    items.append((m.group(1), m.group(2), mems))
                    names.extend(mem.split('.')[-1] for mem in mems)
                else:
                    consts = [c.split('=')[0].strip() for c in split_top(body, ',') if c.strip()]
                    items.append(('enum', m.group(2), consts))
                    names.extend(consts)
                i = close_at + 1
            else:
                end = code.index(';', m.start())
                decl = ' '.join(code[m.start():end].split())
                if m.group(0) == 'ALTMEM_API':
                    name = re.search(r'(\w+)\s*\(', decl).group(1)
                    api.append(name)
                    names.append(name)
                else:
                    t = re.search(r'(altmem_\w+)\s*\(', decl) or re.search(r'(altmem_\w+)\s*$', decl)
                    if t:
                        names.append(t.group(1))
                items.append(('proto', decl))
                i = end + 1
    return items, api, names


def c_string(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


def gen(items, headers):
    out = ['/* Generated by scripts/abi-layout.py: prints the layout of altmem\'s public headers. */',
           '#include <stddef.h>', '#include <stdio.h>']
    out += ['#include <%s>' % h.split('/')[-1] for h in headers]
    out += ['int main(void)', '{']
    for it in items:
        kind = it[0]
        if kind in ('struct', 'union'):
            t = kind + ' ' + it[1]
            out.append('    printf("%%s size %%zu align %%zu\\n", %s, sizeof(%s), (size_t)_Alignof(%s));'
                       % (c_string(t), t, t))
            for mem in it[2]:
                out.append('    printf("  %%-24s offset %%3zu size %%zu\\n", %s, offsetof(%s, %s), sizeof(((%s *)0)->%s));'
                           % (c_string(mem), t, mem, t, mem))
        elif kind == 'enum':
            t = 'enum ' + it[1]
            out.append('    printf("%%s size %%zu\\n", %s, sizeof(%s));' % (c_string(t), t))
            for c in it[2]:
                out.append('    printf("  %%-24s = %%lld\\n", %s, (long long)%s);' % (c_string(c), c))
        elif kind == 'macro':
            out.append('    printf("#define %%s %%llu\\n", %s, (unsigned long long)(%s));' % (c_string(it[1]), it[1]))
        elif kind == 'proto':
            out.append('    puts(%s);' % c_string(it[1] + ';'))
        elif kind == 'text':
            out.append('    puts(%s);' % c_string(it[1]))
    out += ['    return 0;', '}', '']
    return '\n'.join(out)


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ('gen', 'api', 'names'):
        sys.stderr.write(__doc__)
        return 2
    headers = sys.argv[2:]
    items, api, names = parse(headers)
    if sys.argv[1] == 'gen':
        sys.stdout.write(gen(items, headers))
    elif sys.argv[1] == 'api':
        sys.stdout.write(''.join(n + '\n' for n in api))
    else:
        seen = set()
        sys.stdout.write(''.join(n + '\n' for n in names if not (n in seen or seen.add(n))))
    return 0


if __name__ == '__main__':
    sys.exit(main())
