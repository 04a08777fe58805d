/*
 * memmove_avx2 — 32-byte AVX2 vectors (features UAL, SIMD256).
 *
 * Assumptions:
 *   - AVX2, with the OS saving the YMM state (SIMD256).  Built with -mavx2:
 *     this file only; the rest of the library stays baseline x86_64.
 *   - Unaligned loads and stores are single, fast instructions (UAL).
 *   - Up to 256 bytes every byte is loaded before any is stored (x86_vec.h), so
 *     overlap needs no test; above, the direction follows the overlap, and each
 *     128-byte block is loaded before it is stored.
 *   - rep movsb as memcpy_avx2, for forward moves whose source is apart from or
 *     at least 64 bytes ahead of the destination (src/policy.c): rep movsb
 *     is defined byte by byte forward, so any forward overlap is exact; below
 *     64 bytes apart it leaves its fast mode (Intel SDM vol. 3, "Out-of-Order
 *     Stores For String Operations"; glibc 2.36 keeps the same 64-byte cut).
 */
#include <stdint.h>

#define VEC_BITS 256
#include "x86_vec.h"

#define ERMS_MIN altmem__rep_movsb_start[1] /* below: the vector loop wins (src/policy.c) */

/* The sizes that loop: kept out of line, so that the small classes above need
   no registers saved or copied on entry. */
static __attribute__((noinline)) void *large(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    uintptr_t fwd = (uintptr_t)d - (uintptr_t)s, bwd = (uintptr_t)s - (uintptr_t)d;
    /* The common case first, falling through (the blocks stay in source order,
       src/CMakeLists.txt): dst not inside the source, below the rep movsb and
       streaming starts.  Behind the tests below it took two taken jumps more
       than memcpy's large(): sse2 memmove 0.86-0.90x glibc's at 384-768 B where
       memcpy was 0.96-1.09x (docs/perf/intel-family6-model167.md). */
    if (__builtin_expect(fwd >= n && n < ERMS_MIN && n < altmem__nt_threshold, 1)) {
        vcopy_fwd(d, s, n);
        return dst;
    }
    if (fwd < n && (n < altmem__nt_threshold || fwd < 4096))
        vcopy_bwd(d, s, n);             /* dst inside (src, src+n): backward  */
    else if (fwd < n)
        vcopy_bwd_nt(d, s, n);          /* [nt, ...), dst 4 KiB+ above src: backward, streaming */
    else if (n >= altmem__nt_threshold && bwd >= NT_MIN_AHEAD)
        vcopy_fwd_nt(d, s, n);          /* [nt, ...), src 16 KiB+ ahead or apart: streaming */
    else if (bwd < 64 || n < ERMS_MIN || movsb_short_distance(d, s))
        vcopy_fwd(d, s, n);             /* dst < src within a page, small, short distance */
    else
        rep_movsb(d, s, n);             /* from ERMS_MIN, src 64 B+ ahead or apart: rep movsb */
    return dst;
}

void *altmem_memmove_avx2(void *dst, const void *src, size_t n)
{
    RETURN_VALUE_IN_RAX(dst);
    return vcopy_entry(dst, src, n, large); /* the classes: x86_vec.h, vcopy_entry */
}
