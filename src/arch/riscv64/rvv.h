/*
 * What the riscv64 vector and Zicboz variants share: the strip-mined RVV loops
 * (e8, LMUL 8: one vsetvli per step sets vl = min(remaining, VLMAX), so one
 * loop serves every VLEN and every size down to 0), cbo.zero over whole blocks,
 * and from which size whole-block zeroing is used.
 *
 * Each loop is one asm statement: GCC 12 has no RVV types or intrinsics, so a
 * vector value cannot live in a C variable, and nothing guarantees that a
 * vector register keeps its value from one asm statement to the next.  The
 * register group v8-v15 is named as clobbered where the compiler knows it
 * (extable.h, UA_RVV_CLOBBERS).
 */
#ifndef ALTMEM_RISCV64_RVV_H
#define ALTMEM_RISCV64_RVV_H

#include <stddef.h>
#include <stdint.h>

#include "ops/access.h"
#include "policy.h"

/* Whole-block zeroing from 4 blocks or 256 bytes, whichever is more: below,
   the head and tail around the blocks are most of the work.  A guess, not a
   measurement (under qemu timing means nothing): the kernel zeroes whole
   pages with cbo.zero (clear_page), glibc and bionic do not use it in memset. */
OPS_INL size_t rv_zero_from(size_t zb) { return zb * 4 > 256 ? zb * 4 : 256; }

/* The policy's Zicboz block size (0: do not use cbo.zero).  Written once at
   start-up before any variant is bound. */
OPS_INL size_t rv_zero_block(void) { return __atomic_load_n(&altmem__zero_block, __ATOMIC_RELAXED); }

#if defined(__riscv_vector)
/* dst[0, n) = src[0, n), ascending, each step loaded before it is stored. */
OPS_INL void rvv_copy_fwd(uintptr_t d, uintptr_t s, size_t n)
{
    size_t vl;
    __asm__ volatile("1:\tvsetvli %[vl], %[n], e8, m8, ta, ma\n\t"
                     "vle8.v v8, (%[s])\n\t"
                     "vse8.v v8, (%[d])\n\t"
                     "sub %[n], %[n], %[vl]\n\t"
                     "add %[s], %[s], %[vl]\n\t"
                     "add %[d], %[d], %[vl]\n\t"
                     "bnez %[n], 1b"
                     : [vl] "=&r"(vl), [n] "+r"(n), [s] "+r"(s), [d] "+r"(d)
                     :
                     : "memory" UA_RVV_CLOBBERS);
}

/* The same from the end down: each step's source is loaded before its store,
   which only reaches source bytes already loaded (dst above src). */
OPS_INL void rvv_copy_bwd(uintptr_t d, uintptr_t s, size_t n)
{
    size_t vl;
    d += n;
    s += n;
    __asm__ volatile("1:\tvsetvli %[vl], %[n], e8, m8, ta, ma\n\t"
                     "sub %[n], %[n], %[vl]\n\t"
                     "sub %[s], %[s], %[vl]\n\t"
                     "sub %[d], %[d], %[vl]\n\t"
                     "vle8.v v8, (%[s])\n\t"
                     "vse8.v v8, (%[d])\n\t"
                     "bnez %[n], 1b"
                     : [vl] "=&r"(vl), [n] "+r"(n), [s] "+r"(s), [d] "+r"(d)
                     :
                     : "memory" UA_RVV_CLOBBERS);
}

/* dst[0, n) = c: the byte splatted once at VLMAX, then one store per step. */
OPS_INL void rvv_set(uintptr_t d, int c, size_t n)
{
    size_t vl;
    __asm__ volatile("vsetvli %[vl], zero, e8, m8, ta, ma\n\t"
                     "vmv.v.x v8, %[c]\n"
                     "1:\tvsetvli %[vl], %[n], e8, m8, ta, ma\n\t"
                     "vse8.v v8, (%[d])\n\t"
                     "sub %[n], %[n], %[vl]\n\t"
                     "add %[d], %[d], %[vl]\n\t"
                     "bnez %[n], 1b"
                     : [vl] "=&r"(vl), [n] "+r"(n), [d] "+r"(d)
                     : [c] "r"(c)
                     : "memory" UA_RVV_CLOBBERS);
}
#endif

/* cbo.zero of `count` (> 0) whole blocks of zb bytes from p (zb-aligned).
   In `.insn i 0x0f, 2, x0, 4(rs1)` the 4 is cbo.zero's function code in the
   immediate field, not an offset: the block is the one holding rs1. */
OPS_INL void rv_cbo_zero(uintptr_t p, size_t count, size_t zb)
{
    __asm__ volatile("1:\t.insn i 0x0f, 2, x0, 4(%[p])\n\t"
                     "addi %[c], %[c], -1\n\t"
                     "add %[p], %[p], %[zb]\n\t"
                     "bnez %[c], 1b"
                     : [p] "+r"(p), [c] "+r"(count)
                     : [zb] "r"(zb)
                     : "memory");
}

#endif
