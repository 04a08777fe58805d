/*
 * clear_user_avx2 — fault-tolerant zeroing with 32-byte AVX2 stores (x86_64),
 * laid out like memset_avx2.
 *
 * Assumptions:
 *   - AVX2 with OS support (SIMD256) and fast unaligned access (UAL); rep stosb
 *     from the policy's 32-byte start to memset's non-temporal threshold, as
 *     memset_avx2 (src/policy.c; never on a CPU without ERMS).  This file alone
 *     is built with -mavx2; it clears the upper state (vzeroupper) before
 *     returning.
 *   - Every store is an extable accessor; stores go in ascending order and each
 *     fault label knows the progress (every byte below it zeroed, none above), so
 *     the fix-up goes on from there byte by byte for the exact count.
 * Size classes (ua_x86_vec.h): < 16 scalars, [16, 32) 16 + 16, [32, 64] 32 + 32,
 * (64, 256] 2 or 4 vectors from each end, all inline (as memcpy_avx2); above,
 * out of line, an unaligned first 64 bytes, a 64-aligned 128-byte loop
 * (non-temporal from the threshold), the last 128 bytes; or rep stosb.
 */
#define UA_W 32
#include "ua_x86_vec.h"

NOINL size_t large(uintptr_t d, size_t n) { return cl_large(d, n); }

ENTRY_ALIGNED(altmem_clear_user_avx2, 2048); /* over 1 KiB (entry_pages) */
size_t altmem_clear_user_avx2(void *dst, size_t n) { return cl_small((uintptr_t)dst, n, NULL, large, altmem_clear_user_avx2); }
