/*
 * memset_sse2 — 16-byte SSE2 vectors (features UAL, SIMD128).
 *
 * Assumptions:
 *   - SSE2, which every x86_64 CPU has: no compiler flag needed.
 *   - Unaligned stores are single, fast instructions (UAL).
 *   - Sizes up to 128: overlapping stores from both ends (up to 4 vectors from
 *     each end); above, inline, a 16-aligned 64-byte loop between a first
 *     block of one unaligned and three aligned vectors and a last block of
 *     three aligned and one unaligned (x86_vec_set.h, vset_loop_inline; it
 *     replaced 8 vectors from each end at (192, 256]: 224-256 B misaligned
 *     0.76-0.88 -> 1.15-1.29x glibc 2.41 on Intel 6/207); the older loop out
 *     of line above rep stosb's stop.  2 and 3 bytes are stored from the byte
 *     itself.  Layout as glibc's sse2 memset (-fno-reorder-blocks, x86_vec.h
 *     vset_entry: no class takes more taken jumps, scripts/small-cost.sh).
 *   - rep stosb from the policy's 16-byte start up to its 16-byte stop (3/4 of
 *     the L3 on Zen 4) or memset's non-temporal threshold, the loop between
 *     them (src/policy.c: the per-CPU rules, ALTMEM_TUNABLES
 *     rep_stosb_threshold; never on a CPU without ERMS).
 */
#define VEC_BITS 128
/* The byte spread over the vector (movd and three shuffles) before the first
   test, as glibc's sse2 memset does: sunk into each class, its latency came
   after the tests (48-64 B 0.96-0.99 -> 1.04-1.14x glibc 2.41 idle and
   loaded, 2-4 KiB -0.01..-0.03, Intel 6/167; the 32-byte variants lost by it:
   docs/perf/intel-family6-model167.md). */
#define VSET_SPREAD_FIRST 1
#include "x86_vec.h"

#define ERMS_MIN altmem__rep_stosb_start[0] /* below: the vector loop wins (src/policy.c) */

/* From the policy's limit up (rep stosb, streaming): out of line, so that
   the classes and the inline loop need no registers saved or copied on entry. */
static __attribute__((noinline)) void *large(void *dst, int c, size_t n)
{
    return vset_large(dst, c, n, &ERMS_MIN); /* x86_vec.h: the loop, rep stosb, streaming */
}

ENTRY_ALIGNED(altmem_memset_sse2, 1024);
void *altmem_memset_sse2(void *dst, int c, size_t n)
{
    RETURN_VALUE_IN_RAX(dst);
    return vset_entry(dst, c, n, large, &altmem__memset_loop_below[0]);    /* the classes: x86_vec.h, vset_entry */
}
