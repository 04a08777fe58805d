/*
 * The size classes of the AVX-512 memset variant (memset_avx512.c), apart
 * from its large() (above 512 bytes).  The including file defines VEC_BITS 512, includes x86_vec.h,
 * defines `static void *large(void *dst, int c, size_t n)` and AVX512_ENTRY
 * (the entry's name), then includes this file, once.  The layout measured in
 * docs/performance.md depends on the order below (built -fno-reorder-blocks).
 */

/* (128, ...): the classes of 2 and 4 vectors from each end, then the loops. */
static __attribute__((noinline)) void *mid(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    vec x = vspread(set_c(c));
    if (n <= 256)
        vset_ht2(d, x, n);                  /* (128, 256]: 2 x 64 from each end */
    else if (n <= 512)
        vset_ht4(d, x, n);                  /* (256, 512]: 4 x 64 from each end */
    else
        return large(dst, c, n);            /* (512, ...): the loops above     */
    return dst;
}

void *AVX512_ENTRY(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    RETURN_VALUE_IN_RAX(dst);
    if (n < 64)
        goto lt64;
    if (n > 128)
        return mid(d, c, n);                /* (128, ...): mid(), above        */
    vset_ht1(d, _mm512_set1_epi8((char)c), n); /* [64, 128]: 64 + 64           */
    return dst;
lt64:
    if (unlikely(!within_page64(d)))
        goto page_end;
    set_lt64_masked(d, c, n);               /* [0, 64): one masked store       */
    return dst;
page_end:;                              /* [0, 64) near a page's end: no masks */
    __m128i x = set_c(c);
    if (n >= 32) {
        set_ht32(d, spread32(x), n);        /* [32, 64): 32 + 32               */
        return dst;
    }
    if (n < 16)
        goto tiny;
    set_ht16(d, spread16(x), n);            /* [16, 32): 16 + 16               */
    return dst;
tiny:
    if (n >= 8)
        goto c8;
    if (n >= 4)
        goto c4;
    if (n <= 1)
        goto c1;
    set_2_4(d, c, n);                       /* [2, 4): 2 + 2                   */
    return dst;
c1:                                     /* 1, or 0: nothing                */
    if (n)
        *d = (unsigned char)c;
    return dst;
c8:                                     /* [8, 16): 8 + 8                  */
    set_8_16(d, spread16(x), n);
    return dst;
c4:                                     /* [4, 8): 4 + 4                   */
    set_4_8(d, spread16(x), n);
    return dst;
}
