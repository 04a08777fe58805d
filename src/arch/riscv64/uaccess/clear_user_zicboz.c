/*
 * clear_user_zicboz — fault-tolerant zeroing through cbo.zero over whole
 * blocks, on CPUs without V.
 *
 * Assumptions:
 *   - Zicboz (ALTMEM_FEAT_ZICBOZ) with altmem__zero_block, the policy's block
 *     size (a power of two in 16..4096, so an aligned block lies in one page;
 *     0 when masked: then this is clear_user_ual's body).  cbo.zero is
 *     written as .insn (extable.h).
 *   - Fast unaligned scalar access (ALTMEM_FEAT_UAL): the head before the
 *     first block and the tail after the last are clear_user_ual's body
 *     (ual_classes.h), which returns its own exact count.
 *   - Blocks ascend after the head; a cbo.zero that faults lies in one
 *     inaccessible page and has zeroed nothing, so the progress is that
 *     block's start and the fix-up goes on from there byte by byte.
 *   - Addresses are integers (uintptr_t), as in every uaccess variant.
 * Size classes:
 *   - n >= max(4 blocks, 256 B): clear_user_ual's body up to the first block
 *     boundary, cbo.zero over the whole blocks, the same for the tail.
 *   - anything else: clear_user_ual's body.
 */
#include "registry.h"
#include "rvv.h"
#include "variants/ual/ual_classes.h"
#include "uaccess/extable.h" /* the fix-up, the lazy installation, the end of the address space */

/* clear_user_ual's body (ual_classes.h), once in this file: the sizes
   without whole blocks, and the head and tail around them; the bytes not
   zeroed, exact. */
static __attribute__((noinline)) size_t zicboz_clear_ual(uintptr_t d, size_t n)
{
    return ual_clear_user(d, n);
}

size_t altmem_clear_user_zicboz(void *dst, size_t n)
{
    const uintptr_t d = (uintptr_t)dst;
    /* First use: install the fault handler (extable.h). */
    if (UA_NOT_INSTALLED())
        goto first_use;
    const size_t zb = rv_zero_block();
    if (!zb || n < rv_zero_from(zb))
        return zicboz_clear_ual(d, n);
    const size_t head = (size_t)-d & (zb - 1);
    size_t blocks = (n - head) / zb;
    if (head) {
        const size_t left = zicboz_clear_ual(d, head);
        if (left)
            return left + (n - head);
    }
    uintptr_t p = d + head;
    do {
        UA_CBO_ZERO(p, fault);
        p += zb;
    } while (--blocks);
    if (p - d < n)
        return zicboz_clear_ual(p, n - (p - d));
    return 0;
fault:
    return altmem__uaccess_bytes(d, 0, n, p - d, 1);
first_use:
    return altmem__clear_user_first(dst, n, altmem_clear_user_zicboz);
}
