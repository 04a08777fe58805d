/*
 * copy_user_avx512 — fault-tolerant copy with 64-byte AVX-512 vectors (x86_64),
 * laid out like memcpy_avx512.
 *
 * Assumptions:
 *   - AVX-512 F, BW and VL with OS support (SIMD512) and fast unaligned access
 *     (UAL); rep movsb from the policy's 64-byte start to the non-temporal
 *     threshold, not at its short (dst - src) mod 4096 distances, as
 *     memcpy_avx512 (src/policy.c; never on a CPU without ERMS); from the
 *     streaming threshold, where the policy hands memcpy_avx512's streaming
 *     to the 32-byte variant (Zen 5), copy_user_avx2 takes the copy, before
 *     anything is stored.  Built with
 *     the flags of memcpy_avx512 (this file only): GCC keeps it to
 *     xmm/ymm/zmm16-31, so it returns without vzeroupper.
 *   - src and dst do not overlap.  Every access is an extable accessor; every
 *     size class loads before it stores and stores in ascending order, and each
 *     fault label knows the progress (every byte below it stored, none above), so
 *     the fix-up goes on from there byte by byte for the exact count.
 * Size classes (ua_x86_vec.h): < 16 scalars, [16, 32) 16 + 16, [32, 64) 32 + 32,
 * [64, 128] 64 + 64, (128, 256] 2 x 64 from each end inline; (256, 512] 4 x 64
 * from each end out of line; above, a 64-aligned 256-byte loop (non-temporal
 * from the threshold) or rep movsb.
 */
#define UA_W 64
#include "ua_x86_vec.h"

NOINL size_t large(uintptr_t d, uintptr_t s, size_t n) { return cu_large(d, s, n); }
NOINL size_t mid(uintptr_t d, uintptr_t s, size_t n) { return cu_mid(d, s, n, large, 1); }

ENTRY_ALIGNED(altmem_copy_user_avx512, 1024);
size_t altmem_copy_user_avx512(void *dst, const void *src, size_t n)
{
    return cu_small((uintptr_t)dst, (uintptr_t)src, n, mid, large, altmem_copy_user_avx512);
}
