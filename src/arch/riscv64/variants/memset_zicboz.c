/*
 * memset_zicboz — zero through cbo.zero over whole blocks, on CPUs without V.
 *
 * Assumptions:
 *   - Zicboz (ALTMEM_FEAT_ZICBOZ) with altmem__zero_block, the policy's copy of
 *     its block size (a power of two in 16..4096; 0 when masked: then this is
 *     memset_ual); cbo.zero zeroes exactly the aligned block holding its
 *     address.  The mnemonic is written as .insn (rvv.h), so no flag set.
 *   - Fast unaligned scalar access (ALTMEM_FEAT_UAL): everything that is not
 *     whole blocks is memset_ual's.
 * Size classes:
 *   - c == 0, n >= max(4 blocks, 256 B): memset_ual up to the first block
 *     boundary, cbo.zero over the whole blocks, memset_ual for the tail.
 *   - anything else: memset_ual.
 * Below rvv in the preference order: where V is there, memset_rvv does the
 * same whole-block zeroing with vector heads and tails.
 */
#include "registry.h"
#include "rvv.h"

void *altmem_memset_zicboz(void *dst, int c, size_t n)
{
    const uintptr_t d = (uintptr_t)dst;
    const size_t zb = rv_zero_block();
    if ((unsigned char)c != 0 || !zb || n < rv_zero_from(zb))
        return altmem_memset_ual(dst, c, n);
    const size_t head = (size_t)-d & (zb - 1), blocks = (n - head) / zb, tail = n - head - blocks * zb;
    if (head)
        altmem_memset_ual(dst, 0, head);
    rv_cbo_zero(d + head, blocks, zb);
    if (tail)
        altmem_memset_ual((void *)(d + head + blocks * zb), 0, tail);
    return dst;
}
