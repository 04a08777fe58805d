/*
 * Building blocks of the x86_64 SIMD variants, one vector width per translation
 * unit: a variant file defines VEC_BITS (128, 256 or 512), is compiled with the
 * matching flag (-mavx2, -mavx512f; SSE2 is the x86_64 baseline) and includes
 * this header.  Each size class of a variant is then one call below, in the
 * spirit of LLVM libc's memory_utils (head_tail, loop_and_tail).
 *
 * The size classes are written once, over an access operation (AO_*, below):
 * plain loads and stores for memcpy / memmove / memset, or, when the including
 * file defines them first (src/arch/x86_64/uaccess/ua_x86_vec.h), exception-table
 * accessors for copy_user / clear_user.  A class that stores returns AO_OK, or,
 * when one of its accesses faulted, its progress: every byte of dst below it
 * stored, none at or above.  Its fault labels are its own (an asm goto may
 * only jump to a label of the function it is in, and an always_inline function
 * is a function: the kernel's static keys do the same); each label returns the
 * progress of the store above it, so the constant sits next to the store order
 * it depends on.  The plain accesses ignore their label (a dead `if (0) goto`,
 * which keeps -Wunused-label quiet): the labels, the progress and the caller's
 * test of it fold away and the plain variants compile as before.
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

/* The scalar classes of ual_access.h are inlined here as every class is. */
#ifndef AO_INL
#define AO_INL static inline __attribute__((always_inline))
#endif
#include "variants/ual/ual_access.h"
#include "policy.h"
#include "registry.h"

#ifndef VEC_BITS
#error "define VEC_BITS (128, 256 or 512) before including x86_vec.h"
#endif

#define INL static inline __attribute__((always_inline))

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

/* A class's result when every access succeeded (else: its progress). */
/* AO_OK, ao_max, ao_fault, AO_LAUNDER and the scalar classes (copy_8_16,
   copy_4_8, copy_2_4, copy_1, copy_lt8): ual_access.h. */

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


/* ---- The access operation ---------------------------------------------------

   AO_LDn(v, p, L) / AO_STn(p, v, L): v = the n bits at p / store them (n = 8,
   16, 32, 64; unaligned); AO_LD16V / AO_ST16V, AO_LD32V / AO_ST32V: 16- and
   32-byte vectors; AO_VLD / AO_VST / AO_VSTA / AO_VSTNT: one vector of W bytes
   (VSTA: to a W-aligned address, VSTNT: non-temporal, 64-aligned lines);
   AO_STQ / AO_STD: the low 8 / 4 bytes of an xmm register.  L is the label of
   the calling class to resume at if the access faults.  ao_dst / ao_src: the
   address types (pointers here; integers for the uaccess variants, which must
   not do pointer arithmetic on the caller's pointers).  Why a macro and not a
   function parameter: C cannot pass a label to a function, and the label must
   be in the function that owns the asm goto. */
#ifndef AO_EXTABLE
#define AO_LD16V(v, p, L) AO_PLAIN((v) = ld16v(p), L)
#define AO_ST16V(p, v, L) AO_PLAIN(st16v(p, v), L)
#define AO_LD32V(v, p, L) AO_PLAIN((v) = ld32v(p), L)
#define AO_ST32V(p, v, L) AO_PLAIN(st32v(p, v), L)
#define AO_VLD(v, p, L) AO_PLAIN((v) = vld(p), L)
#define AO_VST(p, v, L) AO_PLAIN(vst(p, v), L)
#define AO_VSTA(p, v, L) AO_PLAIN(vsta(p, v), L)
#define AO_VSTNT(p, v, L) AO_PLAIN(vstnt(p, v), L)
#define AO_STQ(p, x, L) AO_PLAIN(_mm_storel_epi64((__m128i *)(void *)(p), x), L)
#define AO_STD(p, x, L) AO_PLAIN(_mm_storeu_si32((void *)(p), x), L)
#endif

/* ---- Copies up to 8 vectors: every byte loaded before any is stored ------ */

/* Stores go in ascending address order, each beginning at or below the end of
   those before it, so the progress at a store's label is where the stores
   above it end (the uaccess variants need this; memmove needs only the loads
   first). */

/* n in [1, 3]: bytes 0, n/2 and n - 1 cover them all, no branch; every load
   before any store, so memmove may use it too. */
INL size_t copy_1_3_bytes(ao_dst d, ao_src s, size_t n)
{
    unsigned char a, b, c;
    AO_LD8(a, s, f0);
    AO_LD8(b, s + (n >> 1), f0);
    AO_LD8(c, s + n - 1, f0);
    AO_ST8(d, a, f0);
    AO_ST8(d + (n >> 1), b, f1);
    AO_ST8(d + n - 1, c, fh);
    return AO_OK;
f0:
    return 0;
f1:
    return 1;
fh:
    return ao_fault((n >> 1) + 1);
}

/* n < 16 */
INL size_t copy_lt16(ao_dst d, ao_src s, size_t n)
{
    size_t r;
    if (n >= 8)
        r = copy_8_16(d, s, n); /* [8, 15]: 8 + 8 */
    else
        r = copy_lt8(d, s, n);  /* [0, 7] */
    return r;
}

/* n in [16, 32]: 16 + 16 */
INL size_t copy_ht16(ao_dst d, ao_src s, size_t n)
{
    __m128i a, b;
    AO_LD16V(a, s, f0);
    AO_LD16V(b, s + n - 16, f0);
    AO_ST16V(d, a, f0);
    AO_ST16V(d + n - 16, b, f16);
    return AO_OK;
f0:
    return 0;
f16:
    return 16;
}

#if VEC_BITS >= 256
/* n in [32, 64]: 32 + 32 */
INL size_t copy_ht32(ao_dst d, ao_src s, size_t n)
{
    __m256i a, b;
    AO_LD32V(a, s, f0);
    AO_LD32V(b, s + n - 32, f0);
    AO_ST32V(d, a, f0);
    AO_ST32V(d + n - 32, b, f32);
    return AO_OK;
f0:
    return 0;
f32:
    return 32;
}
#endif

/* n in [W, 2W] */
INL size_t vcopy_ht1(ao_dst d, ao_src s, size_t n)
{
    vec a, z;
    AO_VLD(a, s, f0);
    AO_VLD(z, s + n - W, f0);
    AO_VST(d, a, f0);
    AO_VST(d + n - W, z, f1);
    return AO_OK;
f0:
    return 0;
f1:
    return W;
}

/* n in [2W, 4W] */
INL size_t vcopy_ht2(ao_dst d, ao_src s, size_t n)
{
    vec a, b, y, z;
    AO_VLD(a, s, f0);
    AO_VLD(b, s + W, f0);
    AO_VLD(y, s + n - 2 * W, f0);
    AO_VLD(z, s + n - W, f0);
    AO_VST(d, a, f0);
    AO_VST(d + W, b, f1);
    AO_VST(d + n - 2 * W, y, f2);
    AO_VST(d + n - W, z, fn1);
    return AO_OK;
f0:
    return 0;
f1:
    return W;
f2:
    return 2 * W;
fn1:
    return ao_fault(n - W);
}

/* n in [4W, 8W] */
INL size_t vcopy_ht4(ao_dst d, ao_src s, size_t n)
{
    vec a, b, c, e, w, x, y, z;
    AO_VLD(a, s, f0);
    AO_VLD(b, s + W, f0);
    AO_VLD(c, s + 2 * W, f0);
    AO_VLD(e, s + 3 * W, f0);
    ao_src t = s + n - 4 * W;
    AO_VLD(w, t, f0);
    AO_VLD(x, t + W, f0);
    AO_VLD(y, t + 2 * W, f0);
    AO_VLD(z, t + 3 * W, f0);
    ao_dst u = d + n - 4 * W;
    AO_VST(d, a, f0);
    AO_VST(d + W, b, f1);
    AO_VST(d + 2 * W, c, f2);
    AO_VST(d + 3 * W, e, f3);
    AO_VST(u, w, f4);
    AO_VST(u + W, x, fn3);
    AO_VST(u + 2 * W, y, fn2);
    AO_VST(u + 3 * W, z, fn1);
    return AO_OK;
f0:
    return 0;
f1:
    return W;
f2:
    return 2 * W;
f3:
    return 3 * W;
f4:
    return 4 * W;
fn3:
    return ao_fault(n - 3 * W);
fn2:
    return ao_fault(n - 2 * W);
fn1:
    return ao_fault(n - W);
}

/* The loops store in the direction they run: GCC 12 schedules a block's four
   stores in any order (seen: +1, +3, +2, +0 vectors backward, -3, -4, -2, -1
   forward), and out of order the avx2 backward loop ran at 0.71x glibc's at
   32 KiB-16 MiB on Intel 6/167 and 0.99x in order
   (docs/perf/intel-family6-model167.md). A compiler barrier between stores
   keeps the source order; it emits nothing. */
#define STORE_IN_ORDER() __asm__ volatile("" ::: "memory")

/* One block of the loops: 4 vectors loaded from s, then stored to d (W-aligned;
   vcopy_4nt: 64-aligned, non-temporal); the progress is from d. */
INL size_t vcopy_4a(ao_dst d, ao_src s)
{
    vec a, b, c, e;
    AO_VLD(a, s, f0);
    AO_VLD(b, s + W, f0);
    AO_VLD(c, s + 2 * W, f0);
    AO_VLD(e, s + 3 * W, f0);
    AO_VSTA(d, a, f0);
    STORE_IN_ORDER();
    AO_VSTA(d + W, b, f1);
    STORE_IN_ORDER();
    AO_VSTA(d + 2 * W, c, f2);
    STORE_IN_ORDER();
    AO_VSTA(d + 3 * W, e, f3);
    return AO_OK;
f0:
    return 0;
f1:
    return W;
f2:
    return 2 * W;
f3:
    return 3 * W;
}

INL size_t vcopy_4nt(ao_dst d, ao_src s)
{
    vec a, b, c, e;
    AO_VLD(a, s, f0);
    AO_VLD(b, s + W, f0);
    AO_VLD(c, s + 2 * W, f0);
    AO_VLD(e, s + 3 * W, f0);
    AO_VSTNT(d, a, f0);
    AO_VSTNT(d + W, b, f1);
    AO_VSTNT(d + 2 * W, c, f2);
    AO_VSTNT(d + 3 * W, e, f3);
    return AO_OK;
f0:
    return 0;
f1:
    return W;
f2:
    return 2 * W;
f3:
    return 3 * W;
}

#ifndef AO_EXTABLE
/* ---- Loops of memcpy / memmove: n > 8W -------------------------------------

   Plain accesses only: their first vector (vcopy_fwd) or last (vcopy_bwd) is
   stored last, after the loop, which memmove needs (with dst just below src, a
   head stored first would overwrite source bytes the loop has still to read)
   and a fault-tolerant copy cannot have (a fault in the loop would leave a
   hole below the progress).  copy_user's own loops (src/arch/x86_64/uaccess/ua_x86_vec.h)
   store in ascending order from the same 4-vector blocks. */

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
    for (; n > 4 * W; n -= 4 * W, d += 4 * W, s += 4 * W)   /* 4W per iteration */
        vcopy_4a(d, s);
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
   loop's do not.  glibc 2.36 makes the same choice (what it bought:
   docs/perf/variant-figures.md). */
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
        vec e = vld(p + 3 * W), c = vld(p + 2 * W), b = vld(p + W), a = vld(p);
        vsta(q + 3 * W, e);             /* from the top down (STORE_IN_ORDER) */
        STORE_IN_ORDER();
        vsta(q + 2 * W, c);
        STORE_IN_ORDER();
        vsta(q + W, b);
        STORE_IN_ORDER();
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
    for (; n > 4 * W; n -= 4 * W, d += 4 * W, s += 4 * W)
        vcopy_4nt(d, s);
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

INL void rep_movsb(unsigned char *d, const unsigned char *s, size_t n)
{
    __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

INL void rep_stosb(unsigned char *d, int c, size_t n)
{
    __asm__ volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
}

#endif /* !AO_EXTABLE */

/* (dst - src) mod 4096 in [1, 63]: where rep movsb falls to 1.5-2.7 GB/s on
   AMD Zen 3 (21-42 GB/s at other distances; glibc BZ 30994).  The ERMS variants keep
   their vector loop there; on the machine of docs/performance.md the two run at
   the same speed at these distances, so the guard costs nothing measurable. */
INL int movsb_short_distance(ao_dst d, ao_src s)
{
    return (((uintptr_t)d - (uintptr_t)s) & 4095) - 1 < altmem__movsb_short_distance;
}

#if VEC_BITS < 512 && !defined(AO_EXTABLE)
/* memmove above the classes, for the 16- and 32-byte widths (memmove_avx512 has
   its own: the 4 KiB-alias test and the co-aligned rep movsb start).  The
   common case first, falling through (the blocks stay in source order,
   src/CMakeLists.txt): dst not inside the source, below the rep movsb and
   streaming starts.  Behind the tests below it took two taken jumps more than
   memcpy's large(): sse2 memmove 0.86-0.90x glibc's at 384-768 B where memcpy
   was 0.96-1.09x (docs/perf/intel-family6-model167.md). */
INL void vmove_large(unsigned char *d, const unsigned char *s, size_t n, const size_t *erms_min)
{
    uintptr_t fwd = (uintptr_t)d - (uintptr_t)s, bwd = (uintptr_t)s - (uintptr_t)d;
    if (__builtin_expect(fwd >= n && n < *erms_min && n < altmem__nt_threshold, 1)) {
        vcopy_fwd(d, s, n);
        return;
    }
    if (fwd < n && (n < altmem__nt_threshold || fwd < 4096))
        vcopy_bwd(d, s, n);             /* dst inside (src, src+n): backward  */
    else if (fwd < n)
        vcopy_bwd_nt(d, s, n);          /* [nt, ...), dst 4 KiB+ above src: backward, streaming */
    else if (n >= altmem__nt_threshold && bwd >= NT_MIN_AHEAD)
        vcopy_fwd_nt(d, s, n);          /* [nt, ...), src 16 KiB+ ahead or apart: streaming */
    else if (bwd < 64 || n < *erms_min || movsb_short_distance(d, s))
        vcopy_fwd(d, s, n);             /* src < 64 B ahead, below the start, short distance */
    else
        rep_movsb(d, s, n);             /* from *erms_min, src 64 B+ ahead or apart: rep movsb */
}
#endif

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

/* The stores of a set go in ascending order, as a copy's (progress as there). */

/* n in [8, 16]: x holds the byte spread over 16 */
INL size_t set_8_16(ao_dst d, __m128i x, size_t n)
{
    AO_STQ(d, x, f0);
    AO_STQ(d + n - 8, x, f8);
    return AO_OK;
f0:
    return 0;
f8:
    return 8;
}

/* n in [4, 8] */
INL size_t set_4_8(ao_dst d, __m128i x, size_t n)
{
    AO_STD(d, x, f0);
    AO_STD(d + n - 4, x, f4);
    return AO_OK;
f0:
    return 0;
f4:
    return 4;
}

/* n in [2, 4]; v is the byte twice */
INL size_t set_2_4v(ao_dst d, uint16_t v, size_t n)
{
    AO_ST16(d, v, f0);
    AO_ST16(d + n - 2, v, f2);
    return AO_OK;
f0:
    return 0;
f2:
    return 2;
}

/* n in [2, 4]; c is the byte itself */
INL size_t set_2_4(ao_dst d, int c, size_t n) { return set_2_4v(d, (uint16_t)(0x0101u * (unsigned char)c), n); }

/* n == 1 */
INL size_t set_1(ao_dst d, int c)
{
    AO_ST8(d, (unsigned char)c, f0);
    return AO_OK;
f0:
    return 0;
}

/* n in [2, 3]: bytes 0, 1 and n - 1 from the byte itself, as glibc's less_vec
   stores them (no transfer out of a vector register). */
INL size_t set_2_3(ao_dst d, int c, size_t n)
{
    AO_ST8(d, (unsigned char)c, f0);
    /* Kept three byte stores: GCC would merge the first two into a 16-bit one
       built in a callee-saved register (a stack frame, 23 instructions). */
    __asm__("" : : : "memory");
    AO_ST8(d + 1, (unsigned char)c, f1);
    AO_ST8(d + n - 1, (unsigned char)c, f2);
    return AO_OK;
f0:
    return 0;
f1:
    return 1;
f2:
    return 2;
}

/* n < 8; c is the byte itself */
INL size_t set_lt8(ao_dst d, __m128i x, int c, size_t n)
{
    size_t r = AO_OK;           /* one return, as copy_lt8 */
    if (n >= 4)                 /* [4, 7]: 4 + 4 */
        r = set_4_8(d, x, n);
    else if (n >= 2)            /* [2, 3]: three byte stores */
        r = set_2_3(d, c, n);
    else if (n == 1)            /* 1 */
        r = set_1(d, c);
    return r;
}

/* n < 16 */
INL size_t set_lt16(ao_dst d, __m128i x, int c, size_t n)
{
    size_t r;
    if (n >= 8)
        r = set_8_16(d, x, n);  /* [8, 15]: 8 + 8 */
    else
        r = set_lt8(d, x, c, n); /* [0, 7] */
    return r;
}

#if VEC_BITS == 512 && !defined(AO_EXTABLE)
/* 64 bytes from p stay inside p's 4 KiB page: a byte-masked access may then
   cover masked-off bytes without the microcode assist that a masked access
   reaching into the next page costs, mapped or not (docs/perf/variant-figures.md). */
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
INL size_t set_ht16(ao_dst d, __m128i x, size_t n)
{
    AO_ST16V(d, x, f0);
    AO_ST16V(d + n - 16, x, f16);
    return AO_OK;
f0:
    return 0;
f16:
    return 16;
}

#if VEC_BITS >= 256
/* n in [32, 64] */
INL size_t set_ht32(ao_dst d, __m256i y, size_t n)
{
    AO_ST32V(d, y, f0);
    AO_ST32V(d + n - 32, y, f32);
    return AO_OK;
f0:
    return 0;
f32:
    return 32;
}
#endif

/* n in [W, 2W] */
INL size_t vset_ht1(ao_dst d, vec x, size_t n)
{
    AO_VST(d, x, f0);
    AO_VST(d + n - W, x, f1);
    return AO_OK;
f0:
    return 0;
f1:
    return W;
}

/* n in [2W, 4W] */
INL size_t vset_ht2(ao_dst d, vec x, size_t n)
{
    AO_VST(d, x, f0);
    AO_VST(d + W, x, f1);
    AO_VST(d + n - 2 * W, x, f2);
    AO_VST(d + n - W, x, fn1);
    return AO_OK;
f0:
    return 0;
f1:
    return W;
f2:
    return 2 * W;
fn1:
    return ao_fault(n - W);
}

/* n in [4W, 8W] */
INL size_t vset_ht4(ao_dst d, vec x, size_t n)
{
    ao_dst u = d + n - 4 * W;
    AO_VST(d, x, f0);
    AO_VST(d + W, x, f1);
    AO_VST(d + 2 * W, x, f2);
    AO_VST(d + 3 * W, x, f3);
    AO_VST(u, x, f4);
    AO_VST(u + W, x, fn3);
    AO_VST(u + 2 * W, x, fn2);
    AO_VST(u + 3 * W, x, fn1);
    return AO_OK;
f0:
    return 0;
f1:
    return W;
f2:
    return 2 * W;
f3:
    return 3 * W;
f4:
    return 4 * W;
fn3:
    return ao_fault(n - 3 * W);
fn2:
    return ao_fault(n - 2 * W);
fn1:
    return ao_fault(n - W);
}

/* One block of the loops: 4 vectors to d (W-aligned; vset_4nt: 64-aligned,
   non-temporal); the progress is from d. */
INL size_t vset_4a(ao_dst d, vec x)
{
    AO_VSTA(d, x, f0);
    AO_VSTA(d + W, x, f1);
    AO_VSTA(d + 2 * W, x, f2);
    AO_VSTA(d + 3 * W, x, f3);
    return AO_OK;
f0:
    return 0;
f1:
    return W;
f2:
    return 2 * W;
f3:
    return 3 * W;
}

INL size_t vset_4nt(ao_dst d, vec x)
{
    AO_VSTNT(d, x, f0);
    AO_VSTNT(d + W, x, f1);
    AO_VSTNT(d + 2 * W, x, f2);
    AO_VSTNT(d + 3 * W, x, f3);
    return AO_OK;
f0:
    return 0;
f1:
    return W;
f2:
    return 2 * W;
f3:
    return 3 * W;
}

/* The last 4W bytes before de = d + n, once the bytes below d + done are set
   (n - 4W <= done). */
INL size_t vset_last4(ao_dst de, vec x, size_t n, size_t done)
{
    AO_VST(de - 4 * W, x, f4);
    AO_VST(de - 3 * W, x, f3);
    AO_VST(de - 2 * W, x, f2);
    AO_VST(de - W, x, f1);
    return AO_OK;
f4:
    return ao_fault(done);
f3:
    return ao_fault(ao_max(done, n - 3 * W));
f2:
    return ao_fault(ao_max(done, n - 2 * W));
f1:
    return ao_fault(ao_max(done, n - W));
}

/* n > 8W: one unaligned vector, a W-aligned loop of 4W, the last 4W unaligned
   (shared with clear_user: the stores are in ascending order).  On a fault in
   the loop, p goes through an empty asm so that GCC keeps no register per
   store address for the progress. */
INL size_t vset_loop(ao_dst d, vec x, size_t n)
{
    ao_dst de = d + n, p;
    size_t k;
    AO_VST(d, x, f0);
    p = d + (W - ((uintptr_t)d & (W - 1)));
#ifdef AO_EXTABLE
    /* clear_user: the bound computed once (callgrind, clear_user_avx2 1 KiB:
       102 instructions per call, against 117 with the test below; the caller
       has cut n to what lies below the top of the address space). */
    for (const ao_dst pend = de - 4 * W; p < pend; p += 4 * W)
#else
    for (; (size_t)(de - p) > 4 * W; p += 4 * W)
#endif
        if (unlikely((k = vset_4a(p, x)) != AO_OK))
            goto fl;
    return vset_last4(de, x, n, ao_max((size_t)(p - d), W));
f0:
    return 0;
fl:
    AO_LAUNDER(p);
    return ao_fault(ao_max((size_t)(p - d) + k, W));
}

/* n > 8W, non-temporal: the first 64 bytes and the last 4W cached, whole lines
   streamed between them; sfence after the streaming stores, also when one of
   them faults. */
INL size_t vset_nt(ao_dst d, vec x, size_t n)
{
    ao_dst de = d + n, p;
    size_t j, k;
    for (j = 0; j < 64; j += W)
        AO_VST(d + j, x, fh);
    p = d + (64 - ((uintptr_t)d & 63));
    for (; (size_t)(de - p) > 4 * W; p += 4 * W)
        if (unlikely((k = vset_4nt(p, x)) != AO_OK))
            goto fl;
    _mm_sfence();
    return vset_last4(de, x, n, ao_max((size_t)(p - d), 64));
fh:
    return ao_fault(j);
fl:
    _mm_sfence();
    AO_LAUNDER(p);
    return ao_fault(ao_max((size_t)(p - d) + k, 64));
}


/* ---- The entries of the 16- and 32-byte variants ------------------------------------
   Laid out as glibc's mem{move,set}-vec-unaligned-erms of the same width: these
   files are built -fno-reorder-blocks, so the code's order is the source's.
   [W, 2W] falls through with no taken jump; below W, one compare per class
   jumps to it (2-3 bytes, and 1 for memset, fall through); above 2W the classes
   are one or two taken jumps away (scripts/small-cost.sh --width W counts them
   against glibc's: no class takes more).  large() is the variant's own. */
#if VEC_BITS <= 256 && !defined(AO_EXTABLE)
typedef void *large_copy_fn(void *, const void *, size_t);
typedef void *large_set_fn(void *, int, size_t);

/* (4W, 8W] stores from the start up and from the end down, 16 stores: the
   sse2 memset's (128, 256], where glibc's loop runs one round. */
INL void vset_ht8(unsigned char *d, vec x, size_t n)
{
    unsigned char *u = d + n - 8 * W;
    for (int i = 0; i < 8; i++)
        vst(d + i * W, x);
    for (int i = 0; i < 8; i++)
        vst(u + i * W, x);
}

/* (8W, 16W]: 8 vectors from each end, all 16 loaded before the first store
   (memmove-safe; the 16 xmm registers of the sse2 copies, where glibc's loop
   runs one round at 129-256 bytes).  Only with dst W-aligned: with dst
   misaligned its 16 unaligned stores cross a line twice per 64 bytes, and the
   loop (dst aligned first) wins: at 160-256 B dst+3 0.68-0.84x glibc here,
   0.87-0.96x through the loop; aligned, 1.2-1.5x glibc here against ~1.0x
   through the loop (Intel 6/167, docs/perf/intel-family6-model167.md). */
INL void vcopy_ht8(unsigned char *d, const unsigned char *s, size_t n)
{
    vec a[8], b[8];
    for (int i = 0; i < 8; i++)
        a[i] = vld(s + i * W);
    for (int i = 0; i < 8; i++)
        b[i] = vld(s + n - 8 * W + i * W);
    for (int i = 0; i < 8; i++)
        vst(d + i * W, a[i]);
    for (int i = 0; i < 8; i++)
        vst(d + n - 8 * W + i * W, b[i]);
}

/* n < 4, as glibc's: 2-3 falls through, 0 and 1 are one taken jump away; the
   first byte is loaded before the tail's two are stored (memmove-safe). */
INL void copy_lt4(unsigned char *d, const unsigned char *s, size_t n)
{
    if (n == 0)
        return;
    unsigned char b = *s;
    if (n == 1)
        goto one;
    st16(d + n - 2, ld16(s + n - 2));
one:
    *d = b;
}

/* Every class loads all it copies before it stores: memcpy and memmove alike. */
INL void *vcopy_entry(unsigned char *d, const unsigned char *s, size_t n, large_copy_fn *large)
{
    if (n < W)
        goto lt_vec;
    if (n > 2 * W)
        goto mid;
    vcopy_ht1(d, s, n);                 /* [W, 2W]: W + W                  */
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
    vcopy_ht4(d, s, n);                 /* (4W, 8W]: 4 x W from each end   */
    return d;
c2:
    vcopy_ht2(d, s, n);                 /* (2W, 4W]: 2 x W from each end   */
    return d;
#if VEC_BITS == 128
c8v:
    if (n > 16 * W || ((uintptr_t)d & (W - 1)))
        return large(d, s, n);          /* (16W, ...), or dst misaligned: the variant's loops */
    vcopy_ht8(d, s, n);                 /* (8W, 16W], dst aligned: 8 x W from each end */
    return d;
#endif
lt_vec:
#if VEC_BITS == 256
    if (n >= 16)
        goto c16;
#endif
    if (n >= 8)
        goto c8;
    if (n >= 4)
        goto c4;
    copy_lt4(d, s, n);                  /* [0, 4): 2-3 from each end, 1, 0 */
    return d;
#if VEC_BITS == 256
c16:
    copy_ht16(d, s, n);                 /* [16, 32): 16 + 16               */
    return d;
#endif
c8:
    copy_8_16(d, s, n);                 /* [8, 16): 8 + 8                  */
    return d;
c4:
    copy_4_8(d, s, n);                  /* [4, 8): 4 + 4                   */
    return d;
}

INL void *vset_entry(unsigned char *d, int c, size_t n, large_set_fn *large)
{
    __m128i x = set_c(c);
    if (n < W)
        goto lt_vec;
    if (n > 2 * W)
        goto mid;
    vset_ht1(d, vspread(x), n);         /* [W, 2W]: W + W                  */
    return d;
mid:
#if VEC_BITS == 128
    if (n > 16 * W)
        return large(d, c, n);          /* (16W, ...): the variant's loops */
    if (n <= 4 * W)
        goto c2;
    if (n <= 8 * W)
        goto c4v;
    vset_ht8(d, vspread(x), n);         /* (8W, 16W]: 8 x W from each end  */
    return d;
c4v:
#else
    if (n > 8 * W)
        return large(d, c, n);          /* (8W, ...): the variant's loops  */
    if (n <= 4 * W)
        goto c2;
#endif
    vset_ht4(d, vspread(x), n);         /* (4W, 8W]: 4 x W from each end   */
    return d;
c2:
    vset_ht2(d, vspread(x), n);         /* (2W, 4W]: 2 x W from each end   */
    return d;
lt_vec:
#if VEC_BITS == 256
    if (n >= 16)
        goto c16;
#endif
    if (n >= 8)
        goto c8;
    if (n >= 4)
        goto c4;
    if (n >= 2)
        goto c2b;
    if (n == 0)
        return d;
    set_1(d, c);                        /* 1: the byte                     */
    return d;
#if VEC_BITS == 256
c16:
    set_ht16(d, spread16(x), n);        /* [16, 32): 16 + 16               */
    return d;
#endif
c8:
    set_8_16(d, spread16(x), n);        /* [8, 16): 8 + 8                  */
    return d;
c4:
    set_4_8(d, spread16(x), n);         /* [4, 8): 4 + 4                   */
    return d;
c2b:
    set_2_3(d, c, n);                   /* [2, 4): bytes 0, 1, n - 1       */
    return d;
}
#endif

#endif
