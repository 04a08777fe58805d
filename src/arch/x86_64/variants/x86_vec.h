/*
 * The x86_64 vector width of a variant, one width per translation unit: a
 * variant file defines VEC_BITS (128, 256 or 512), is compiled with the
 * matching flag (-mavx2, -mavx512f; SSE2 is the x86_64 baseline) and includes
 * this header.  It supplies the vector type and accessors that the shared size
 * classes (src/ops/scalar.h, src/ops/vector.h) are instantiated with, and what
 * only x86_64 has: memset's classes below 16 bytes (stores of an xmm
 * register's low bytes), the AVX-512 masked store, the memcpy / memmove loops
 * with their non-temporal and rep movsb forms, and the entries of the 16- and
 * 32-byte variants.  memcpy / memmove / memset call the classes with
 * OPS_PLAIN, copy_user / clear_user (src/arch/x86_64/uaccess/ua_x86_vec.h)
 * with OPS_FAULT.
 *
 * Assumptions:
 *   - x86_64: unaligned loads and stores of every width are single instructions
 *     (movdqu / vmovdqu / vmovdqu64), at the speed of aligned ones when they do
 *     not cross a cache line (feature UAL, which every x86_64 CPU has).
 *   - W = VEC_BITS / 8 bytes per vector.
 *   - Loops store to W-aligned destination addresses (a store that splits a cache
 *     line costs a second access) and load unaligned.  A store that splits a
 *     4 KiB page costs far more (about 10 ns on Zen 4): where a loop's
 *     unaligned first or last vectors would, its ends go as pieces inside
 *     their W-aligned blocks (vcopy_fwd_pieces, vcopy_bwd_pieces, vset_pieces).
 *   - Non-temporal loops (movntdq) start at a 64-byte-aligned destination, so
 *     every line they write is written whole, and end with sfence: afterwards
 *     the stores are ordered like ordinary ones for other threads.
 */
#ifndef ALTMEM_X86_VEC_H
#define ALTMEM_X86_VEC_H

#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "ops/scalar.h"
#include "policy.h"
#include "registry.h"

#ifndef VEC_BITS
#error "define VEC_BITS (128, 256 or 512) before including x86_vec.h"
#endif

/* Layout of a variant's size classes: the class of one vector from each end
   falls through, every other class is one taken branch away (the classes
   below it in a nested test, the loops in an out-of-line function).  Taken
   branches, not instructions, bound the speed of small calls (the figures:
   docs/perf/variant-figures.md). */
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
OPS_INL vec vld(const unsigned char *p) { return _mm512_loadu_si512((const void *)p); }
OPS_INL void vst(unsigned char *p, vec v) { _mm512_storeu_si512((void *)p, v); }
OPS_INL void vsta(unsigned char *p, vec v) { _mm512_store_si512((void *)p, v); }
OPS_INL void vstnt(unsigned char *p, vec v) { _mm512_stream_si512((void *)p, v); }
#elif VEC_BITS == 256
#ifndef __AVX2__
#error "VEC_BITS 256 needs -mavx2 for this file"
#endif
typedef __m256i vec;
#define W 32
OPS_INL vec vld(const unsigned char *p) { return _mm256_loadu_si256((const __m256i *)(const void *)p); }
OPS_INL void vst(unsigned char *p, vec v) { _mm256_storeu_si256((__m256i *)(void *)p, v); }
OPS_INL void vsta(unsigned char *p, vec v) { _mm256_store_si256((__m256i *)(void *)p, v); }
OPS_INL void vstnt(unsigned char *p, vec v) { _mm256_stream_si256((__m256i *)(void *)p, v); }
#elif VEC_BITS == 128
typedef __m128i vec;
#define W 16
OPS_INL vec vld(const unsigned char *p) { return _mm_loadu_si128((const __m128i *)(const void *)p); }
OPS_INL void vst(unsigned char *p, vec v) { _mm_storeu_si128((__m128i *)(void *)p, v); }
OPS_INL void vsta(unsigned char *p, vec v) { _mm_store_si128((__m128i *)(void *)p, v); }
OPS_INL void vstnt(unsigned char *p, vec v) { _mm_stream_si128((__m128i *)(void *)p, v); }
#else
#error "VEC_BITS must be 128, 256 or 512"
#endif

/* Fixed-width helpers every file may use (16 B is SSE2; 32 B needs AVX2). */
OPS_INL __m128i ld16v(const unsigned char *p) { return _mm_loadu_si128((const __m128i *)(const void *)p); }
OPS_INL void st16v(unsigned char *p, __m128i v) { _mm_storeu_si128((__m128i *)(void *)p, v); }
#if VEC_BITS >= 256
OPS_INL __m256i ld32v(const unsigned char *p) { return _mm256_loadu_si256((const __m256i *)(const void *)p); }
OPS_INL void st32v(unsigned char *p, __m256i v) { _mm256_storeu_si256((__m256i *)(void *)p, v); }
#endif

/* ---- The accessors the shared classes are instantiated with ------------------ */

typedef vec ops_vec;
#define OPS_W W
#if VEC_BITS == 512
#define X86_UA_VLD(v, p, L) UA_VLD64(v, p, L)
#define X86_UA_VST(p, v, L) UA_VST64(p, v, L)
#define X86_UA_VSTNT(p, v, L) UA_VST64NT(p, v, L)
#elif VEC_BITS == 256
#define X86_UA_VLD(v, p, L) UA_VLD32(v, p, L)
#define X86_UA_VST(p, v, L) UA_VST32(p, v, L)
#define X86_UA_VSTNT(p, v, L) UA_VST32NT(p, v, L)
#else
#define X86_UA_VLD(v, p, L) UA_VLD16(v, p, L)
#define X86_UA_VST(p, v, L) UA_VST16(p, v, L)
#endif

#define X86_FAULT_VLD(v, p, off, L) X86_UA_VLD(v, (p) + (off), L)
#define X86_FAULT_VST(p, off, v, L) X86_UA_VST((p) + (off), v, L)
OPS_VECTOR_LOAD(vec, ops_vld, vld, X86_FAULT_VLD)
OPS_VECTOR_STORE(vec, ops_vst, vst, X86_FAULT_VST)

/* Where faults are recorded, the aligned store is vmovdqu (as fast at an
   aligned address), the streaming one vmovntdq with its own entry. */
OPS_INL size_t ops_vstore(const enum ops_access acc, const enum ops_store how, uintptr_t p, ptrdiff_t off, vec v)
{
    if (acc == OPS_FAULT && how == OPS_ALIGNED)
        return ops_vst(acc, p, off, v);
    if (acc == OPS_FAULT) {
#ifdef X86_UA_VSTNT
        X86_UA_VSTNT(p + off, v, fault);
        return OPS_OK;
    fault:
#endif
        return 0;
    }
    if (how == OPS_ALIGNED)
        vsta((unsigned char *)p + off, v);
    else
        vstnt((unsigned char *)p + off, v);
    return OPS_OK;
}

#define OPS_STORE_ORDER() __asm__ volatile("" ::: "memory")

/* 16 bytes (SSE2) and, with AVX2, 32 bytes: the classes below W. */
#define OPS_HAVE_V16 1
typedef __m128i ops_v16;
#define X86_FAULT_VLD16(v, p, off, L) UA_VLD16(v, (p) + (off), L)
#define X86_FAULT_VST16(p, off, v, L) UA_VST16((p) + (off), v, L)
OPS_VECTOR_LOAD(__m128i, ops_ld16v, ld16v, X86_FAULT_VLD16)
OPS_VECTOR_STORE(__m128i, ops_st16v, st16v, X86_FAULT_VST16)
#if VEC_BITS >= 256
#define OPS_HAVE_V32 1
typedef __m256i ops_v32;
#define X86_FAULT_VLD32(v, p, off, L) UA_VLD32(v, (p) + (off), L)
#define X86_FAULT_VST32(p, off, v, L) UA_VST32((p) + (off), v, L)
OPS_VECTOR_LOAD(__m256i, ops_ld32v, ld32v, X86_FAULT_VLD32)
OPS_VECTOR_STORE(__m256i, ops_st32v, st32v, X86_FAULT_VST32)
#endif

/* The low 8 / 4 bytes of an xmm register (memset's classes below 16 bytes). */
OPS_INL void st_low8(unsigned char *q, __m128i x) { _mm_storel_epi64((__m128i *)(void *)q, x); }
OPS_INL void st_low4(unsigned char *q, __m128i x) { _mm_storeu_si32(q, x); }
#define X86_FAULT_STQ(p, off, x, L) UA_VSTQ((p) + (off), x, L)
#define X86_FAULT_STD(p, off, x, L) UA_VSTD((p) + (off), x, L)
OPS_VECTOR_STORE(__m128i, x86_st_low8, st_low8, X86_FAULT_STQ)
OPS_VECTOR_STORE(__m128i, x86_st_low4, st_low4, X86_FAULT_STD)

#include "ops/vector.h"

/* ---- A piece of 1..W-1 bytes inside one W-aligned block ---------------------

   A store that splits a 4 KiB page costs far more than one that splits a line:
   on Zen 4 a 4 KiB copy to dst + 1 took 45.5 ns when its last vectors crossed
   into the next page and 35.8 ns when they did not (n = 4095: the end on the
   boundary).  Where a loop's unaligned first or last vectors would cross a
   page, the bytes between the page boundary and the end go as a piece: two
   overlapping accesses of the largest power of two <= k, both inside the
   piece's W-aligned block (so never across a page).  The loads are held in
   registers, so that a piece may be loaded before a loop and stored after it. */
struct piece {
#if VEC_BITS == 512
    __m256i y0, y1;     /* k in [32, 64) */
#endif
    __m128i x0, x1;     /* k in [1, 32): 16, 8, 4, 2 or 1 bytes in the low end of each */
    size_t k;
};

OPS_INL __m128i ld_low(const unsigned char *s, size_t w)
{
    uint32_t v;
    if (w == 8)
        return _mm_loadl_epi64((const __m128i *)(const void *)s);
    if (w == 4)
        __builtin_memcpy(&v, s, 4);
    else if (w == 2) {
        uint16_t h;
        __builtin_memcpy(&h, s, 2);
        v = h;
    } else
        v = *s;
    return _mm_cvtsi32_si128((int)v);
}

OPS_INL void st_low(unsigned char *d, __m128i x, size_t w)
{
    uint32_t v = (uint32_t)_mm_cvtsi128_si32(x);
    if (w == 8)
        _mm_storel_epi64((__m128i *)(void *)d, x);
    else if (w == 4)
        __builtin_memcpy(d, &v, 4);
    else if (w == 2) {
        uint16_t h = (uint16_t)v;
        __builtin_memcpy(d, &h, 2);
    } else
        *d = (unsigned char)v;
}

OPS_INL size_t piece_width(size_t k) { return k >= 16 ? 16 : k >= 8 ? 8 : k >= 4 ? 4 : k >= 2 ? 2 : 1; }

OPS_INL struct piece piece_load(const unsigned char *s, size_t k)
{
    struct piece p;
    p.k = k;
#if VEC_BITS == 512
    p.y0 = p.y1 = _mm256_setzero_si256();
    if (k >= 32) {
        p.y0 = ld32v(s);
        p.y1 = ld32v(s + k - 32);
        p.x0 = p.x1 = _mm_setzero_si128();
        return p;
    }
#endif
    size_t w = piece_width(k);
    if (w == 16) {
        p.x0 = ld16v(s);
        p.x1 = ld16v(s + k - 16);
    } else {
        p.x0 = ld_low(s, w);
        p.x1 = ld_low(s + k - w, w);
    }
    return p;
}

OPS_INL void piece_store(unsigned char *d, const struct piece *p)
{
    size_t k = p->k;
#if VEC_BITS == 512
    if (k >= 32) {
        st32v(d, p->y0);
        st32v(d + k - 32, p->y1);
        return;
    }
#endif
    size_t w = piece_width(k);
    if (w == 16) {
        st16v(d, p->x0);
        st16v(d + k - 16, p->x1);
    } else {
        st_low(d, p->x0, w);
        st_low(d + k - w, p->x1, w);
    }
}

/* ---- Loops of memcpy / memmove: n > 8W -------------------------------------

   Plain accesses only: their first vector (vcopy_fwd) or last (vcopy_bwd) is
   stored last, after the loop, which memmove needs (with dst just below src, a
   head stored first would overwrite source bytes the loop has still to read)
   and a fault-tolerant copy cannot have (a fault in the loop would leave a
   hole below the progress).  copy_user's own loops (src/arch/x86_64/uaccess/ua_x86_vec.h)
   store in ascending order from the same 4-vector blocks (ops_vcopy_block4). */

/* Forward; correct unless dst lies inside (src, src + n).  The first vector and
   the last four are loaded up front and stored last (the first only when dst
   is not W-aligned), so that the loop may start at a W-aligned dst and stop as
   soon as at most 4W bytes remain, and so that no store lands on source bytes
   still to be read when dst < src.  Where the first vector or one of the last
   four would cross a page, vcopy_fwd_pieces (out of line: the test is the one
   not-taken branch the common path pays; with -fno-reorder-blocks an inline
   slow path would cost taken jumps around it). */
static void *vcopy_fwd_pieces(unsigned char *d, const unsigned char *s, size_t n);

/* The first vector crosses a page when dst lies in the last W - 1 bytes of
   one; one of the last four may when dst + n lies 1..4W - 1 bytes past a
   boundary (at a W step from it none does, and the pieces cost little). */
OPS_INL int fwd_ends_cross_page(uintptr_t d, uintptr_t de)
{
    return (d & 4095) > 4096 - W || ((de - 1) & 4095) < 4 * W - 1;
}

OPS_INL void *vcopy_fwd(unsigned char *d, const unsigned char *s, size_t n)
{
    unsigned char *d0 = d, *de = d + n;
    const unsigned char *se = s + n;
    if (likely(!fwd_ends_cross_page((uintptr_t)d, (uintptr_t)de))) {
        vec h = vld(s);
        vec t0 = vld(se - 4 * W), t1 = vld(se - 3 * W), t2 = vld(se - 2 * W), t3 = vld(se - W);
        size_t skip = -(uintptr_t)d & (W - 1);         /* 0..W-1: dst aligned after it */
        d += skip;
        s += skip;
        n -= skip;
        for (; n > 4 * W; n -= 4 * W, d += 4 * W, s += 4 * W)   /* 4W per iteration */
            ops_vcopy_block4(OPS_PLAIN, OPS_ALIGNED, (uintptr_t)d, (uintptr_t)s);
        vst(de - 4 * W, t0);
        vst(de - 3 * W, t1);
        vst(de - 2 * W, t2);
        vst(de - W, t3);
        /* At a W-aligned dst the loop stored the first vector: storing it again
           would cost W bytes of stores, and starting the loop a vector later would
           leave its end one vector past a 4W multiple (768 B: 13 stores for 12,
           as ops_vset_loop). */
        if (skip)
            vst(d0, h);
        return d0;
    }
    return vcopy_fwd_pieces(d, s, n);  /* a tail call: no frame on the common path */
}

/* vcopy_fwd where its first or last vectors would cross a page (a 4 KiB copy
   to dst + 1 on Zen 4: 45.5 ns, 35.8 without the crossing): the same loop, the
   first bytes up to the boundary as a piece loaded up front and stored last,
   and the rest after the loop from the source again, W-aligned vectors and a
   piece (every byte read then lies at or above what is left to copy, which no
   store so far reached: dst <= src, or apart). */
static __attribute__((noinline, cold)) void *vcopy_fwd_pieces(unsigned char *d, const unsigned char *s, size_t n)
{
    unsigned char *d0 = d;
    size_t skip = -(uintptr_t)d & (W - 1);
    struct piece hp = piece_load(s, skip ? skip : 1);
    d += skip;
    s += skip;
    n -= skip;
    for (; n > 4 * W; n -= 4 * W, d += 4 * W, s += 4 * W)
        ops_vcopy_block4(OPS_PLAIN, OPS_ALIGNED, (uintptr_t)d, (uintptr_t)s);
    for (; n >= W; n -= W, d += W, s += W)
        vsta(d, vld(s));
    if (n) {
        struct piece tp = piece_load(s, n);
        piece_store(d, &tp);
    }
    if (skip)
        piece_store(d0, &hp);
    return d0;
}

/* (dst - src) mod 4096 in [0, 256), regions apart: a forward 256-byte loop's
   loads would wait on stores just made whose addresses match in the low 12
   bits (4 KiB aliasing: inside the call for 1..255, and, for 0, on the stores
   of the previous call when the same buffers are copied again); a backward
   loop's do not.  glibc 2.36 makes the same choice (what it bought:
   docs/perf/variant-figures.md). */
OPS_INL int alias_4k_ahead(const unsigned char *d, const unsigned char *s)
{
    return (((uintptr_t)d - (uintptr_t)s) & 4095) < 256;
}

/* The 4W bytes below qe from the 4W below pe: all four loaded, then stored
   from the top down (OPS_STORE_ORDER), W-aligned. */
OPS_INL void vcopy_bwd_block4(unsigned char *qe, const unsigned char *pe)
{
    vec e = vld(pe - W), c = vld(pe - 2 * W), b = vld(pe - 3 * W), a = vld(pe - 4 * W);
    vsta(qe - W, e);
    OPS_STORE_ORDER();
    vsta(qe - 2 * W, c);
    OPS_STORE_ORDER();
    vsta(qe - 3 * W, b);
    OPS_STORE_ORDER();
    vsta(qe - 4 * W, a);
}

/* Backward; correct unless dst lies below src inside its range.  Mirror image
   of vcopy_fwd: the first four vectors and the last one up front (the last
   stored only when dst + n is not W-aligned); vcopy_bwd_pieces where one of
   them would cross a page. */
static void *vcopy_bwd_pieces(unsigned char *d, const unsigned char *s, size_t n);

/* The last vector crosses a page when dst + n lies 1..W - 1 bytes past a
   boundary; one of the first four may when dst lies in the last 4W - 1 bytes
   of a page. */
OPS_INL int bwd_ends_cross_page(uintptr_t d, uintptr_t de)
{
    return ((de - 1) & 4095) < W - 1 || (d & 4095) > 4096 - 4 * W;
}

OPS_INL void *vcopy_bwd(unsigned char *d, const unsigned char *s, size_t n)
{
    unsigned char *de = d + n;
    if (likely(!bwd_ends_cross_page((uintptr_t)d, (uintptr_t)de))) {
        vec t = vld(s + n - W);
        vec h0 = vld(s), h1 = vld(s + W), h2 = vld(s + 2 * W), h3 = vld(s + 3 * W);
        n -= (uintptr_t)de & (W - 1);                  /* d + n aligned now */
        for (; n > 4 * W; n -= 4 * W)                  /* 4W per iteration, from the end */
            vcopy_bwd_block4(d + n, s + n);
        vst(d, h0);
        vst(d + W, h1);
        vst(d + 2 * W, h2);
        vst(d + 3 * W, h3);
        if ((uintptr_t)de & (W - 1))    /* at a W-aligned end the loop stored it */
            vst(de - W, t);
        return d;
    }
    return vcopy_bwd_pieces(d, s, n);  /* a tail call: no frame on the common path */
}

/* vcopy_bwd where its first or last vectors would cross a page: the bytes
   above the last W boundary as a piece loaded up front and stored last, the
   same loop from the top down, then the rest, [d, d + n), from the source
   again from the top down, W-aligned vectors and a piece: every byte read lies
   below what the loop stored (dst >= src, or apart), and each store lands
   above the source bytes still to be read. */
static __attribute__((noinline, cold)) void *vcopy_bwd_pieces(unsigned char *d, const unsigned char *s, size_t n)
{
    unsigned char *de = d + n;
    size_t top = (uintptr_t)de & (W - 1);
    struct piece tp = piece_load(s + n - (top ? top : 1), top ? top : 1);
    n -= top;
    for (; n > 4 * W; n -= 4 * W)
        vcopy_bwd_block4(d + n, s + n);
    for (; n >= W; n -= W)
        vsta(d + n - W, vld(s + n - W));
    if (n) {
        struct piece bp = piece_load(s, n);
        piece_store(d, &bp);
    }
    if (top)
        piece_store(de - top, &tp);
    return d;
}

/* vcopy_fwd_nt copies four pages at a time, so memmove may stream a forward
   overlap only when src is at least this far ahead of dst. */
#define NT_MIN_AHEAD (4 * 4096)

/* Forward with non-temporal stores, n > 8W (>= 128 bytes); for regions apart,
   or src at least NT_MIN_AHEAD above dst (each store then lands on source
   bytes already read).  The first 64 bytes and the last 4W go through the
   cache as ordinary stores; between them whole 64-byte lines are streamed. */
OPS_INL void vcopy_fwd_nt(unsigned char *d, const unsigned char *s, size_t n)
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
       memory system (and the page-bound hardware prefetchers) instead of one;
       where the rules say one stream wins (src/policy.c, amd-zen4), straight on. */
    if (altmem__copy_nt_four_pages)
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
    for (; n > 4 * W; n -= 4 * W, d += 4 * W, s += 4 * W)
        ops_vcopy_block4(OPS_PLAIN, OPS_STREAMING, (uintptr_t)d, (uintptr_t)s);
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
OPS_INL void vcopy_bwd_nt(unsigned char *d, const unsigned char *s, size_t n)
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

OPS_INL void rep_movsb(unsigned char *d, const unsigned char *s, size_t n)
{
    __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

OPS_INL void rep_stosb(unsigned char *d, int c, size_t n)
{
    __asm__ volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
}



/* (dst - src) mod 4096 in [1, 63]: where rep movsb falls to 1.5-2.7 GB/s on
   AMD Zen 3 (21-42 GB/s at other distances; glibc BZ 30994).  The ERMS variants keep
   their vector loop there; on the machine of docs/performance.md the two run at
   the same speed at these distances, so the guard costs nothing measurable. */
OPS_INL int movsb_short_distance(uintptr_t d, uintptr_t s)
{
    return (((uintptr_t)d - (uintptr_t)s) & 4095) - 1 < altmem__movsb_short_distance;
}

/* Where this width's memcpy / memmove stream (src/policy.c: amd-zen4 keeps
   the 16-byte copies cached). */
#if VEC_BITS == 128
#define COPY_NT_THRESHOLD altmem__nt_threshold_16
#else
#define COPY_NT_THRESHOLD altmem__nt_threshold
#endif

#if VEC_BITS < 512
/* memmove above the classes, for the 16- and 32-byte widths (memmove_avx512 has
   its own: the co-aligned rep movsb start).  The common case first, falling
   through (the blocks stay in source order, src/CMakeLists.txt): dst not
   inside the source, below the rep movsb and streaming starts, not the 4 KiB
   alias (then backward, as memcpy).  Behind the tests below it took two taken jumps more than
   memcpy's large(): sse2 memmove 0.86-0.90x glibc's at 384-768 B where memcpy
   was 0.96-1.09x (docs/perf/intel-family6-model167.md). */
OPS_INL void *vmove_large(unsigned char *d, const unsigned char *s, size_t n, const size_t *erms_min)
{
    uintptr_t fwd = (uintptr_t)d - (uintptr_t)s, bwd = (uintptr_t)s - (uintptr_t)d;
    if (__builtin_expect(fwd >= n && n < *erms_min && n < COPY_NT_THRESHOLD, 1) &&
        !alias_4k_ahead(d, s))
        return vcopy_fwd(d, s, n);
    int back = fwd < n || (bwd >= n && n < *erms_min && alias_4k_ahead(d, s));
    if (back && (n < COPY_NT_THRESHOLD || fwd < 4096))
        return vcopy_bwd(d, s, n);      /* dst inside (src, src+n), or the 4 KiB alias: backward */
    else if (back)
        vcopy_bwd_nt(d, s, n);          /* [nt, ...), dst 4 KiB+ above src or apart: backward, streaming */
    else if (n >= COPY_NT_THRESHOLD && bwd >= NT_MIN_AHEAD)
        vcopy_fwd_nt(d, s, n);          /* [nt, ...), src 16 KiB+ ahead or apart: streaming */
    else if (bwd < 64 || n < *erms_min || movsb_short_distance((uintptr_t)d, (uintptr_t)s))
        return vcopy_fwd(d, s, n);      /* src < 64 B ahead, below the start, short distance */
    else
        rep_movsb(d, s, n);             /* from *erms_min, src 64 B+ ahead or apart: rep movsb */
    return d;
}
#endif

/* memcpy above the classes, for the 16- and 32-byte widths (memcpy_avx512 has
   its own: the co-aligned rep movsb start).  The common case first, falling
   through, as vmove_large: below the rep movsb and streaming starts, not the
   4 KiB alias; then streaming from the threshold, rep movsb from *erms_min (not
   at short distances), the backward loop at the 4 KiB alias (glibc's 32-byte
   variants test the same: 4 KiB d+63 was 0.69x glibc 2.41's avx2 memcpy on
   Zen 4 without it, docs/perf/amd-family25-model17.md). */
#if VEC_BITS < 512
OPS_INL void *vcopy_large(unsigned char *d, const unsigned char *s, size_t n, const size_t *erms_min)
{
    if (__builtin_expect(n < *erms_min && n < COPY_NT_THRESHOLD, 1) && !alias_4k_ahead(d, s))
        return vcopy_fwd(d, s, n);      /* (8W, *erms_min): 4W loop           */
    else if (n >= COPY_NT_THRESHOLD)
        vcopy_fwd_nt(d, s, n);          /* [nt, ...): streaming stores        */
    else if (n >= *erms_min && !movsb_short_distance((uintptr_t)d, (uintptr_t)s))
        rep_movsb(d, s, n);             /* [*erms_min, nt): rep movsb         */
    else if (n < *erms_min)
        return vcopy_bwd(d, s, n);      /* (8W, *erms_min), dst just above src mod 4 KiB: backward */
    else
        return vcopy_fwd(d, s, n);      /* [*erms_min, nt), short distance: 4W loop */
    return d;
}
#endif

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

/* n < 8; c is the byte itself */
OPS_INL size_t set_lt8(const enum ops_access acc, uintptr_t d, __m128i x, int c, size_t n)
{
    size_t r = OPS_OK;          /* one return, as ops_copy_lt8 */
    if (n >= 4)                 /* [4, 7]: 4 + 4 */
        r = set_4_8(acc, d, x, n);
    else if (n >= 2)            /* [2, 3]: three byte stores */
        r = set_2_3(acc, d, c, n);
    else if (n == 1)            /* 1 */
        r = ops_set_1(acc, d, (unsigned char)c);
    return r;
}

/* n < 16 */
OPS_INL size_t set_lt16(const enum ops_access acc, uintptr_t d, __m128i x, int c, size_t n)
{
    size_t r;
    if (n >= 8)
        r = set_8_16(acc, d, x, n);     /* [8, 15]: 8 + 8 */
    else
        r = set_lt8(acc, d, x, c, n);   /* [0, 7] */
    return r;
}

#if VEC_BITS == 512
/* 64 bytes from p stay inside p's 4 KiB page: a byte-masked access may then
   cover masked-off bytes without the microcode assist that a masked access
   reaching into the next page costs, mapped or not (docs/perf/variant-figures.md). */
OPS_INL int within_page64(const unsigned char *p) { return ((uintptr_t)p & 4095) <= 4096 - 64; }

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

/* n <= 64, d + 64 within d's page: one byte-masked 64-byte store; bytes at and
   past d + n are masked off and never written. */
OPS_INL void set_lt64_masked(unsigned char *d, int c, size_t n)
{
    _mm512_mask_storeu_epi8((void *)d, (__mmask64)lowmask64[n], _mm512_set1_epi8((char)c));
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

/* memset above the classes, every width: the loop below *erms_min (vset_pieces
   where its ends would cross a page: a tail call, no frame on the common path),
   rep stosb up to the streaming threshold, streaming from it
   (memset_nt_threshold=0: every loop streams). */
OPS_INL void *vset_large(unsigned char *d, int c, size_t n, const size_t *erms_min)
{
    __m128i x = set_c(c);
    if (likely(n < *erms_min) && n < altmem__memset_nt_threshold) {
        if (unlikely(set_ends_cross_page((uintptr_t)d, (uintptr_t)d + n)))
            return vset_pieces(d, vspread(x), n);               /* ... its ends across a page */
        ops_vset_loop(OPS_PLAIN, (uintptr_t)d, vspread(x), n);  /* (8W, *erms_min): 4W loop */
    } else if (n < altmem__memset_nt_threshold)
        rep_stosb(d, c, n);             /* [*erms_min, nt): rep stosb         */
    else
        vset_nt(OPS_PLAIN, (uintptr_t)d, vspread(x), n);        /* [nt, ...): streaming stores */
    return d;
}

/* Below W (below 16), in every entry: [16, 32) with AVX2 (label c16), [8, 16)
   (c8), [4, 8) (c4), each one compare; what falls through is below 4. */
#if VEC_BITS == 256
#define BELOW_W_TESTS()                                                          \
    do {                                                                         \
        if (n >= 16)                                                             \
            goto c16;                                                            \
        BELOW_16_TESTS();                                                        \
    } while (0)
#else
#define BELOW_W_TESTS() BELOW_16_TESTS()
#endif
#define BELOW_16_TESTS()                                                         \
    do {                                                                         \
        if (n >= 8)                                                              \
            goto c8;                                                             \
        if (n >= 4)                                                              \
            goto c4;                                                             \
    } while (0)

/* ---- The entries of the 16- and 32-byte variants ------------------------------------
   Laid out as glibc's mem{move,set}-vec-unaligned-erms of the same width: these
   files are built -fno-reorder-blocks, so the code's order is the source's.
   [W, 2W] falls through with no taken jump; below W, one compare per class
   jumps to it (2-3 bytes, and 1 for memset, fall through); above 2W the classes
   are one or two taken jumps away (scripts/small-cost.sh --width W counts them
   against glibc's: no class takes more).  large() is the variant's own. */
#if VEC_BITS <= 256
typedef void *large_copy_fn(void *, const void *, size_t);
typedef void *large_set_fn(void *, int, size_t);

/* 8 vectors from the start up and 8 from the end down, 16 stores: the sse2
   memset's (192, 256], where glibc's loop runs one round.  At (128, 192] it
   stored up to 4 vectors more than the loop (136-192 B aligned, 136-160 B
   misaligned: 0.75x glibc 2.41's sse2 memset on Zen 4); there the loop runs,
   inline (through large(), a call: 0.92x aligned; inline 1.00x, and 1.23-1.33x
   at 136 B d+3 and 192 B misaligned; docs/perf/amd-family25-model17.md). */
OPS_INL void vset_ht8(unsigned char *d, vec x, size_t n)
{
    unsigned char *u = d + n - 8 * W;
    for (int i = 0; i < 8; i++)
        vst(d + i * W, x);
    for (int i = 0; i < 8; i++)
        vst(u + i * W, x);
}

/* (8W, 16W]: k vectors from each end (k = 8 above 12W, 6 above 10W, else 5: 8 at
   192 B moved 256, 0.79-0.84x glibc 2.41's sse2 copies on Zen 4), all loaded
   before the first store (memmove-safe; the 16 xmm registers of the sse2
   copies, where glibc's loop runs one round at 129-256 bytes).  Only with dst W-aligned: with dst
   misaligned its 16 unaligned stores cross a line twice per 64 bytes, and the
   loop (dst aligned first) wins: at 160-256 B dst+3 0.68-0.84x glibc here,
   0.87-0.96x through the loop; aligned, 1.2-1.5x glibc here against ~1.0x
   through the loop (Intel 6/167, docs/perf/intel-family6-model167.md). */
OPS_INL void vcopy_htk(unsigned char *d, const unsigned char *s, size_t n, const int k)
{
    vec a[8], b[8];
    for (int i = 0; i < k; i++)
        a[i] = vld(s + i * W);
    for (int i = 0; i < k; i++)
        b[i] = vld(s + n - k * W + i * W);
    for (int i = 0; i < k; i++)
        vst(d + i * W, a[i]);
    for (int i = 0; i < k; i++)
        vst(d + n - k * W + i * W, b[i]);
}

/* n < 4, as glibc's: 2-3 falls through, 0 and 1 are one taken jump away; the
   first byte is loaded before the tail's two are stored (memmove-safe). */
OPS_INL void copy_lt4(unsigned char *d, const unsigned char *s, size_t n)
{
    if (n == 0)
        return;
    unsigned char b = *s;
    uint16_t tail;
    if (n == 1)
        goto one;
    ops_ld16(OPS_PLAIN, &tail, (uintptr_t)s, (ptrdiff_t)n - 2);
    ops_st16(OPS_PLAIN, (uintptr_t)d, (ptrdiff_t)n - 2, tail);
one:
    *d = b;
}

/* Every class loads all it copies before it stores: memcpy and memmove alike. */
OPS_INL void *vcopy_entry(unsigned char *d, const unsigned char *s, size_t n, large_copy_fn *large)
{
    const uintptr_t ud = (uintptr_t)d, us = (uintptr_t)s;
    if (n < W)
        goto lt_vec;
    if (n > 2 * W)
        goto mid;
    ops_vcopy_ht1(OPS_PLAIN, ud, us, n);                 /* [W, 2W]: W + W                  */
    return d;
mid:
#if VEC_BITS == 128
    if (n > 8 * W)
        goto c8v;
#else
    if (n > 8 * W)
        return large(d, s, n);          /* (8W, ...): the variant's loops  */
#endif
    if (n <= 4 * W)
        goto c2;
    ops_vcopy_ht4(OPS_PLAIN, ud, us, n);                 /* (4W, 8W]: 4 x W from each end   */
    return d;
c2:
    ops_vcopy_ht2(OPS_PLAIN, ud, us, n);                 /* (2W, 4W]: 2 x W from each end   */
    return d;
#if VEC_BITS == 128
c8v:
    if (n > 16 * W || ((uintptr_t)d & (W - 1)))
        return large(d, s, n);          /* (16W, ...), or dst misaligned: the variant's loops */
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
    ops_copy_4_8(OPS_PLAIN, ud, us, n);                  /* [4, 8): 4 + 4                   */
    return d;
}

OPS_INL void *vset_entry(unsigned char *d, int c, size_t n, large_set_fn *large)
{
    const uintptr_t ud = (uintptr_t)d;
    __m128i x = set_c(c);
    if (n < W)
        goto lt_vec;
    if (n > 2 * W)
        goto mid;
    ops_vset_ht1(OPS_PLAIN, ud, vspread(x), n);         /* [W, 2W]: W + W                  */
    return d;
mid:
#if VEC_BITS == 128
    if (n > 16 * W)
        return large(d, c, n);          /* (16W, ...): the variant's loops */
    if (n <= 4 * W)
        goto c2;
    if (n <= 8 * W)
        goto c4v;
    if (n <= 12 * W)
        goto loop12;
    vset_ht8(d, vspread(x), n);         /* (12W, 16W]: 8 x W from each end */
    return d;
loop12:
    ops_vset_loop(OPS_PLAIN, ud, vspread(x), n);        /* (8W, 12W]: the loop, inline     */
    return d;
c4v:
#else
    if (n > 8 * W)
        return large(d, c, n);          /* (8W, ...): the variant's loops  */
    if (n <= 4 * W)
        goto c2;
#endif
    ops_vset_ht4(OPS_PLAIN, ud, vspread(x), n);         /* (4W, 8W]: 4 x W from each end   */
    return d;
c2:
    ops_vset_ht2(OPS_PLAIN, ud, vspread(x), n);         /* (2W, 4W]: 2 x W from each end   */
    return d;
lt_vec:
    BELOW_W_TESTS();
    if (n >= 2)
        goto c2b;
    if (n == 0)
        return d;
    ops_set_1(OPS_PLAIN, ud, (unsigned char)c);                        /* 1: the byte                     */
    return d;
#if VEC_BITS == 256
c16:
    ops_set_ht16(OPS_PLAIN, ud, spread16(x), n);        /* [16, 32): 16 + 16               */
    return d;
#endif
c8:
    set_8_16(OPS_PLAIN, ud, spread16(x), n);        /* [8, 16): 8 + 8                  */
    return d;
c4:
    set_4_8(OPS_PLAIN, ud, spread16(x), n);         /* [4, 8): 4 + 4                   */
    return d;
c2b:
    set_2_3(OPS_PLAIN, ud, c, n);                   /* [2, 4): bytes 0, 1, n - 1       */
    return d;
}
#endif

/* ---- The entries of the 64-byte variants ---------------------------------------------
   Up to 512 bytes every class loads all it copies before it stores anything,
   so the same classes serve memcpy and memmove, which differ only in their
   large() (above 512 bytes); (128, 512] is out of line in the variant's mid()
   (noinline, a call of vcopy_mid_512 / vset_mid_512 with its large()).  The
   layout measured in docs/perf/variant-figures.md depends on the order below
   (built -fno-reorder-blocks). */
#if VEC_BITS == 512
/* Source and destination apart mod 64, above the policy's size and below
   streaming: every 64-byte load of the loops would cross a line, and where the
   rules say that costs more than twice the 32-byte loads (Zen 4), the 32-byte
   variant takes the copy (src/policy.c, amd-zen4). */
OPS_INL int split_loads(const unsigned char *d, const unsigned char *s, size_t n)
{
    return n > altmem__copy_split_loads_above && ((uintptr_t)d ^ (uintptr_t)s) & 63 && n < altmem__nt_threshold;
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

typedef void *large_copy_fn(void *, const void *, size_t);
typedef void *large_set_fn(void *, int, size_t);

/* (128, ...): the classes of 2 and 4 vectors from each end, then the loops. */
OPS_INL void *vcopy_mid_512(void *dst, const void *src, size_t n, large_copy_fn *large)
{
    const uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
    if (n <= 256)
        ops_vcopy_ht2(OPS_PLAIN, d, s, n);                 /* (128, 256]: 2 x 64 from each end */
    else if (n <= 384)
        ops_vcopy_ht3(OPS_PLAIN, d, s, n);                 /* (256, 384]: 3 x 64 from each end */
    else if (n <= 512)
        ops_vcopy_ht4(OPS_PLAIN, d, s, n);                 /* (384, 512]: 4 x 64 from each end */
    else
        return large(dst, src, n);          /* (512, ...): the loops above     */
    return dst;
}

OPS_INL void *vcopy_entry_512(void *dst, const void *src, size_t n, large_copy_fn *mid)
{
    const uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
    RETURN_VALUE_IN_RAX(dst);
    if (n < 16)
        goto tiny;
    if (n <= 64)
        goto small;
    if (unlikely(n > 128))
        return mid((void *)d, (const void *)s, n);               /* (128, ...): mid(), above        */
    ops_vcopy_ht1(OPS_PLAIN, d, s, n);                     /* (64, 128]: 64 + 64              */
    return dst;
small:
    if (n >= 32)
        ops_copy_ht32(OPS_PLAIN, d, s, n);                 /* [32, 64]: 32 + 32 (64: not 128 bytes stored) */
    else
        ops_copy_ht16(OPS_PLAIN, d, s, n);                 /* [16, 32): 16 + 16               */
    return dst;
tiny:
    BELOW_16_TESTS();
    if (n == 0)
        return dst;
    ops_copy_1_3(OPS_PLAIN, d, s, n);                /* [1, 4): bytes 0, n/2, n - 1     */
    return dst;
c8:                                     /* [8, 16): 8 + 8                  */
    ops_copy_8_16(OPS_PLAIN, d, s, n);
    return dst;
c4:                                     /* [4, 8): 4 + 4                   */
    ops_copy_4_8(OPS_PLAIN, d, s, n);
    return dst;
}

/* (128, ...): the classes of 2 and 4 vectors from each end, then the loops. */
OPS_INL void *vset_mid_512(void *dst, int c, size_t n, large_set_fn *large)
{
    const uintptr_t d = (uintptr_t)dst;
    vec x = vspread(set_c(c));
    if (n <= 256)
        ops_vset_ht2(OPS_PLAIN, d, x, n);                  /* (128, 256]: 2 x 64 from each end */
    else if (n <= 384)
        ops_vset_ht3(OPS_PLAIN, d, x, n);                  /* (256, 384]: 3 x 64 from each end */
    else if (n <= 512)
        ops_vset_ht4(OPS_PLAIN, d, x, n);                  /* (384, 512]: 4 x 64 from each end */
    else
        return large(dst, c, n);            /* (512, ...): the loops above     */
    return dst;
}

OPS_INL void *vset_entry_512(void *dst, int c, size_t n, large_set_fn *mid)
{
    const uintptr_t d = (uintptr_t)dst;
    RETURN_VALUE_IN_RAX(dst);
    if (n <= 64)
        goto lt64;
    if (unlikely(n > 128))
        return mid((void *)d, c, n);               /* (128, ...): mid(), above        */
    ops_vset_ht1(OPS_PLAIN, d, _mm512_set1_epi8((char)c), n); /* (64, 128]: 64 + 64           */
    return dst;
lt64:
    if (unlikely(!within_page64((const unsigned char *)d)))
        goto page_end;
    set_lt64_masked((unsigned char *)d, c, n);               /* [0, 64]: one masked store (64: not 64 + 64) */
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
