/*
 * copy_user_generic — fault-tolerant copy for CPUs without unaligned access.
 *
 * Assumptions:
 *   - Any ISA with the extable accessors (OPS_FAULT, src/ops/word.h), little or big
 *     endian; never a multi-byte access at an address that is not a multiple of
 *     its size (the word accessors are only given aligned addresses).
 *   - src and dst do not overlap.
 *   - Shape of memcpy_generic: bytes until dst is word-aligned, aligned words
 *     (4 per iteration) or aligned source words merged by shifts (its
 *     word_merge), bytes at the end.  Not its merge loops: those are one per
 *     source offset, unrolled by 4, written with word pointers; here one loop
 *     with the offset in a register (a fault-tolerant copy of them over the
 *     access operation, as word_set for clear_user_generic, is still to do).
 *     Loads may touch bytes before src inside src's first aligned word (same
 *     page: they cannot fault), never a byte at or after src + n.  Stores go in
 *     ascending order after the loads that feed them, so a fault leaves nothing
 *     written at or past the first inaccessible byte, and at a fault everything
 *     below d (plus the words of a 4-word block stored before the faulting one,
 *     next to each store) is stored: the fix-up goes on from there byte by byte for the exact count.
 *   - Addresses are integers (uintptr_t): no C pointer arithmetic on the
 *     caller's pointers, which may be NULL or wild.
 */
#include "registry.h"
#include "variants/generic/word_copy.h" /* W, word_merge: memcpy_generic's; the word accessors */
#include "uaccess/extable.h" /* the fix-up, the lazy installation, the end of the address space */

size_t altmem_copy_user_generic(void *dst, const void *src, size_t n)
{
    const enum ops_access acc = OPS_FAULT;
    const uintptr_t d0 = (uintptr_t)dst, s0 = (uintptr_t)src;
    uintptr_t d = d0, s = s0;
    size_t left = n, k;

    /* First use: install the fault handler (extable.h). */
    if (UA_NOT_INSTALLED())
        goto first_use;
    /* Fewer than 3 words: bytes. */
    if (left < 3 * W)
        goto bytes;
    /* Head: bytes until dst is word-aligned. */
    for (size_t head = (size_t)(-d & (W - 1)); head; head--, left--) {
        unsigned char b;
        if (ops_ld8(acc, &b, s, 0) || ops_st8(acc, d, 0, b) != OPS_OK)
            goto fault;
        d++;
        s++;
    }
    size_t off = s & (W - 1);
    if (off == 0) {
        /* Same alignment: 4 words per iteration, then words. */
        for (; left >= 4 * W; left -= 4 * W, s += 4 * W, d += 4 * W) {
            altmem_word a, b, c, e;
            if (ops_lda_word(acc, &a, s, 0) || ops_lda_word(acc, &b, s, W) || ops_lda_word(acc, &c, s, 2 * W) ||
                ops_lda_word(acc, &e, s, 3 * W))
                goto fault;
            if ((k = ops_sta_word(acc, d, 0, a)) != OPS_OK)
                return altmem__uaccess_bytes(d0, s0, n, d - d0 + k, 0);
            if ((k = ops_sta_word(acc, d, W, b)) != OPS_OK)
                return altmem__uaccess_bytes(d0, s0, n, d - d0 + W + k, 0);
            if ((k = ops_sta_word(acc, d, 2 * W, c)) != OPS_OK)
                return altmem__uaccess_bytes(d0, s0, n, d - d0 + 2 * W + k, 0);
            if ((k = ops_sta_word(acc, d, 3 * W, e)) != OPS_OK)
                return altmem__uaccess_bytes(d0, s0, n, d - d0 + 3 * W + k, 0);
        }
        for (; left >= W; left -= W, s += W, d += W) {
            altmem_word a;
            if (ops_lda_word(acc, &a, s, 0) || ops_sta_word(acc, d, 0, a) != OPS_OK)
                goto fault;
        }
    } else {
        /* Different alignment: stored word i merges source words i and i + 1,
           which must end at or before src + n: a word only while left >= 2W - off. */
        uintptr_t sw = s - off;
        altmem_word prev;
        if (ops_lda_word(acc, &prev, sw, 0))
            goto fault;
        for (; left >= 2 * W - off; left -= W, sw += W, s += W, d += W) {
            altmem_word next;
            if (ops_lda_word(acc, &next, sw, W) || ops_sta_word(acc, d, 0, word_merge(prev, next, off)) != OPS_OK)
                goto fault;
            prev = next;
        }
    }
bytes:
    /* Tail: fewer than 2 words. */
    for (; left; left--) {
        unsigned char b;
        if (ops_ld8(acc, &b, s, 0) || ops_st8(acc, d, 0, b) != OPS_OK)
            goto fault;
        d++;
        s++;
    }
    return 0;
    /* Progress: everything below d is stored (a single access's store that
       faults stored none of its bytes). */
fault:
    return altmem__uaccess_bytes(d0, s0, n, d - d0, 0);
first_use:
    return altmem__copy_user_first(dst, src, n, altmem_copy_user_generic);
}
