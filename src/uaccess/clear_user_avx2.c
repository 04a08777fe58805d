/*
 * clear_user_avx2 — fault-tolerant zeroing with 32-byte AVX2 stores (x86_64).
 *
 * Assumptions:
 *   - AVX2 with OS support (SIMD256) and fast unaligned access (UAL); this file
 *     alone is built with -mavx2.  Every store is an extable accessor.
 *   - Stores go in ascending address order (an overlapping store only rewrites
 *     zeros below it), so a fault leaves nothing written at or past the first
 *     inaccessible byte; the fix-up redoes it byte by byte for the exact count.
 * Size classes: [0,32] clear_user_ual; (32,64] head 32 + tail 32; above, 32
 * unaligned bytes, 128-byte blocks stored 32-aligned, 32-byte blocks, the last 32.
 */
#include <immintrin.h>

#include "../variants/variants.h"
#include "extable.h"

#define ST32B(p, v, L)                                                                   \
    __asm__ goto("1:\tvmovdqu %[val], %[mem]\n\t" UA_EXTABLE("1b", "%l[" #L "]")        \
                 : : [mem] "m"(*(volatile __m256i_u *)(p)), [val] "x"(v) : "memory" : L)

size_t altmem_clear_user_avx2(void *dst, size_t n)
{
    unsigned char *d = dst;
    /* [0, 32]: the scalar classes. */
    if (n <= 32)
        return altmem_clear_user_ual(dst, n);
    const __m256i z = _mm256_setzero_si256();
    if (n <= 64) {              /* (32, 64]: head 32 + tail 32 */
        ST32B(d, z, fault);
        ST32B(d + n - 32, z, fault);
        _mm256_zeroupper();
        return 0;
    }
    /* Head: 32 unaligned bytes; continue where dst is 32-aligned. */
    ST32B(d, z, fault);
    size_t i = 32 - ((uintptr_t)d & 31);
    /* Body: 128 bytes per iteration. */
    for (; i + 128 <= n; i += 128) {
        ST32B(d + i, z, fault);
        ST32B(d + i + 32, z, fault);
        ST32B(d + i + 64, z, fault);
        ST32B(d + i + 96, z, fault);
    }
    /* Tail: 32-byte blocks, then the last 32 bytes (overlapping). */
    for (; i + 32 <= n; i += 32)
        ST32B(d + i, z, fault);
    if (i < n)
        ST32B(d + n - 32, z, fault);
    _mm256_zeroupper();
    return 0;
fault:
    _mm256_zeroupper();
    return altmem__uaccess_bytes(dst, NULL, n, 1);
}
