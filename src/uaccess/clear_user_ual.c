/*
 * clear_user_ual — fault-tolerant zeroing for CPUs with fast unaligned access.
 *
 * Assumptions:
 *   - Unaligned 2/4/8-byte (and on x86_64 16-byte SSE2) stores are single fast
 *     instructions; every store is an extable accessor.
 *   - Stores go in ascending address order, each beginning at or below the end
 *     of the zeroed prefix, so a fault leaves nothing written at or past the
 *     first inaccessible byte and each fault label knows the progress (every
 *     byte below it zeroed, none above); the fix-up goes on from there byte by
 *     byte for the exact count.
 *   - Addresses are integers (uintptr_t): no C pointer arithmetic on the
 *     caller's pointers, which may be NULL, wild or at the end of the address
 *     space.
 * Size classes: memset_ual's own (src/variants/ual/ual_classes.h) over the
 * exception-table access operation (ua_access.h): [0,16] two overlapping
 * stores of the largest fitting width; (16,32] 16 + 16 and (32,64] 32 + 32
 * bytes from each end; above, the first 16 bytes unaligned, 64-byte blocks
 * stored 16-aligned while more than 64 bytes remain, then the last 64 bytes
 * unaligned (memset_ual stores them first; here they come last, beginning
 * inside the zeroed prefix, with the 32 + 32 class).
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
            return altmem__uaccess_bytes(d, 0, n, p_, 1);                        \
    } while (0)

size_t altmem_clear_user_ual(void *dst, size_t n)
{
    const uintptr_t d = (uintptr_t)dst;
    const uint64_t z = 0;
    size_t k;

    /* First use: install the fault handler (extable.h). */
    if (UA_NOT_INSTALLED())
        goto first_use;
    size_t ok = 0;
    UA_ZERO_IN_RET(ok);
    if (n <= 16) {
        if (n >= 8)             /* [8, 16] */
            TRY(ual_set_8_16(d, z, n));
        else if (n >= 4)        /* [4, 7] */
            TRY(ual_set_4_8(d, z, n));
        else if (n >= 2)        /* [2, 3] */
            TRY(ual_set_2_4(d, z, n));
        else if (n == 1)        /* 1 */
            TRY(ual_set_1(d, z));
        return ok;
    }
    UA_ZERO_B16(v);
    if (n <= 32) {              /* (16, 32]: 16 + 16 */
        TRY(ual_set_16_32(d, v, n));
        return ok;
    }
    if (n <= 64) {              /* (32, 64]: 32 + 32 */
        TRY(ual_set_32_64(d, v, n));
        return ok;
    }
    /* Head: 16 unaligned bytes, then from the next 16-aligned address. */
    AO_SETB(d, v, f0, f8);
    /* Body: 64 bytes per iteration, 16-aligned, while more than 64 remain,
       the bound computed once.  (An index here, not memcpy's pointer and
       count: this shape measured faster for clear_user at 128 B - 1 KiB.) */
    size_t i = 16 - (d & 15);
    const size_t end = n - 64;
    for (; i < end; i += 64)
        if (__builtin_expect((k = ual_set_64a(d + i, v)) != AO_OK, 0))
            goto fl;
    /* Tail: the last 64 bytes, unaligned (n - 64 <= i: inside the prefix). */
    if (__builtin_expect((k = ual_set_32_64(d + n - 64, v, 64)) != AO_OK, 0))
        goto ft;
    return ok;
    /* Progress in the loop: [0, i) plus the block's (k), and the 16-byte head
       (the first block may start inside it). */
fl:
    AO_LAUNDER(i);
    return altmem__uaccess_bytes(d, 0, n, MAX(i + k, 16), 1);
    /* In the tail: the prefix [0, max(i, 16)) and the tail's own, from n - 64. */
ft:
    AO_LAUNDER(i);
    return altmem__uaccess_bytes(d, 0, n, MAX(MAX(i, 16), n - 64 + k), 1);
f8:
    return altmem__uaccess_bytes(d, 0, n, 8, 1);
f0:
    return altmem__uaccess_bytes(d, 0, n, 0, 1);
first_use:
    return altmem__clear_user_first(dst, n, altmem_clear_user_ual);
}
