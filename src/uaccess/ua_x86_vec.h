/*
 * The body of the x86_64 vector copy_user / clear_user variants (avx2, avx512),
 * one vector width per translation unit,
 * laid out like the memcpy / memset variants of that width
 * (src/arch/x86_64/variants/x86_vec.h): a file defines UA_W (32 or 64), is
 * built with the matching flags and includes this header; its entry points call
 * cu_small() / cl_small() with the out-of-line classes of that width.
 *
 * Assumptions:
 *   - x86_64 with unaligned vector loads and stores (UAL) of UA_W bytes
 *     (SIMD256 / SIMD512); every access is an extable accessor (extable.h).
 *   - Layout: n < 16 two overlapping scalars, [16, 32) 16 + 16, [32, 64) 32 + 32,
 *     [W, 2W] W + W: inline, no call; (2W, 4W] and (4W, 8W] two and four vectors
 *     from each end, out of line; above, an unaligned first 64 bytes, a 64-aligned
 *     loop of 4 vectors, the last 4 vectors unaligned.  rep movsb
 *     (rep stosb) from the policy's start for this width (src/policy.c) to the
 *     non-temporal threshold, as the memcpy / memset variant of the same width
 *     (not at the policy's short (dst - src) mod 4096 distances); from the
 *     threshold, non-temporal stores.
 *   - Every size class loads all its bytes before its first store (src and dst
 *     do not overlap); stores go in ascending address order: each store begins at
 *     or below the end of the stored prefix, so at every fault label the variant
 *     knows its progress p — every byte below p stored, none at or above — and the
 *     fix-up goes on from there (altmem__uaccess_bytes).  A faulting access writes
 *     nothing; rep movsb / rep stosb fault with rdi/rsi/rcx at their progress (the
 *     string instructions are restartable, their stores below rdi complete).
 *   - Addresses are integers (uintptr_t): no C pointer arithmetic on the caller's
 *     pointers, which may be NULL, wild or at the end of the address space.
 *   - Non-temporal stores are followed by sfence, on the fault path too, before
 *     any ordinary store.
 *   - vzeroupper: GCC keeps the AVX-512 files to xmm/ymm/zmm16-31 (src/CMakeLists.txt)
 *     and needs none; clang, and every AVX2 file, clear the upper state on return.
 */
#ifndef ALTMEM_UA_X86_VEC_H
#define ALTMEM_UA_X86_VEC_H

#include <immintrin.h>

#include "extable.h"
#include "uaccess_variants.h"

#include "../policy.h"

#define INL static inline __attribute__((always_inline))
#define NOINL static __attribute__((noinline))

#if UA_W == 64
#ifndef __AVX512F__
#error "UA_W 64 needs -mavx512f -mavx512vl"
#endif
typedef __m512i uvec;
#define LDV(v, p, L) UA_VLD64(v, p, L)
#define STV(p, v, L) UA_VST64(p, v, L)
#define STVNT(p, v, L) UA_VST64NT(p, v, L)
#define VZERO() _mm512_setzero_si512()
#if defined(__clang__)
#define VZU() _mm256_zeroupper()
#else
#define VZU() ((void)0)
#endif
/* The policy's starts for the 64-byte width (src/policy.c), as memcpy_avx512
   and memset_avx512; not memcpy's co-aligned start: here the loop measured
   as fast as memcpy at 16 KiB aligned (docs/uaccess.md). */
#define UA_COPY_ERMS_MIN altmem__rep_movsb_start[2]
#define UA_CLEAR_ERMS_MIN altmem__rep_stosb_start[2]
#elif UA_W == 32
#ifndef __AVX2__
#error "UA_W 32 needs -mavx2"
#endif
typedef __m256i uvec;
#define LDV(v, p, L) UA_VLD32(v, p, L)
#define STV(p, v, L) UA_VST32(p, v, L)
#define STVNT(p, v, L) UA_VST32NT(p, v, L)
#define VZERO() _mm256_setzero_si256()
#define VZU() _mm256_zeroupper()
#define UA_COPY_ERMS_MIN altmem__rep_movsb_start[1]  /* as memcpy_avx2 */
#define UA_CLEAR_ERMS_MIN altmem__rep_stosb_start[1] /* as memset_avx2 */
#else
#error "define UA_W (32 or 64) before including ua_x86_vec.h"
#endif
#define W ((size_t)UA_W)
#define HEAD ((size_t)64)       /* the loops' unaligned head: one line */

/* (dst - src) mod 4096 in [1, the policy's distance]: rep movsb is slow there on
   Zen 3 (x86_vec.h). */
INL int ua_short_distance(uintptr_t d, uintptr_t s) { return ((d - s) & 4095) - 1 < altmem__movsb_short_distance; }

INL size_t cfix(uintptr_t d, uintptr_t s, size_t n, size_t done)
{
    VZU();
    return altmem__uaccess_bytes(d, s, n, done, 0);
}

INL size_t zfix(uintptr_t d, size_t n, size_t done)
{
    VZU();
    return altmem__uaccess_bytes(d, 0, n, done, 1);
}

#define MAX altmem__ua_max
#define LAUNDER(x) __asm__("" : "+r"(x))

/* The return value 0 goes to %rax on entry (an empty asm pins it there; the
   xor is free), so that each small class can end in its own ret rather than
   jump to a shared "xor; ret" (as RETURN_VALUE_IN_RAX in x86_vec.h). */
#define ZERO_IN_RAX(v) __asm__("" : "+a"(v))

/* ---- copy_user ------------------------------------------------------------------- */

/* rep movsb, out of line: its progress comes back through memory. */
NOINL size_t cu_rep(uintptr_t d, uintptr_t s, size_t n)
{
    size_t left = n;
    UA_REP_MOVSB(d, s, n, &left, frep);
    return 0;
frep:
    return cfix(d, s, n, n - left);
}

/* n > 8W: the loops and the string instruction.  As memcpy's vcopy_fwd, the
   last 4 vectors are loaded before the loop (a load that follows the loop's
   stores at the same address mod 4096 would wait on them: 4K aliasing) and
   stored after it.  If one of those early loads faults, cu_large_late() does
   the copy again with the tail loaded after the loop, where its fault has a
   progress (nothing has been stored yet). */
NOINL size_t cu_large_late(uintptr_t d, uintptr_t s, size_t n);
NOINL size_t cu_nt(uintptr_t d, uintptr_t s, size_t n);

/* nt: this is the non-temporal copy (from the threshold, out of line, the tail
   loaded after the loop); pre: the tail is loaded before the loop. */
INL size_t cu_large_body(uintptr_t d, uintptr_t s, size_t n, int erms, int pre, const int nt)
{
    size_t i, k = 0;
    uvec a, b, c, e, h, t0, t1, t2, t3;
    if (!nt && n >= altmem__nt_threshold)
        return cu_nt(d, s, n);
    if (!nt && erms && n >= UA_COPY_ERMS_MIN && !ua_short_distance(d, s))
        return cu_rep(d, s, n);
/* Head: the first 64 bytes unaligned; then dst is 64-aligned at i (1..64). */
    LDV(h, s, f0);
#if UA_W == 32
    LDV(a, s + 32, f0);
#endif
    if (pre) {
        LDV(t0, s + n - 4 * W, ftail);
        LDV(t1, s + n - 3 * W, ftail);
        LDV(t2, s + n - 2 * W, ftail);
        LDV(t3, s + n - W, ftail);
    }
    STV(d, h, f0);
#if UA_W == 32
    STV(d + 32, a, f32);
#endif
    i = HEAD - (d & (HEAD - 1));
    /* The loops: q = s + i, p = d + i, while more than 4W remain (base +
       offset addresses and two adds, as memcpy's loop; on a fault i = p - d). */
    uintptr_t p = d + i, q = s + i;
    const uintptr_t pend = d + n - 4 * W;
    if (!nt) {
        for (; p < pend; p += 4 * W, q += 4 * W) {
            LDV(a, q, fl);
            LDV(b, q + W, fl);
            LDV(c, q + 2 * W, fl);
            LDV(e, q + 3 * W, fl);
            STV(p, a, fl);
            STV(p + W, b, fl1);
            STV(p + 2 * W, c, fl2);
            STV(p + 3 * W, e, fl3);
        }
    } else {
        /* Whole lines streamed, 4 vectors per iteration. */
        for (; p < pend; p += 4 * W, q += 4 * W) {
            LDV(a, q, fnt);
            LDV(b, q + W, fnt);
            LDV(c, q + 2 * W, fnt);
            LDV(e, q + 3 * W, fnt);
            STVNT(p, a, fnt);
            STVNT(p + W, b, fnt1);
            STVNT(p + 2 * W, c, fnt2);
            STVNT(p + 3 * W, e, fnt3);
        }
        _mm_sfence();
    }
    i = p - d;
    /* Tail: the last 4 vectors (n - 4W <= i: they start inside the prefix). */
    if (!pre) {
        LDV(t0, s + n - 4 * W, fi);
        LDV(t1, s + n - 3 * W, fi);
        LDV(t2, s + n - 2 * W, fi);
        LDV(t3, s + n - W, fi);
    }
    STV(d + n - 4 * W, t0, fi);
    STV(d + n - 3 * W, t1, ft3);
    STV(d + n - 2 * W, t2, ft2);
    STV(d + n - W, t3, ft1);
    VZU();
    return 0;
ftail:
    VZU();
    return cu_large_late(d, s, n);
    /* In the loops the stores before the faulting one add k; p goes through
       an empty asm so that GCC sees no use of p + W, p + 2W, p + 3W (it would
       keep each in a register of its own). */
fl3:
    k = 3 * W;
    goto fl;
fl2:
    k = 2 * W;
    goto fl;
fl1:
    k = W;
fl:
    LAUNDER(p);
    return cfix(d, s, n, MAX(p - d + k, HEAD));
fnt3:
    k = 3 * W;
    goto fnt;
fnt2:
    k = 2 * W;
    goto fnt;
fnt1:
    k = W;
fnt:
    _mm_sfence();
    LAUNDER(p);
    return cfix(d, s, n, MAX(p - d + k, HEAD));
fi:
    return cfix(d, s, n, MAX(i, HEAD));
ft3:
    return cfix(d, s, n, MAX(i, n - 3 * W));
ft2:
    return cfix(d, s, n, MAX(i, n - 2 * W));
ft1:
    return cfix(d, s, n, MAX(i, n - W));
#if UA_W == 32
f32:
    return cfix(d, s, n, 32);
#endif
f0:
    return cfix(d, s, n, 0);
}

NOINL size_t cu_large_late(uintptr_t d, uintptr_t s, size_t n) { return cu_large_body(d, s, n, 0, 0, 0); }
NOINL size_t cu_nt(uintptr_t d, uintptr_t s, size_t n) { return cu_large_body(d, s, n, 0, 0, 1); }

/* n (or the rest of the address space, if smaller) past the size classes: the
   loops, or bytes if fewer than 8W are left below the top. */
NOINL size_t cu_huge(uintptr_t d, uintptr_t s, size_t n)
{
    return n > 8 * W ? cu_large_late(d, s, n) : cfix(d, s, n, 0);
}

INL size_t cu_large(uintptr_t d, uintptr_t s, size_t n)
{
    /* A length that runs past the end of the address space (a garbage n): do
       what lies below its top, count the rest as not copied (extable.h). */
    const size_t past = altmem__ua_past_end(MAX(d, s), n);
    if (__builtin_expect(past != 0, 0))
        return past + cu_huge(d, s, n - past);
    return cu_large_body(d, s, n, 1, 1, 0);
}

/* (2W, 8W]: two or four vectors from each end; above, the loops. */
INL size_t cu_mid(uintptr_t d, uintptr_t s, size_t n, size_t (*large)(uintptr_t, uintptr_t, size_t), const int above4)
{
    uvec a, b, c, e, w, x, y, z;
    if (above4 || n > 4 * W)    /* above4: the caller did (2W, 4W] itself */
        goto four;
    /* (2W, 4W]: 2 + 2 (falls through, as in memcpy's mid) */
    LDV(a, s, f0);
    LDV(b, s + W, f0);
    LDV(y, s + n - 2 * W, f0);
    LDV(z, s + n - W, f0);
    STV(d, a, f0);
    STV(d + W, b, f1);
    STV(d + n - 2 * W, y, f2);
    STV(d + n - W, z, fn1);
    VZU();
    return 0;
four:
    if (n > 8 * W)
        return large(d, s, n);
    /* (4W, 8W]: 4 + 4 */
    LDV(a, s, f0);
    LDV(b, s + W, f0);
    LDV(c, s + 2 * W, f0);
    LDV(e, s + 3 * W, f0);
    LDV(w, s + n - 4 * W, f0);
    LDV(x, s + n - 3 * W, f0);
    LDV(y, s + n - 2 * W, f0);
    LDV(z, s + n - W, f0);
    STV(d, a, f0);
    STV(d + W, b, f1);
    STV(d + 2 * W, c, f2);
    STV(d + 3 * W, e, f3);
    STV(d + n - 4 * W, w, f4);
    STV(d + n - 3 * W, x, fn3);
    STV(d + n - 2 * W, y, fn2);
    STV(d + n - W, z, fn1);
    VZU();
    return 0;
f0:
    return cfix(d, s, n, 0);
f1:
    return cfix(d, s, n, W);
f2:
    return cfix(d, s, n, 2 * W);
f3:
    return cfix(d, s, n, 3 * W);
f4:
    return cfix(d, s, n, 4 * W);
fn3:
    return cfix(d, s, n, n - 3 * W);
fn2:
    return cfix(d, s, n, n - 2 * W);
fn1:
    return cfix(d, s, n, n - W);
}

/* The entry: [0, 2W] inline, as memcpy's classes (one taken branch at most);
   (2W, 8W] in mid() out of line (avx512) or inline (avx2, as memcpy_avx2).
   First, the first-use check (extable.h); self is the variant. */
INL size_t cu_small(uintptr_t d, uintptr_t s, size_t n, size_t (*mid)(uintptr_t, uintptr_t, size_t),
                    size_t (*large)(uintptr_t, uintptr_t, size_t), size_t (*self)(void *, const void *, size_t))
{
    if (UA_NOT_INSTALLED())
        goto first_use;
    size_t ok = 0;
    ZERO_IN_RAX(ok);
    if (n < 16)
        goto tiny;
    if (n < W)
        goto small;
    if (n > 2 * W) {
#if UA_W == 32
        (void)mid;
        return cu_mid(d, s, n, large, 0);
#else
        /* avx512: (2W, 4W] falls through here, [W, 2W] is one taken branch
           away.  memcpy_avx512 does (2W, 4W] in its mid(); this is one taken
           branch less (chosen when copy_user's public entry had one more
           than memcpy's: the lazy-install check, now the one above). */
        (void)large;
        if (n > 4 * W)
            return mid(d, s, n);
        uvec a, b, y, z;
        LDV(a, s, f0v);
        LDV(b, s + W, f0v);
        LDV(y, s + n - 2 * W, f0v);
        LDV(z, s + n - W, f0v);
        STV(d, a, f0v);
        STV(d + W, b, fWv);
        STV(d + n - 2 * W, y, f2Wv);
        STV(d + n - W, z, fnWv);
        VZU();
        return ok;
#endif
    }
    {                           /* [W, 2W]: W + W */
        uvec a, z;
        LDV(a, s, f0v);
        LDV(z, s + n - W, f0v);
        STV(d, a, f0v);
        STV(d + n - W, z, fWv);
        VZU();
        return ok;
    }
small:
#if UA_W == 64
    if (n >= 32) {              /* [32, 64): 32 + 32 */
        __m256i a, z;
        UA_VLD32(a, s, f0v);
        UA_VLD32(z, s + n - 32, f0v);
        UA_VST32(d, a, f0v);
        UA_VST32(d + n - 32, z, f32v);
        VZU();
        return ok;
    }
#endif
    {                           /* [16, 32): 16 + 16 */
        __m128i a, z;
        UA_VLD16(a, s, f0);
        UA_VLD16(z, s + n - 16, f0);
        UA_VST16(d, a, f0);
        UA_VST16(d + n - 16, z, f16);
        return ok;
    }
tiny:
    if (n >= 8) {               /* [8, 16): 8 + 8 */
        uint64_t a, z;
        UA_LD64(a, s, f0);
        UA_LD64(z, s + n - 8, f0);
        UA_ST64(d, a, f0);
        UA_ST64(d + n - 8, z, f8);
        return ok;
    }
    if (n >= 4) {               /* [4, 8): 4 + 4 */
        uint32_t a, z;
        UA_LD32(a, s, f0);
        UA_LD32(z, s + n - 4, f0);
        UA_ST32(d, a, f0);
        UA_ST32(d + n - 4, z, f4);
        return ok;
    }
    if (n >= 2) {               /* [2, 4): 2 + 2 */
        uint16_t a, z;
        UA_LD16(a, s, f0);
        UA_LD16(z, s + n - 2, f0);
        UA_ST16(d, a, f0);
        UA_ST16(d + n - 2, z, f2);
        return ok;
    }
    if (n) {                    /* 1 */
        uint8_t a;
        UA_LD8(a, s, f0);
        UA_ST8(d, a, f0);
    }
    return ok;
fWv:
    return cfix(d, s, n, W);
#if UA_W == 64
f2Wv:
    return cfix(d, s, n, 2 * W);
fnWv:
    return cfix(d, s, n, n - W);
f32v:
    return cfix(d, s, n, 32);
#endif
f0v:
    return cfix(d, s, n, 0);
f16:
    return altmem__uaccess_bytes(d, s, n, 16, 0);
f8:
    return altmem__uaccess_bytes(d, s, n, 8, 0);
f4:
    return altmem__uaccess_bytes(d, s, n, 4, 0);
f2:
    return altmem__uaccess_bytes(d, s, n, 2, 0);
f0:
    return altmem__uaccess_bytes(d, s, n, 0, 0);
first_use:
    return altmem__copy_user_first((void *)d, (const void *)s, n, self);
}

/* ---- clear_user ------------------------------------------------------------------ */

/* rep stosb, out of line: its progress comes back through memory. */
NOINL size_t cl_rep(uintptr_t d, size_t n)
{
    size_t left = n;
    UA_REP_STOSB(d, n, &left, frep);
    return 0;
frep:
    return zfix(d, n, n - left);
}

NOINL size_t cl_nt(uintptr_t d, size_t n);

/* nt: this is the non-temporal clear (from the threshold, out of line). */
INL size_t cl_large_body(uintptr_t d, size_t n, int erms, const int nt)
{
    size_t i, k = 0;
    const uvec z = VZERO();
    if (!nt && n >= altmem__memset_nt_threshold)
        return cl_nt(d, n);
    if (!nt && erms && n >= UA_CLEAR_ERMS_MIN)
        return cl_rep(d, n);
    STV(d, z, f0);
#if UA_W == 32
    STV(d + 32, z, f32);
#endif
    i = HEAD - (d & (HEAD - 1));
    uintptr_t p = d + i;
    const uintptr_t pend = d + n - 4 * W; /* while more than 4W remain */
    if (!nt) {
        for (; p < pend; p += 4 * W) {
            STV(p, z, fl);
            STV(p + W, z, fl1);
            STV(p + 2 * W, z, fl2);
            STV(p + 3 * W, z, fl3);
        }
    } else {
        for (; p < pend; p += 4 * W) {
            STVNT(p, z, fnt);
            STVNT(p + W, z, fnt1);
            STVNT(p + 2 * W, z, fnt2);
            STVNT(p + 3 * W, z, fnt3);
        }
        _mm_sfence();
    }
    i = p - d;
    STV(d + n - 4 * W, z, fi);
    STV(d + n - 3 * W, z, ft3);
    STV(d + n - 2 * W, z, ft2);
    STV(d + n - W, z, ft1);
    VZU();
    return 0;
fl3:
    k = 3 * W;
    goto fl;
fl2:
    k = 2 * W;
    goto fl;
fl1:
    k = W;
fl:
    LAUNDER(p);
    return zfix(d, n, MAX(p - d + k, HEAD));
fnt3:
    k = 3 * W;
    goto fnt;
fnt2:
    k = 2 * W;
    goto fnt;
fnt1:
    k = W;
fnt:
    _mm_sfence();
    LAUNDER(p);
    return zfix(d, n, MAX(p - d + k, HEAD));
fi:
    return zfix(d, n, MAX(i, HEAD));
ft3:
    return zfix(d, n, MAX(i, n - 3 * W));
ft2:
    return zfix(d, n, MAX(i, n - 2 * W));
ft1:
    return zfix(d, n, MAX(i, n - W));
#if UA_W == 32
f32:
    return zfix(d, n, 32);
#endif
f0:
    return zfix(d, n, 0);
}

NOINL size_t cl_nt(uintptr_t d, size_t n) { return cl_large_body(d, n, 0, 1); }

NOINL size_t cl_huge(uintptr_t d, size_t n)
{
    return n > 8 * W ? cl_large_body(d, n, 0, 0) : zfix(d, n, 0);
}

INL size_t cl_large(uintptr_t d, size_t n)
{
    const size_t past = altmem__ua_past_end(d, n); /* as cu_large */
    if (__builtin_expect(past != 0, 0))
        return past + cl_huge(d, n - past);
    return cl_large_body(d, n, 1, 0);
}

INL size_t cl_mid(uintptr_t d, size_t n, size_t (*large)(uintptr_t, size_t))
{
    const uvec z = VZERO();
    if (n > 4 * W)
        goto four;
    STV(d, z, f0);              /* (2W, 4W]: 2 + 2 (falls through) */
    STV(d + W, z, f1);
    STV(d + n - 2 * W, z, f2);
    STV(d + n - W, z, fn1);
    VZU();
    return 0;
four:
    if (n > 8 * W)
        return large(d, n);
    STV(d, z, f0);              /* (4W, 8W]: 4 + 4 */
    STV(d + W, z, f1);
    STV(d + 2 * W, z, f2);
    STV(d + 3 * W, z, f3);
    STV(d + n - 4 * W, z, f4);
    STV(d + n - 3 * W, z, fn3);
    STV(d + n - 2 * W, z, fn2);
    STV(d + n - W, z, fn1);
    VZU();
    return 0;
f0:
    return zfix(d, n, 0);
f1:
    return zfix(d, n, W);
f2:
    return zfix(d, n, 2 * W);
f3:
    return zfix(d, n, 3 * W);
f4:
    return zfix(d, n, 4 * W);
fn3:
    return zfix(d, n, n - 3 * W);
fn2:
    return zfix(d, n, n - 2 * W);
fn1:
    return zfix(d, n, n - W);
}

INL size_t cl_small(uintptr_t d, size_t n, size_t (*mid)(uintptr_t, size_t), size_t (*large)(uintptr_t, size_t),
                    size_t (*self)(void *, size_t))
{
    if (UA_NOT_INSTALLED())     /* first use (extable.h); self is the variant */
        goto first_use;
    size_t ok = 0;
    ZERO_IN_RAX(ok);
    if (n < 16)
        goto tiny;
    if (n < W)
        goto small;
    if (n > 2 * W) {
#if UA_W == 32
        (void)mid;
        return cl_mid(d, n, large);
#else
        (void)large;
        return mid(d, n);
#endif
    }
    {                           /* [W, 2W]: W + W */
        const uvec z = VZERO();
        STV(d, z, f0v);
        STV(d + n - W, z, fWv);
        VZU();
        return ok;
    }
small:
#if UA_W == 64
    if (n >= 32) {              /* [32, 64): 32 + 32 */
        const __m256i z = _mm256_setzero_si256();
        UA_VST32(d, z, f0v);
        UA_VST32(d + n - 32, z, f32v);
        VZU();
        return ok;
    }
#endif
    {                           /* [16, 32): 16 + 16 */
        const __m128i z = _mm_setzero_si128();
        UA_VST16(d, z, f0);
        UA_VST16(d + n - 16, z, f16);
        return ok;
    }
tiny:
    if (n >= 8) {               /* [8, 16): 8 + 8 */
        UA_ST64(d, (uint64_t)0, f0);
        UA_ST64(d + n - 8, (uint64_t)0, f8);
        return ok;
    }
    if (n >= 4) {               /* [4, 8): 4 + 4 */
        UA_ST32(d, (uint32_t)0, f0);
        UA_ST32(d + n - 4, (uint32_t)0, f4);
        return ok;
    }
    if (n >= 2) {               /* [2, 4): 2 + 2 */
        UA_ST16(d, (uint16_t)0, f0);
        UA_ST16(d + n - 2, (uint16_t)0, f2);
        return ok;
    }
    if (n)                      /* 1 */
        UA_ST8(d, (uint8_t)0, f0);
    return ok;
fWv:
    return zfix(d, n, W);
#if UA_W == 64
f32v:
    return zfix(d, n, 32);
#endif
f0v:
    return zfix(d, n, 0);
f16:
    return altmem__uaccess_bytes(d, 0, n, 16, 1);
f8:
    return altmem__uaccess_bytes(d, 0, n, 8, 1);
f4:
    return altmem__uaccess_bytes(d, 0, n, 4, 1);
f2:
    return altmem__uaccess_bytes(d, 0, n, 2, 1);
f0:
    return altmem__uaccess_bytes(d, 0, n, 0, 1);
first_use:
    return altmem__clear_user_first((void *)d, n, self);
}

#endif
