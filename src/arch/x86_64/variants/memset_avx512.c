/*
 * memset_avx512 — 64-byte AVX-512 vectors (features UAL, SIMD512).
 *
 * Assumptions:
 *   - AVX-512 F, BW and VL, with the OS saving the ZMM and opmask state
 *     (SIMD512).  One byte-masked store (BW) for sizes up to 64, only where
 *     the 64 bytes stay inside dst's page, and for the partial first or last
 *     line of a loop whose ends would cross a page (inside that line): a masked access reaching into the
 *     next page takes a microcode assist, mapped or not (checked as glibc 2.36
 *     does; near a page's end the unmasked classes run instead).  Why the
 *     masked store, with the figures: docs/perf/variant-figures.md.  Built
 *     with -mavx512f -mavx512vl -mavx512bw, this file only; GCC also keeps it
 *     to xmm/ymm/zmm16-31, so it returns without vzeroupper.
 *   - Unaligned stores are single, fast instructions (UAL).
 *   - Sizes up to 512: overlapping stores from both ends; above, a 64-aligned
 *     256-byte loop between an unaligned first vector (none at an aligned
 *     dst) and unaligned last 256; where the first vector or one of the last
 *     four would cross a page, aligned lines between two masked partial lines
 *     (x86_vec.h, vset_pieces).
 *   - rep stosb from the policy's 64-byte start up to memset's non-temporal
 *     threshold (src/policy.c: the per-CPU rules, ALTMEM_TUNABLES
 *     rep_stosb_threshold; never on a CPU without ERMS).
 */
#define VEC_BITS 512
#include "x86_vec.h"

#define ERMS_MIN altmem__rep_stosb_start[2] /* below: the vector loop wins (src/policy.c) */

/* The sizes that loop: kept out of line, so that the small classes above need
   no registers saved or copied on entry. */
static __attribute__((noinline)) void *large(void *dst, int c, size_t n)
{
    return vset_large(dst, c, n, &ERMS_MIN); /* x86_vec.h: the loop, rep stosb, streaming */
}

/* Its name: the _halves build (memset_avx512_halves.c) gives its own. */
#ifndef MEMSET_AVX512_ENTRY
#define MEMSET_AVX512_ENTRY altmem_memset_avx512
#endif

ENTRY_ALIGNED(MEMSET_AVX512_ENTRY, 1024);
void *MEMSET_AVX512_ENTRY(void *dst, int c, size_t n)
{
    return vset_entry_512(dst, c, n, large, &altmem__memset_loop_below[2]); /* the classes: x86_vec.h */
}
