/*
 * Part of x86_vec.h, which includes it after the accessors, the pieces and
 * x86_vec_copy.h: the sets, memset's classes, loops, streaming and rep stosb.
 * Not for inclusion on its own.
 */
#ifndef ALTMEM_X86_VEC_SET_H
#define ALTMEM_X86_VEC_SET_H

/* ---- Sets ------------------------------------------------------------------------ */

/* memset's byte: c goes into a vector register once (movd); each size class
   then spreads it as wide as it needs (vpbroadcastb with AVX2). */
OPS_INL __m128i set_c(int c) { return _mm_cvtsi32_si128(c); }
#if VEC_BITS >= 256
OPS_INL __m128i spread16(__m128i x) { return _mm_broadcastb_epi8(x); }
OPS_INL __m256i spread32(__m128i x) { return _mm256_broadcastb_epi8(x); }
#else
OPS_INL __m128i spread16(__m128i x)
{
    x = _mm_unpacklo_epi8(x, x);
    x = _mm_unpacklo_epi16(x, x);
    return _mm_shuffle_epi32(x, 0);
}
#endif
/* The whole vector (zmm byte broadcast needs BW, not used here: a dword one). */
#if VEC_BITS == 512
OPS_INL vec vspread(__m128i x) { return _mm512_broadcastd_epi32(_mm_broadcastb_epi8(x)); }
#elif VEC_BITS == 256
OPS_INL vec vspread(__m128i x) { return spread32(x); }
#else
OPS_INL vec vspread(__m128i x) { return spread16(x); }
#endif

/* The stores of a set go in ascending order, as a copy's (progress as there). */

/* n in [8, 16]: x holds the byte spread over 16 */
OPS_INL size_t set_8_16(const enum ops_access acc, uintptr_t d, __m128i x, size_t n)
{
    size_t k;
    if ((k = x86_st_low8(acc, d, 0, x)) != OPS_OK)
        return k;
    if ((k = x86_st_low8(acc, d, n - 8, x)) != OPS_OK)
        return ops_fault(8 + k);
    return OPS_OK;
}

/* n in [4, 8] */
OPS_INL size_t set_4_8(const enum ops_access acc, uintptr_t d, __m128i x, size_t n)
{
    size_t k;
    if ((k = x86_st_low4(acc, d, 0, x)) != OPS_OK)
        return k;
    if ((k = x86_st_low4(acc, d, n - 4, x)) != OPS_OK)
        return ops_fault(4 + k);
    return OPS_OK;
}

/* n in [2, 4]; c is the byte itself */
OPS_INL size_t set_2_4(const enum ops_access acc, uintptr_t d, int c, size_t n)
{
    return ops_set_2_4(acc, d, (uint16_t)(0x0101u * (unsigned char)c), n);
}

/* n in [2, 3]: bytes 0, 1 and n - 1 from the byte itself, as glibc's less_vec
   stores them (no transfer out of a vector register). */
OPS_INL size_t set_2_3(const enum ops_access acc, uintptr_t d, int c, size_t n)
{
    size_t k;
    if ((k = ops_st8(acc, d, 0, (unsigned char)c)) != OPS_OK)
        return k;
    /* Kept three byte stores: GCC would merge the first two into a 16-bit one
       built in a callee-saved register (a stack frame, 23 instructions). */
    __asm__("" : : : "memory");
    if ((k = ops_st8(acc, d, 1, (unsigned char)c)) != OPS_OK)
        return ops_fault(1 + k);
    if ((k = ops_st8(acc, d, n - 1, (unsigned char)c)) != OPS_OK)
        return ops_fault(2 + k);
    return OPS_OK;
}

#if VEC_BITS == 512 || defined VEC_EVEX
/* lowmask64[k]: the low k bytes of a 64-byte vector, k in [0, 64]; loaded into
   a mask register (a shift would need BMI2's bzhi or three dependent ops). */
static const uint64_t lowmask64[65] __attribute__((unused, aligned(64))) = {
    0x0ull, 0x1ull, 0x3ull, 0x7ull, 0xfull, 0x1full, 0x3full, 0x7full, 0xffull,
    0x1ffull, 0x3ffull, 0x7ffull, 0xfffull, 0x1fffull, 0x3fffull, 0x7fffull, 0xffffull,
    0x1ffffull, 0x3ffffull, 0x7ffffull, 0xfffffull, 0x1fffffull, 0x3fffffull,
    0x7fffffull, 0xffffffull, 0x1ffffffull, 0x3ffffffull, 0x7ffffffull, 0xfffffffull,
    0x1fffffffull, 0x3fffffffull, 0x7fffffffull, 0xffffffffull, 0x1ffffffffull,
    0x3ffffffffull, 0x7ffffffffull, 0xfffffffffull, 0x1fffffffffull, 0x3fffffffffull,
    0x7fffffffffull, 0xffffffffffull, 0x1ffffffffffull, 0x3ffffffffffull,
    0x7ffffffffffull, 0xfffffffffffull, 0x1fffffffffffull, 0x3fffffffffffull,
    0x7fffffffffffull, 0xffffffffffffull, 0x1ffffffffffffull, 0x3ffffffffffffull,
    0x7ffffffffffffull, 0xfffffffffffffull, 0x1fffffffffffffull, 0x3fffffffffffffull,
    0x7fffffffffffffull, 0xffffffffffffffull, 0x1ffffffffffffffull,
    0x3ffffffffffffffull, 0x7ffffffffffffffull, 0xfffffffffffffffull,
    0x1fffffffffffffffull, 0x3fffffffffffffffull, 0x7fffffffffffffffull, ~0ull
};
#endif

#if VEC_BITS == 512
/* 64 bytes from p stay inside p's 4 KiB page: a byte-masked access may then
   cover masked-off bytes without the microcode assist that a masked access
   reaching into the next page costs, mapped or not (docs/perf/variant-figures.md). */
OPS_INL int within_page64(const unsigned char *p) { return ((uintptr_t)p & 4095) <= 4096 - 64; }

/* n <= 64, d + 64 within d's page: one byte-masked 64-byte store; bytes at and
   past d + n are masked off and never written. */
OPS_INL void set_lt64_masked(unsigned char *d, int c, size_t n)
{
    _mm512_mask_storeu_epi8((void *)d, (__mmask64)lowmask64[n], _mm512_set1_epi8((char)c));
}
#endif

#ifdef VEC_EVEX
/* The same at 32 bytes (the evex variants): n < 32, d + 32 within d's page; the
   mask from lowmask64's low half (a shift needs n in cl, without BMI2: GCC
   then copied n to rcx on the entry, an instruction on every path). */
OPS_INL int within_page32(const unsigned char *p) { return ((uintptr_t)p & 4095) <= 4096 - 32; }
OPS_INL void set_lt32_masked(unsigned char *d, vec x, size_t n)
{
    _mm256_mask_storeu_epi8((void *)d, (__mmask32)lowmask64[n], x);
}
#endif

/* n > 8W, non-temporal: the first 64 bytes and the last 4W cached, whole lines
   streamed between them; sfence after the streaming stores, also when one of
   them faults. */
OPS_INL size_t vset_nt(const enum ops_access acc, uintptr_t d, vec x, size_t n)
{
    const uintptr_t de = d + n;
    uintptr_t p;
    size_t j, k;
    for (j = 0; j < 64; j += W)
        if ((k = ops_vst(acc, d, j, x)) != OPS_OK)
            return ops_fault(j + k);
    p = d + (64 - (d & 63));
    for (; de - p > 4 * W; p += 4 * W)
        if (unlikely((k = ops_vset_block4(acc, OPS_STREAMING, p, x)) != OPS_OK))
            goto fault_in_loop;
    _mm_sfence();
    return ops_vset_last4(acc, de, x, n, ops_max(p - d, 64));
fault_in_loop:
    _mm_sfence();
    OPS_LAUNDER(p);
    return ops_fault(ops_max(p - d + k, 64));
}

/* k = 1..W-1 bytes of memset's value: the first k of the W-aligned block at b
   (set_piece_low) or its last k (set_piece_high).  At the 64-byte width one
   byte-masked store of the whole block, which never reaches past it (a masked
   store reaching into the next page takes a microcode assist, memset_avx512.c);
   else two overlapping stores of the largest power of two <= k. */
#if VEC_BITS < 512
OPS_INL void set_piece_at(unsigned char *d, vec x, size_t k)
{
#if VEC_BITS == 256
    __m128i v = _mm256_castsi256_si128(x);
#else
    __m128i v = x;
#endif
    const struct piece p = {.x0 = v, .x1 = v, .k = k};    /* k < W <= 32: the xmm classes */
    piece_store(d, &p);
}
#endif

OPS_INL void set_piece_low(unsigned char *b, vec x, size_t k)
{
#if VEC_BITS == 512
    _mm512_mask_storeu_epi8((void *)b, (__mmask64)lowmask64[k], x);
#else
    set_piece_at(b, x, k);
#endif
}

OPS_INL void set_piece_high(unsigned char *b, vec x, size_t k)
{
#if VEC_BITS == 512
    _mm512_mask_storeu_epi8((void *)b, (__mmask64)~lowmask64[W - k], x);
#else
    set_piece_at(b + W - k, x, k);
#endif
}

/* memset's loop where its first vector or one of its last four would cross a
   page (the same test and costs as vcopy_fwd: on Zen 4 a set of 4200 B at
   dst + 3 took 46.8 ns with the avx512 loop, whose last vectors crossed into
   the next page, 36.0 at 4150 B): W-aligned stores between two pieces. */
OPS_INL int set_ends_cross_page(uintptr_t d, uintptr_t de) { return fwd_ends_cross_page(d, de); }

static __attribute__((noinline, cold)) void *vset_pieces(unsigned char *d, vec x, size_t n)
{
    uintptr_t p = ((uintptr_t)d + W - 1) & ~(uintptr_t)(W - 1), de = (uintptr_t)d + n, dl = de & ~(uintptr_t)(W - 1);
    if (p != (uintptr_t)d)
        set_piece_high((unsigned char *)p - W, x, p - (uintptr_t)d);
    for (; dl - p >= 4 * W; p += 4 * W) {
        vsta((unsigned char *)p, x);
        vsta((unsigned char *)p + W, x);
        vsta((unsigned char *)p + 2 * W, x);
        vsta((unsigned char *)p + 3 * W, x);
    }
    for (; p < dl; p += W)
        vsta((unsigned char *)p, x);
    if (de != dl)
        set_piece_low((unsigned char *)dl, x, de - dl);
    return d;
}

/* Past its rep stosb stop the 16-byte memset loops again (src/policy.c:
   amd-zen4): rep stosb from the width's start up to below STOSB_DIRECT_BELOW,
   one compare (the lesser of that stop + 1 and streaming's start); the wider
   ones have no stop, and the test folds away. */
#if VEC_BITS == 128
#define STOSB_PAST_STOP(n) ((n) >= altmem__rep_stosb_direct_below_16)
#define STOSB_DIRECT(n) ((n) < altmem__rep_stosb_direct_below_16)
#else
#define STOSB_PAST_STOP(n) 0
#define STOSB_DIRECT(n) ((n) < altmem__memset_nt_threshold)
#endif

/* memset above the classes, every width: the loop below *erms_min (vset_pieces
   where its ends would cross a page: a tail call, no frame on the common path)
   and above the width's rep stosb stop, rep stosb between, up to the streaming
   threshold, streaming from it (memset_nt_threshold=0: every loop streams). */
OPS_INL void *vset_large(unsigned char *d, int c, size_t n, const size_t *erms_min)
{
    __m128i x = set_c(c);
    /* The whole test likely, not its first half: else GCC puts the streaming
       path on the fall-through and jumps to the loop (a taken jump ~0.5 ns on
       Intel 6/207, docs/perf/intel-family6-model207.md, "Taken jumps"). */
    if (likely((n < *erms_min || STOSB_PAST_STOP(n)) && n < altmem__memset_nt_threshold)) {
        if (unlikely(set_ends_cross_page((uintptr_t)d, (uintptr_t)d + n)))
            return vset_pieces(d, vspread(x), n);               /* ... its ends across a page */
        ops_vset_loop(OPS_PLAIN, (uintptr_t)d, vspread(x), n);  /* (8W, *erms_min), (stop, nt): 4W loop */
    } else if (n < altmem__memset_nt_threshold)
        rep_stosb(d, c, n);             /* [*erms_min, stop]: rep stosb       */
    else {
        ALTMEM_SETTLE(n, altmem__settle_memset(d, c, n)); /* the first streaming call: the caches */
        vset_nt(OPS_PLAIN, (uintptr_t)d, vspread(x), n);        /* [nt, ...): streaming stores */
    }
    return d;
}

/* Below W, in every entry: [32, 64) with AVX-512 (label c32),
   [16, 32) with AVX2 and AVX-512 (c16), [8, 16) (c8), [4, 8) (c4), each one
   compare, the largest first (glibc's less_vec order); what falls through is
   below 4. */
#if VEC_BITS == 512
#define BELOW_W_TESTS()                                                          \
    do {                                                                         \
        if (n >= 32)                                                             \
            goto c32;                                                            \
        BELOW_32_TESTS();                                                        \
    } while (0)
#elif VEC_BITS == 256
#define BELOW_W_TESTS() BELOW_32_TESTS()
#else
#define BELOW_W_TESTS() BELOW_16_TESTS()
#endif
#define BELOW_32_TESTS()                                                         \
    do {                                                                         \
        if (n >= 16)                                                             \
            goto c16;                                                            \
        BELOW_16_TESTS();                                                        \
    } while (0)
#define BELOW_16_TESTS()                                                         \
    do {                                                                         \
        if (n >= 8)                                                              \
            goto c8;                                                             \
        if (n >= 4)                                                              \
            goto c4;                                                             \
    } while (0)

/* ---- The entries of the 16- and 32-byte variants ------------------------------------
   Laid out as glibc's mem{move,set}-vec-unaligned-erms of the same width: these
   files are built -fno-reorder-blocks, so the code's order is mostly the
   source's (memset's inline loop is placed by GCC: vset_loop_inline).
   [W, 2W] falls through with no taken jump; below W, one compare per class
   jumps to it (2-3 bytes, and 1 for memset, fall through); above 2W the classes
   are one or two taken jumps away (scripts/small-cost.sh --width W counts them
   against glibc's up to 256 B: no class takes more; above, the evex memset's
   loop takes one more, memset_evex.c).  large() is the variant's own. */
#if VEC_BITS <= 256
typedef void *large_copy_fn(void *, const void *, size_t);
typedef void *large_set_fn(void *, int, size_t);

/* n < 4, as glibc's: 2-3 falls through, 0 and 1 are one taken jump away; the
   first byte is loaded before the others are stored (memmove-safe).  sse2
   copies 2-3 as bytes 1 and n - 1, not glibc's 16-bit tail: with src and dst 1
   byte apart and the next call reading what this one stored, a 16-bit load is
   not forwarded from the byte stores (3.6x glibc 2.41 there on Intel 6/207,
   the same elsewhere).  avx2 keeps glibc's: the longer block crosses a 64-byte
   line of its entry, and 2-3 B fell from 1.19 to 1.01x glibc's in every other
   layout (docs/perf/intel-family6-model207.md, "1-3 bytes"). */
OPS_INL void copy_lt4(unsigned char *d, const unsigned char *s, size_t n)
{
    if (n == 0)
        return;
    unsigned char b = *s;
    if (n == 1)
        goto one;
#if VEC_BITS == 128
    OPS_LAUNDER(n);                     /* no 16-bit access merged from bytes 0 and 1 */
    unsigned char second = s[1], last = s[n - 1];
    d[n - 1] = last;
    d[1] = second;
#else
    uint16_t tail;
    ops_ld16(OPS_PLAIN, &tail, (uintptr_t)s, (ptrdiff_t)n - 2);
    ops_st16(OPS_PLAIN, (uintptr_t)d, (ptrdiff_t)n - 2, tail);
#endif
one:
    *d = b;
}

#if VEC_BITS == 256
/* The 32-byte loops past *loop_below, src and dst equally aligned, below
   their own limit (x86_vec_copy.h, coaligned_32). */
OPS_INL int vcopy_loop_coaligned(const unsigned char *d, const unsigned char *s, size_t n)
{
    return n < altmem__copy_loop_below_32_coaligned && coaligned_32(d, s);
}
#else
#define vcopy_loop_coaligned(d, s, n) 0
#endif

/* (8W, *loop_below), in the 16- and 32-byte entries: the loops of x86_vec_copy.h
   inline, forward, or backward at the 4 KiB alias and (memmove) where dst lies
   inside the source; from *loop_below (the rep movsb or streaming start,
   whichever is first) large() decides.  Behind large()'s tail call and
   compares the loops took 3-5 taken jumps and ~20 instructions more than
   glibc's (sse2 0.77-0.89x glibc 2.41 at 192-768 B misaligned, avx2 0.82x at
   768 B aligned, Intel 6/207; docs/perf/intel-family6-model207.md, "The copy
   loops inline").  The forward loop falls through: apart, the common case;
   the bench's layouts (dst - src a multiple of 4 KiB, or 2 or 63 more) take
   the backward one, as glibc's do. */
OPS_INL void *vcopy_loop_or_large(unsigned char *d, const unsigned char *s, size_t n, large_copy_fn *large,
                                  const size_t *loop_below, const int move)
{
    /* vcopy_entry has tested this (GCC folds the two); without it here GCC
       allocated the avx2 memcpy entry's registers differently, one instruction
       more on every call from 8 B (scripts/stepcost.py). */
    if (unlikely(n >= *loop_below) && !vcopy_loop_coaligned(d, s, n))
        return large(d, s, n);
    const uintptr_t fwd = (uintptr_t)d - (uintptr_t)s, bwd = (uintptr_t)s - (uintptr_t)d;
#if VEC_BITS == 256
    /* The alias test first: the same instructions and taken jumps, but avx2
       memmove at 1 KiB aligned 0.92 -> 1.00x glibc 2.41 (and against its evex
       variant), idle and under --load, Intel 6/207; the sse2 one gained at
       384 B and lost at 160 and 512 B aligned: it keeps this order
       (docs/perf/intel-family6-model207.md, "memmove's direction tests"). */
    if (move ? (alias_4k_ahead(d, s) && bwd >= n) || fwd < n : alias_4k_ahead(d, s))
#else
    if (move ? fwd < n || (alias_4k_ahead(d, s) && bwd >= n) : alias_4k_ahead(d, s))
#endif
        goto backward;
    return vcopy_fwd(d, s, n);
backward:
    return vcopy_bwd(d, s, n);
}

/* Every class loads all it copies before it stores: memcpy and memmove alike
   (move: memmove's loop directions). */
OPS_INL void *vcopy_entry(unsigned char *d, const unsigned char *s, size_t n, large_copy_fn *large,
                          const size_t *loop_below, const int move)
{
    const uintptr_t ud = (uintptr_t)d, us = (uintptr_t)s;
    if (n < W)
        goto lt_vec;
    /* The first vector loaded here, before the size tests, as glibc's
       memmove-vec-unaligned-erms does (every class and loop reads it; GCC
       takes this load for theirs): a move whose source lies just above its
       destination waits less for the last call's stores (avx2 memmove 128 B
       `ovl d<s` 0.88 -> 0.96x glibc 2.41, sse2 96 B-1 KiB +0.02..+0.06 in 19
       cells; sse2 memmove 192 B `ovl d<s` 1.12 -> 1.00x, 256 B `ovl d>s` 1.00
       -> 0.96x, avx2 1.5-4 KiB -0.02; idle and under --load, Intel 6/167:
       docs/perf/intel-family6-model167.md, "The copies' first load first"). */
    vec h0 = vld(s);
    __asm__("" : "+x"(h0));
    if (n > 2 * W)
        goto mid;
    ops_vcopy_ht1(OPS_PLAIN, ud, us, n);                 /* [W, 2W]: W + W                  */
    return d;
mid:
    if (n > 8 * W)
        goto c8v;
    if (n <= 4 * W)
        goto c2;
    ops_vcopy_ht4(OPS_PLAIN, ud, us, n);                 /* (4W, 8W]: 4 x W from each end   */
    return d;
c2:
    ops_vcopy_ht2(OPS_PLAIN, ud, us, n);                 /* (2W, 4W]: 2 x W from each end   */
    return d;
c8v:
    if (unlikely(n >= *loop_below) && !vcopy_loop_coaligned(d, s, n))
        return large(d, s, n);          /* first: each instruction before its rep movsb costs (x86_vec_copy.h) */
    if (vcopy_htk_fits(d, n))           /* one compare; the loops on its fall-through (the */
        goto c8v_aligned;               /* source's order), their classes' label aligned: not unlikely() */
    return vcopy_loop_or_large(d, s, n, large, loop_below, move); /* (8W, ...): the loops, or large() */
c8v_aligned:
#if VEC_BITS == 256
    return vcopy_htk_classes(d, s, n);  /* (8W, 16W], dst aligned: all loaded, then stored */
#else
    if (n <= 12 * W)
        goto c6v;
    vcopy_htk(d, s, n, 8);              /* (12W, 16W], dst aligned: 8 x W from each end */
    return d;
c6v:
    if (n <= 10 * W)
        goto c5v;
    vcopy_htk(d, s, n, 6);              /* (10W, 12W], dst aligned: 6 x W from each end */
    return d;
c5v:
    vcopy_htk(d, s, n, 5);              /* (8W, 10W], dst aligned: 5 x W from each end */
    return d;
#endif
lt_vec:
    BELOW_W_TESTS();
    copy_lt4(d, s, n);                  /* [0, 4): 2-3 from each end, 1, 0 */
    return d;
#if VEC_BITS == 256
c16:
    ops_copy_ht16(OPS_PLAIN, ud, us, n);                 /* [16, 32): 16 + 16               */
    return d;
#endif
c8:
    ops_copy_8_16(OPS_PLAIN, ud, us, n);                 /* [8, 16): 8 + 8                  */
    return d;
c4:
    ops_copy_4_8(OPS_PLAIN, ud, us, n);                  /* [4, 8): 4 + 4, the last first (x86_vec.h) */
    return d;
}

/* The first W-aligned block: the vector at d, three aligned ones from a. */
OPS_INL void vset_first_block(unsigned char *d, unsigned char *a, vec x)
{
    vst(d, x);
    vsta(a, x);
    vsta(a + W, x);
    vsta(a + 2 * W, x);
}

/* Above the classes, below the loop's limit (rep stosb, streaming), inline in
   the 16- and 32-byte entries: glibc's stores with fewer of them split.  The
   first W-aligned block holds the first vector (unaligned) and three aligned
   ones; W-aligned blocks of 4W follow (at least one: n > 8W); the last block
   is three aligned vectors and the last one (unaligned).  Only the first and
   the last vector can cross a line: at dst + 3, 2 line-split stores where
   glibc's loop has 8; at an aligned dst, glibc's 12 stores at 10W.  No test
   for a page crossed by the first or last vector, unlike large()'s loops: on
   Intel 6/207 its two compares cost 0.89 -> 0.80x glibc at 288-512 B aligned,
   more than a crossing store (~6 ns there, in ~1.5% of random calls) costs
   (docs/perf/intel-family6-model207.md, "The memset loop inline").  The loop
   lies in one 64-byte line: a 32-byte slot that holds it (sse2:
   src/CMakeLists.txt), or, in the 32-byte variants, the asm below.

   The entry tests for the loop's sizes right after n < W: one taken jump to
   the loop, whose path then runs through one block, and one to (4W, 8W]
   (before, the loop ran on the fall-through of mid's two compares, and
   (4W, 8W] one taken jump further): aligned, sse2 96-128 B 1.00 -> 1.18x,
   192 B 0.87 -> 1.00x, avx2 192-256 B 1.01 -> 1.20x, evex 384 B 0.79 ->
   0.88x, 512 B 0.91 -> 0.98x glibc 2.41, 2-6 KiB +0.02-0.04, idle and under
   --load; the classes of [W, 2W] one compare more (against glibc 2.36, sse2
   16-32 B -0.03..-0.04, evex 48-64 B -0.03; against 2.41 unchanged): Intel
   6/167, docs/perf/intel-family6-model167.md, "The memsets' loop tested at
   the entry".  Where GCC puts the loop decides the speed of classes far
   from it (sse2 0-1 B and avx2 2-3 B lost 0.12-0.18 when the loop sat
   between the chain below W and its classes, Intel 6/207): the loop's block
   comes last. */
#if defined VEC_EVEX || defined VSET_LOOP_ASM
/* The 32-byte variants' (VSET_LOOP_ASM: memset_avx2.c), written out.  GCC's
   code for it left executed nops of padding before the aligned loop (5 long
   ones in the evex variant, whose stores are 6-7 bytes; 29 bytes in the avx2
   one), a register copy of the vector, and, with the first block stored
   after the loop, a slower order and a line-split store more at dst + 63;
   each cost 0.1-0.5 ns at 288-512 B, where a call takes ~2 ns (Intel 6/167:
   docs/perf/intel-family6-model167.md, "The evex memset's loop").  The loop
   (36 bytes evex, 28 avx2) moves to the next line only where it would cross
   one.  Every store's address is a register and a displacement (an indexed
   store's address needs a load port's AGU).  From the entry's threshold test
   to the ret the path fits two 64-byte lines: b and a in one `lea` and one
   `and` each, and in the evex variant the spread before the taken jump to
   it (set_whole_of).  Across three lines, 384 B aligned took 0.87-0.90x
   glibc 2.41's time (avx2 from a caller that drops the result, evex from
   either caller); in two, 1.00x (docs/perf/intel-family6-model167.md, "Two
   callers").  The test memset_loop_lines checks GCC's Release build for it. */
#if VEC_BITS != 256
#error "vset_loop_inline in asm: 32-byte vectors"
#endif
#ifdef VEC_EVEX
#define VSET_MOVU "vmovdqu64 "
#define VSET_MOVA "vmovdqa64 "
#define VSET_LOOP_ALIGN ".p2align 6,,35\n" /* the loop: 36 bytes */
#else
#define VSET_MOVU "vmovdqu "
#define VSET_MOVA "vmovdqa "
#define VSET_LOOP_ALIGN ".p2align 6,,27\n" /* the loop: 28 bytes */
#endif
OPS_INL void vset_loop_inline(unsigned char *d, vec x, size_t n)
{
    unsigned char *a, *b, *last = d + n - W;
    __asm__ volatile("lea -65(%[last]), %[b]\n\t"     /* b: (end - 1) & -32, less 3W: the last block */
                     "lea 128(%[d]), %[a]\n\t"       /* a: (dst + 32) & -32, plus 3W: the loop's */
                     "and $-32, %[b]\n\t"
                     "and $-32, %[a]\n\t"
                     VSET_MOVU "%[x], (%[d])\n\t"     /* the first block */
                     VSET_MOVA "%[x], -96(%[a])\n\t"
                     VSET_MOVA "%[x], -64(%[a])\n\t"
                     VSET_MOVA "%[x], -32(%[a])\n\t"
                     VSET_LOOP_ALIGN
                     "1:\n\t"
                     VSET_MOVA "%[x], (%[a])\n\t"     /* 4W a round, at least one */
                     VSET_MOVA "%[x], 32(%[a])\n\t"
                     VSET_MOVA "%[x], 64(%[a])\n\t"
                     VSET_MOVA "%[x], 96(%[a])\n\t"
                     "sub $-128, %[a]\n\t"
                     "cmp %[b], %[a]\n\t"
                     "jb 1b\n\t"
                     VSET_MOVA "%[x], (%[b])\n\t"     /* the last block */
                     VSET_MOVA "%[x], 32(%[b])\n\t"
                     VSET_MOVA "%[x], 64(%[b])\n\t"
                     VSET_MOVU "%[x], (%[last])"
                     : [a] "=&r"(a), [b] "=&r"(b)
                     : [d] "r"(d), [last] "r"(last), [x] "v"(x)
                     : "memory", "cc");
}
#else
OPS_INL void vset_loop_inline(unsigned char *d, vec x, size_t n)
{
    unsigned char *a = (unsigned char *)(((uintptr_t)d + W) & ~(uintptr_t)(W - 1));
    unsigned char *de = d + n;
    unsigned char *b = (unsigned char *)(((uintptr_t)de - 1) & ~(uintptr_t)(W - 1));
    unsigned char *p = a + 3 * W;
    vset_first_block(d, a, x);
    do {
        vsta(p, x);
        vsta(p + W, x);
        vsta(p + 2 * W, x);
        vsta(p + 3 * W, x);
        p += 4 * W;
    } while (p < b - 3 * W);
    vsta(b - 3 * W, x);
    vsta(b - 2 * W, x);
    vsta(b - W, x);
    vst(de - W, x);
}
#endif

/* memset's byte as an entry holds it: spread where each class needs it, or
   (VSET_SPREAD_FIRST, memset_sse2.c) once, before the first test. */
#ifdef VSET_SPREAD_FIRST
#if VEC_BITS != 128
#error "VSET_SPREAD_FIRST: the 16-byte entry only"
#endif
typedef vec set_byte;
OPS_INL set_byte set_byte_of(int c)
{
    vec v = vspread(set_c(c));
    __asm__("" : "+x"(v));              /* here, not sunk into the classes */
    return v;
}
OPS_INL vec set_byte_vec(set_byte x) { return x; }
OPS_INL __m128i set_byte_16(set_byte x) { return x; }
#else
typedef __m128i set_byte;
OPS_INL set_byte set_byte_of(int c) { return set_c(c); }
OPS_INL vec set_byte_vec(set_byte x) { return vspread(x); }
OPS_INL __m128i set_byte_16(set_byte x) { return spread16(x); }
#endif

/* The byte as the classes from W up take it (each stores whole vectors).
   The evex entry spreads it once, before its next test, as glibc's does on
   its entry: GCC spread it on the loop's path, after the taken jump, where
   its 6 bytes made that path run through three 64-byte lines
   (vset_loop_inline).  The other entries let GCC spread it in each class
   (the avx2 one before its first test lost: 0.85-0.91x at 96-512 B,
   docs/perf/intel-family6-model167.md). */
#ifdef VEC_EVEX
typedef vec set_whole;
OPS_INL set_whole set_whole_of(set_byte x)
{
    vec v = set_byte_vec(x);
    __asm__("" : "+v"(v));              /* here, not sunk into the classes */
    return v;
}
OPS_INL vec whole_vec(set_whole v) { return v; }
#else
typedef set_byte set_whole;
OPS_INL set_whole set_whole_of(set_byte x) { return x; }
OPS_INL vec whole_vec(set_whole x) { return set_byte_vec(x); }
#endif

/* (8W, *loop_below): the loop above; the rest (rep stosb, streaming) large()'s.
   For the two layouts of mid below. */
OPS_INL void *vset_loop_or_large(unsigned char *d, int c, set_whole w, size_t n, large_set_fn *large,
                                 const size_t *loop_below)
{
    if (unlikely(n >= *loop_below)) {
        /* rep stosb here, not in large(): each instruction on the way to it
           costs (sse2 2-4 KiB 0.91-0.95x glibc 2.41 -> 0.94-0.98x, avx2 and
           evex 4 KiB 0.94-0.96 -> 0.98-1.00x, idle and under --load, Intel
           6/207: docs/perf/intel-family6-model207.md, "rep stosb in the entry").
           From *loop_below, below the threshold, n is past *erms_min. */
        if (likely(STOSB_DIRECT(n)))
            return rep_stosb_entry_keep_rax(d, d, whole_vec(w), c, n, 0); /* [*erms_min, stop]: rep stosb */
        return large(d, c, n);                          /* the rest: large()'s          */
    }
    vset_loop_inline(d, whole_vec(w), n);
    return d;
}

OPS_INL void *vset_entry(unsigned char *d, int c, size_t n, large_set_fn *large, const size_t *loop_below)
{
    const uintptr_t ud = (uintptr_t)d;
    const set_byte x = set_byte_of(c);
    if (n < W)
        goto lt_vec;
    const set_whole w = set_whole_of(x);
    if (n > 8 * W)
        goto loop;                      /* (8W, ...): below                */
    if (n > 2 * W)
        goto mid;
    ops_vset_ht1(OPS_PLAIN, ud, whole_vec(w), n);       /* [W, 2W]: W + W                  */
    return d;
mid:
    if (n <= 4 * W)
        goto c2;
    ops_vset_ht4(OPS_PLAIN, ud, whole_vec(w), n);       /* (4W, 8W]: 4 x W from each end   */
    return d;
c2:
    ops_vset_ht2(OPS_PLAIN, ud, whole_vec(w), n);       /* (2W, 4W]: 2 x W from each end   */
    return d;
loop:
    return vset_loop_or_large(d, c, w, n, large, loop_below); /* (8W, ...) */
lt_vec:
#ifdef VEC_EVEX
    /* not n == 0: the assist of a masked store of no byte (x86_vec_entry512.h) */
    if (likely(within_page32(d))) {
        if (unlikely(n == 0))
            return d;
        set_lt32_masked(d, set_byte_vec(x), n);         /* (0, W): one masked store        */
        return d;
    }
#endif
    BELOW_W_TESTS();
    if (n >= 2)
        goto c2b;
    if (n == 0)
        return d;
    ops_set_1(OPS_PLAIN, ud, (unsigned char)c);         /* 1: the byte                     */
    return d;
#if VEC_BITS == 256
c16:
    ops_set_ht16(OPS_PLAIN, ud, set_byte_16(x), n);     /* [16, 32): 16 + 16               */
    return d;
#endif
c8:
    set_8_16(OPS_PLAIN, ud, set_byte_16(x), n);         /* [8, 16): 8 + 8                  */
    return d;
c4:
    set_4_8(OPS_PLAIN, ud, set_byte_16(x), n);          /* [4, 8): 4 + 4                   */
    return d;
c2b:
    set_2_3(OPS_PLAIN, ud, c, n);                       /* [2, 4): bytes 0, 1, n - 1       */
    return d;
}
#endif

#endif
