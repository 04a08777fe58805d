/*
 * copy_user_avx2 — fault-tolerant copy with 32-byte AVX2 blocks (x86_64).
 *
 * Assumptions:
 *   - AVX2 with OS support (SIMD256) and fast unaligned access (UAL); this file
 *     alone is built with -mavx2.  Every access is an extable accessor.
 *   - src and dst do not overlap.  Each block is loaded before it is stored and
 *     blocks are stored in ascending order, so when an access faults nothing at
 *     or past the first inaccessible byte has been written; the fix-up redoes the
 *     copy byte by byte for the exact count (altmem__uaccess_bytes).
 * Size classes: [0,32] copy_user_ual's two overlapping accesses; (32,64] head 32
 * + tail 32; above, 32 unaligned bytes, then 128-byte blocks stored 32-aligned,
 * then 32-byte blocks, then the last 32 bytes (overlapping).
 */
#include <immintrin.h>

#include "../variants/variants.h"
#include "extable.h"

#define LD32B(v, p, L)                                                                   \
    __asm__ goto("1:\tvmovdqu %[mem], %[val]\n\t" UA_EXTABLE("1b", "%l[" #L "]")        \
                 : [val] "=x"(v) : [mem] "m"(*(const volatile __m256i_u *)(p)) : : L)
#define ST32B(p, v, L)                                                                   \
    __asm__ goto("1:\tvmovdqu %[val], %[mem]\n\t" UA_EXTABLE("1b", "%l[" #L "]")        \
                 : : [mem] "m"(*(volatile __m256i_u *)(p)), [val] "x"(v) : "memory" : L)

size_t altmem_copy_user_avx2(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    /* [0, 32]: the scalar classes. */
    if (n <= 32)
        return altmem_copy_user_ual(dst, src, n);
    __m256i a, b, c, e;
    if (n <= 64) {              /* (32, 64]: head 32 + tail 32 */
        LD32B(a, s, fault);
        LD32B(b, s + n - 32, fault);
        ST32B(d, a, fault);
        ST32B(d + n - 32, b, fault);
        _mm256_zeroupper();
        return 0;
    }
    /* Head: 32 unaligned bytes; continue where dst is 32-aligned. */
    LD32B(a, s, fault);
    ST32B(d, a, fault);
    size_t i = 32 - ((uintptr_t)d & 31);
    /* Body: 128 bytes per iteration, loaded before stored. */
    for (; i + 128 <= n; i += 128) {
        LD32B(a, s + i, fault);
        LD32B(b, s + i + 32, fault);
        LD32B(c, s + i + 64, fault);
        LD32B(e, s + i + 96, fault);
        ST32B(d + i, a, fault);
        ST32B(d + i + 32, b, fault);
        ST32B(d + i + 64, c, fault);
        ST32B(d + i + 96, e, fault);
    }
    /* Tail: 32-byte blocks, then the last 32 bytes (overlapping). */
    for (; i + 32 <= n; i += 32) {
        LD32B(a, s + i, fault);
        ST32B(d + i, a, fault);
    }
    if (i < n) {
        LD32B(a, s + n - 32, fault);
        ST32B(d + n - 32, a, fault);
    }
    _mm256_zeroupper();
    return 0;
fault:
    _mm256_zeroupper();
    return altmem__uaccess_bytes(dst, src, n, 0);
}
