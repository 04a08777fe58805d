/*
 * Building blocks of the x86_64 SIMD variants, one vector width per translation
 * unit: a variant file defines VEC_BITS (128, 256 or 512), is compiled with the
 * matching flag (-mavx2, -mavx512f; SSE2 is the x86_64 baseline) and includes
 * this header.  Each size class of a variant is then one call below, in the
 * spirit of LLVM libc's memory_utils (head_tail, loop_and_tail).
 *
 * Assumptions:
 *   - x86_64: unaligned loads and stores of every width are single instructions
 *     (movdqu / vmovdqu / vmovdqu64), at the speed of aligned ones when they do
 *     not cross a cache line (feature UAL, which every x86_64 CPU has).
 *   - W = VEC_BITS / 8 bytes per vector.  "htK": K vectors from the start and K
 *     from the end, overlapping in the middle, cover any n in [K*W, 2*K*W] with
 *     no branch per byte.  Every block loads all it needs before its first store,
 *     so the blocks up to 8*W are correct for overlapping memmove as well.
 *   - Loops store to W-aligned destination addresses (a store that splits a cache
 *     line costs a second access) and load unaligned.
 *   - Non-temporal loops (movntdq) start at a 64-byte-aligned destination, so
 *     every line they write is written whole, and end with sfence: afterwards
 *     the stores are ordered like ordinary ones for other threads.
 */
#ifndef ALTMEM_X86_VEC_H
#define ALTMEM_X86_VEC_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "variants/ual/ual_access.h"
#include "x86_variants.h"

#ifndef VEC_BITS
#error "define VEC_BITS (128, 256 or 512) before including x86_vec.h"
#endif

#define INL static inline __attribute__((always_inline))

/* Layout of a variant's size classes: the class of one vector from each end
   falls through, every other class is one taken branch away (the classes
   below it in a nested test, the loops in an out-of-line function).  Taken
   branches, not instructions, bound the speed of small calls: measured on
   the machine in docs/performance.md, a 96-byte copy took 1.9 ns with the
   compiler's default layout (three taken branches) against 1.1 ns for the C
   library's (none). */
/* The return value goes to %rax on entry, as in hand-written string functions:
   an empty asm that only pins the register (no instruction), so that each
   class can end in its own ret rather than jump to a shared "mov; ret". */
#define RETURN_VALUE_IN_RAX(p) __asm__("" : "+a"(p))

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* ---- One vector ---------------------------------------------------------- */

#if VEC_BITS == 512
#ifndef __AVX512F__
#error "VEC_BITS 512 needs -mavx512f for this file"
#endif
typedef __m512i vec;
#define W 64
INL vec vld(const unsigned char *p) { return _mm512_loadu_si512((const void *)p); }
INL void vst(unsigned char *p, vec v) { _mm512_storeu_si512((void *)p, v); }
INL void vsta(unsigned char *p, vec v) { _mm512_store_si512((void *)p, v); }
INL void vstnt(unsigned char *p, vec v) { _mm512_stream_si512((void *)p, v); }
#elif VEC_BITS == 256
#ifndef __AVX2__
#error "VEC_BITS 256 needs -mavx2 for this file"
#endif
typedef __m256i vec;
#define W 32
INL vec vld(const unsigned char *p) { return _mm256_loadu_si256((const __m256i *)(const void *)p); }
INL void vst(unsigned char *p, vec v) { _mm256_storeu_si256((__m256i *)(void *)p, v); }
INL void vsta(unsigned char *p, vec v) { _mm256_store_si256((__m256i *)(void *)p, v); }
INL void vstnt(unsigned char *p, vec v) { _mm256_stream_si256((__m256i *)(void *)p, v); }
#elif VEC_BITS == 128
typedef __m128i vec;
#define W 16
INL vec vld(const unsigned char *p) { return _mm_loadu_si128((const __m128i *)(const void *)p); }
INL void vst(unsigned char *p, vec v) { _mm_storeu_si128((__m128i *)(void *)p, v); }
INL void vsta(unsigned char *p, vec v) { _mm_store_si128((__m128i *)(void *)p, v); }
INL void vstnt(unsigned char *p, vec v) { _mm_stream_si128((__m128i *)(void *)p, v); }
#else
#error "VEC_BITS must be 128, 256 or 512"
#endif

/* Fixed-width helpers every file may use (16 B is SSE2; 32 B needs AVX2). */
INL __m128i ld16v(const unsigned char *p) { return _mm_loadu_si128((const __m128i *)(const void *)p); }
INL void st16v(unsigned char *p, __m128i v) { _mm_storeu_si128((__m128i *)(void *)p, v); }
#if VEC_BITS >= 256
INL __m256i ld32v(const unsigned char *p) { return _mm256_loadu_si256((const __m256i *)(const void *)p); }
INL void st32v(unsigned char *p, __m256i v) { _mm256_storeu_si256((__m256i *)(void *)p, v); }
#endif

/* ---- Copies up to 8 vectors: every byte loaded before any is stored ------ */

/* n in [8, 16]: 8 + 8 */
INL void copy_8_16(unsigned char *d, const unsigned char *s, size_t n)
{
    uint64_t a = ld64(s), b = ld64(s + n - 8);
    st64(d, a);
    st64(d + n - 8, b);
}

/* n in [4, 8]: 4 + 4 */
INL void copy_4_8(unsigned char *d, const unsigned char *s, size_t n)
{
    uint32_t a = ld32(s), b = ld32(s + n - 4);
    st32(d, a);
    st32(d + n - 4, b);
}

/* n in [1, 3]: bytes 0, n/2 and n - 1 cover them all, no branch; every load
   before any store, so memmove may use it too. */
INL void copy_1_3_bytes(unsigned char *d, const unsigned char *s, size_t n)
{
    unsigned char a = s[0], b = s[n >> 1], c = s[n - 1];
    d[0] = a;
    d[n >> 1] = b;
    d[n - 1] = c;
}

/* n < 8: two overlapping scalar accesses per class, one byte for n == 1. */
INL void copy_lt8(unsigned char *d, const unsigned char *s, size_t n)
{
    if (n >= 4) {               /* [4, 7]: 4 + 4 */
        uint32_t a = ld32(s), b = ld32(s + n - 4);
        st32(d, a);
        st32(d + n - 4, b);
    } else if (n >= 2) {        /* [2, 3]: 2 + 2 */
        uint16_t a = ld16(s), b = ld16(s + n - 2);
        st16(d, a);
        st16(d + n - 2, b);
    } else if (n == 1) {        /* 1 */
        *d = *s;
    }
}

/* n < 16 */
INL void copy_lt16(unsigned char *d, const unsigned char *s, size_t n)
{
    if (n >= 8)
        copy_8_16(d, s, n);     /* [8, 15]: 8 + 8 */
    else
        copy_lt8(d, s, n);      /* [0, 7] */
}

/* n in [16, 32]: 16 + 16 */
INL void copy_ht16(unsigned char *d, const unsigned char *s, size_t n)
{
    __m128i a = ld16v(s), b = ld16v(s + n - 16);
    st16v(d, a);
    st16v(d + n - 16, b);
}

#if VEC_BITS >= 256
/* n in [32, 64]: 32 + 32 */
INL void copy_ht32(unsigned char *d, const unsigned char *s, size_t n)
{
    __m256i a = ld32v(s), b = ld32v(s + n - 32);
    st32v(d, a);
    st32v(d + n - 32, b);
}
#endif

/* n in [W, 2W] */
INL void vcopy_ht1(unsigned char *d, const unsigned char *s, size_t n)
{
    vec a = vld(s), z = vld(s + n - W);
    vst(d, a);
    vst(d + n - W, z);
}

/* n in [2W, 4W] */
INL void vcopy_ht2(unsigned char *d, const unsigned char *s, size_t n)
{
    vec a = vld(s), b = vld(s + W);
    vec y = vld(s + n - 2 * W), z = vld(s + n - W);
    vst(d, a);
    vst(d + W, b);
    vst(d + n - 2 * W, y);
    vst(d + n - W, z);
}

/* n in [4W, 8W] */
INL void vcopy_ht4(unsigned char *d, const unsigned char *s, size_t n)
{
    vec a = vld(s), b = vld(s + W), c = vld(s + 2 * W), e = vld(s + 3 * W);
    const unsigned char *t = s + n - 4 * W;
    vec w = vld(t), x = vld(t + W), y = vld(t + 2 * W), z = vld(t + 3 * W);
    unsigned char *u = d + n - 4 * W;
    vst(d, a);
    vst(d + W, b);
    vst(d + 2 * W, c);
    vst(d + 3 * W, e);
    vst(u, w);
    vst(u + W, x);
    vst(u + 2 * W, y);
    vst(u + 3 * W, z);
}

/* ---- Loops: n > 8W --------------------------------------------------------- */

/* Forward; correct unless dst lies inside (src, src + n).  The first vector and
   the last four are loaded up front and stored last, so that the loop may start
   at a W-aligned dst and stop as soon as at most 4W bytes remain, and so that
   no store lands on source bytes still to be read when dst < src. */
INL void vcopy_fwd(unsigned char *d, const unsigned char *s, size_t n)
{
    unsigned char *d0 = d, *de = d + n;
    const unsigned char *se = s + n;
    vec h = vld(s);
    vec t0 = vld(se - 4 * W), t1 = vld(se - 3 * W), t2 = vld(se - 2 * W), t3 = vld(se - W);
    size_t skip = W - ((uintptr_t)d & (W - 1));        /* 1..W: dst aligned after it */
    d += skip;
    s += skip;
    n -= skip;
    for (; n > 4 * W; n -= 4 * W, d += 4 * W, s += 4 * W) {   /* 4W per iteration */
        vec a = vld(s), b = vld(s + W), c = vld(s + 2 * W), e = vld(s + 3 * W);
        vsta(d, a);
        vsta(d + W, b);
        vsta(d + 2 * W, c);
        vsta(d + 3 * W, e);
    }
    vst(de - 4 * W, t0);
    vst(de - 3 * W, t1);
    vst(de - 2 * W, t2);
    vst(de - W, t3);
    vst(d0, h);
}

/* (dst - src) mod 4096 in [0, 256), regions apart: a forward 256-byte loop's
   loads would wait on stores just made whose addresses match in the low 12
   bits (4 KiB aliasing: inside the call for 1..255, and, for 0, on the stores
   of the previous call when the same buffers are copied again); a backward
   loop's do not.  glibc 2.36 makes the same choice.  Measured (interleaved
   A/B of two builds, 600 B-1 KiB): memcpy d+63 0.84-0.94x -> 1.0x glibc,
   s+1/d+3 0.92-0.96x -> 1.0x, 0/0 0.84-0.96x -> 0.91-1.0x; 8 KiB s+1/d+3
   1.05-1.10x -> 1.09-1.19x. */
INL int alias_4k_ahead(const unsigned char *d, const unsigned char *s)
{
    return (((uintptr_t)d - (uintptr_t)s) & 4095) < 256;
}

/* Backward; correct unless dst lies below src inside its range.  Mirror image
   of vcopy_fwd: the first four vectors and the last one up front. */
INL void vcopy_bwd(unsigned char *d, const unsigned char *s, size_t n)
{
    unsigned char *de = d + n;
    vec t = vld(s + n - W);
    vec h0 = vld(s), h1 = vld(s + W), h2 = vld(s + 2 * W), h3 = vld(s + 3 * W);
    n -= (uintptr_t)de & (W - 1);                      /* d + n aligned now */
    for (; n > 4 * W; n -= 4 * W) {                    /* 4W per iteration, from the end */
        const unsigned char *p = s + n - 4 * W;
        unsigned char *q = d + n - 4 * W;
        vec a = vld(p), b = vld(p + W), c = vld(p + 2 * W), e = vld(p + 3 * W);
        vsta(q + 3 * W, e);
        vsta(q + 2 * W, c);
        vsta(q + W, b);
        vsta(q, a);
    }
    vst(d, h0);
    vst(d + W, h1);
    vst(d + 2 * W, h2);
    vst(d + 3 * W, h3);
    vst(de - W, t);
}

/* vcopy_fwd_nt copies four pages at a time, so memmove may stream a forward
   overlap only when src is at least this far ahead of dst. */
#define NT_MIN_AHEAD (4 * 4096)

/* Forward with non-temporal stores, n > 8W (>= 128 bytes); for regions apart,
   or src at least NT_MIN_AHEAD above dst (each store then lands on source
   bytes already read).  The first 64 bytes and the last 4W go through the
   cache as ordinary stores; between them whole 64-byte lines are streamed. */
INL void vcopy_fwd_nt(unsigned char *d, const unsigned char *s, size_t n)
{
    unsigned char *de = d + n;
    const unsigned char *se = s + n;
    vec t0 = vld(se - 4 * W), t1 = vld(se - 3 * W), t2 = vld(se - 2 * W), t3 = vld(se - W);
    for (size_t k = 0; k < 64; k += W)                 /* head: first 64 bytes */
        vst(d + k, vld(s + k));
    size_t skip = 64 - ((uintptr_t)d & 63);            /* 1..64: dst line-aligned after it */
    d += skip;
    s += skip;
    n -= skip;
    /* Four 4 KiB pages at a time, 4W from each in turn: four streams for the
       memory system (and the page-bound hardware prefetchers) instead of one. */
    for (; n > 4 * 4096 + 4 * W; n -= 4 * 4096, d += 4 * 4096, s += 4 * 4096)
        for (size_t k = 0; k < 4096; k += 4 * W)
            for (size_t p = 0; p < 4 * 4096; p += 4096) {
                const unsigned char *q = s + p + k;
                vec a = vld(q), b = vld(q + W), c = vld(q + 2 * W), e = vld(q + 3 * W);
                vstnt(d + p + k, a);
                vstnt(d + p + k + W, b);
                vstnt(d + p + k + 2 * W, c);
                vstnt(d + p + k + 3 * W, e);
            }
    for (; n > 4 * W; n -= 4 * W, d += 4 * W, s += 4 * W) {
        vec a = vld(s), b = vld(s + W), c = vld(s + 2 * W), e = vld(s + 3 * W);
        vstnt(d, a);
        vstnt(d + W, b);
        vstnt(d + 2 * W, c);
        vstnt(d + 3 * W, e);
    }
    _mm_sfence();
    vst(de - 4 * W, t0);
    vst(de - 3 * W, t1);
    vst(de - 2 * W, t2);
    vst(de - W, t3);
}

/* Backward with non-temporal stores, n > 8W, for memmove with dst at least
   4 KiB above src inside its range: each store lands on source bytes at least
   a page above the next load, already read.  Mirror image of vcopy_fwd_nt's
   simple loop: the last 64 bytes and the first 4W through the cache. */
INL void vcopy_bwd_nt(unsigned char *d, const unsigned char *s, size_t n)
{
    unsigned char *de = d + n;
    const unsigned char *se = s + n;
    vec h0 = vld(s), h1 = vld(s + W), h2 = vld(s + 2 * W), h3 = vld(s + 3 * W);
    for (size_t k = 64; k > 0; k -= W)                 /* tail: last 64 bytes */
        vst(de - k, vld(se - k));
    n -= ((uintptr_t)de & 63) ? ((uintptr_t)de & 63) : 64;   /* d + n line-aligned, below the tail */
    for (; n > 4 * W; n -= 4 * W) {
        const unsigned char *p = s + n - 4 * W;
        unsigned char *q = d + n - 4 * W;
        vec a = vld(p), b = vld(p + W), c = vld(p + 2 * W), e = vld(p + 3 * W);
        vstnt(q + 3 * W, e);
        vstnt(q + 2 * W, c);
        vstnt(q + W, b);
        vstnt(q, a);
    }
    _mm_sfence();
    vst(d, h0);
    vst(d + W, h1);
    vst(d + 2 * W, h2);
    vst(d + 3 * W, h3);
}

/* ---- String instructions (ERMS) ---------------------------------------------- */

/* (dst - src) mod 4096 in [1, 63]: where rep movsb falls to 1.5-2.7 GB/s on
   AMD Zen 3 (21-42 GB/s at other distances; glibc BZ 30994).  The ERMS variants keep
   their vector loop there; on the machine of docs/performance.md the two run at
   the same speed at these distances, so the guard costs nothing measurable. */
INL int movsb_short_distance(const unsigned char *d, const unsigned char *s)
{
    return (((uintptr_t)d - (uintptr_t)s) & 4095) - 1 < altmem__movsb_short_distance;
}

INL void rep_movsb(unsigned char *d, const unsigned char *s, size_t n)
{
    __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

INL void rep_stosb(unsigned char *d, int c, size_t n)
{
    __asm__ volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
}

/* ---- Sets ------------------------------------------------------------------------ */

/* memset's byte: c goes into a vector register once (movd); each size class
   then spreads it as wide as it needs (vpbroadcastb with AVX2). */
INL __m128i set_c(int c) { return _mm_cvtsi32_si128(c); }
#if VEC_BITS >= 256
INL __m128i spread16(__m128i x) { return _mm_broadcastb_epi8(x); }
INL __m256i spread32(__m128i x) { return _mm256_broadcastb_epi8(x); }
#else
INL __m128i spread16(__m128i x)
{
    x = _mm_unpacklo_epi8(x, x);
    x = _mm_unpacklo_epi16(x, x);
    return _mm_shuffle_epi32(x, 0);
}
#endif
/* The whole vector (zmm byte broadcast needs BW, not used here: a dword one). */
#if VEC_BITS == 512
INL vec vspread(__m128i x) { return _mm512_broadcastd_epi32(_mm_broadcastb_epi8(x)); }
#elif VEC_BITS == 256
INL vec vspread(__m128i x) { return spread32(x); }
#else
INL vec vspread(__m128i x) { return spread16(x); }
#endif

/* n in [8, 16]: x holds the byte spread over 16 */
INL void set_8_16(unsigned char *d, __m128i x, size_t n)
{
    _mm_storel_epi64((__m128i *)(void *)d, x);
    _mm_storel_epi64((__m128i *)(void *)(d + n - 8), x);
}

/* n in [4, 8] */
INL void set_4_8(unsigned char *d, __m128i x, size_t n)
{
    _mm_storeu_si32((void *)d, x);
    _mm_storeu_si32((void *)(d + n - 4), x);
}

/* n in [2, 4]; c is the byte itself */
INL void set_2_4(unsigned char *d, int c, size_t n)
{
    uint16_t v = (uint16_t)(0x0101u * (unsigned char)c);
    st16(d, v);
    st16(d + n - 2, v);
}

/* n < 8; c is the byte itself */
INL void set_lt8(unsigned char *d, __m128i x, int c, size_t n)
{
    if (n >= 4) {               /* [4, 7]: 4 + 4 */
        _mm_storeu_si32((void *)d, x);
        _mm_storeu_si32((void *)(d + n - 4), x);
    } else if (n >= 2) {        /* [2, 3]: 2 + 2 */
        uint16_t v = (uint16_t)_mm_cvtsi128_si32(x);
        st16(d, v);
        st16(d + n - 2, v);
    } else if (n == 1) {        /* 1 */
        *d = (unsigned char)c;
    }
}

/* n < 16 */
INL void set_lt16(unsigned char *d, __m128i x, int c, size_t n)
{
    if (n >= 8)
        set_8_16(d, x, n);      /* [8, 15]: 8 + 8 */
    else
        set_lt8(d, x, c, n);    /* [0, 7] */
}

#if VEC_BITS == 512
/* 64 bytes from p stay inside p's 4 KiB page: a byte-masked access may then
   cover masked-off bytes without the microcode assist (~100 ns here) that a
   masked access reaching into the next page costs, mapped or not. */
INL int within_page64(const unsigned char *p) { return ((uintptr_t)p & 4095) <= 4096 - 64; }

/* lowmask64[k]: the low k bytes of a 64-byte vector, k in [0, 64); loaded into
   a mask register (a shift would need BMI2's bzhi or three dependent ops). */
static const uint64_t lowmask64[64] __attribute__((unused, aligned(64))) = {
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
    0x1fffffffffffffffull, 0x3fffffffffffffffull, 0x7fffffffffffffffull
};

/* n < 64, d + 64 within d's page: one byte-masked 64-byte store; bytes at and
   past d + n are masked off and never written. */
INL void set_lt64_masked(unsigned char *d, int c, size_t n)
{
    _mm512_mask_storeu_epi8((void *)d, (__mmask64)lowmask64[n], _mm512_set1_epi8((char)c));
}
#endif

/* n in [16, 32] */
INL void set_ht16(unsigned char *d, __m128i x, size_t n)
{
    st16v(d, x);
    st16v(d + n - 16, x);
}

#if VEC_BITS >= 256
/* n in [32, 64] */
INL void set_ht32(unsigned char *d, __m256i y, size_t n)
{
    st32v(d, y);
    st32v(d + n - 32, y);
}
#endif

/* n in [W, 2W] */
INL void vset_ht1(unsigned char *d, vec x, size_t n)
{
    vst(d, x);
    vst(d + n - W, x);
}

/* n in [2W, 4W] */
INL void vset_ht2(unsigned char *d, vec x, size_t n)
{
    vst(d, x);
    vst(d + W, x);
    vst(d + n - 2 * W, x);
    vst(d + n - W, x);
}

/* n in [4W, 8W] */
INL void vset_ht4(unsigned char *d, vec x, size_t n)
{
    unsigned char *u = d + n - 4 * W;
    vst(d, x);
    vst(d + W, x);
    vst(d + 2 * W, x);
    vst(d + 3 * W, x);
    vst(u, x);
    vst(u + W, x);
    vst(u + 2 * W, x);
    vst(u + 3 * W, x);
}

/* n > 8W: one unaligned vector, a W-aligned loop of 4W, the last 4W unaligned. */
INL void vset_loop(unsigned char *d, vec x, size_t n)
{
    unsigned char *de = d + n;
    vst(d, x);
    d += W - ((uintptr_t)d & (W - 1));
    for (; (size_t)(de - d) > 4 * W; d += 4 * W) {
        vsta(d, x);
        vsta(d + W, x);
        vsta(d + 2 * W, x);
        vsta(d + 3 * W, x);
    }
    vst(de - 4 * W, x);
    vst(de - 3 * W, x);
    vst(de - 2 * W, x);
    vst(de - W, x);
}

/* n > 8W, non-temporal: the first 64 bytes and the last 4W cached, whole lines
   streamed between them. */
INL void vset_nt(unsigned char *d, vec x, size_t n)
{
    unsigned char *de = d + n;
    for (size_t k = 0; k < 64; k += W)
        vst(d + k, x);
    d += 64 - ((uintptr_t)d & 63);
    for (; (size_t)(de - d) > 4 * W; d += 4 * W) {
        vstnt(d, x);
        vstnt(d + W, x);
        vstnt(d + 2 * W, x);
        vstnt(d + 3 * W, x);
    }
    _mm_sfence();
    vst(de - 4 * W, x);
    vst(de - 3 * W, x);
    vst(de - 2 * W, x);
    vst(de - W, x);
}

#endif
