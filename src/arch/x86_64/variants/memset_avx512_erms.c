/*
 * memset_avx512_erms — memset_avx512, with rep stosb from 4 KiB to the
 * non-temporal threshold, where it measurably beats the AVX-512 loop (features
 * UAL, SIMD512, ERMS).
 *
 * Assumptions:
 *   - AVX-512 F, BW and VL, with the OS saving the ZMM and opmask state
 *     (SIMD512).  One byte-masked store (BW) for sizes below 64, only where
 *     the 64 bytes stay inside dst's page: a masked access reaching into the
 *     next page takes a ~100 ns microcode assist here, mapped or not (checked
 *     as glibc 2.36 does; near a page's end the unmasked classes run instead).
 *     Measured against the unmasked 8+8/4+4/2+2/1 classes: 0-31 B 1.43-1.75 ns
 *     -> 1.30 ns (glibc 1.30), one taken branch as for glibc.  Built with -mavx512f -mavx512vl -mavx512bw, this file only; GCC also
 *     keeps it to xmm/ymm/zmm16-31, so it returns without vzeroupper.
 *   - Unaligned stores are single, fast instructions (UAL).
 *   - Sizes up to 512: overlapping stores from both ends; (512, 4 KiB): a
 *     64-aligned 256-byte loop; [4 KiB, nt): rep stosb, which on the machine
 *     of docs/performance.md matches glibc's (also rep stosb there) where the
 *     loop ran at 0.83-0.96x from 768 KiB to 16 MiB; [nt, ...): streaming.
 */
#define VEC_BITS 512
#include "x86_vec.h"

#define ERMS_MIN altmem__rep_stosb_start[2] /* below: the vector loop wins (src/policy.c) */

/* The sizes that loop: kept out of line, so that the small classes above need
   no registers saved or copied on entry. */
static __attribute__((noinline)) void *large(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    __m128i x = set_c(c);
    if (likely(n < ERMS_MIN) && n < altmem__memset_nt_threshold)  /* nt_threshold=0: every loop streams */
        vset_loop(d, vspread(x), n);     /* (512, 4 KiB): 256 B loop, dst 64-aligned */
    else if (n < altmem__memset_nt_threshold)
        rep_stosb(d, c, n);              /* [4 KiB, nt): rep stosb             */
    else
        vset_nt(d, vspread(x), n);       /* [nt, ...): streaming stores        */
    return dst;
}

#define AVX512_ENTRY altmem_memset_avx512_erms
#include "avx512_set_classes.h"
