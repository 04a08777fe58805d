/*
 * memset_evex — 32-byte vectors with AVX-512's byte-masked stores (features
 * UAL, SIMD512), as glibc's __memset_evex_unaligned_erms.
 *
 * Assumptions:
 *   - AVX-512 F, BW and VL, with the OS saving the ZMM and opmask state
 *     (SIMD512); only 32-byte registers (VEC_BITS 256), so it is not 512-bit
 *     code: bound where a rule keeps the avx512 variants out (intel-avx512-no-vnni,
 *     where glibc binds its evex variants too).  Built with the avx512 flag set
 *     (GCC: registers 16-31 only, no vzeroupper).
 *   - Below 32 bytes one byte-masked 32-byte store, where the 32 bytes stay
 *     inside dst's page (a masked store reaching into the next page takes a
 *     microcode assist, memset_avx512.c); near a page's end, and from 32 bytes
 *     up, the avx2 variant's classes, loop, rep stosb and streaming (x86_vec_set.h),
 *     the loop's sizes (256 B up) in asm (vset_loop_inline: GCC's code for
 *     them was 0.1-0.5 ns slower at 288-512 B).
 *   - Unaligned stores are single, fast instructions (UAL).
 */
#define VEC_BITS 256
#define VEC_EVEX 1
#include "x86_vec.h"

#define ERMS_MIN altmem__rep_stosb_start[1] /* the 32-byte width's (src/policy.c) */

/* From the policy's limit up (rep stosb, streaming): out of line, so that
   the classes and the inline loop need no registers saved or copied on entry. */
static __attribute__((noinline)) void *large(void *dst, int c, size_t n)
{
    return vset_large(dst, c, n, &ERMS_MIN); /* x86_vec.h: the loop, rep stosb, streaming */
}

ENTRY_ALIGNED(altmem_memset_evex, 1024);
void *altmem_memset_evex(void *dst, int c, size_t n)
{
    RETURN_VALUE_IN_RAX(dst);
    return vset_entry(dst, c, n, large, &altmem__memset_loop_below[1]);    /* the classes: x86_vec_set.h, vset_entry (VEC_EVEX) */
}
