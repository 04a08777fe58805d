/*
 * memcpy_avx512_erms — memcpy_avx512, with rep movsb from 32 KiB (16 KiB when
 * src and dst are equally aligned) to the
 * non-temporal threshold, where it measurably beats the
 * AVX-512 loop (features UAL, SIMD512, ERMS).
 *
 * Assumptions:
 *   - AVX-512 F, BW and VL, with the OS saving the ZMM and opmask state
 *     (SIMD512); F and VL instructions only (no byte masks: a masked access
 *     that crosses into the next page takes a ~100 ns microcode assist here,
 *     mapped or not).  Built with -mavx512f -mavx512vl -mavx512bw, this file only; GCC also
 *     keeps it to xmm/ymm/zmm16-31, so it returns without vzeroupper.
 *   - Unaligned loads and stores are single, fast instructions (UAL).
 *   - rep movsb from 32 KiB (data no longer in L1d): on the machine of
 *     docs/performance.md it ran 5-8% faster than the loop there with src and
 *     dst equally aligned and at the same speed otherwise, while below 32 KiB
 *     the loop was as fast or, misaligned, up to 15% faster.  With src and dst
 *     equally aligned (mod 64) from 16 KiB: 24 KiB 0/0 went 0.85x -> 1.0x glibc
 *     (which uses rep movsb from 8 KiB), 16 KiB the same either way.  Not at the
 *     short (dst - src) mod 4096 distances where rep movsb is slow on Zen 3.
 *   - The building blocks (x86_vec.h) load every byte of a size class up to
 *     512 before storing any, and the loops store 64-aligned (one line each).
 *   - Above 512 bytes, below the rep movsb and streaming sizes, with the
 *     regions apart and (dst - src) mod 4096 below 256, the loop runs backward
 *     (x86_vec.h, alias_4k_ahead); the common forward case is tested first,
 *     every test on the fall-through path.
 */
#define VEC_BITS 512
#include "x86_vec.h"

#define ERMS_MIN altmem__rep_movsb_start[2] /* below: the vector loop wins ... (src/policy.c) */
#define ERMS_MIN_COALIGNED altmem__rep_movsb_start_coaligned /* ... or, src and dst equally aligned, below this */

/* (The fast paths test n < ERMS_MIN_COALIGNED first, which decides most calls
   without looking at the alignment.) */
INL size_t erms_min(const unsigned char *d, const unsigned char *s)
{
    return (((uintptr_t)d ^ (uintptr_t)s) & 63) ? ERMS_MIN : ERMS_MIN_COALIGNED;
}

/* The sizes that loop: kept out of line, so that the small classes above need
   no registers saved or copied on entry. */
static __attribute__((noinline)) void *large(void *__restrict dst, const void *__restrict src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    /* The common case first, every test on the fall-through path (each taken
       branch here measured ~0.3 ns at 600 B-1 KiB). */
    if (likely(n < altmem__nt_threshold) && likely(n < ERMS_MIN_COALIGNED || n < erms_min(d, s)) && !alias_4k_ahead(d, s))
        vcopy_fwd(d, s, n);             /* (512, 16/32 KiB): 256 B loop, dst 64-aligned */
    else if (n < altmem__nt_threshold && n < erms_min(d, s))
        vcopy_bwd(d, s, n);             /* (512, 16/32 KiB), dst just above src mod 4 KiB: backward */
    else if (n < altmem__nt_threshold && !movsb_short_distance(d, s))
        rep_movsb(d, s, n);             /* [16/32 KiB, nt): rep movsb         */
    else if (n < altmem__nt_threshold)
        vcopy_fwd(d, s, n);             /* [16/32 KiB, nt), (dst - src) mod 4 KiB in 1..63: loop */
    else
        vcopy_fwd_nt(d, s, n);          /* [nt, ...): streaming stores        */
    return dst;
}

#define AVX512_ENTRY altmem_memcpy_avx512_erms
#define AVX512_RESTRICT __restrict
#include "avx512_copy_classes.h"
