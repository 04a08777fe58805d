/*
 * memcpy_avx512_halves — memcpy_avx512 for CPUs that write a 64-byte store as
 * two 32-byte halves (features UAL, SIMD512).
 *
 * Assumptions:
 *   - Everything memcpy_avx512.c assumes: this file builds that one again,
 *     with one difference.  Exactly 64 bytes go with the sizes below them
 *     (32 + 32 from each end), not to 64 + 64
 *     (x86_vec_entry512.h, BELOW_64_AND_64): on Zen 4, 64 + 64 stores 128
 *     bytes, each store crossing a line when dst is not 64-aligned.
 *   - Bound where the rules ask for it (amd-zen4, src/policy.c); elsewhere only
 *     by a pin (memcpy=avx512_halves).
 */
#define VEC64_AS_HALVES 1
#define MEMCPY_AVX512_ENTRY altmem_memcpy_avx512_halves
#include "memcpy_avx512.c"
