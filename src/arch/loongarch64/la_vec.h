/*
 * The LoongArch vector width of a variant (lsx, lasx), one width per
 * translation unit: a file defines LA_W (16: LSX vld/vst, 32: LASX xvld/xvst),
 * is built with the matching flag set (-mlsx or -mlasx, that file only: every
 * other file is built -mno-lsx) and includes this header.  It supplies the
 * vector type and accessors that the shared size classes (src/ops/scalar.h,
 * src/ops/vector.h) are instantiated with, and what only loongarch64 has: the
 * dispatch of n <= 8W over those classes, and the loops of memcpy / memmove /
 * memset above 8W.  memcpy / memmove / memset call the classes with
 * OPS_PLAIN, copy_user / clear_user (src/arch/loongarch64/uaccess/ua_la_vec.h)
 * with OPS_FAULT.
 *
 * Assumptions:
 *   - LoongArch64 with UAL: vld/vst (xvld/xvst) and ld.d/st.d at any address
 *     are single instructions (the vector rows require UAL as well as SIMD128,
 *     and lasx SIMD256: hwcaps=-UAL leaves generic, hwcaps=-SIMD256 lsx).
 *   - LASX implies LSX: the lasx files use 16-byte vld/vst for n in [16, 32).
 *   - One vector store instruction for every alignment (vst / xvst; no
 *     non-temporal one): a loop's store (ops_vstore) is ops_vst.
 *   - A vector store is not assumed all-or-nothing: one that faults may have
 *     written its first bytes (qemu 10's xvst and vst do: docs/arch-notes.md).
 *     Its accessor reports 0 of its bytes stored; the fix-up redoes them (the
 *     same values).
 *   - Little endian; values are only moved or splatted, never combined.
 */
#ifndef ALTMEM_LA_VEC_H
#define ALTMEM_LA_VEC_H

#if !defined(LA_W) || (LA_W != 16 && LA_W != 32)
#error "la_vec.h: define LA_W as 16 (LSX) or 32 (LASX)"
#endif
#if !defined(__loongarch_sx) || (LA_W == 32 && !defined(__loongarch_asx))
#error "la_vec.h: LA_W 16 needs -mlsx, LA_W 32 -mlasx (src/CMakeLists.txt flag sets lsx, lasx)"
#endif

#include <stddef.h>
#include <stdint.h>
#include <lsxintrin.h>
#if LA_W == 32
#include <lasxintrin.h>
#endif

#include "ops/scalar.h"

typedef __m128i la_h; /* 16 bytes */
#if LA_W == 32
typedef __m256i la_v;
#define LA_SPLAT(c) __lasx_xvreplgr2vr_b(c)
#else
typedef __m128i la_v;
#define LA_SPLAT(c) __lsx_vreplgr2vr_b(c)
#endif
#define LA_HSPLAT(c) __lsx_vreplgr2vr_b(c)
#define W LA_W

/* ---- One vector ------------------------------------------------------------------

   Plain: unaligned vector lvalues, a single vld/vst (xvld/xvst) each.  Not the
   intrinsics __lsx_vld(p, 0): clang-19 does not fold p's constant offset into
   their immediate, one addi.d per access (measured: memcpy_lsx executed as many
   instructions per byte as ual). */
typedef __m128i __attribute__((aligned(1), may_alias)) la_hu;
#define la_hld(p) (*(const la_hu *)(const void *)(p))
#define la_hst(p, v) (*(la_hu *)(void *)(p) = (v))
#if LA_W == 32
typedef __m256i __attribute__((aligned(1), may_alias)) la_vu;
#define la_vld(p) (*(const la_vu *)(const void *)(p))
#define la_vst(p, v) (*(la_vu *)(void *)(p) = (v))
#define LA_UA_VLD(v, p, L) UA_VLD32(v, p, L)
#define LA_UA_VST(p, v, L) UA_VST32(p, v, L)
#define LA_UA_VLDX(v, p, i, L) UA_VLDX32(v, p, i, L)
#define LA_UA_VSTX(p, i, v, L) UA_VSTX32(p, i, v, L)
#else
#define la_vld(p) la_hld(p)
#define la_vst(p, v) la_hst(p, v)
#define LA_UA_VLD(v, p, L) UA_VLD16(v, p, L)
#define LA_UA_VST(p, v, L) UA_VST16(p, v, L)
#define LA_UA_VLDX(v, p, i, L) UA_VLDX16(v, p, i, L)
#define LA_UA_VSTX(p, i, v, L) UA_VSTX16(p, i, v, L)
#endif

/* ---- The accessors the shared classes are instantiated with ------------------------
   Plain: la_vld / la_vst at pointer + offset.  Fault: the extable accessors
   of src/arch/loongarch64/uaccess/accessors.h, vld / xvld with a constant
   offset (folded into the immediate), vldx / xvldx with any other (n - W: the
   index register, no add.d per access, as clang does for the plain ones). */

typedef la_v ops_vec;
#define OPS_W W

/* The exception-table access with an immediate offset when it is a constant,
   else with the index register. */
#define LA_FAULT_AT(off, imm_form, idx_form)                                     \
    do {                                                                         \
        if (__builtin_constant_p(off))                                           \
            imm_form;                                                            \
        else                                                                     \
            idx_form;                                                            \
    } while (0)
#define LA_FAULT_VLD(v, p, off, L) LA_FAULT_AT(off, LA_UA_VLD(v, (p) + (off), L), LA_UA_VLDX(v, p, off, L))
#define LA_FAULT_VST(p, off, v, L) LA_FAULT_AT(off, LA_UA_VST((p) + (off), v, L), LA_UA_VSTX(p, off, v, L))
#define LA_PLAIN_VLD(q) la_vld(q)
#define LA_PLAIN_VST(q, v) la_vst(q, v)
OPS_VECTOR_LOAD(la_v, ops_vld, LA_PLAIN_VLD, LA_FAULT_VLD)
OPS_VECTOR_STORE(la_v, ops_vst, LA_PLAIN_VST, LA_FAULT_VST)

/* A loop's store: vst / xvst at any alignment (no aligned or streaming form). */
OPS_INL size_t ops_vstore(const enum ops_access acc, const enum ops_store how, uintptr_t p, ptrdiff_t off, la_v v)
{
    (void)how;
    return ops_vst(acc, p, off, v);
}

/* What keeps a block's stores in source order: a compiler barrier, as on
   x86_64 (only copy_user uses ops_vcopy_block4 here, whose extable stores are
   ordered asm already: the same code without it). */
#define OPS_STORE_ORDER() __asm__ volatile("" ::: "memory")

/* 16 bytes (LSX, in every file): the lasx files' [16, 32). */
#define OPS_HAVE_V16 1
typedef la_h ops_v16;
#define LA_FAULT_VLD16(v, p, off, L) LA_FAULT_AT(off, UA_VLD16(v, (p) + (off), L), UA_VLDX16(v, p, off, L))
#define LA_FAULT_VST16(p, off, v, L) LA_FAULT_AT(off, UA_VST16((p) + (off), v, L), UA_VSTX16(p, off, v, L))
#define LA_PLAIN_HLD(q) la_hld(q)
#define LA_PLAIN_HST(q, v) la_hst(q, v)
OPS_VECTOR_LOAD(la_h, ops_ld16v, LA_PLAIN_HLD, LA_FAULT_VLD16)
OPS_VECTOR_STORE(la_h, ops_st16v, LA_PLAIN_HST, LA_FAULT_VST16)

#include "ops/vector.h"

/* ---- n <= 8W: one class per size range -------------------------------------------
   (One return at the end: see ops_copy_lt8.)  Every class loads all it copies
   before its first store: memcpy, memmove and copy_user alike. */

OPS_INL size_t la_copy_upto8w(const enum ops_access acc, uintptr_t d, uintptr_t s, size_t n)
{
    size_t r;
    if (n >= 4 * W)             /* [4W, 8W]: 4 + 4 vectors */
        r = ops_vcopy_ht4(acc, d, s, n);
    else if (n >= 2 * W)        /* [2W, 4W): 2 + 2 vectors */
        r = ops_vcopy_ht2(acc, d, s, n);
    else if (n >= W)            /* [W, 2W): 1 + 1 vector */
        r = ops_vcopy_ht1(acc, d, s, n);
#if LA_W == 32
    else if (n >= 16)           /* [16, 32): 16 + 16 (LSX) */
        r = ops_copy_ht16(acc, d, s, n);
#endif
    else                        /* [0, 16): 8 + 8, 4 + 4, 2 + 2, 1 */
        r = ops_copy_lt16(acc, d, s, n);
    return r;
}

/* v: the byte in every lane of a vector (h: of 16 bytes, x: of 8 bytes, for
   the classes below W). */
OPS_INL size_t la_set_upto8w(const enum ops_access acc, uintptr_t d, la_v v, la_h h, uint64_t x, size_t n)
{
    size_t r;
    (void)h;
    if (n >= 4 * W)             /* [4W, 8W]: 4 + 4 vectors */
        r = ops_vset_ht4(acc, d, v, n);
    else if (n >= 2 * W)        /* [2W, 4W): 2 + 2 vectors */
        r = ops_vset_ht2(acc, d, v, n);
    else if (n >= W)            /* [W, 2W): 1 + 1 vector */
        r = ops_vset_ht1(acc, d, v, n);
#if LA_W == 32
    else if (n >= 16)           /* [16, 32): 16 + 16 (LSX) */
        r = ops_set_ht16(acc, d, h, n);
#endif
    else                        /* [0, 16): 8 + 8, 4 + 4, 2 + 2, 1 */
        r = ops_set_lt16(acc, d, x, n);
    return r;
}

/* ---- Large sizes of memcpy / memmove / memset (plain only) ------------------------

   The first (last) vector is loaded up front and stored after the loop, which
   memmove needs; copy_user stores it first instead, and keeps 4-vector blocks
   (ops_vcopy_block4, ops_vset_block4: src/arch/loongarch64/uaccess/ua_la_vec.h).
   A loop block here is LA_CPB vectors (copies) or LA_SETB (memset): 16-byte LSX
   blocks are longer than LASX's so that the loop control (an add per pointer,
   one compare-and-branch on the destination pointer) is shared by more
   accesses.  Plain only: la_vld / la_vst directly, as x86_vec.h's loops. */

#if LA_W == 16
#define LA_CPB 8   /* 128 bytes */
#define LA_SETB 16 /* 256 bytes */
#else
#define LA_CPB 4   /* 128 bytes */
#define LA_SETB 4  /* 128 bytes */
#endif

/* K vectors (K a constant) loaded from s, then stored to d in ascending order. */
#define LA_COPY_NV(d, s, K)                                                      \
    do {                                                                         \
        la_v t_[K];                                                              \
        _Pragma("GCC unroll 16") for (int i_ = 0; i_ < (K); i_++)                \
            t_[i_] = la_vld((s) + i_ * W);                                       \
        _Pragma("GCC unroll 16") for (int i_ = 0; i_ < (K); i_++)                \
            la_vst((d) + i_ * W, t_[i_]);                                        \
    } while (0)

/* K vectors of v to d, ascending. */
#define LA_SET_NV(d, v, K)                                                       \
    do {                                                                         \
        _Pragma("GCC unroll 16") for (int i_ = 0; i_ < (K); i_++)                \
            la_vst((d) + i_ * W, (v));                                           \
    } while (0)

/* n > 8W, forward; correct when dst does not lie inside (src, src + n).  The
   loop's stores are W-aligned (a misaligned vector store stream costs more,
   as misaligned st.d streams do on Loongson 3A5000); the loop runs while more
   than a block remains, the last 1..LA_CPB vectors (<= 8W) go to the classes. */
static inline void la_copy_fwd_large(unsigned char *d, const unsigned char *s, size_t n)
{
    unsigned char *const d0 = d, *const e = d + n;
    const la_v head = la_vld(s);
    const size_t skip = W - ((uintptr_t)d & (W - 1)); /* 1..W */
    d += skip;
    s += skip;
    if ((size_t)(e - d) > LA_CPB * W) {
        unsigned char *const lim = e - LA_CPB * W; /* > d: no wrap */
        do {
            LA_COPY_NV(d, s, LA_CPB);
            d += LA_CPB * W;
            s += LA_CPB * W;
            OPS_LAUNDER(d); /* as in la_copy_bwd_large */
            OPS_LAUNDER(s);
        } while (d < lim);
    }
    la_copy_upto8w(OPS_PLAIN, (uintptr_t)d, (uintptr_t)s, (size_t)(e - d)); /* the last 1..LA_CPB vectors */
    la_vst(d0, head);
}

/* n > 8W, backward; correct when dst does not lie below src inside its range. */
static inline void la_copy_bwd_large(unsigned char *d, const unsigned char *s, size_t n)
{
    unsigned char *const dend = d + n;
    const la_v tail = la_vld(s + n - W);
    n -= ((uintptr_t)(dend - 1) & (W - 1)) + 1; /* 1..W: dst + n W-aligned */
    unsigned char *pd = d + n;
    const unsigned char *ps = s + n;
    if (n > LA_CPB * W) {
        unsigned char *const lim = d + LA_CPB * W;
        do {
            pd -= LA_CPB * W;
            ps -= LA_CPB * W;
            /* Opaque to clang's loop strength reduction, which otherwise
               turns the two pointers into one index (vldx/vstx and an add.d
               per pointer on top of the index's add). */
            OPS_LAUNDER(pd);
            OPS_LAUNDER(ps);
            LA_COPY_NV(pd, ps, LA_CPB);
        } while (pd > lim);
    }
    la_copy_upto8w(OPS_PLAIN, (uintptr_t)d, (uintptr_t)s, (size_t)(pd - d)); /* the first 1..LA_CPB vectors */
    la_vst(dend - W, tail);
}

/* n > 8W: the first vector unaligned, W-aligned blocks of LA_SETB vectors
   while more than a block remains, then the rest (ascending, as clear_user's):
   LASX the last 4 vectors unaligned; LSX 8 aligned vectors if more than 8
   remain, then the last 8 unaligned. */
static inline void la_set_large(unsigned char *d, la_v v, size_t n)
{
    unsigned char *const e = d + n;
    la_vst(d, v);
    d += W - ((uintptr_t)d & (W - 1));
    if ((size_t)(e - d) > LA_SETB * W) {
        unsigned char *const lim = e - LA_SETB * W; /* > d: no wrap */
        do {
            LA_SET_NV(d, v, LA_SETB);
            d += LA_SETB * W;
        } while (d < lim);
    }
#if LA_SETB > 8
    if ((size_t)(e - d) > LA_SETB / 2 * W)
        LA_SET_NV(d, v, LA_SETB / 2);
    LA_SET_NV(e - LA_SETB / 2 * W, v, LA_SETB / 2);
#else
    LA_SET_NV(e - LA_SETB * W, v, LA_SETB);
#endif
}

/* ---- The variants' bodies, one per routine for both widths ---------------------
   (memcpy_lsx.c and memcpy_lasx.c are this with LA_W 16 and 32; the same for
   memmove and memset.) */

OPS_INL void *la_memcpy(void *dst, const void *src, size_t n)
{
    if (n <= 8 * LA_W)
        la_copy_upto8w(OPS_PLAIN, (uintptr_t)dst, (uintptr_t)src, n);
    else
        la_copy_fwd_large(dst, src, n);
    return dst;
}

/* Up to 8W every byte is loaded before any store, so overlap needs no test;
   above, the direction by overlap (forward unless dst lies inside (src, src + n)). */
OPS_INL void *la_memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (n <= 8 * LA_W)
        la_copy_upto8w(OPS_PLAIN, (uintptr_t)d, (uintptr_t)s, n);
    else if ((uintptr_t)d - (uintptr_t)s >= n) /* dst below src, or no overlap */
        la_copy_fwd_large(d, s, n);
    else if (d != s)
        la_copy_bwd_large(d, s, n);
    return dst;
}

OPS_INL void *la_memset(void *dst, int c, size_t n)
{
    const la_v v = LA_SPLAT(c);
    if (n > 8 * LA_W)
        la_set_large(dst, v, n);
    else
        la_set_upto8w(OPS_PLAIN, (uintptr_t)dst, v, LA_HSPLAT(c), UINT64_C(0x0101010101010101) * (unsigned char)c, n);
    return dst;
}

#endif
