#!/usr/bin/env python3
"""The 32-byte memsets' path to their loop fits two 64-byte lines (x86_vec_set.h,
vset_loop_inline; docs/perf/intel-family6-model167.md, "Two callers"): from the
entry's threshold test (the first `cmp <policy>(%rip),%rdx`) to the `ret` after the
loop, and the loop itself in one line.  Measured with GCC's layout; registered for
GCC builds only (tests/alternatives.cmake).

  check_memset_loop_lines.py LIBRARY             the check (objdump -d)
  check_memset_loop_lines.py LIBRARY --control   negative control: the same listing
      with each ret moved to the start of the next 64-byte line must fail, naming
      each function (the library at a0acbd1, before the paths were shortened,
      fails it as built: 3 lines each)
"""
import re
import subprocess
import sys

FUNCS = ("altmem_memset_avx2", "altmem_memset_evex")


def listing(lib, name):
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "--disassemble=" + name, lib],
                         capture_output=True, text=True, check=True).stdout
    insns = []
    for line in out.splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\s+(\S.*)$", line)
        if m:
            insns.append((int(m.group(1), 16), m.group(2)))
    return insns


def check(name, insns, control):
    if not insns:
        return "no listing of %s" % name
    a = next((addr for addr, t in insns if re.match(r"cmp\s+0x[0-9a-f]+\(%rip\),%rdx", t)), None)
    if a is None:
        return "%s: no threshold test (cmp ...(%%rip),%%rdx)" % name
    loop = None
    for i, (addr, t) in enumerate(insns):
        m = re.match(r"jb\s+([0-9a-f]+)", t)
        if addr > a and m and int(m.group(1), 16) < addr:
            loop = (int(m.group(1), 16), insns[i + 1][0] - 1 if i + 1 < len(insns) else addr + 1, i)
            break
    if loop is None:
        return "%s: no loop (a backward jb) after the threshold test at %#x" % (name, a)
    ret = next((addr for addr, t in insns[loop[2]:] if t.startswith("ret")), None)
    if ret is None:
        return "%s: no ret after the loop" % name
    if control:
        ret = (ret // 64 + 1) * 64
    lines = ret // 64 - a // 64 + 1
    print("%s: threshold test %#x, loop %#x-%#x, ret %#x: %d line%s" %
          (name, a, loop[0], loop[1], ret, lines, "s" if lines > 1 else ""))
    if lines > 2:
        return "%s: the path from the threshold test to the ret runs through %d 64-byte lines, not 2" % (name, lines)
    if loop[0] // 64 != loop[1] // 64:
        return "%s: the loop %#x-%#x crosses a 64-byte line" % (name, loop[0], loop[1])
    return None


def main():
    lib = sys.argv[1]
    control = len(sys.argv) > 2 and sys.argv[2] == "--control"
    failures = [f for f in (check(n, listing(lib, n), control) for n in FUNCS) if f]
    for f in failures:
        print("FAIL: " + f)
    if control:
        named = all(any(f.startswith(n + ":") for f in failures) for n in FUNCS)
        if not named:
            print("CONTROL FAILED: each ret a line later did not fail the check for each function")
            return 1
        print("control: the check failed for each function, as it must")
        return 0
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
