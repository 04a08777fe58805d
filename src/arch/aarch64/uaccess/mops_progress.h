/*
 * The progress of an interrupted FEAT_MOPS sequence, from the registers its
 * fault stub saved.  Plain C with no aarch64 code, so that
 * tests/test_uaccess_mops.c checks it on any host.
 */
#ifndef ALTMEM_AARCH64_MOPS_PROGRESS_H
#define ALTMEM_AARCH64_MOPS_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

/* What the stub of a FEAT_MOPS sequence saves at a fault (aarch64: UA_MOPS_CPYF,
   UA_MOPS_ZERO): x0, x1, x2 as the interrupted instruction left them. */
struct altmem__ua_mops_regs {
    uint64_t xd, xs, xn;
};

/* The bytes an interrupted UA_MOPS_CPYF (copy nonzero) or UA_MOPS_ZERO of n bytes
   from d (and s) had done, from the registers the stub saved: every byte of dst
   below the result is stored.  Two formats (Arm ARM DDI 0487, "Memory Copy and
   Memory Set", the CPY* and SET* descriptions; the Linux kernel's
   arm64_mops_reset_regs converts between them by the same rules):
     input / option B   Xd, Xs the next byte to do, Xn the bytes left (the
                        prologue's input, which a prologue that faults leaves
                        updated to its progress; every instruction under
                        option B)
     option A           after the prologue: Xd, Xs one past the end, Xn minus
                        the bytes left
   The option is read from the registers themselves, not from PSTATE.C (which
   the prologue sets to 1 under option B, 0 under option A, but which a
   prologue that faults has not set yet): with o = Xd - d, the input / option B
   format has o + Xn = n, option A has o = n and -Xn <= n; both hold only when
   Xn = 0, and then both say n.  Xs must agree for a copy.  Registers that fit
   neither (never seen) give 0, which is always a true progress: the byte
   fix-up then redoes the bytes from the start.  Arithmetic is modulo 2^64: a
   region that wraps the address space decodes the same.  Plain C, outside
   the aarch64 part so that tests/test_uaccess_mops.c runs it on any host. */
static inline size_t altmem__ua_mops_done(const struct altmem__ua_mops_regs *r, uintptr_t d, uintptr_t s,
                                          size_t n, int copy)
{
    const uint64_t o = r->xd - d;
    if (o <= n && o + r->xn == n && (!copy || r->xs - s == o))
        return o;
    if (o == n && -r->xn <= n && (!copy || r->xs - s == n))
        return n + r->xn;
    return 0;
}

#endif
