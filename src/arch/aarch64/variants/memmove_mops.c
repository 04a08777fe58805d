/*
 * memmove_mops — FEAT_MOPS memory move: CPYP, CPYM, CPYE (either direction:
 * the instructions pick it from the overlap).
 *
 * No src/ops/ classes: every size is one prologue/main/epilogue sequence.
 *
 * Assumptions:
 *   - FEAT_MOPS (AT_HWCAP2 bit 43); the three instructions run back to back on
 *     the same registers.
 *   - .inst words (x0 = dst, x1 = src, x2 = count; binutils 2.40 encodes the
 *     same for "cpy{p,m,e} [x0]!, [x1]!, x2!").  They write back x0-x2, NZCV.
 */
#include <stdint.h>

#include "registry.h"

void *altmem_memmove_mops(void *dst, const void *src, size_t n)
{
    register uintptr_t d __asm__("x0") = (uintptr_t)dst;
    register uintptr_t s __asm__("x1") = (uintptr_t)src;
    register size_t c __asm__("x2") = n;
    __asm__ volatile(".inst 0x1d010440\n\t"   /* cpyp [x0]!, [x1]!, x2! */
                     ".inst 0x1d410440\n\t"   /* cpym [x0]!, [x1]!, x2! */
                     ".inst 0x1d810440"       /* cpye [x0]!, [x1]!, x2! */
                     : "+r"(d), "+r"(s), "+r"(c) : : "cc", "memory");
    return dst;
}
