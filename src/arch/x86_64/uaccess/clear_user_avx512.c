/*
 * clear_user_avx512 — fault-tolerant zeroing with 64-byte AVX-512 stores
 * (x86_64), laid out like memset_avx512.
 *
 * Assumptions:
 *   - AVX-512 F, BW and VL with OS support (SIMD512) and fast unaligned access
 *     (UAL); rep stosb from the policy's 64-byte start to memset's non-temporal
 *     threshold, as memset_avx512 (src/policy.c; never on a CPU without ERMS).
 *     Built with the flags of memset_avx512 (this file only): GCC keeps it to
 *     xmm/ymm/zmm16-31, no vzeroupper.
 *   - Every store is an extable accessor; stores go in ascending order and each
 *     fault label knows the progress (every byte below it zeroed, none above), so
 *     the fix-up goes on from there byte by byte for the exact count.
 * Size classes (ua_x86_vec.h): < 16 scalars, [16, 32) 16 + 16, [32, 64) 32 + 32,
 * [64, 128] 64 + 64 inline; (128, 512] 2 or 4 vectors from each end; above, a
 * 64-aligned 256-byte loop (non-temporal from the threshold) or rep stosb.
 */
#define UA_W 64
#include "ua_x86_vec.h"

NOINL size_t large(uintptr_t d, size_t n) { return cl_large(d, n); }
NOINL size_t mid(uintptr_t d, size_t n) { return cl_mid(d, n, large); }

ENTRY_ALIGNED(altmem_clear_user_avx512, 1024);
size_t altmem_clear_user_avx512(void *dst, size_t n) { return cl_small((uintptr_t)dst, n, mid, large, altmem_clear_user_avx512); }
