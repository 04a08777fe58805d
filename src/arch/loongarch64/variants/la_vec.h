/*
 * The size classes of the LoongArch vector variants (lsx, lasx), one vector
 * width per translation unit: a file defines LA_W (16: LSX vld/vst, 32: LASX
 * xvld/xvst), is built with the matching flag set (-mlsx or -mlasx, that file
 * only: every other file is built -mno-lsx) and includes this header.  The
 * classes are written once over the access operation (as ual_classes.h and
 * x86_vec.h): memcpy / memmove / memset use plain intrinsics, copy_user /
 * clear_user (src/arch/loongarch64/uaccess/ua_la_vec.h) define AO_EXTABLE and the extable
 * accessors first (extable.h: vld/vst/xvld/xvst), and get each class's
 * progress from its labels.
 *
 * Assumptions:
 *   - LoongArch64 with UAL: vld/vst (xvld/xvst) and ld.d/st.d at any address
 *     are single instructions (the vector rows require UAL as well as SIMD128,
 *     and lasx SIMD256: hwcaps=-UAL leaves generic, hwcaps=-SIMD256 lsx).
 *   - LASX implies LSX: the lasx files use 16-byte vld/vst for n in [16, 32).
 *   - Every class loads all it copies before its first store and stores in
 *     ascending order, each store beginning at or below the end of those before
 *     it (so the classes serve memmove, and the progress at each label holds).
 *   - A vector store is not assumed all-or-nothing: one that faults may have
 *     written its first bytes (qemu 10's xvst and vst do: docs/arch-notes.md).
 *     The progress at its label is where it began; the fix-up redoes those
 *     bytes (the same values).
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

#include <stdint.h>
#include <lsxintrin.h>
#if LA_W == 32
#include <lasxintrin.h>
#endif

#include "variants/ual/ual_classes.h"

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

#ifndef AO_EXTABLE
/* Plain: unaligned vector lvalues, a single vld/vst (xvld/xvst) each.  Not
   the intrinsics __lsx_vld(p, 0): clang-19 does not fold p's constant offset
   into their immediate, one addi.d per access (measured: memcpy_lsx executed
   as many instructions per byte as ual). */
typedef __m128i __attribute__((aligned(1), may_alias)) la_hu;
#define la_hld(p) (*(const la_hu *)(const void *)(p))
#define la_hst(p, v) (*(la_hu *)(void *)(p) = (v))
#if LA_W == 32
typedef __m256i __attribute__((aligned(1), may_alias)) la_vu;
#define la_vld(p) (*(const la_vu *)(const void *)(p))
#define la_vst(p, v) (*(la_vu *)(void *)(p) = (v))
#else
#define la_vld(p) la_hld(p)
#define la_vst(p, v) la_hst(p, v)
#endif
#define AO_HLD(v, p, L) AO_PLAIN((v) = la_hld(p), L)
#define AO_HST(p, v, L) AO_PLAIN(la_hst(p, v), L)
#define AO_VLD(v, p, L) AO_PLAIN((v) = la_vld(p), L)
#define AO_VST(p, v, L) AO_PLAIN(la_vst(p, v), L)
#else
#define AO_HLD(v, p, L) UA_VLD16(v, p, L)
#define AO_HST(p, v, L) UA_VST16(p, v, L)
#if LA_W == 32
#define AO_VLD(v, p, L) UA_VLD32(v, p, L)
#define AO_VST(p, v, L) UA_VST32(p, v, L)
#else
#define AO_VLD(v, p, L) UA_VLD16(v, p, L)
#define AO_VST(p, v, L) UA_VST16(p, v, L)
#endif
#endif

/* ---- Copies ----------------------------------------------------------------- */

/* n in [16, 32]: head 16 + tail 16 (the lasx files; for lsx this is la_copy_1v) */
AO_INL size_t la_copy_16_32(ao_dst d, ao_src s, size_t n)
{
    la_h a, z;
    AO_HLD(a, s, f0);
    AO_HLD(z, s + n - 16, f0);
    AO_HST(d, a, f0);
    AO_HST(d + n - 16, z, f16);
    return AO_OK;
f0:
    return 0;
f16:
    return 16;
}

/* n in [W, 2W]: one vector from each end */
AO_INL size_t la_copy_1v(ao_dst d, ao_src s, size_t n)
{
    la_v a, z;
    AO_VLD(a, s, f0);
    AO_VLD(z, s + n - W, f0);
    AO_VST(d, a, f0);
    AO_VST(d + n - W, z, fw);
    return AO_OK;
f0:
    return 0;
fw:
    return W;
}

/* n in [2W, 4W]: two vectors from each end */
AO_INL size_t la_copy_2v(ao_dst d, ao_src s, size_t n)
{
    la_v a, b, y, z;
    AO_VLD(a, s, f0);
    AO_VLD(b, s + W, f0);
    AO_VLD(y, s + n - 2 * W, f0);
    AO_VLD(z, s + n - W, f0);
    AO_VST(d, a, f0);
    AO_VST(d + W, b, f1);
    AO_VST(d + n - 2 * W, y, f2);
    AO_VST(d + n - W, z, fz);
    return AO_OK;
f0:
    return 0;
f1:
    return W;
f2:
    return 2 * W;
fz:
    return ao_fault(ao_max(2 * W, n - W));
}

/* n in [4W, 8W]: four vectors from each end */
AO_INL size_t la_copy_4v(ao_dst d, ao_src s, size_t n)
{
    la_v a, b, c, e, w, x, y, z;
    AO_VLD(a, s, f0);
    AO_VLD(b, s + W, f0);
    AO_VLD(c, s + 2 * W, f0);
    AO_VLD(e, s + 3 * W, f0);
    AO_VLD(w, s + n - 4 * W, f0);
    AO_VLD(x, s + n - 3 * W, f0);
    AO_VLD(y, s + n - 2 * W, f0);
    AO_VLD(z, s + n - W, f0);
    AO_VST(d, a, f0);
    AO_VST(d + W, b, f1);
    AO_VST(d + 2 * W, c, f2);
    AO_VST(d + 3 * W, e, f3);
    AO_VST(d + n - 4 * W, w, f4);
    AO_VST(d + n - 3 * W, x, fx);
    AO_VST(d + n - 2 * W, y, fy);
    AO_VST(d + n - W, z, fz);
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
fx:
    return ao_fault(ao_max(4 * W, n - 3 * W));
fy:
    return ao_fault(ao_max(4 * W, n - 2 * W));
fz:
    return ao_fault(ao_max(4 * W, n - W));
}

/* One block of copy_user's loop and its tail (memcpy's loops: LA_COPY_NV
   below): 4 vectors loaded from s, then stored to d in ascending order;
   progress from d. */
AO_INL size_t la_copy_blk(ao_dst d, ao_src s)
{
    la_v a, b, c, e;
    AO_VLD(a, s, f0);
    AO_VLD(b, s + W, f0);
    AO_VLD(c, s + 2 * W, f0);
    AO_VLD(e, s + 3 * W, f0);
    AO_VST(d, a, f0);
    AO_VST(d + W, b, f1);
    AO_VST(d + 2 * W, c, f2);
    AO_VST(d + 3 * W, e, f3);
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

/* n <= 8W, one class per size range (one return at the end: see copy_lt8). */
AO_INL size_t la_copy_upto8w(ao_dst d, ao_src s, size_t n)
{
    size_t r = AO_OK;
    if (n >= 4 * W)             /* [4W, 8W]: 4 + 4 vectors */
        r = la_copy_4v(d, s, n);
    else if (n >= 2 * W)        /* [2W, 4W): 2 + 2 vectors */
        r = la_copy_2v(d, s, n);
    else if (n >= W)            /* [W, 2W): 1 + 1 vector */
        r = la_copy_1v(d, s, n);
#if LA_W == 32
    else if (n >= 16)           /* [16, 32): 16 + 16 (LSX) */
        r = la_copy_16_32(d, s, n);
#endif
    else if (n >= 8)            /* [8, 16): 8 + 8 */
        r = copy_8_16(d, s, n);
    else                        /* [0, 8): 4 + 4, 2 + 2, 1 */
        r = copy_lt8(d, s, n);
    return r;
}

/* ---- Sets: v the byte in every lane (h: in 16 bytes, x: in 8 bytes) --------- */

/* n in [16, 32]: 16 + 16 */
AO_INL size_t la_set_16_32(ao_dst d, la_h h, size_t n)
{
    AO_HST(d, h, f0);
    AO_HST(d + n - 16, h, f16);
    return AO_OK;
f0:
    return 0;
f16:
    return 16;
}

/* n in [W, 2W]: one vector at each end */
AO_INL size_t la_set_1v(ao_dst d, la_v v, size_t n)
{
    AO_VST(d, v, f0);
    AO_VST(d + n - W, v, fw);
    return AO_OK;
f0:
    return 0;
fw:
    return W;
}

/* n in [2W, 4W]: two vectors at each end */
AO_INL size_t la_set_2v(ao_dst d, la_v v, size_t n)
{
    AO_VST(d, v, f0);
    AO_VST(d + W, v, f1);
    AO_VST(d + n - 2 * W, v, f2);
    AO_VST(d + n - W, v, fz);
    return AO_OK;
f0:
    return 0;
f1:
    return W;
f2:
    return 2 * W;
fz:
    return ao_fault(ao_max(2 * W, n - W));
}

/* One block of clear_user's loop and of la_set_4v (memset's loop: LA_SET_NV
   below): 4 vectors to d in ascending order; progress from d. */
AO_INL size_t la_set_blk(ao_dst d, la_v v)
{
    AO_VST(d, v, f0);
    AO_VST(d + W, v, f1);
    AO_VST(d + 2 * W, v, f2);
    AO_VST(d + 3 * W, v, f3);
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

/* n in [4W, 8W]: four vectors at each end, ascending */
AO_INL size_t la_set_4v(ao_dst d, la_v v, size_t n)
{
    size_t k;
    if ((k = la_set_blk(d, v)) != AO_OK)
        return k;
    if ((k = la_set_blk(d + n - 4 * W, v)) != AO_OK)
        return ao_fault(ao_max(4 * W, n - 4 * W + k));
    return AO_OK;
}

/* n <= 8W; x is the byte 8 times (the scalar classes). */
AO_INL size_t la_set_upto8w(ao_dst d, la_v v, la_h h, uint64_t x, size_t n)
{
    size_t r = AO_OK;
    (void)h;
    if (n >= 4 * W)             /* [4W, 8W]: 4 + 4 vectors */
        r = la_set_4v(d, v, n);
    else if (n >= 2 * W)        /* [2W, 4W): 2 + 2 vectors */
        r = la_set_2v(d, v, n);
    else if (n >= W)            /* [W, 2W): 1 + 1 vector */
        r = la_set_1v(d, v, n);
#if LA_W == 32
    else if (n >= 16)           /* [16, 32): 16 + 16 (LSX) */
        r = la_set_16_32(d, h, n);
#endif
    else if (n >= 8)            /* [8, 16): 8 + 8 */
        r = ual_set_8_16(d, x, n);
    else if (n >= 4)            /* [4, 8): 4 + 4 */
        r = ual_set_4_8(d, x, n);
    else if (n >= 2)            /* [2, 4): 2 + 2 */
        r = ual_set_2_4(d, x, n);
    else if (n == 1)            /* 1 */
        r = ual_set_1(d, x);
    return r;
}

/* ---- Large sizes of memcpy / memmove / memset (plain only) ------------------

   As ual_classes.h's loops with vectors: the first (last) vector is loaded up
   front and stored after the loop, which memmove needs; copy_user stores it
   first instead (src/arch/loongarch64/uaccess/ua_la_vec.h).  A loop block is LA_CPB vectors
   (copies) or LA_SETB (memset): 16-byte LSX blocks are longer than LASX's so
   that the loop control (an add per pointer, one compare-and-branch on the
   destination pointer) is shared by more accesses.  copy_user / clear_user
   keep their own 4-vector loops (ua_la_vec.h). */
#ifndef AO_EXTABLE

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
            AO_LAUNDER(d); /* as in la_copy_bwd_large */
            AO_LAUNDER(s);
        } while (d < lim);
    }
    la_copy_upto8w(d, s, (size_t)(e - d)); /* the last 1..LA_CPB vectors */
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
            AO_LAUNDER(pd);
            AO_LAUNDER(ps);
            LA_COPY_NV(pd, ps, LA_CPB);
        } while (pd > lim);
    }
    la_copy_upto8w(d, s, (size_t)(pd - d)); /* the first 1..LA_CPB vectors */
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

#endif

#endif
