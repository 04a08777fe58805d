/*
 * memcpy_evex — 32-byte vectors in AVX-512's registers 16-31 (features UAL,
 * SIMD512), as glibc's __memcpy_evex_unaligned_erms.
 *
 * Assumptions:
 *   - AVX-512 F, BW and VL, with the OS saving the ZMM and opmask state
 *     (SIMD512); only 32-byte registers (VEC_BITS 256), so it is not 512-bit
 *     code: bound where the rule intel-rtm keeps the avx2 copies out and a
 *     rule keeps 512-bit code out (intel-avx512-no-vnni: glibc binds its evex
 *     variants there).  Built with the avx512 flag set
 *     (GCC: registers 16-31 only, so no vzeroupper, which aborts an RTM
 *     transaction: glibc BZ 27457).
 *   - Everything memcpy_avx2.c assumes but the registers: this file builds that
 *     one again with VEC_EVEX, and [4, 8] stores its first 4 bytes first, as glibc's
 *     evex and 64-byte variants do (x86_vec.h, OPS_COPY_4_8_TAIL_FIRST).
 *   - Unaligned loads and stores are single, fast instructions (UAL).
 */
#define VEC_EVEX 1
#define MEMCPY_AVX2_ENTRY altmem_memcpy_evex
#include "memcpy_avx2.c"
