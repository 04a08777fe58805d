/*
 * memset_erms — memset_sse2, with rep stosb in the size range where it
 * measurably beats the SSE2 loop (features UAL, SIMD128, ERMS).
 *
 * Assumptions:
 *   - As memset_sse2 (SSE2, the x86_64 baseline: no compiler flag).
 *   - rep stosb from 2 KiB, where the 16-byte loop is already the slower
 *     (docs/performance.md).
 */
#define VEC_BITS 128
#include "x86_vec.h"

#define ERMS_MIN altmem__rep_stosb_start[0] /* below: the vector loop wins (src/policy.c) */

/* The sizes that loop: kept out of line, so that the small classes above need
   no registers saved or copied on entry. */
static __attribute__((noinline)) void *large(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    __m128i x = set_c(c);
    if (likely(n < ERMS_MIN) && n < altmem__memset_nt_threshold)  /* nt_threshold=0: every loop streams */
        vset_loop(d, vspread(x), n);     /* (128, ERMS_MIN): 64 B loop         */
    else if (n < altmem__memset_nt_threshold)
        rep_stosb(d, c, n);             /* [ERMS_MIN, nt): rep stosb          */
    else
        vset_nt(d, vspread(x), n);       /* [nt, ...): streaming stores        */
    return dst;
}

void *altmem_memset_erms(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    __m128i x = set_c(c);
    RETURN_VALUE_IN_RAX(dst);
    if (unlikely(n < 16)) {
        set_lt16(d, spread16(x), c, n);      /* [0, 16): 8+8, 4+4, 2+2 or 1 byte */
    } else if (likely(n <= 32)) {
        vset_ht1(d, vspread(x), n);         /* [16, 32]: 16 + 16               */
    } else if (unlikely(n > 128)) {
        return large(d, c, n);              /* (128, ...): below               */
    } else if (n <= 64) {
        vset_ht2(d, vspread(x), n);         /* (32, 64]: 2 x 16 from each end  */
    } else {
        vset_ht4(d, vspread(x), n);         /* (64, 128]: 4 x 16 from each end */
    }
    return dst;
}
