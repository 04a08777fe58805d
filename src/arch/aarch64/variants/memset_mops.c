/*
 * memset_mops — FEAT_MOPS memory set: SETP, SETM, SETE.
 *
 * No src/ops/ classes: every size is one prologue/main/epilogue sequence.
 *
 * Assumptions:
 *   - FEAT_MOPS (AT_HWCAP2 bit 43); the three instructions run back to back on
 *     the same registers.
 *   - .inst words (x0 = dst, x2 = count, x3 = the byte in bits 7:0; binutils
 *     2.40 encodes the same for "set{p,m,e} [x0]!, x2!, x3").  They write back
 *     x0 and x2, and NZCV.
 */
#include <stdint.h>

#include "registry.h"

void *altmem_memset_mops(void *dst, int c, size_t n)
{
    register uintptr_t d __asm__("x0") = (uintptr_t)dst;
    register size_t k __asm__("x2") = n;
    register uint64_t v __asm__("x3") = (uint8_t)c;
    __asm__ volatile(".inst 0x19c30440\n\t"   /* setp [x0]!, x2!, x3 */
                     ".inst 0x19c34440\n\t"   /* setm [x0]!, x2!, x3 */
                     ".inst 0x19c38440"       /* sete [x0]!, x2!, x3 */
                     : "+r"(d), "+r"(k) : "r"(v) : "cc", "memory");
    return dst;
}
