#!/usr/bin/env python3
"""What a stub's jump costs, by where it jumps and what the target does first
(x86_64): the experiment behind docs/dispatch.md, "Where the stub's jump is free".

A loop calls a stub whose only instruction is `jmp rel32 target` (the five bytes
altmem's stubs are: spelled as bytes, which the assembler cannot shorten to the
two-byte form); the target returns at once, or first takes a branch after BYTES
of straight-line code beyond its first `mov` (what a variant's size-class
dispatch does).  The stub sits at a page offset, the target at another
offset in the same page or beyond it.  Each row is against the same loop calling
the same target directly: the time per iteration shows when the stub's taken
branch costs a cycle.  Builds in a temporary directory with cc; prints a Markdown
table.

    scripts/jump-cost.py [CALLS]
"""
import os
import subprocess
import sys
import tempfile

calls = int(sys.argv[1]) if len(sys.argv) > 1 else 3000000
# (stub's offset in its page, target's offset from the same page start, the
# target's straight-line bytes before a taken branch, or None: it only returns)
cases = [(0, t, None) for t in (64, 128, 192, 256, 1024, 3072, 4000, 4032, 4096 + 64, 65536)]
cases += [(2048, t, None) for t in (3072, 4000, 4032, 4096 + 1024)]
cases += [(0, 1024, b) for b in (0, 16, 32, 48)]
cases += [(0, 4096 + 1024, 0)]


def target_code(name, branch_after):
    """The target: returns at once, or takes a branch after branch_after bytes."""
    code = [f"{name}:", "mov %rdi, %rax"]
    if branch_after is not None:
        code += [".byte 0x66, 0x90"] * (branch_after // 2) + ["cmp $0, %rdi", "jne 2f", "nop", "2:"]
    return code + ["ret"]


def label(branch_after):
    return "ret" if branch_after is None else f"b{branch_after}"


def main():
    asm = [".text"]
    names = []
    for off, tgt, br in cases:
        n = f"s{off}_t{tgt}_{label(br)}"
        names.append(n)
        asm += [f".globl loop_{n}", ".p2align 6", f"loop_{n}:", f"1: call stub_{n}", "dec %rdi", "jnz 1b", "ret",
                ".p2align 12", f".skip {off}" if off else "", f"stub_{n}:", ".byte 0xe9", f".long target_{n} - . - 4",
                f".skip {tgt - off - 5}"] + target_code(f"target_{n}", br)
    # The controls: each kind of target called directly, near and far.
    for br in sorted({br for _, _, br in cases}, key=lambda b: -1 if b is None else b):
        for far in (0, 65536):
            n = f"direct{far}_{label(br)}"
            names.append(n)
            asm += [f".globl loop_{n}", ".p2align 6", f"loop_{n}:", f"1: call target_{n}", "dec %rdi", "jnz 1b",
                    "ret", f".skip {far}" if far else "", ".p2align 6"] + target_code(f"target_{n}", br)
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
    print("best of 9 rounds of %d calls; ns per iteration, and against the same target called directly" % calls)
    print()
    print("| stub at page offset | target at | target's first taken branch | ns | / direct |")
    print("|---:|---:|---|---:|---:|")
    for off, tgt, br in cases:
        n = f"s{off}_t{tgt}_{label(br)}"
        where = f"{tgt}" if tgt < 4096 else f"{tgt} (page +{tgt // 4096})"
        first = "none (returns)" if br is None else f"after {br} bytes"
        print(f"| {off} | {where} | {first} | {t[n]:.3f} | {t[n] / t['direct0_' + label(br)]:.3f} |")
    for br in sorted({br for _, _, br in cases}, key=lambda b: -1 if b is None else b):
        first = "none (returns)" if br is None else f"after {br} bytes"
        near, far = t[f"direct0_{label(br)}"], t[f"direct65536_{label(br)}"]
        print(f"| (direct call, near) | | {first} | {near:.3f} | 1.000 |")
        print(f"| (direct call, 64 KiB away) | | {first} | {far:.3f} | {far / near:.3f} |")


if __name__ == "__main__":
    main()
