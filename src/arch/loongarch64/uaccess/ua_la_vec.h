/*
 * The body of the LoongArch vector copy_user / clear_user variants (lsx,
 * lasx), one vector width per translation unit: a file defines LA_W (16 or
 * 32), is built with the matching flag set and includes this header, whose
 * size classes are memcpy's and memset's of that width (la_vec.h over
 * src/ops/scalar.h and src/ops/vector.h) called with OPS_FAULT: each access
 * an exception-table accessor (accessors.h: ld/st, vld/vst, xvld/xvst), each
 * class returning OPS_OK or its progress.
 *
 * Assumptions:
 *   - LoongArch64 with UAL and LSX (LASX for LA_W 32); src and dst do not
 *     overlap; every access is an extable accessor.
 *   - Stores go in ascending address order, each beginning at or below the end
 *     of the stored prefix, and every class loads all it copies before its
 *     first store: at each fault the variant knows its progress p (every
 *     byte below p stored) and the fix-up goes on from p byte by byte
 *     (altmem__uaccess_bytes), which makes the count exact.
 *   - A faulting vector store is not assumed to write nothing: under qemu 10 an
 *     xvst (vst) that crosses into an inaccessible page has already written its
 *     bytes below the page (docs/arch-notes.md).  The kernel's rule since
 *     937f65935950: finish from the last known progress, never from what the
 *     faulting store did.  The
 *     bytes it wrote lie at or above p and below the fault, and the fix-up
 *     writes them again with the same values; nothing at or past the first
 *     inaccessible byte can have been written.
 *   - Addresses are integers (uintptr_t); the loops count iterations, no end
 *     address is compared (d + n may wrap for a wild dst).
 * Layout: n <= 8W la_copy_upto8w / la_set_upto8w (memcpy's, memset's); above, the
 * first vector unaligned, W-aligned blocks of 4 vectors while more than 4W
 * remain, the last 4 vectors unaligned (they begin inside the stored prefix).
 */
#ifndef ALTMEM_UA_LA_VEC_H
#define ALTMEM_UA_LA_VEC_H

#include "registry.h"
#include "la_vec.h"
#include "uaccess/extable.h" /* the fix-up, the lazy installation, the end of the address space */

OPS_INL size_t la_copy_user(uintptr_t d, uintptr_t s, size_t n)
{
    la_v h;
    size_t k;
    if (n <= 8 * W) {
        const size_t p = la_copy_upto8w(OPS_FAULT, d, s, n);
        if (__builtin_expect(p != OPS_OK, 0))
            return altmem__uaccess_bytes(d, s, n, p, 0);
        return 0;
    }
    if (ops_vld(OPS_FAULT, &h, s, 0) || ops_vst(OPS_FAULT, d, 0, h) != OPS_OK)
        goto f0;
    uintptr_t p = d + W - (d & (W - 1)), q = s + (p - d);
    const size_t end = n - 4 * W; /* > 4W >= p - d: at least one block */
    size_t c = (end - (p - d) + 4 * W - 1) / (4 * W);
    do {
        if (__builtin_expect((k = ops_vcopy_block4(OPS_FAULT, OPS_ALIGNED, p, q)) != OPS_OK, 0))
            goto fl;
        p += 4 * W;
        q += 4 * W;
    } while (--c);
    /* The last 4 vectors, loaded after the loop (n - 4W <= p - d); dst not
       aligned: ops_vstore is vst / xvst at any alignment (la_vec.h). */
    if (__builtin_expect((k = ops_vcopy_block4(OPS_FAULT, OPS_ALIGNED, d + n - 4 * W, s + n - 4 * W)) != OPS_OK, 0))
        goto ft;
    return 0;
    /* In the loop: [0, p - d) plus the block's k, and the head vector (the
       first block may begin inside it). */
fl:
    OPS_LAUNDER(p);
    return altmem__uaccess_bytes(d, s, n, ops_max(p - d + k, W), 0);
    /* In the tail: the prefix and the tail's own progress from n - 4W. */
ft:
    OPS_LAUNDER(p);
    return altmem__uaccess_bytes(d, s, n, ops_max(ops_max(p - d, W), n - 4 * W + k), 0);
f0:
    return altmem__uaccess_bytes(d, s, n, 0, 0);
}

OPS_INL size_t la_clear_user(uintptr_t d, size_t n)
{
    const la_v v = LA_SPLAT(0);
    size_t k;
    if (n <= 8 * W) {
        const size_t p = la_set_upto8w(OPS_FAULT, d, v, LA_HSPLAT(0), 0, n);
        if (__builtin_expect(p != OPS_OK, 0))
            return altmem__uaccess_bytes(d, 0, n, p, 1);
        return 0;
    }
    if (ops_vst(OPS_FAULT, d, 0, v) != OPS_OK)
        goto f0;
    size_t i = W - (d & (W - 1));
    const size_t end = n - 4 * W;
    for (; i < end; i += 4 * W)
        if (__builtin_expect((k = ops_vset_block4(OPS_FAULT, OPS_ALIGNED, d + i, v)) != OPS_OK, 0))
            goto fl;
    /* The last 4 vectors, unaligned (n - 4W <= i). */
    if (__builtin_expect((k = ops_vset_last4(OPS_FAULT, d + n, v, n, ops_max(i, W))) != OPS_OK, 0))
        return altmem__uaccess_bytes(d, 0, n, k, 1);
    return 0;
fl:
    OPS_LAUNDER(i);
    return altmem__uaccess_bytes(d, 0, n, ops_max(i + k, W), 1);
f0:
    return altmem__uaccess_bytes(d, 0, n, 0, 1);
}

#endif
