/*
 * copy_user_ual — fault-tolerant copy for CPUs with fast unaligned access (UAL).
 *
 * Assumptions:
 *   - Unaligned 2/4/8-byte (and on x86_64 16-byte SSE2) loads and stores are
 *     single fast instructions; every access is an extable accessor.
 *   - src and dst do not overlap.
 *   - Every block is loaded before it is stored and blocks are stored in
 *     ascending order, so when an access faults no byte at or past the first
 *     inaccessible one has been written; the fix-up then redoes the copy byte by
 *     byte and returns the exact count (altmem__uaccess_bytes).
 * Size classes: [0,16] two overlapping accesses of the largest fitting width;
 * (16,64] 16-byte blocks and an overlapping last block; above, the first 16 bytes
 * unaligned, then 64-byte blocks stored 16-aligned, then as before.
 */
#include "../variants/variants.h"
#include "extable.h"

#if defined(__x86_64__)
#include <emmintrin.h>
/* 16-byte blocks through SSE2 registers (baseline on x86_64). */
#define BLOCK16(v) __m128i v
#define LD16B(v, p, L)                                                                   \
    __asm__ goto("1:\tmovdqu %[mem], %[val]\n\t" UA_EXTABLE("1b", "%l[" #L "]")         \
                 : [val] "=x"(v) : [mem] "m"(*(const volatile __m128i_u *)(p)) : : L)
#define ST16B(p, v, L)                                                                   \
    __asm__ goto("1:\tmovdqu %[val], %[mem]\n\t" UA_EXTABLE("1b", "%l[" #L "]")         \
                 : : [mem] "m"(*(volatile __m128i_u *)(p)), [val] "x"(v) : "memory" : L)
#else
/* Elsewhere a 16-byte block is two 8-byte words (two scalars, not a struct:
   GCC 12 for aarch64 crashes splitting a struct that asm goto writes). */
#define BLOCK16(v) uint64_t v##_lo, v##_hi
#define LD16B(v, p, L)                                                                   \
    do {                                                                                 \
        UA_LD64(v##_lo, (p), L);                                                         \
        UA_LD64(v##_hi, (p) + 8, L);                                                     \
    } while (0)
#define ST16B(p, v, L)                                                                   \
    do {                                                                                 \
        UA_ST64((p), v##_lo, L);                                                         \
        UA_ST64((p) + 8, v##_hi, L);                                                     \
    } while (0)
#endif

size_t altmem_copy_user_ual(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;

    if (n <= 16) {
        if (n >= 8) {           /* [8, 16] */
            uint64_t a, z;
            UA_LD64(a, s, fault);
            UA_LD64(z, s + n - 8, fault);
            UA_ST64(d, a, fault);
            UA_ST64(d + n - 8, z, fault);
        } else if (n >= 4) {    /* [4, 7] */
            uint32_t a, z;
            UA_LD32(a, s, fault);
            UA_LD32(z, s + n - 4, fault);
            UA_ST32(d, a, fault);
            UA_ST32(d + n - 4, z, fault);
        } else if (n >= 2) {    /* [2, 3] */
            uint16_t a, z;
            UA_LD16(a, s, fault);
            UA_LD16(z, s + n - 2, fault);
            UA_ST16(d, a, fault);
            UA_ST16(d + n - 2, z, fault);
        } else if (n == 1) {    /* 1 */
            uint8_t a;
            UA_LD8(a, s, fault);
            UA_ST8(d, a, fault);
        }
        return 0;
    }

    size_t i = 0;
    if (n > 64) {
        /* Head: 16 unaligned bytes, then continue where dst is 16-aligned
           (the next block rewrites part of the head with the same bytes). */
        BLOCK16(h);
        LD16B(h, s, fault);
        ST16B(d, h, fault);
        i = 16 - ((uintptr_t)d & 15);
        /* Body: 64 bytes per iteration, loaded before stored. */
        for (; i + 64 <= n; i += 64) {
            BLOCK16(a);
            BLOCK16(b);
            BLOCK16(c);
            BLOCK16(e);
            LD16B(a, s + i, fault);
            LD16B(b, s + i + 16, fault);
            LD16B(c, s + i + 32, fault);
            LD16B(e, s + i + 48, fault);
            ST16B(d + i, a, fault);
            ST16B(d + i + 16, b, fault);
            ST16B(d + i + 32, c, fault);
            ST16B(d + i + 48, e, fault);
        }
    }
    /* Tail: 16-byte blocks, then the last 16 bytes (overlapping). */
    for (; i + 16 <= n; i += 16) {
        BLOCK16(a);
        LD16B(a, s + i, fault);
        ST16B(d + i, a, fault);
    }
    if (i < n) {
        BLOCK16(z);
        LD16B(z, s + n - 16, fault);
        ST16B(d + n - 16, z, fault);
    }
    return 0;
fault:
    return altmem__uaccess_bytes(dst, src, n, 0);
}
