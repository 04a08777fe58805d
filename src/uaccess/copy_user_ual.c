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
 * Size classes: [0,16] two overlapping accesses of the largest fitting width;
 * (16,64] 16-byte blocks and an overlapping last block; above, the first 16 bytes
 * unaligned, then 64-byte blocks stored 16-aligned, then as before.
 */
#include "../variants/variants.h"
#include "extable.h"

#if defined(__x86_64__)
#include <emmintrin.h>
/* 16-byte blocks through SSE2 registers (baseline on x86_64).  A block is one
   store: L8 (the fault label of its second half elsewhere) is never taken. */
#define BLOCK16(v) __m128i v
#define LD16B(v, p, L) UA_VLD16(v, p, L)
#define ST16B(p, v, L, L8)                                                               \
    __asm__ goto("1:\tmovdqu %[val], %[mem]\n\t" UA_EXTABLE("1b", "%l[" #L "]")         \
                 : : [mem] "m"(*(__m128i_u *)(p)), [val] "x"(v) : "memory" : L, L8)
#else
/* Elsewhere a 16-byte block is two 8-byte words (two scalars, not a struct:
   GCC 12 for aarch64 crashes splitting a struct that asm goto writes); a fault
   on the second word goes to L8, where the first is known to be stored. */
#define BLOCK16(v) uint64_t v##_lo, v##_hi
#define LD16B(v, p, L)                                                                   \
    do {                                                                                 \
        UA_LD64(v##_lo, (p), L);                                                         \
        UA_LD64(v##_hi, (p) + 8, L);                                                     \
    } while (0)
#define ST16B(p, v, L, L8)                                                               \
    do {                                                                                 \
        UA_ST64((p), v##_lo, L);                                                         \
        UA_ST64((p) + 8, v##_hi, L8);                                                    \
    } while (0)
#endif

#define MAX altmem__ua_max

size_t altmem_copy_user_ual(void *dst, const void *src, size_t n)
{
    const uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;

    /* First use: install the fault handler (extable.h). */
    if (UA_NOT_INSTALLED())
        goto first_use;
    if (n <= 16) {
        if (n >= 8) {           /* [8, 16] */
            uint64_t a, z;
            UA_LD64(a, s, f0);
            UA_LD64(z, s + n - 8, f0);
            UA_ST64(d, a, f0);
            UA_ST64(d + n - 8, z, f8);
        } else if (n >= 4) {    /* [4, 7] */
            uint32_t a, z;
            UA_LD32(a, s, f0);
            UA_LD32(z, s + n - 4, f0);
            UA_ST32(d, a, f0);
            UA_ST32(d + n - 4, z, f4);
        } else if (n >= 2) {    /* [2, 3] */
            uint16_t a, z;
            UA_LD16(a, s, f0);
            UA_LD16(z, s + n - 2, f0);
            UA_ST16(d, a, f0);
            UA_ST16(d + n - 2, z, f2);
        } else if (n == 1) {    /* 1 */
            uint8_t a;
            UA_LD8(a, s, f0);
            UA_ST8(d, a, f0);
        }
        return 0;
    }

    size_t i = 0;
    if (n > 64) {
        /* Head: 16 unaligned bytes, then continue where dst is 16-aligned
           (the next block rewrites part of the head with the same bytes). */
        BLOCK16(h);
        LD16B(h, s, f0);
        ST16B(d, h, f0, f8);
        i = 16 - (d & 15);
        /* Body: 64 bytes per iteration, loaded before stored. */
        for (; i + 64 <= n; i += 64) {
            BLOCK16(a);
            BLOCK16(b);
            BLOCK16(c);
            BLOCK16(e);
            LD16B(a, s + i, fi);
            LD16B(b, s + i + 16, fi);
            LD16B(c, s + i + 32, fi);
            LD16B(e, s + i + 48, fi);
            ST16B(d + i, a, fi, fi8);
            ST16B(d + i + 16, b, fi16, fi24);
            ST16B(d + i + 32, c, fi32, fi40);
            ST16B(d + i + 48, e, fi48, fi56);
        }
    }
    /* Tail: 16-byte blocks, then the last 16 bytes (overlapping). */
    for (; i + 16 <= n; i += 16) {
        BLOCK16(a);
        LD16B(a, s + i, fi);
        ST16B(d + i, a, fi, fi8);
    }
    if (i < n) {
        BLOCK16(z);
        LD16B(z, s + n - 16, fi);
        ST16B(d + n - 16, z, fi, fn8);
    }
    return 0;
    /* Progress: [0, i) plus the words stored before the fault, and the 16-byte
       head when there was one (the first block may start inside it). */
fi56:
    i += 8;
fi48:
    i += 8;
fi40:
    i += 8;
fi32:
    i += 8;
fi24:
    i += 8;
fi16:
    i += 8;
fi8:
    i += 8;
fi:
    return altmem__uaccess_bytes(d, s, n, MAX(i, n > 64 ? 16 : 0), 0);
fn8:
    return altmem__uaccess_bytes(d, s, n, MAX(i, n - 8), 0);
f8:
    return altmem__uaccess_bytes(d, s, n, 8, 0);
f4:
    return altmem__uaccess_bytes(d, s, n, 4, 0);
f2:
    return altmem__uaccess_bytes(d, s, n, 2, 0);
f0:
    return altmem__uaccess_bytes(d, s, n, 0, 0);
first_use:
    return altmem__copy_user_first(dst, src, n, altmem_copy_user_ual);
}
