/*
 * memcpy_evex — 32-byte vectors in AVX-512's registers 16-31 (features UAL,
 * SIMD512), as glibc's __memcpy_evex_unaligned_erms.
 *
 * Assumptions:
 *   - AVX-512 F, BW and VL, with the OS saving the ZMM and opmask state
 *     (SIMD512); only 32-byte registers (VEC_BITS 256), so it is not 512-bit
 *     code: bound where a rule keeps the avx512 variants out (intel-avx512-no-vnni,
 *     where glibc binds its evex variants too).  Built with the avx512 flag set
 *     (GCC: registers 16-31 only, so no vzeroupper, which aborts an RTM
 *     transaction: glibc BZ 27457).
 *   - The avx2 variant's classes, loops, rep movsb and streaming (x86_vec.h,
 *     memcpy_avx2.c), but [4, 8] stores its first 4 bytes first, as glibc's
 *     evex and 64-byte variants do (x86_vec.h, OPS_COPY_4_8_TAIL_FIRST).
 *   - Unaligned loads and stores are single, fast instructions (UAL).
 */
#define VEC_BITS 256
#define VEC_EVEX 1
#include "x86_vec.h"

/* The sizes that loop: kept out of line, so that the small classes above need
   no registers saved or copied on entry. */
static __attribute__((noinline)) void *large(void *__restrict dst, const void *__restrict src, size_t n)
{
    return vcopy_large(dst, src, n, movsb_start_32(dst, src), &altmem__rep_movsb_direct_below[1]); /* x86_vec.h: streaming, rep movsb, the loop */
}

ENTRY_ALIGNED(altmem_memcpy_evex, 4096);
void *altmem_memcpy_evex(void *__restrict dst, const void *__restrict src, size_t n)
{
    RETURN_VALUE_IN_RAX(dst);
    return vcopy_entry(dst, src, n, large, &altmem__copy_loop_below[1], 0); /* x86_vec_set.h: the classes, the loops */
}
