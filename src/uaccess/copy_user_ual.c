/*
 * copy_user_ual — fault-tolerant copy for CPUs with fast unaligned access (UAL).
 *
 * Assumptions:
 *   - Unaligned 2/4/8-byte (and on x86_64 16-byte SSE2) loads and stores are
 *     single fast instructions; every access is an extable accessor.
 *   - src and dst do not overlap.
 *   - Every block is loaded before it is stored and blocks are stored in
 *     ascending order, each beginning at or below the end of the stored prefix,
 *     so when an access faults no byte at or past the first inaccessible one has
 *     been written, and each fault label knows the progress (every byte below it
 *     stored, none above); the fix-up goes on from there byte by byte and returns
 *     the exact count (altmem__uaccess_bytes).
 *   - Addresses are integers (uintptr_t): no C pointer arithmetic on the
 *     caller's pointers, which may be NULL, wild or at the end of the address
 *     space.
 * Size classes: memcpy_ual's own (src/variants/ual/ual_classes.h) over the
 * exception-table access operation (ua_access.h): [0,16) two overlapping
 * accesses of the largest fitting width; [16,32) 16 + 16 and [32,64] 32 + 32
 * bytes from each end, every load before the first store; above, the first 16
 * bytes unaligned, 64-byte blocks stored 16-aligned while more than 64 bytes
 * remain, then the last 64 bytes unaligned (the 32 + 32 class, loaded after
 * the loop, stored ascending: they begin inside the stored prefix).  What is
 * not memcpy_ual's: the head is stored first (memcpy_ual stores it last, for
 * memmove), and the loop counts its iterations (d + n may wrap for a wild
 * dst).
 */
#include "registry.h"
#include "ua_access.h"
#include "variants/ual/ual_classes.h"

#define MAX ao_max

/* A class's progress (not AO_OK): the fix-up goes on from there. */
#define TRY(call)                                                                \
    do {                                                                         \
        const size_t p_ = (call);                                                \
        if (__builtin_expect(p_ != AO_OK, 0))                                    \
            return altmem__uaccess_bytes(d, s, n, p_, 0);                        \
    } while (0)

size_t altmem_copy_user_ual(void *dst, const void *src, size_t n)
{
    const uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
    size_t k;

    /* First use: install the fault handler (extable.h). */
    if (UA_NOT_INSTALLED())
        goto first_use;
    size_t ok = 0;
    UA_ZERO_IN_RET(ok);
    /* As memcpy_ual: above 64 out of the way, [32, 64] falls through. */
    if (n > 64)
        goto large;
    TRY(ual_copy_upto64(d, s, n));
    return ok;
large:
    {
        /* Head: 16 unaligned bytes, then continue where dst is 16-aligned
           (the next block rewrites part of the head with the same bytes). */
        AO_B16(h);
        AO_LDB(h, s, f0);
        AO_STB(d, h, f0, f8);
    }
    /* Body: 64 bytes per iteration, stores 16-aligned, loaded before stored,
       while more than 64 remain; one pointer per stream with offsets. */
    uintptr_t p = d + 16 - (d & 15), q = s + (p - d);
    const size_t end = n - 64;
    if (p - d < end) {
        /* The iteration count up front: the loop is a count and two pointer
           increments (as memcpy_ual's), no comparison with an end address
           (d + n may wrap for a wild dst). */
        size_t c = (end - (p - d) + 63) / 64;
        do {
            if (__builtin_expect((k = ual_copy_64a(p, q)) != AO_OK, 0))
                goto fl;
            p += 64;
            q += 64;
        } while (--c);
    }
    /* Tail: the last 64 bytes, unaligned (n - 64 <= p - d: they begin inside
       the stored prefix). */
    if (__builtin_expect((k = ual_copy_32_64(d + n - 64, s + n - 64, 64)) != AO_OK, 0))
        goto ft;
    return ok;
    /* Progress in the loop: [0, p - d) plus the block's (k), and the 16-byte
       head (the first block may start inside it). */
fl:
    AO_LAUNDER(p);
    return altmem__uaccess_bytes(d, s, n, MAX(p - d + k, 16), 0);
    /* In the tail: the prefix [0, max(p - d, 16)) and the tail's own, from
       n - 64. */
ft:
    AO_LAUNDER(p);
    return altmem__uaccess_bytes(d, s, n, MAX(MAX(p - d, 16), n - 64 + k), 0);
f8:
    return altmem__uaccess_bytes(d, s, n, 8, 0);
f0:
    return altmem__uaccess_bytes(d, s, n, 0, 0);
first_use:
    return altmem__copy_user_first(dst, src, n, altmem_copy_user_ual);
}
