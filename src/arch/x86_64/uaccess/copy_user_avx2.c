/*
 * copy_user_avx2 — fault-tolerant copy with 32-byte AVX2 vectors (x86_64), laid
 * out like memcpy_avx2.
 *
 * Assumptions:
 *   - AVX2 with OS support (SIMD256) and fast unaligned access (UAL); rep movsb
 *     from the policy's 32-byte start to the non-temporal threshold, not at its
 *     short (dst - src) mod 4096 distances, as memcpy_avx2 (src/policy.c; never
 *     on a CPU without ERMS).  This file alone is built with -mavx2; it clears
 *     the upper state (vzeroupper) before returning.
 *   - src and dst do not overlap.  Every access is an extable accessor; every
 *     size class loads before it stores and stores in ascending order, and each
 *     fault label knows the progress (every byte below it stored, none above), so
 *     the fix-up goes on from there byte by byte for the exact count.
 * Size classes (ua_x86_vec.h): < 16 scalars, [16, 32) 16 + 16, [32, 64] 32 + 32,
 * (64, 256] 2 or 4 vectors from each end, all inline (as memcpy_avx2); above,
 * out of line, an unaligned first 64 bytes, a 64-aligned 128-byte loop
 * (non-temporal from the threshold), the last 128 bytes; or rep movsb.
 */
#define UA_W 32
#include "ua_x86_vec.h"

NOINL size_t large(uintptr_t d, uintptr_t s, size_t n) { return cu_large(d, s, n); }

ENTRY_ALIGNED(altmem_copy_user_avx2, 2048); /* over 1 KiB since 95e4119 (entry_pages) */
size_t altmem_copy_user_avx2(void *dst, const void *src, size_t n)
{
    return cu_small((uintptr_t)dst, (uintptr_t)src, n, NULL, large, altmem_copy_user_avx2);
}
