/*
 * memset_avx2 — 32-byte AVX2 vectors (features UAL, SIMD256).
 *
 * Assumptions:
 *   - AVX2, with the OS saving the YMM state (SIMD256).  Built with -mavx2:
 *     this file only; the rest of the library stays baseline x86_64.
 *   - Unaligned stores are single, fast instructions (UAL).
 *   - Sizes up to 256: overlapping stores from both ends; above, a 32-aligned
 *     128-byte loop between an unaligned first vector and unaligned last 128.
 *   - rep stosb from the policy's 32-byte start up to memset's non-temporal
 *     threshold (src/policy.c: the per-CPU rules, ALTMEM_TUNABLES
 *     rep_stosb_threshold; never on a CPU without ERMS).
 */
#define VEC_BITS 256
#include "x86_vec.h"

#define ERMS_MIN altmem__rep_stosb_start[1] /* below: the vector loop wins (src/policy.c) */

/* The sizes that loop: kept out of line, so that the small classes above need
   no registers saved or copied on entry. */
static __attribute__((noinline)) void *large(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    __m128i x = set_c(c);
    if (likely(n < ERMS_MIN) && n < altmem__memset_nt_threshold)  /* nt_threshold=0: every loop streams */
        vset_loop(d, vspread(x), n);     /* (256, ERMS_MIN): 128 B loop        */
    else if (n < altmem__memset_nt_threshold)
        rep_stosb(d, c, n);             /* [ERMS_MIN, nt): rep stosb          */
    else
        vset_nt(d, vspread(x), n);       /* [nt, ...): streaming stores        */
    return dst;
}

void *altmem_memset_avx2(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    __m128i x = set_c(c);
    RETURN_VALUE_IN_RAX(dst);
    if (unlikely(n < 32)) {
        x = spread16(x);
        if (n >= 16)
            set_ht16(d, x, n);              /* [16, 32): 16 + 16               */
        else
            set_lt16(d, x, c, n);            /* [0, 16): 8+8, 4+4, 2+2 or 1 byte */
    } else if (likely(n <= 64)) {
        vset_ht1(d, vspread(x), n);         /* [32, 64]: 32 + 32               */
    } else if (unlikely(n > 256)) {
        return large(d, c, n);              /* (256, ...): below               */
    } else if (n <= 128) {
        vset_ht2(d, vspread(x), n);         /* (64, 128]: 2 x 32 from each end */
    } else {
        vset_ht4(d, vspread(x), n);         /* (128, 256]: 4 x 32 from each end */
    }
    return dst;
}
