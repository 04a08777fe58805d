#!/usr/bin/env python3
"""What a stub's jump costs, by where it jumps (x86_64): the experiment behind
docs/dispatch.md, "Where the stub's jump is free".

A loop calls a stub whose only instruction is `jmp target`; the target returns at
once.  The stub sits at a page offset, the target at another offset in the same
page or beyond it.  Against the same loop calling the target directly (any
distance), the time per iteration shows when the second taken branch costs a
cycle.  Builds in a temporary directory with cc; prints a Markdown table.

    scripts/jump-cost.py [CALLS]
"""
import os
import subprocess
import sys
import tempfile

calls = int(sys.argv[1]) if len(sys.argv) > 1 else 3000000
# (stub's offset in its page, target's offset from the same page start)
cases = [(0, 1024), (0, 3072), (0, 4000), (0, 4032), (0, 4096 + 64), (0, 65536)]
cases += [(2048, 3072), (2048, 4000), (2048, 4032), (2048, 4096 + 1024)]


def main():
    asm = [".text"]
    names = []
    for off, tgt in cases:
        n = f"s{off}_t{tgt}"
        names.append(n)
        asm += [f".globl loop_{n}", ".p2align 6", f"loop_{n}:", f"1: call stub_{n}", "dec %rdi", "jnz 1b", "ret",
                ".p2align 12", f".skip {off}" if off else "", f"stub_{n}:", f"jmp target_{n}",
                f".skip {tgt - off - 5}", f"target_{n}:", "mov %rdi, %rax", "ret"]
    # The control: the target called directly, near and far.
    for far in (0, 65536):
        n = f"direct{far}"
        names.append(n)
        asm += [f".globl loop_{n}", ".p2align 6", f"loop_{n}:", f"1: call target_{n}", "dec %rdi", "jnz 1b", "ret",
                f".skip {far}" if far else "", ".p2align 6", f"target_{n}:", "mov %rdi, %rax", "ret"]
    asm.append('.section .note.GNU-stack,"",@progbits')
    c = ["#include <stdio.h>", "#include <time.h>"] + [f"void loop_{n}(long);" for n in names]
    c += ["static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);"
          " return t.tv_sec * 1e9 + t.tv_nsec; }",
          "int main(void) {",
          " void (*f[])(long) = {" + ", ".join(f"loop_{n}" for n in names) + "};",
          " double best[sizeof f / sizeof f[0]];",
          " for (unsigned i = 0; i < sizeof f / sizeof f[0]; i++) best[i] = 1e9;",
          " for (int r = 0; r < 9; r++)",
          "  for (unsigned i = 0; i < sizeof f / sizeof f[0]; i++) {",
          f"   double t0 = now(); f[i]({calls}); double t = (now() - t0) / {calls};",
          "   if (t < best[i]) best[i] = t; }",
          " for (unsigned i = 0; i < sizeof f / sizeof f[0]; i++) printf(\"%.3f\\n\", best[i]);",
          " return 0; }"]
    with tempfile.TemporaryDirectory() as d:
        open(os.path.join(d, "j.S"), "w").write("\n".join(asm) + "\n")
        open(os.path.join(d, "m.c"), "w").write("\n".join(c) + "\n")
        exe = os.path.join(d, "j")
        subprocess.run([os.environ.get("CC", "cc"), "-O2", os.path.join(d, "m.c"), os.path.join(d, "j.S"), "-o", exe],
                       check=True)
        out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout.split()
    t = dict(zip(names, map(float, out)))
    base = t["direct0"]
    print("best of 9 rounds of %d calls; ns per iteration and against a direct call" % calls)
    print()
    print("| stub at page offset | target at | ns | / direct |")
    print("|---:|---:|---:|---:|")
    for off, tgt in cases:
        n = f"s{off}_t{tgt}"
        where = f"{tgt}" if tgt < 4096 else f"{tgt} (page +{tgt // 4096})"
        print(f"| {off} | {where} | {t[n]:.3f} | {t[n] / base:.3f} |")
    print(f"| (direct call, near) | | {t['direct0']:.3f} | 1.000 |")
    print(f"| (direct call, 64 KiB away) | | {t['direct65536']:.3f} | {t['direct65536'] / base:.3f} |")


if __name__ == "__main__":
    main()
