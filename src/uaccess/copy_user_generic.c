/*
 * copy_user_generic — fault-tolerant copy for CPUs without unaligned access.
 *
 * Assumptions:
 *   - Any ISA with the extable accessors (src/uaccess/extable.h), little or big
 *     endian; never a multi-byte access at an address that is not a multiple of
 *     its size (the word accessors are only given aligned addresses).
 *   - src and dst do not overlap.
 *   - Shape of memcpy_generic: bytes until dst is word-aligned, aligned words
 *     (4 per iteration) or aligned source words merged by shifts (its
 *     word_merge), bytes at the end.  Not its merge loops: those are one per
 *     source offset, unrolled by 4, written with word pointers; here one loop
 *     with the offset in a register (a fault-tolerant copy of them over the
 *     access operation, as word_set for clear_user_generic, is still to do).  Loads may touch bytes before src inside src's first aligned word (same
 *     page: they cannot fault), never a byte at or after src + n.  Stores go in
 *     ascending order after the loads that feed them, so a fault leaves nothing
 *     written at or past the first inaccessible byte, and at a fault everything
 *     below d (plus the words of a 4-word block stored before the faulting one)
 *     is stored: the fix-up goes on from there byte by byte for the exact count.
 *   - Addresses are integers (uintptr_t): no C pointer arithmetic on the
 *     caller's pointers, which may be NULL or wild.
 */
#include "registry.h"
#include "ua_access.h"
#include "variants/generic/word_copy.h" /* W, word_merge: memcpy_generic's */

typedef altmem_word word_t;

size_t altmem_copy_user_generic(void *dst, const void *src, size_t n)
{
    const uintptr_t d0 = (uintptr_t)dst;
    uintptr_t d = d0, s = (uintptr_t)src;
    size_t left = n;

    /* First use: install the fault handler (extable.h). */
    if (UA_NOT_INSTALLED())
        goto first_use;
    /* Fewer than 3 words: bytes. */
    if (left < 3 * W)
        goto bytes;
    /* Head: bytes until dst is word-aligned. */
    for (size_t head = (size_t)(-d & (W - 1)); head; head--, left--) {
        uint8_t b;
        UA_LD8(b, s, fault);
        UA_ST8(d, b, fault);
        d++;
        s++;
    }
    size_t off = s & (W - 1);
    if (off == 0) {
        /* Same alignment: 4 words per iteration, then words. */
        for (; left >= 4 * W; left -= 4 * W, s += 4 * W, d += 4 * W) {
            word_t a, b, c, e;
            UA_LD64(a, s, fault);
            UA_LD64(b, s + 8, fault);
            UA_LD64(c, s + 16, fault);
            UA_LD64(e, s + 24, fault);
            UA_ST64(d, a, fault);
            UA_ST64(d + 8, b, fault8);
            UA_ST64(d + 16, c, fault16);
            UA_ST64(d + 24, e, fault24);
        }
        for (; left >= W; left -= W, s += W, d += W) {
            word_t a;
            UA_LD64(a, s, fault);
            UA_ST64(d, a, fault);
        }
    } else {
        /* Different alignment: stored word i merges source words i and i + 1,
           which must end at or before src + n: a word only while left >= 2W - off. */
        uintptr_t sw = s - off;
        word_t prev;
        UA_LD64(prev, sw, fault);
        for (; left >= 2 * W - off; left -= W, sw += W, s += W, d += W) {
            word_t next;
            UA_LD64(next, sw + W, fault);
            UA_ST64(d, word_merge(prev, next, off), fault);
            prev = next;
        }
    }
bytes:
    /* Tail: fewer than 2 words. */
    for (; left; left--) {
        uint8_t b;
        UA_LD8(b, s, fault);
        UA_ST8(d, b, fault);
        d++;
        s++;
    }
    return 0;
    /* Progress: everything below d is stored, plus the words of the 4-word block
       stored before the one that faulted. */
fault24:
    d += 8;
fault16:
    d += 8;
fault8:
    d += 8;
fault:
    return altmem__uaccess_bytes(d0, (uintptr_t)src, n, d - d0, 0);
first_use:
    return altmem__copy_user_first(dst, src, n, altmem_copy_user_generic);
}
