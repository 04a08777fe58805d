/*
 * The body of the x86_64 vector copy_user / clear_user variants (avx2, avx512),
 * one vector width per translation unit, laid out like the memcpy / memset
 * variants of that width: a file defines UA_W (32 or 64), is built with the
 * matching flags and includes this header; its entry points call cu_small() /
 * cl_small() with the out-of-line classes of that width.
 *
 * The size classes are memcpy's and memset's own (x86_vec.h), compiled here
 * over the exception-table access operation defined below: each class returns
 * OPS_OK or its progress, and CU_TRY / CL_TRY turn a progress into the fix-up.
 * What stays here is what a fault-tolerant copy must do differently: the
 * entries (first-use check, return 0), the large copy (its first 64 bytes are
 * stored first, not last as memcpy's, which memmove needs; the tail can be
 * loaded after the loop when loading it first faults; non-temporal stores in
 * ascending order, not memcpy's four-page interleave) and rep movsb / rep
 * stosb with their progress.  clear_user's loops are memset's (vset_loop,
 * vset_nt: ascending already).
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

#include "registry.h"

#include "policy.h"

#define NOINL static __attribute__((noinline))

#if UA_W == 64
#ifndef __AVX512F__
#error "UA_W 64 needs -mavx512f -mavx512vl"
#endif
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
#define VZERO_CONST() _mm512_setzero_si512()
#elif UA_W == 32
#ifndef __AVX2__
#error "UA_W 32 needs -mavx2"
#endif
/* GCC inserts vzeroupper before each return of a function that used ymm
   registers, the extable accessors' operands included (seen: two in a row on
   every return with this one too); clang is given it explicitly. */
#if defined(__clang__)
#define VZU() _mm256_zeroupper()
#else
#define VZU() ((void)0)
#endif
#define UA_COPY_ERMS_MIN altmem__rep_movsb_start[1]  /* as memcpy_avx2 */
#define UA_CLEAR_ERMS_MIN altmem__rep_stosb_start[1] /* as memset_avx2 */
#define VZERO_CONST() _mm256_setzero_si256()
#else
#error "define UA_W (32 or 64) before including ua_x86_vec.h"
#endif
#define VEC_BITS (UA_W * 8)

#include "x86_vec.h"
#include "uaccess/extable.h" /* the fix-up, the lazy installation, the end of the address space */

/* A zero vector GCC cannot see through: with the constant itself it makes it
   again (vpxor) before each store of an exception-table accessor (callgrind,
   clear_user_avx2 1 KiB: 108 instructions per call against 98). */
OPS_INL vec vzero(void)
{
    vec z = VZERO_CONST();
    __asm__("" : "+v"(z));
    return z;
}

#define HEAD ((size_t)64)       /* the large copy's unaligned head: one line */

OPS_INL size_t cfix(uintptr_t d, uintptr_t s, size_t n, size_t done)
{
    VZU();
    return altmem__uaccess_bytes(d, s, n, done, 0);
}

OPS_INL size_t zfix(uintptr_t d, size_t n, size_t done)
{
    VZU();
    return altmem__uaccess_bytes(d, 0, n, done, 1);
}

/* A class's result: on a fault (its progress, not OPS_OK) the fix-up goes on
   from there; d, s and n are the caller's. */
#define CU_TRY(call)                                                             \
    do {                                                                         \
        const size_t p_ = (call);                                                \
        if (unlikely(p_ != OPS_OK))                                               \
            return cfix(d, s, n, p_);                                            \
    } while (0)
#define CL_TRY(call)                                                             \
    do {                                                                         \
        const size_t p_ = (call);                                                \
        if (unlikely(p_ != OPS_OK))                                               \
            return zfix(d, n, p_);                                               \
    } while (0)

#define MAX ops_max

/* The first tests of both entries, in this order: the first-use check
   (extable.h; the entry's label first_use calls the installer and self), the
   return value 0 in %rax, then n below 16 (label tiny) and below W (label
   small); what falls through is [W, ...). */
#define UA_ENTRY_TESTS(ok)                                                       \
    if (UA_NOT_INSTALLED())                                                      \
        goto first_use;                                                          \
    size_t ok = 0;                                                               \
    UA_ZERO_IN_RET(ok);  /* in %rax (accessors.h) */                             \
    /* below W first, there each class from the largest down a taken jump away,  \
       as memcpy's entry (x86_vec_entry512.h): docs/uaccess.md, "Mended" */      \
    if (n < W)                                                                   \
        goto small

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
NOINL size_t cu_pieces(uintptr_t d, uintptr_t s, size_t n);
#if UA_W == 64
#define CU_SELF altmem_copy_user_avx512
#else
#define CU_SELF altmem_copy_user_avx2
#endif

/* One of the last four vectors would cross a page: dst + n lies 1..4W - 1 bytes
   past a boundary, off a W step.  A store split across pages cost
   copy_user_avx512 1.5x memcpy_avx512's time at 4 KiB to dst + 1, and
   clear_user_avx512 1.4x memset's (docs/uaccess.md).  d goes through an empty
   asm: else GCC keeps this d + n for the loop that follows, a register more,
   and the loop's path gets a stack frame. */
OPS_INL int ua_tail_crosses_page(uintptr_t d, size_t n)
{
    OPS_LAUNDER(d);
    const uintptr_t de = d + n;
    return last_four_cross_page(de) && (de & (W - 1));
}

/* nt: this is the non-temporal copy (from the threshold, out of line, the tail
   loaded after the loop); pre: the tail is loaded before the loop; pieces: the
   copy whose tail would cross a page (out of line, chosen on entry: tested after
   the loop, its registers cost the common path a frame): after the loop,
   W-aligned vectors up to the last W boundary, ascending, then the bytes above
   it by this variant's own classes, which count what they could not copy. */
OPS_INL size_t cu_large_body(uintptr_t d, uintptr_t s, size_t n, int erms, int pre, const int nt, const int pieces)
{
    size_t i, k;
    vec h, t0, t1, t2, t3;
#if UA_W == 32
    vec a;
#endif
    if (!nt && !copy_below_nt(d, s, n)) {
        ALTMEM_SETTLE(n, altmem__settle_copy_user((void *)d, (const void *)s, n)); /* the first streaming call */
#if UA_W == 64
        /* nothing stored yet: the 32-byte variant's fault-exact copy of the whole range */
        if (split_loads_streaming((const unsigned char *)d, (const unsigned char *)s))
            return altmem_copy_user_avx2((void *)d, (const void *)s, n); /* Zen 5, src and dst apart mod 64 */
#endif
        return cu_nt(d, s, n);
    }
    if (!nt && erms && n >= UA_COPY_ERMS_MIN && !movsb_short_distance(d, s))
        return cu_rep(d, s, n);
    if (!nt && !pieces && unlikely(ua_tail_crosses_page(d, n)))
        return cu_pieces(d, s, n);
/* Head: the first 64 bytes unaligned; then dst is 64-aligned at i (1..64). */
    if (ops_vld(OPS_FAULT, &h, s, 0))
        goto f0;
#if UA_W == 32
    if (ops_vld(OPS_FAULT, &a, s, 32))
        goto f0;
#endif
    if (pre) {
        if (ops_vld(OPS_FAULT, &t0, s, n - 4 * W) || ops_vld(OPS_FAULT, &t1, s, n - 3 * W) ||
            ops_vld(OPS_FAULT, &t2, s, n - 2 * W) || ops_vld(OPS_FAULT, &t3, s, n - W))
            goto ftail;
    }
    if (ops_vst(OPS_FAULT, d, 0, h) != OPS_OK)
        goto f0;
#if UA_W == 32
    if (ops_vst(OPS_FAULT, d, 32, a) != OPS_OK)
        goto f32;
#endif
    i = HEAD - (d & (HEAD - 1));
    /* The loops: q = s + i, p = d + i, while more than 4W remain (base +
       offset addresses and two adds, as memcpy's loop; on a fault i = p - d),
       4 vectors per iteration (x86_vec.h's blocks, with their progress k). */
    uintptr_t p = d + i, q = s + i;
    const uintptr_t pend = d + n - 4 * W;
    if (!nt) {
        for (; p < pend; p += 4 * W, q += 4 * W)
            if (unlikely((k = ops_vcopy_block4(OPS_FAULT, OPS_ALIGNED, p, q)) != OPS_OK))
                goto fl;
    } else {
        for (; p < pend; p += 4 * W, q += 4 * W)   /* whole lines streamed */
            if (unlikely((k = ops_vcopy_block4(OPS_FAULT, OPS_STREAMING, p, q)) != OPS_OK))
                goto fnt;
        _mm_sfence();
    }
    i = p - d;
    if (pieces) {
        for (const uintptr_t z = (d + n) & -(uintptr_t)W; p < z; p += W, q += W) {
            vec v;
            if (ops_vld(OPS_FAULT, &v, q, 0) || ops_vst(OPS_FAULT, p, 0, v) != OPS_OK)
                return cfix(d, s, n, p - d);
        }
        VZU();
        return CU_SELF((void *)p, (const void *)q, d + n - p);
    }
    /* Tail: the last 4 vectors (n - 4W <= i: they start inside the prefix). */
    if (!pre) {
        if (ops_vld(OPS_FAULT, &t0, s, n - 4 * W) || ops_vld(OPS_FAULT, &t1, s, n - 3 * W) ||
            ops_vld(OPS_FAULT, &t2, s, n - 2 * W) || ops_vld(OPS_FAULT, &t3, s, n - W))
            goto fi;
    }
    if (ops_vst(OPS_FAULT, d, n - 4 * W, t0) != OPS_OK)
        goto fi;
    if (ops_vst(OPS_FAULT, d, n - 3 * W, t1) != OPS_OK)
        goto ft3;
    if (ops_vst(OPS_FAULT, d, n - 2 * W, t2) != OPS_OK)
        goto ft2;
    if (ops_vst(OPS_FAULT, d, n - W, t3) != OPS_OK)
        goto ft1;
    VZU();
    return 0;
ftail:
    VZU();
    return cu_large_late(d, s, n);
    /* In the loops: p goes through an empty asm so that GCC sees no use of
       p + W, p + 2W, p + 3W (it would keep each in a register of its own). */
fnt:
    _mm_sfence();
fl:
    OPS_LAUNDER(p);
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

NOINL size_t cu_large_late(uintptr_t d, uintptr_t s, size_t n) { return cu_large_body(d, s, n, 0, 0, 0, 0); }
NOINL size_t cu_nt(uintptr_t d, uintptr_t s, size_t n) { return cu_large_body(d, s, n, 0, 0, 1, 0); }
NOINL size_t cu_pieces(uintptr_t d, uintptr_t s, size_t n) { return cu_large_body(d, s, n, 0, 0, 0, 1); }

/* n (or the rest of the address space, if smaller) past the size classes: the
   loops, or bytes if fewer than 8W are left below the top. */
NOINL size_t cu_huge(uintptr_t d, uintptr_t s, size_t n)
{
    return n > 8 * W ? cu_large_late(d, s, n) : cfix(d, s, n, 0);
}

OPS_INL size_t cu_large(uintptr_t d, uintptr_t s, size_t n)
{
    /* A length that runs past the end of the address space (a garbage n): do
       what lies below its top, count the rest as not copied (extable.h). */
    const size_t past = altmem__ua_past_end(MAX(d, s), n);
    if (__builtin_expect(past != 0, 0))
        return past + cu_huge(d, s, n - past);
    return cu_large_body(d, s, n, 1, 1, 0, 0);
}

/* (2W, 8W]: two or four vectors from each end; above, the loops. */
/* In memcpy's order (x86_vec.h, vcopy_entry): the loops first, then (4W, 8W]
   falling through and (2W, 4W] one taken branch away.  The order before (2W,
   4W] first) took two taken branches and a jump to a shared epilogue more than
   memcpy_avx2 at 256 B: copy_user 2.37 ns against memcpy's 1.58 on Intel 6/167
   (docs/uaccess.md). */
OPS_INL size_t cu_mid(uintptr_t d, uintptr_t s, size_t n, size_t (*large)(uintptr_t, uintptr_t, size_t), const int above4)
{
    if (n > 8 * W)
        return large(d, s, n);
    if (!above4 && n <= 4 * W)  /* above4: the caller did (2W, 4W] itself */
        goto two;
    CU_TRY(ops_vcopy_ht4(OPS_FAULT, d, s, n)); /* (4W, 8W]: 4 + 4 */
    VZU();
    return 0;
two:
    CU_TRY(ops_vcopy_ht2(OPS_FAULT, d, s, n)); /* (2W, 4W]: 2 + 2 */
    VZU();
    return 0;
}

/* The entry: [0, 2W] inline, as memcpy's classes (one taken branch at most);
   (2W, 8W] in mid() out of line (avx512) or inline (avx2, as memcpy_avx2).
   First, the first-use check (extable.h); self is the variant. */
OPS_INL size_t cu_small(uintptr_t d, uintptr_t s, size_t n, size_t (*mid)(uintptr_t, uintptr_t, size_t),
                    size_t (*large)(uintptr_t, uintptr_t, size_t), size_t (*self)(void *, const void *, size_t))
{
    UA_ENTRY_TESTS(ok);
    if (n > 2 * W) {
#if UA_W == 32
        (void)mid;
        return cu_mid(d, s, n, large, 0);
#else
        /* avx512: (2W, 4W] falls through here, [W, 2W] is one taken branch
           away.  memcpy_avx512 does (2W, 4W] a taken branch away in its
           entry's out-of-line block; this is one taken branch less (chosen
           when copy_user's public entry had one more than memcpy's: the
           lazy-install check, now the one above). */
        (void)large;
        if (n > 4 * W)
            return mid(d, s, n);
        CU_TRY(ops_vcopy_ht2(OPS_FAULT, d, s, n));
        VZU();
        return ok;
#endif
    }
    CU_TRY(ops_vcopy_ht1(OPS_FAULT, d, s, n)); /* [W, 2W]: W + W */
    VZU();
    return ok;
small:
    BELOW_W_TESTS(); /* x86_vec_set.h */
    if (n >= 2)
        CU_TRY(ops_copy_2_4(OPS_FAULT, d, s, n)); /* [2, 4): 2 + 2 */
    else if (n == 1)
        CU_TRY(ops_copy_1(OPS_FAULT, d, s));      /* 1 */
    return ok;
c8:
    CU_TRY(ops_copy_8_16(OPS_FAULT, d, s, n));    /* [8, 16): 8 + 8 */
    return ok;
c4:
    CU_TRY(ops_copy_4_8(OPS_FAULT, d, s, n));     /* [4, 8): 4 + 4 */
    return ok;
#if UA_W == 64
c32:
    CU_TRY(ops_copy_ht32(OPS_FAULT, d, s, n)); /* [32, 64): 32 + 32 */
    VZU();
    return ok;
#endif
c16:
    CU_TRY(ops_copy_ht16(OPS_FAULT, d, s, n)); /* [16, 32): 16 + 16 */
    return ok;
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

#if UA_W == 64
#define CL_SELF altmem_clear_user_avx512
#else
#define CL_SELF altmem_clear_user_avx2
#endif

/* ua_tail_crosses_page: the loop up to the last W boundary (its last vectors
   aligned), then the bytes above it by this variant's own classes, which count
   what they could not clear. */
NOINL size_t cl_pieces(uintptr_t d, size_t n)
{
    const size_t below = (((uintptr_t)d + n) & -(uintptr_t)W) - d;
    if (below <= 8 * W) { /* too few for the loop: the whole clear, as before */
        CL_TRY(ops_vset_loop(OPS_FAULT, d, vzero(), n));
        VZU();
        return 0;
    }
    CL_TRY(ops_vset_loop(OPS_FAULT, d, vzero(), below));
    VZU();
    return CL_SELF((void *)(d + below), n - below);
}

/* From the threshold: memset's non-temporal loop, out of line. */
NOINL size_t cl_nt(uintptr_t d, size_t n)
{
    CL_TRY(vset_nt(OPS_FAULT, d, vzero(), n));
    VZU();
    return 0;
}

/* n > 8W: memset's loop (x86_vec.h: one vector, a W-aligned loop, the last
   4W), rep stosb, or the non-temporal loop. */
OPS_INL size_t cl_large_body(uintptr_t d, size_t n, int erms)
{
    if (n >= altmem__memset_nt_threshold) {
        ALTMEM_SETTLE(n, altmem__settle_clear_user((void *)d, n)); /* the first streaming call */
        return cl_nt(d, n);
    }
    if (erms && n >= UA_CLEAR_ERMS_MIN)
        return cl_rep(d, n);
    if (unlikely(ua_tail_crosses_page(d, n)))
        return cl_pieces(d, n);
    CL_TRY(ops_vset_loop(OPS_FAULT, d, vzero(), n));
    VZU();
    return 0;
}

NOINL size_t cl_huge(uintptr_t d, size_t n)
{
    return n > 8 * W ? cl_large_body(d, n, 0) : zfix(d, n, 0);
}

OPS_INL size_t cl_large(uintptr_t d, size_t n)
{
    const size_t past = altmem__ua_past_end(d, n); /* as cu_large */
    if (__builtin_expect(past != 0, 0))
        return past + cl_huge(d, n - past);
    return cl_large_body(d, n, 1);
}

/* In memset's order (x86_vec.h, vset_entry), as cu_mid. */
OPS_INL size_t cl_mid(uintptr_t d, size_t n, size_t (*large)(uintptr_t, size_t))
{
    if (n > 8 * W)
        return large(d, n);
    if (n <= 4 * W)
        goto two;
    CL_TRY(ops_vset_ht4(OPS_FAULT, d, vzero(), n)); /* (4W, 8W]: 4 + 4 */
    VZU();
    return 0;
two:
    CL_TRY(ops_vset_ht2(OPS_FAULT, d, vzero(), n)); /* (2W, 4W]: 2 + 2 */
    VZU();
    return 0;
}

OPS_INL size_t cl_small(uintptr_t d, size_t n, size_t (*mid)(uintptr_t, size_t), size_t (*large)(uintptr_t, size_t),
                    size_t (*self)(void *, size_t))
{
    UA_ENTRY_TESTS(ok);
    if (n > 2 * W) {
#if UA_W == 32
        (void)mid;
        return cl_mid(d, n, large);
#else
        (void)large;
        return mid(d, n);
#endif
    }
    CL_TRY(ops_vset_ht1(OPS_FAULT, d, vzero(), n)); /* [W, 2W]: W + W */
    VZU();
    return ok;
small:
    BELOW_W_TESTS(); /* x86_vec_set.h */
    if (n >= 2)
        CL_TRY(set_2_3(OPS_FAULT, d, 0, n));                    /* [2, 4): three byte stores */
    else if (n == 1)
        CL_TRY(ops_set_1(OPS_FAULT, d, 0));                     /* 1 */
    return ok;
c8:
    CL_TRY(set_8_16(OPS_FAULT, d, _mm_setzero_si128(), n));     /* [8, 16): 8 + 8 */
    return ok;
c4:
    CL_TRY(set_4_8(OPS_FAULT, d, _mm_setzero_si128(), n));      /* [4, 8): 4 + 4 */
    return ok;
#if UA_W == 64
c32:
    CL_TRY(ops_set_ht32(OPS_FAULT, d, _mm256_setzero_si256(), n)); /* [32, 64): 32 + 32 */
    VZU();
    return ok;
#endif
c16:
    CL_TRY(ops_set_ht16(OPS_FAULT, d, _mm_setzero_si128(), n)); /* [16, 32): 16 + 16 */
    return ok;
first_use:
    return altmem__clear_user_first((void *)d, n, self);
}

#endif
