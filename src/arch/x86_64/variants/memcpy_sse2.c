/*
 * memcpy_sse2 — 16-byte SSE2 vectors (features UAL, SIMD128).
 *
 * Assumptions:
 *   - SSE2, which every x86_64 CPU has: no compiler flag needed.
 *   - Unaligned loads and stores are single, fast instructions (UAL).
 *   - The building blocks (x86_vec.h) load every byte of a size class up to
 *     128 before storing any, and the loops store 16-aligned.
 *   - rep movsb from the policy's 16-byte start up to the non-temporal
 *     threshold,
 *     not where (dst - src) mod 4096 is in 1..the policy's short distance
 *     (src/policy.c: the per-CPU rules, ALTMEM_TUNABLES; never on a CPU
 *     without ERMS).
 */
#define VEC_BITS 128
#include "x86_vec.h"

#define ERMS_MIN altmem__rep_movsb_start[0] /* below: the vector loop wins (src/policy.c) */

/* The sizes that loop: kept out of line, so that the small classes above need
   no registers saved or copied on entry. */
static __attribute__((noinline)) void *large(void *__restrict dst, const void *__restrict src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (n >= altmem__nt_threshold)
        vcopy_fwd_nt(d, s, n);          /* [nt, ...): streaming stores        */
    else if (n >= ERMS_MIN && !movsb_short_distance(d, s))
        rep_movsb(d, s, n);             /* [ERMS_MIN, nt): rep movsb          */
    else
        vcopy_fwd(d, s, n);             /* (128, ERMS_MIN), short distance: 64 B loop */
    return dst;
}

void *altmem_memcpy_sse2(void *__restrict dst, const void *__restrict src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    RETURN_VALUE_IN_RAX(dst);
    if (unlikely(n < 16)) {
        copy_lt16(d, s, n);                 /* [0, 16): 8+8, 4+4, 2+2 or 1 byte */
    } else if (likely(n <= 32)) {
        vcopy_ht1(d, s, n);                 /* [16, 32]: 16 + 16               */
    } else if (unlikely(n > 128)) {
        return large(d, s, n);              /* (128, ...): below               */
    } else if (n <= 64) {
        vcopy_ht2(d, s, n);                 /* (32, 64]: 2 x 16 from each end  */
    } else {
        vcopy_ht4(d, s, n);                 /* (64, 128]: 4 x 16 from each end */
    }
    return dst;
}
