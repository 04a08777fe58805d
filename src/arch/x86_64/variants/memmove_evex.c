/*
 * memmove_evex — 32-byte vectors in AVX-512's registers 16-31 (features UAL,
 * SIMD512), as glibc's __memmove_evex_unaligned_erms.
 *
 * Assumptions:
 *   - AVX-512 F, BW and VL, with the OS saving the ZMM and opmask state
 *     (SIMD512); only 32-byte registers (VEC_BITS 256), so it is not 512-bit
 *     code: bound where a rule keeps the avx512 variants out (intel-avx512-no-vnni,
 *     where glibc binds its evex variants too).  Built with the avx512 flag set
 *     (GCC: registers 16-31 only, so no vzeroupper, which aborts an RTM
 *     transaction: glibc BZ 27457).
 *   - The avx2 variant's classes, directions, loops, rep movsb and streaming
 *     (x86_vec.h, memmove_avx2.c): up to 256 bytes (512 with dst 32-aligned)
 *     every byte is loaded before any is stored; [4, 8] stores its first 4
 *     bytes first, as glibc's evex and 64-byte variants do (x86_vec.h,
 *     OPS_COPY_4_8_TAIL_FIRST).
 *   - Unaligned loads and stores are single, fast instructions (UAL).
 */
#include <stdint.h>

#define VEC_BITS 256
#define VEC_EVEX 1
#include "x86_vec.h"

/* The sizes that loop: kept out of line, so that the small classes above need
   no registers saved or copied on entry. */
static __attribute__((noinline)) void *large(void *dst, const void *src, size_t n)
{
    return vmove_large(dst, src, n, movsb_start_32(dst, src), &altmem__rep_movsb_direct_below[1]); /* x86_vec.h: the direction, streaming, rep movsb */
}

ENTRY_ALIGNED(altmem_memmove_evex, 4096);
void *altmem_memmove_evex(void *dst, const void *src, size_t n)
{
    RETURN_VALUE_IN_RAX(dst);
    return vcopy_entry(dst, src, n, large, &altmem__copy_loop_below[1], 1); /* x86_vec_set.h: the classes, the loops */
}
