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
 * with OPS_FAULT.  This file holds the vector, the accessors and the pieces;
 * it includes the jobs built on them: x86_vec_copy.h (the copy loops, the
 * string instructions, large()), x86_vec_set.h (the sets) and
 * x86_vec_entry512.h (the 64-byte variants' entries).
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

/* The plain [4, 8] copy last part first in the 16- and 32-byte variants, as
   glibc's 16- and 32-byte memmove (src/ops/scalar.h): with the first 4 bytes
   first, 6 B with dst below src, repeated on one buffer, took 0.83x glibc
   2.41's time and above it 1.20x (sse2, avx2; Intel 6/207,
   docs/perf/intel-family6-model207.md, "Overlapping memmove").  glibc's
   evex and 64-byte variants store the first 4 first, and so do altmem's. */
#if defined(VEC_BITS) && VEC_BITS <= 256 && !defined(VEC_EVEX)
#define OPS_COPY_4_8_TAIL_FIRST 1
#endif
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
/* A variant's entry holds its size classes.  Placed across a 4 KiB page, a
   small call branches from one page into the next: memmove_avx2 at 4-24 B
   took 1.90 ns instead of 1.62 (0.86x glibc 2.41's avx2) when the library's
   layout put its entry at page offset 0xf00 (Zen 4,
   docs/perf/amd-family25-model17.md).  So each entry is aligned to the power of two
   at or above its size (512 to 4096 bytes: the 16- and 32-byte copies hold
   their loops too), which keeps it inside one page;
   the test entry_pages checks the built libraries.  The alignment is the
   section's, not the function's: these files are built -ffunction-sections
   (src/CMakeLists.txt), and GCC gives an aligned function's alignment to its
   cold part too, which the linker gathers at the start of the text (14 KB of
   padding for 16-byte cold parts at 557075a). */
#define ENTRY_ALIGNED(function, bytes) ENTRY_ALIGNED_SECTION(function, bytes)
#define ENTRY_ALIGNED_SECTION(function, bytes) \
    __asm__(".pushsection .text." #function ",\"ax\",@progbits\n\t.balign " #bytes "\n\t.popsection")

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
/* VEC_EVEX: 32-byte vectors in AVX-512's registers 16-31 (the evex variants,
   as glibc's __mem*_evex_unaligned): memset's byte-masked stores below one
   vector, the copies' [4, 8] first part first. */
#if defined(VEC_EVEX) && !(VEC_BITS == 256 && defined(__AVX512VL__) && defined(__AVX512BW__))
#error "VEC_EVEX: VEC_BITS 256 with -mavx512vl -mavx512bw (the flag set evex)"
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

/* The plain [2W, 4W] copy in glibc's order (src/ops/vector.h): memmove at
   (2W, 4W] with dst below src, repeated on one buffer, 0.82-0.89x glibc 2.41
   -> 0.95-1.03x at every width on Intel 6/207, and dst above src 1.00-1.15x ->
   0.98-1.09x (docs/perf/intel-family6-model207.md, "Overlapping memmove"). */
#define OPS_HT2_TAIL_FROM_END 1
/* The plain [4W, 8W] copy's loads in glibc's order, the 64-byte variants'
   only: avx512 memcpy 448-512 B with src and dst at one page offset 0.83-0.92x
   -> 0.97-1.01x glibc 2.41 and 2.36 on Intel 6/167; at the narrower widths the
   same order lost avx2 memmove 192-256 B aligned 1.17 -> 1.00-1.06x
   (docs/perf/intel-family6-model167.md, "The (4W, 8W] class's loads"). */
#if VEC_BITS == 512
#define OPS_HT4_LOADS_FROM_ENDS 1
#endif
#define OPS_LOAD_ORDER() __asm__ volatile("" ::: "memory")
/* The plain memset loop's last block aligned, the 64-byte variant's only (the
   one that loops from 512 B; not its _halves build, measured on Zen 4 as it
   is): 768 B-3 KiB dst+3 1.10-1.32x -> 1.21-1.47x glibc 2.41 on Intel 6/167
   (docs/perf/intel-family6-model167.md, "The 64-byte memset's lines"). */
#if VEC_BITS == 512 && !defined(VEC64_AS_HALVES)
#define OPS_SET_LOOP_END_ALIGNED (altmem__memset_lines_mask) /* not where a rule says the lines lose (amd-zen5) */
#endif
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

/* The jobs built on them, each in its own file. */
#include "x86_vec_copy.h"
#include "x86_vec_set.h"
#include "x86_vec_entry512.h"

#endif
