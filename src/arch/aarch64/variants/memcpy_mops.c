/*
 * memcpy_mops — FEAT_MOPS memory copy: CPYFP, CPYFM, CPYFE (forward-only).
 *
 * No src/ops/ classes: every size is one prologue/main/epilogue sequence.
 *
 * Assumptions:
 *   - FEAT_MOPS (AT_HWCAP2 bit 43); the three instructions run back to back on
 *     the same registers, as the architecture requires (the kernel restarts
 *     the sequence if the task migrates to a CPU with the other algorithm
 *     option between them).
 *   - src and dst do not overlap (CPYF* may copy in any block order).
 *   - The instructions are emitted as .inst words (x0 = dst, x1 = src,
 *     x2 = count; binutils 2.40 encodes the same words for
 *     "cpyf{p,m,e} [x0]!, [x1]!, x2!" with -march=armv8.8-a+mops), so no
 *     assembler support is needed.  They write back x0-x2 and NZCV.
 */
#include <stdint.h>

#include "registry.h"

void *altmem_memcpy_mops(void *__restrict dst, const void *__restrict src, size_t n)
{
    register uintptr_t d __asm__("x0") = (uintptr_t)dst;
    register uintptr_t s __asm__("x1") = (uintptr_t)src;
    register size_t c __asm__("x2") = n;
    __asm__ volatile(".inst 0x19010440\n\t"   /* cpyfp [x0]!, [x1]!, x2! */
                     ".inst 0x19410440\n\t"   /* cpyfm [x0]!, [x1]!, x2! */
                     ".inst 0x19810440"       /* cpyfe [x0]!, [x1]!, x2! */
                     : "+r"(d), "+r"(s), "+r"(c) : : "cc", "memory");
    return dst;
}
