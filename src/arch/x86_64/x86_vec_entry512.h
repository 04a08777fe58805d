/*
 * Part of x86_vec.h, which includes it last: the entries of the 64-byte
 * variants (memcpy, memmove and memset avx512).
 * Not for inclusion on its own.
 */
#ifndef ALTMEM_X86_VEC_ENTRY512_H
#define ALTMEM_X86_VEC_ENTRY512_H

/* ---- The entries of the 64-byte variants ---------------------------------------------
   Up to 512 bytes every class loads all it copies before it stores anything,
   so the same classes serve memcpy and memmove, which differ only in their
   large() (above 512 bytes); (128, 512] sits in each entry's out-of-line
   block, large() behind a call.  The layout measured in
   docs/perf/variant-figures.md depends on the order below (built
   -fno-reorder-blocks). */
#if VEC_BITS == 512
/* Source and destination apart mod 64, above the policy's size and below
   streaming: every 64-byte load of the loops would cross a line, and where the
   rules say that costs more than twice the 32-byte loads (Zen 4), the 32-byte
   variant takes the copy (src/policy.c, amd-zen4). */
OPS_INL int split_loads(const unsigned char *d, const unsigned char *s, size_t n)
{
    return n > altmem__copy_split_loads_above && ((uintptr_t)d ^ (uintptr_t)s) & 63 && n < altmem__nt_threshold;
}

/* From the streaming threshold, forward, source and destination apart mod 64:
   where the rules say the 32-byte variant's streaming loop is faster (Zen 5),
   it takes the copy (src/policy.c, amd-zen5). */
OPS_INL int split_loads_streaming(const unsigned char *d, const unsigned char *s)
{
    return altmem__copy_split_loads_streaming && ((uintptr_t)d ^ (uintptr_t)s) & 63;
}

/* rep movsb of the 64-byte copies: below altmem__rep_movsb_start[2] the
   vector loop wins, or, src and dst equally aligned, below MOVSB_MIN_COALIGNED
   (src/policy.c). */
#define MOVSB_MIN_COALIGNED altmem__rep_movsb_start_coaligned

/* Where memcpy_avx512 and memmove_avx512 start rep movsb.  (The fast paths
   test n < MOVSB_MIN_COALIGNED first, which decides most calls without looking
   at the alignment.) */
OPS_INL size_t erms_min(const unsigned char *d, const unsigned char *s)
{
    return (((uintptr_t)d ^ (uintptr_t)s) & 63) ? altmem__rep_movsb_start[2] : MOVSB_MIN_COALIGNED;
}

/* Exactly 64 bytes.  In [64, 128], 64 + 64 from each end with no taken jump,
   as glibc's avx512 variant: 0.80 -> 1.00x glibc 2.41 at 64 B aligned on Intel
   6/207, where 32 + 32 one taken jump away held every size 32-64 at 1.92 ns.
   The _halves build (VEC64_AS_HALVES) keeps 64 with the smaller sizes, 32 + 32
   (memset: one masked store): on Zen 4, which writes a 64-byte store as two
   halves, 64 + 64 stores 128 bytes, each crossing a line when dst is not
   aligned (1.40-1.60x glibc 2.41 at 64 B misaligned with 32 + 32).  Built
   twice because a boundary read from a variable cost the classes 3-10% here
   (docs/perf/intel-family6-model207.md, "Exactly 64 bytes"). */
#ifdef VEC64_AS_HALVES
#define BELOW_64_AND_64(n) ((n) <= 64)
#else
#define BELOW_64_AND_64(n) ((n) < 64)
#endif

typedef void *large_copy_fn(void *, const void *, size_t);
typedef void *large_set_fn(void *, int, size_t);

/* Above 128 B the entry's out-of-line block: large() from 512 B, and the
   classes of (128, 512] after it, (256, 384] on its fall-through (one taken
   jump to it, two to the others), no call of an out-of-line mid() (its call
   and compares were two taken jumps more: 384 B aligned 0.86 -> 1.00x glibc
   2.36, 1.02-1.06 -> 1.26x glibc 2.41 on Intel 6/207, where a taken jump
   costs ~0.5 ns; docs/perf/intel-family6-model207.md, "The copies' (128,
   512] in the entry, and memset's").  The path to the classes up to 128 B is
   the code of before (one more test on it cost 48-128 B up to 0.2x there). */
OPS_INL void *vcopy_entry_512(void *dst, const void *src, size_t n, large_copy_fn *large)
{
    const uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
    RETURN_VALUE_IN_RAX(dst);
    /* Below 64 B first, and there each class from the largest down a taken
       jump away (glibc's less_vec order): with n < 16 tested first, 16-128 B
       took a cycle more than glibc 2.41 on Zen 5 (1.85 against 1.62 ns in
       one timing loop, 0-15 B alike; docs/perf/amd-family26-model2.md, "The
       small copies' tests"). */
    if (BELOW_64_AND_64(n))
        goto small;
    if (unlikely(n > 128))
        goto gt128;
    ops_vcopy_ht1(OPS_PLAIN, d, s, n);                     /* [64, 128]: 64 + 64 (_halves: (64, 128]) */
    return dst;
gt128:
    if (n > 512)
        return large((void *)d, (const void *)s, n);  /* (512, ...): the loops           */
    if (n <= 256)
        goto v2;
    if (n > 384)
        goto v4;
    ops_vcopy_ht3(OPS_PLAIN, d, s, n);                     /* (256, 384]: 3 x 64 from each end */
    return dst;
v4:
    ops_vcopy_ht4(OPS_PLAIN, d, s, n);                     /* (384, 512]: 4 x 64 from each end */
    return dst;
v2:
    ops_vcopy_ht2(OPS_PLAIN, d, s, n);                     /* (128, 256]: 2 x 64 from each end */
    return dst;
small:
    BELOW_W_TESTS();
    if (n == 1)
        goto c1;
    if (n == 0)
        return dst;
    /* n opaque, so that GCC does not merge bytes 0 and 1 into one 16-bit
       access: that is glibc's 2-3 B code, which takes 3.6x our time when src
       and dst are 1 byte apart and the next call reads what this one stored
       (Intel 6/207; a 16-bit load is not forwarded from two byte stores). */
    OPS_LAUNDER(n);
    ops_copy_1_3(OPS_PLAIN, d, s, n);                /* [2, 4): bytes 0, 1, n - 1       */
    return dst;
c1:                                     /* 1: one byte, not byte 0 thrice  */
    *(unsigned char *)d = *(const unsigned char *)s;
    return dst;
c32:
    ops_copy_ht32(OPS_PLAIN, d, s, n);                     /* [32, 64): 32 + 32 (_halves: [32, 64]) */
    return dst;
c16:
    ops_copy_ht16(OPS_PLAIN, d, s, n);                     /* [16, 32): 16 + 16               */
    return dst;
c8:                                     /* [8, 16): 8 + 8                  */
    ops_copy_8_16(OPS_PLAIN, d, s, n);
    return dst;
c4:                                     /* [4, 8): 4 + 4                   */
    ops_copy_4_8(OPS_PLAIN, d, s, n);
    return dst;
}

/* dst not 64-byte aligned where the lines are on (altmem__memset_lines_mask):
   one test against memory, 7 bytes (GCC's load and and took 10 at each of
   the two sites, and the entry no longer fitted its room whole, copy.h). */
OPS_INL int memset_lines_here(uintptr_t d)
{
    int r;
    __asm__ volatile("test %[d], %[m]" : "=@ccnz"(r) : [d] "r"(d), [m] "m"(altmem__memset_lines_mask));
    return r;
}

/* Above 128 B, as vcopy_entry_512: large() from 512 B and the classes of
   (128, 512] in the entry's out-of-line block, no call of an out-of-line mid()
   (384 B aligned 1.14 -> 1.28x glibc 2.41 on Intel 6/207, the rest unchanged:
   docs/perf/intel-family6-model207.md, "The copies' (128, 512] in the
   entry, and memset's"). */
OPS_INL void *vset_entry_512(void *dst, int c, size_t n, large_set_fn *large, const size_t *loop_below)
{
    const uintptr_t d = (uintptr_t)dst;
    RETURN_VALUE_IN_RAX(dst);
    if (BELOW_64_AND_64(n))
        goto lt64;
    if (unlikely(n > 128)) {
#ifndef VEC64_AS_HALVES
        /* First: 448-512 B aligned 0.93 -> 1.00x glibc 2.41 on Intel 6/207
           with this test ahead of the others (docs/perf/intel-family6-model207.md,
           "Exactly 64 bytes"); the _halves build as measured on Zen 4, below. */
        if (n > 384 && n <= 512) {
            if (unlikely(memset_lines_here(d)))
                ops_vset_lines(d, _mm512_set1_epi8((char)c), n, 4); /* (384, 512], dst not 64-aligned: lines */
            else
                ops_vset_ht4(OPS_PLAIN, d, _mm512_set1_epi8((char)c), n); /* (384, 512]: 4 x 64 from each end */
            return dst;
        }
#endif
        if (unlikely(n > 512)) {
            /* rep stosb here, not behind large()'s tail call, as in the 16-
               and 32-byte entries (x86_vec_set.h, vset_loop_or_large): at
               4 KiB 3 taken jumps and 6 instructions more than glibc's, not 5
               and 12.  Off the fall-through: there the loop's sizes took one
               more taken jump (768 B aligned 0.99 -> 0.97x glibc 2.41), every
               memset above 512 B where rep stosb starts late or never (AMD:
               src/policy.c). */
            if (unlikely(n >= *loop_below) && likely(n < altmem__memset_nt_threshold))
                return rep_stosb_entry_keep_rax(dst, (unsigned char *)d, _mm512_set1_epi8((char)c), c, n, 1); /* [*erms_min, nt) */
            return large((void *)d, c, n);  /* (512, ...): the loops, as vcopy_entry_512 */
        }
        if (n <= 256)
            goto v2;
#ifdef VEC64_AS_HALVES
        if (n > 384)
            goto v4;
#else
        if (unlikely(memset_lines_here(d))) {
            ops_vset_lines(d, _mm512_set1_epi8((char)c), n, 3); /* (256, 384], dst not 64-aligned: lines */
            return dst;
        }
#endif
        ops_vset_ht3(OPS_PLAIN, d, _mm512_set1_epi8((char)c), n); /* (256, 384]: 3 x 64 from each end */
        return dst;
v2:
        ops_vset_ht2(OPS_PLAIN, d, _mm512_set1_epi8((char)c), n); /* (128, 256]: 2 x 64 from each end */
        return dst;
#ifdef VEC64_AS_HALVES
v4:
        ops_vset_ht4(OPS_PLAIN, d, _mm512_set1_epi8((char)c), n); /* (384, 512]: 4 x 64 from each end */
        return dst;
#endif
    }
    ops_vset_ht1(OPS_PLAIN, d, _mm512_set1_epi8((char)c), n); /* [64, 128]: 64 + 64 (_halves: (64, 128]) */
    return dst;
lt64:
    /* Not n == 0 either: a masked store of no byte to a page not yet written
       (or read-only) takes a ~340-cycle assist at every call on Zen 5, where
       the page never becomes present (glibc 2.36-2.43's evex and avx512
       memset alike; docs/perf/amd-family26-model2.md, "Against AOCL-LibMem,
       and masked accesses"). */
    if (unlikely(!within_page64((const unsigned char *)d)))
        goto page_end;
    if (unlikely(n == 0))
        return dst;
    set_lt64_masked((unsigned char *)d, c, n);               /* (0, 64) (_halves: (0, 64]): one masked store */
    return dst;
page_end:;                              /* [0, 64] near a page's end: no masks */
    __m128i x = set_c(c);
    if (n >= 32) {
        ops_set_ht32(OPS_PLAIN, d, spread32(x), n);        /* [32, 64]: 32 + 32               */
        return dst;
    }
    if (n < 16)
        goto tiny;
    ops_set_ht16(OPS_PLAIN, d, spread16(x), n);            /* [16, 32): 16 + 16               */
    return dst;
tiny:
    BELOW_16_TESTS();
    if (n <= 1)
        goto c1;
    set_2_4(OPS_PLAIN, d, c, n);                       /* [2, 4): 2 + 2                   */
    return dst;
c1:                                     /* 1, or 0: nothing                */
    if (n)
        *(unsigned char *)d = (unsigned char)c;
    return dst;
c8:                                     /* [8, 16): 8 + 8                  */
    set_8_16(OPS_PLAIN, d, spread16(x), n);
    return dst;
c4:                                     /* [4, 8): 4 + 4                   */
    set_4_8(OPS_PLAIN, d, spread16(x), n);
    return dst;
}
#endif

#endif
