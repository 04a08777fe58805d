/*
 * The bodies of the unaligned-access variants, composed of the shared size
 * classes: below 16 bytes src/ops/scalar.h's, from 16 src/ops/vector.h's over
 * the 16-byte two-word block of src/ops/block16.h (ht1: 16 + 16, ht2: 32 + 32,
 * block4: 64 bytes of a loop).  memcpy_ual, memmove_ual and memset_ual call
 * them with OPS_PLAIN, copy_user_ual and clear_user_ual (src/uaccess/) with
 * OPS_FAULT; riscv64's memset_zicboz and clear_user_zicboz use ual_memset and
 * ual_clear_user for their heads and tails.  In the spirit of LLVM libc's
 * memory_utils: each class is one head_tail or one block of a loop.
 *
 * Assumptions:
 *   - The CPU performs unaligned scalar loads and stores in hardware, at about
 *     the speed of aligned ones (feature UAL).  On targets whose compiler
 *     assumes strict alignment by default (riscv64, loongarch64) the files that
 *     include this are built with -mno-strict-align (the ual flag set) so the
 *     accesses are single instructions.
 *   - Little or big endian: values are only moved, never combined.
 *   - Every class loads all it copies before its first store, and stores in
 *     ascending order, each store beginning at or below the end of those before
 *     it (src/ops/access.h); so the copies up to 64 bytes serve memmove too.
 *   - The loops' stores are 16-aligned (a 16-byte store never splits a cache
 *     line where a block is one instruction: x86_64, aarch64).
 */
#ifndef ALTMEM_UAL_CLASSES_H
#define ALTMEM_UAL_CLASSES_H

#include "ops/block16.h"

/* ---- n <= 64: every load before the first store ----------------------------- */

/* One class per size range (one return at the end: see ops_copy_lt8). */
OPS_INL size_t ual_copy_le64(const enum ops_access acc, uintptr_t d, uintptr_t s, size_t n)
{
    size_t r = OPS_OK;
    if (n >= 32)                /* [32, 64]: head 32 + tail 32 */
        r = ops_vcopy_ht2(acc, d, s, n);
    else if (n >= 16)           /* [16, 31]: head 16 + tail 16 */
        r = ops_vcopy_ht1(acc, d, s, n);
    else if (n >= 8)            /* [8, 15]: head 8 + tail 8 */
        r = ops_copy_8_16(acc, d, s, n);
    else if (n >= 4)            /* [4, 7]: head 4 + tail 4 */
        r = ops_copy_4_8(acc, d, s, n);
    else if (n >= 2)            /* [2, 3]: head 2 + tail 2 */
        r = ops_copy_2_4(acc, d, s, n);
    else if (n == 1)            /* 1: one byte */
        r = ops_copy_1(acc, d, s);
    return r;
}

/* ---- memcpy_ual / memmove_ual (plain only) -----------------------------------

   Their first 16 bytes (forward) or last 16 (backward) are stored last, after
   the loop, which memmove needs (a head stored first would overwrite source
   bytes the loop has still to read) and a fault-tolerant copy cannot have (a
   fault in the loop would leave a hole below the progress): ual_copy_user
   stores its head first, from the same 64-byte blocks. */

/* n <= 64, plain: inlined as the compiler sees fit (memmove_ual calls it from
   three places). */
static inline void ual_copy_le64_plain(uintptr_t d, uintptr_t s, size_t n)
{
    ual_copy_le64(OPS_PLAIN, d, s, n);
}

/* n > 64, forward; correct when dst does not lie inside (src, src + n).
   The first 16 bytes are loaded up front and stored last, so that the loop can
   start at a 16-aligned dst (where 16-byte stores never split a cache line)
   without storing over source bytes still to be read. */
static inline void ual_copy_fwd_large(uintptr_t d, uintptr_t s, size_t n)
{
    ops_b16 head;
    ops_vld(OPS_PLAIN, &head, s, 0);
    const size_t skip = 16 - (d & 15);           /* 1..16: dst 16-aligned after it */
    /* Body: 64 bytes per iteration, stores 16-aligned, loads before stores.
       Pointers here, plain only: with the integers GCC keeps a second
       induction variable per stream (+1 instruction per iteration). */
    const unsigned char *sp = (const unsigned char *)s + skip;
    unsigned char *dp = (unsigned char *)d + skip;
    for (n -= skip; n > 64; n -= 64, sp += 64, dp += 64)
        ops_vcopy_block4(OPS_PLAIN, OPS_ALIGNED, (uintptr_t)dp, (uintptr_t)sp);
    /* Tail: 1..64 bytes. */
    ual_copy_le64_plain((uintptr_t)dp, (uintptr_t)sp, n);
    ops_vst(OPS_PLAIN, d, 0, head);
}

/* n > 64, backward; correct when dst does not lie below src inside its range. */
static inline void ual_copy_bwd_large(uintptr_t d, uintptr_t s, size_t n)
{
    const uintptr_t dend = d + n;
    ops_b16 tail;
    ops_vld(OPS_PLAIN, &tail, s, n - 16);
    size_t skip = ((dend - 1) & 15) + 1;         /* 1..16: dst + n 16-aligned after it */
    n -= skip;
    /* Body: 64 bytes per iteration from the end, stores 16-aligned, the highest
       word first. */
    for (; n > 64; n -= 64) {
        const uintptr_t p = s + n - 64, q = d + n - 64;
        uint64_t a, b, c, e, f, g, h, i;
        ops_ld64(OPS_PLAIN, &a, p, 0);
        ops_ld64(OPS_PLAIN, &b, p, 8);
        ops_ld64(OPS_PLAIN, &c, p, 16);
        ops_ld64(OPS_PLAIN, &e, p, 24);
        ops_ld64(OPS_PLAIN, &f, p, 32);
        ops_ld64(OPS_PLAIN, &g, p, 40);
        ops_ld64(OPS_PLAIN, &h, p, 48);
        ops_ld64(OPS_PLAIN, &i, p, 56);
        ops_sta64(OPS_PLAIN, q, 56, i);
        ops_sta64(OPS_PLAIN, q, 48, h);
        ops_sta64(OPS_PLAIN, q, 40, g);
        ops_sta64(OPS_PLAIN, q, 32, f);
        ops_sta64(OPS_PLAIN, q, 24, e);
        ops_sta64(OPS_PLAIN, q, 16, c);
        ops_sta64(OPS_PLAIN, q, 8, b);
        ops_sta64(OPS_PLAIN, q, 0, a);
    }
    /* Head: 1..64 bytes at the start. */
    ual_copy_le64_plain(d, s, n);
    ops_vst(OPS_PLAIN, dend, -16, tail);
}

/* ---- memset_ual (plain only) -------------------------------------------------

   The classes up to 32 bytes and the loop's block are clear_user_ual's too;
   above 32 the tail is stored first, a plain-only order (clear_user_ual's must
   ascend).  Tail: the last 64 (or, for n <= 64, 32) bytes, unaligned; head: 16
   unaligned bytes; then a 64-byte loop from a 16-aligned dst until the tail.
   The classes one call each, as a chain here, not in a function of their own,
   which GCC would lay out otherwise. */
OPS_INL void ual_memset(uintptr_t d, unsigned char c, size_t n)
{
    const enum ops_access acc = OPS_PLAIN;
    const uint64_t v = UINT64_C(0x0101010101010101) * c;
    if (n <= 16) {
        if (n >= 8)             /* [8, 16] */
            ops_set_8_16(acc, d, v, n);
        else if (n >= 4)        /* [4, 7] */
            ops_set_4_8(acc, d, v, n);
        else if (n >= 2)        /* [2, 3] */
            ops_set_2_4(acc, d, v, n);
        else if (n == 1)        /* 1 */
            ops_set_1(acc, d, v);
        return;
    }
    const ops_b16 vb = ops_b16_splat(acc, v);
    if (n <= 32) {              /* [17, 32]: 16 + 16 */
        ops_vset_ht1(acc, d, vb, n);
        return;
    }
    const uintptr_t e = d + n;
    ops_vst(acc, e, -32, vb);
    ops_vst(acc, e, -16, vb);
    if (n <= 64) {              /* [33, 64]: head 32 + tail 32 */
        ops_vst(acc, d, 0, vb);
        ops_vst(acc, d, 16, vb);
        return;
    }
    ops_vst(acc, e, -64, vb);
    ops_vst(acc, e, -48, vb);
    /* Head: 16 unaligned bytes, then align dst to 16. */
    ops_vst(acc, d, 0, vb);
    d += 16 - (d & 15);
    /* Body: 64 bytes per iteration, 16-aligned, until the tail is reached. */
    for (size_t left = e - d; left > 64; left -= 64, d += 64)
        ops_vset_block4(acc, OPS_ALIGNED, d, vb);
}

/* ---- copy_user_ual / clear_user_ual (OPS_FAULT) ------------------------------

   They return the bytes not copied (zeroed): 0, or the fix-up's exact count
   from a class's progress.  The first-use check is their caller's. */

/* [0, 64] as memcpy_ual; above, the first 16 bytes unaligned and stored first
   (memcpy_ual stores them last, for memmove), 64-byte blocks stored 16-aligned
   while more than 64 bytes remain, then the last 64 bytes unaligned (the
   32 + 32 class, loaded after the loop, stored ascending: they begin inside
   the stored prefix).  The loop counts its iterations (d + n may wrap for a
   wild dst). */
OPS_INL size_t ual_copy_user(uintptr_t d, uintptr_t s, size_t n)
{
    const enum ops_access acc = OPS_FAULT;
    size_t k, ok = 0;
    UA_ZERO_IN_RET(ok);   /* extable.h */
    /* As memcpy_ual: above 64 out of the way, [32, 64] falls through. */
    if (n > 64)
        goto large;
    if (__builtin_expect((k = ual_copy_le64(acc, d, s, n)) != OPS_OK, 0))
        return altmem__uaccess_bytes(d, s, n, k, 0);
    return ok;
large:
    {
        /* Head: 16 unaligned bytes, then continue where dst is 16-aligned
           (the next block rewrites part of the head with the same bytes). */
        ops_b16 h;
        if (ops_vld(acc, &h, s, 0))
            return altmem__uaccess_bytes(d, s, n, 0, 0);
        if ((k = ops_vst(acc, d, 0, h)) != OPS_OK)
            return altmem__uaccess_bytes(d, s, n, k, 0);
    }
    /* Body: 64 bytes per iteration, stores 16-aligned, loaded before stored,
       while more than 64 remain; one pointer per stream with offsets. */
    uintptr_t p = d + 16 - (d & 15), q = s + (p - d);
    const size_t end = n - 64;
    if (p - d < end) {
        /* The iteration count up front: the loop is a count and two pointer
           increments (as memcpy_ual's), no comparison with an end address. */
        size_t c = (end - (p - d) + 63) / 64;
        do {
            if (__builtin_expect((k = ops_vcopy_block4(acc, OPS_ALIGNED, p, q)) != OPS_OK, 0))
                goto fault_in_loop;
            p += 64;
            q += 64;
        } while (--c);
    }
    /* Tail: the last 64 bytes, unaligned (n - 64 <= p - d: they begin inside
       the stored prefix). */
    if (__builtin_expect((k = ops_vcopy_ht2(acc, d + n - 64, s + n - 64, 64)) != OPS_OK, 0))
        goto fault_in_tail;
    return ok;
    /* Progress in the loop: [0, p - d) plus the block's (k), and the 16-byte
       head (the first block may start inside it). */
fault_in_loop:
    OPS_LAUNDER(p);
    return altmem__uaccess_bytes(d, s, n, ops_max(p - d + k, 16), 0);
    /* In the tail: the prefix [0, max(p - d, 16)) and the tail's own, from
       n - 64. */
fault_in_tail:
    OPS_LAUNDER(p);
    return altmem__uaccess_bytes(d, s, n, ops_max(ops_max(p - d, 16), n - 64 + k), 0);
}

/* [0, 64] as memset_ual's classes, stored ascending; above, the first 16 bytes
   unaligned, 64-byte blocks stored 16-aligned while more than 64 bytes remain,
   then the last 64 bytes unaligned (memset_ual stores them first; here they
   come last, beginning inside the zeroed prefix, with the 32 + 32 class). */
OPS_INL size_t ual_clear_user(uintptr_t d, size_t n)
{
    const enum ops_access acc = OPS_FAULT;
    size_t k, ok = 0;
    UA_ZERO_IN_RET(ok);   /* extable.h */
    if (n <= 16) {
        if (n >= 8) {           /* [8, 16] */
            if (__builtin_expect((k = ops_set_8_16(acc, d, 0, n)) != OPS_OK, 0))
                return altmem__uaccess_bytes(d, 0, n, k, 1);
        } else if (n >= 4) {    /* [4, 7] */
            if (__builtin_expect((k = ops_set_4_8(acc, d, 0, n)) != OPS_OK, 0))
                return altmem__uaccess_bytes(d, 0, n, k, 1);
        } else if (n >= 2) {    /* [2, 3] */
            if (__builtin_expect((k = ops_set_2_4(acc, d, 0, n)) != OPS_OK, 0))
                return altmem__uaccess_bytes(d, 0, n, k, 1);
        } else if (n == 1) {    /* 1 */
            if (__builtin_expect((k = ops_set_1(acc, d, 0)) != OPS_OK, 0))
                return altmem__uaccess_bytes(d, 0, n, k, 1);
        }
        return ok;
    }
    const ops_b16 v = ops_b16_splat(acc, 0);
    if (n <= 32) {              /* (16, 32]: 16 + 16 */
        if (__builtin_expect((k = ops_vset_ht1(acc, d, v, n)) != OPS_OK, 0))
            return altmem__uaccess_bytes(d, 0, n, k, 1);
        return ok;
    }
    if (n <= 64) {              /* (32, 64]: 32 + 32 */
        if (__builtin_expect((k = ops_vset_ht2(acc, d, v, n)) != OPS_OK, 0))
            return altmem__uaccess_bytes(d, 0, n, k, 1);
        return ok;
    }
    /* Head: 16 unaligned bytes, then from the next 16-aligned address. */
    if ((k = ops_vst(acc, d, 0, v)) != OPS_OK)
        return altmem__uaccess_bytes(d, 0, n, k, 1);
    /* Body: 64 bytes per iteration, 16-aligned, while more than 64 remain,
       the bound computed once.  (An index here, not memcpy's pointer and
       count: this shape measured faster for clear_user at 128 B - 1 KiB.) */
    size_t i = 16 - (d & 15);
    const size_t end = n - 64;
    for (; i < end; i += 64)
        if (__builtin_expect((k = ops_vset_block4(acc, OPS_ALIGNED, d + i, v)) != OPS_OK, 0))
            goto fault_in_loop;
    /* Tail: the last 64 bytes, unaligned (n - 64 <= i: inside the prefix). */
    if (__builtin_expect((k = ops_vset_ht2(acc, d + n - 64, v, 64)) != OPS_OK, 0))
        goto fault_in_tail;
    return ok;
    /* Progress in the loop: [0, i) plus the block's (k), and the 16-byte head
       (the first block may start inside it). */
fault_in_loop:
    OPS_LAUNDER(i);
    return altmem__uaccess_bytes(d, 0, n, ops_max(i + k, 16), 1);
    /* In the tail: the prefix [0, max(i, 16)) and the tail's own, from n - 64. */
fault_in_tail:
    OPS_LAUNDER(i);
    return altmem__uaccess_bytes(d, 0, n, ops_max(ops_max(i, 16), n - 64 + k), 1);
}

#endif
