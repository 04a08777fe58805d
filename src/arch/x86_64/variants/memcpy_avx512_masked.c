/*
 * memcpy_avx512_masked — memcpy_avx512 with the sizes below 64 bytes as one
 * byte-masked load and store (features UAL, SIMD512).
 *
 * Assumptions:
 *   - Everything memcpy_avx512.c assumes, but its "no byte masks": this file
 *     builds that one again with one difference.  Below 64 bytes, where
 *     neither src nor dst lies within 64 bytes of its page's end, one
 *     byte-masked 64-byte load (masked-off bytes read as zero, never touched)
 *     and one byte-masked store (x86_vec_entry512.h, VEC64_MASKED_BELOW64);
 *     near a page's end, and at every other size, the classes of memcpy_avx512.
 *     The load comes before the store, so an overlap is copied exactly.
 *   - A byte-masked access costs no more than the classes' tests and jumps:
 *     measured on Zen 5 only.  Bound where the rules ask for it (amd-zen5,
 *     src/policy.c); elsewhere only by a pin (memcpy=avx512_masked).
 */
#define VEC64_MASKED_BELOW64 1
#define MEMCPY_AVX512_ENTRY altmem_memcpy_avx512_masked
#include "memcpy_avx512.c"
