/*
 * memset_zicboz — zero through cbo.zero over whole blocks, on CPUs without V.
 *
 * Assumptions:
 *   - Zicboz (ALTMEM_FEAT_ZICBOZ) with altmem__zero_block, the policy's copy of
 *     its block size (a power of two in 16..4096; 0 when masked: then this is
 *     memset_ual's body); cbo.zero zeroes exactly the aligned block holding
 *     its address.  The mnemonic is written as .insn (rvv.h).
 *   - Fast unaligned scalar access (ALTMEM_FEAT_UAL): everything that is not
 *     whole blocks is memset_ual's body (ual_classes.h, built with the ual
 *     flag set's -mno-strict-align).
 * Size classes:
 *   - c == 0, n >= max(4 blocks, 256 B): memset_ual's body up to the first
 *     block boundary, cbo.zero over the whole blocks, the same for the tail.
 *   - anything else: memset_ual's body.
 * Below rvv in the preference order: where V is there, memset_rvv does the
 * same whole-block zeroing with vector heads and tails.
 */
#include "registry.h"
#include "rvv.h"
#include "variants/ual/ual_classes.h"

/* memset_ual's body (ual_classes.h), once in this file: the sizes without
   whole blocks, and the head and tail around them.  It returns dst so that
   the entry's common case is a tail call. */
static __attribute__((noinline)) void *zicboz_set_ual(void *dst, unsigned char c, size_t n)
{
    ual_memset((uintptr_t)dst, c, n);
    return dst;
}

void *altmem_memset_zicboz(void *dst, int c, size_t n)
{
    const uintptr_t d = (uintptr_t)dst;
    const size_t zb = rv_zero_block();
    if ((unsigned char)c != 0 || !zb || n < rv_zero_from(zb))
        return zicboz_set_ual(dst, (unsigned char)c, n);
    const size_t head = (size_t)-d & (zb - 1), blocks = (n - head) / zb, tail = n - head - blocks * zb;
    if (head)
        zicboz_set_ual(dst, 0, head);
    rv_cbo_zero(d + head, blocks, zb);
    if (tail)
        zicboz_set_ual((unsigned char *)dst + head + blocks * zb, 0, tail);
    return dst;
}
