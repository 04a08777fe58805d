/*
 * clear_user_rvv — fault-tolerant RVV strip-mined zeroing, cbo.zero over whole
 * blocks.
 *
 * Assumptions:
 *   - RVV 1.0 (ALTMEM_FEAT_RVV), built with -march=rv64gcv; any VLEN.  Byte
 *     elements: no alignment needed, no scalar misaligned access.
 *   - altmem__zero_block (the policy's Zicboz block size, 0 = none or masked)
 *     is a power of two in 16..4096: an aligned block lies in one page.
 *   - Stores ascend and none crosses a 4 KiB boundary (vector steps are cut
 *     there; a block is inside one), so a store or cbo.zero that faults lies
 *     in one inaccessible page and has written nothing, whatever vstart says:
 *     the progress is the start of that step or block; the fix-up goes on from
 *     there byte by byte (altmem__uaccess_bytes), after clearing vstart.
 *   - Addresses are integers (uintptr_t), as in every uaccess variant.
 * Size classes:
 *   - a block size and n >= max(4 blocks, 256 B): vector steps up to the first
 *     block boundary, cbo.zero over the whole blocks, vector steps for the rest.
 *   - anything else: vector steps of min(n - i, 8 * VLENB, to the next 4 KiB
 *     boundary) bytes.
 */
#include "registry.h"
#include "uaccess/extable.h"
#include "rvv.h"

size_t altmem_clear_user_rvv(void *dst, size_t n)
{
    const uintptr_t d = (uintptr_t)dst;

    /* First use: install the fault handler (extable.h). */
    if (UA_NOT_INSTALLED())
        goto first_use;
    size_t vlmax;
    __asm__("csrr %0, vlenb" : "=r"(vlmax));
    vlmax *= 8; /* e8, LMUL 8 */
    const size_t zb = rv_zero_block();
    size_t i = 0, stop = n, blocks = 0;
    if (zb && n >= rv_zero_from(zb)) {
        stop = (size_t)-d & (zb - 1);
        blocks = (n - stop) / zb;
    }
    /* Vector steps over [i, stop); then the blocks, if any, and the rest. */
vec:
    while (i < stop) {
        size_t k = stop - i;
        const size_t room = 4096 - ((d + i) & 4095);
        if (k > room)
            k = room;
        if (k > vlmax)
            k = vlmax;
        UA_VZERO8(d + i, k, fault);
        i += k;
    }
    if (blocks) {
        do {
            UA_CBO_ZERO(d + i, fault);
            i += zb;
        } while (--blocks);
        stop = n;
        goto vec;
    }
    return 0;
fault:
    UA_VSTART_CLEAR();
    return altmem__uaccess_bytes(d, 0, n, i, 1);
first_use:
    return altmem__clear_user_first(dst, n, altmem_clear_user_rvv);
}
