/*
 * The size classes of the AVX-512 memcpy and memmove variants, shared by
 * memcpy_avx512.c and memmove_avx512.c, which differ only in their large()
 * (what happens above 512 bytes).  Up to 512 bytes every class loads all it copies before it
 * stores anything, so the same classes serve memcpy and memmove.
 *
 * The including file defines VEC_BITS 512, includes x86_vec.h, defines
 *   static void *large(void *dst, const void *src, size_t n)   (n > 512)
 *   AVX512_ENTRY      the entry's name (altmem_memcpy_avx512, ...)
 *   AVX512_RESTRICT   __restrict for memcpy, empty for memmove
 * and then includes this file, once.  The layout measured in
 * docs/performance.md depends on the order below (built -fno-reorder-blocks).
 */

/* (128, ...): the classes of 2 and 4 vectors from each end, then the loops. */
static __attribute__((noinline)) void *mid(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (n <= 256)
        vcopy_ht2(d, s, n);                 /* (128, 256]: 2 x 64 from each end */
    else if (n <= 512)
        vcopy_ht4(d, s, n);                 /* (256, 512]: 4 x 64 from each end */
    else
        return large(dst, src, n);          /* (512, ...): the loops above     */
    return dst;
}

void *AVX512_ENTRY(void *AVX512_RESTRICT dst, const void *AVX512_RESTRICT src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    RETURN_VALUE_IN_RAX(dst);
    if (n < 16)
        goto tiny;
    if (n < 64)
        goto small;
    if (n > 128)
        return mid(d, s, n);                /* (128, ...): mid(), above        */
    vcopy_ht1(d, s, n);                     /* [64, 128]: 64 + 64              */
    return dst;
small:
    if (n >= 32)
        copy_ht32(d, s, n);                 /* [32, 64): 32 + 32               */
    else
        copy_ht16(d, s, n);                 /* [16, 32): 16 + 16               */
    return dst;
tiny:
    if (n >= 8)
        goto c8;
    if (n >= 4)
        goto c4;
    if (n == 0)
        return dst;
    copy_1_3_bytes(d, s, n);                /* [1, 4): bytes 0, n/2, n - 1     */
    return dst;
c8:                                     /* [8, 16): 8 + 8                  */
    copy_8_16(d, s, n);
    return dst;
c4:                                     /* [4, 8): 4 + 4                   */
    copy_4_8(d, s, n);
    return dst;
}
