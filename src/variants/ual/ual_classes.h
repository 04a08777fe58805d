/*
 * The size classes of the unaligned-access variants, written once over the
 * access operation (ual_access.h): memcpy_ual, memmove_ual and memset_ual use
 * them with plain accesses, copy_user_ual and clear_user_ual (src/uaccess/)
 * with exception-table accessors and their progress.  In the spirit of LLVM
 * libc's memory_utils: each class is one head_tail (two overlapping accesses
 * cover n in [N, 2N]) or one block of a loop.
 *
 * Assumptions:
 *   - The CPU performs unaligned scalar loads and stores in hardware, at about
 *     the speed of aligned ones (feature UAL).  On targets whose compiler
 *     assumes strict alignment by default (riscv64, loongarch64) these files are
 *     built with -mno-strict-align so the accesses below are single instructions.
 *   - Little or big endian: values are only moved, never combined.
 *   - Every class loads all it copies before its first store, and stores in
 *     ascending order, each store beginning at or below the end of those before
 *     it (the progress at each label); so the copies serve memmove too.
 *   - A 16-byte block (AO_B16) is two 8-byte words here (GCC pairs them into
 *     SSE2 moves on x86_64); the uaccess variants make it one SSE2 access on
 *     x86_64.
 */
#ifndef ALTMEM_UAL_CLASSES_H
#define ALTMEM_UAL_CLASSES_H

#include "ual_access.h"

#ifndef AO_EXTABLE
typedef uint64_t ao_setv;       /* a set's block value: the byte 8 times */
#define AO_B16(v) uint64_t v##_lo, v##_hi
#define AO_LDB(v, p, L)                                                          \
    do {                                                                         \
        AO_LD64(v##_lo, (p), L);                                                 \
        AO_LD64(v##_hi, (p) + 8, L);                                             \
    } while (0)
#define AO_STB(p, v, L, L8)                                                      \
    do {                                                                         \
        AO_ST64((p), v##_lo, L);                                                 \
        AO_ST64((p) + 8, v##_hi, L8);                                            \
    } while (0)
#define AO_STBA(p, v, L, L8)                                                     \
    do {                                                                         \
        AO_STA64((p), v##_lo, L);                                                \
        AO_STA64((p) + 8, v##_hi, L8);                                           \
    } while (0)
#define AO_SETB(p, v, L, L8)                                                     \
    do {                                                                         \
        AO_ST64((p), v, L);                                                      \
        AO_ST64((p) + 8, v, L8);                                                 \
    } while (0)
#define AO_SETBA(p, v, L, L8)                                                    \
    do {                                                                         \
        AO_STA64((p), v, L);                                                     \
        AO_STA64((p) + 8, v, L8);                                                \
    } while (0)
#endif

/* ---- Copies ----------------------------------------------------------------- */

/* n in [16, 32]: head 16 + tail 16 */
AO_INL size_t ual_copy_16_32(ao_dst d, ao_src s, size_t n)
{
    AO_B16(a);
    AO_B16(z);
    AO_LDB(a, s, f0);
    AO_LDB(z, s + n - 16, f0);
    AO_STB(d, a, f0, f8);
    AO_STB(d + n - 16, z, f16, fz8);
    return AO_OK;
f0:
    return 0;
f8:
    return 8;
f16:
    return 16;
fz8:
    return ao_fault(ao_max(16, n - 8));
}

/* n in [32, 64]: head 32 + tail 32 */
AO_INL size_t ual_copy_32_64(ao_dst d, ao_src s, size_t n)
{
    AO_B16(a);
    AO_B16(b);
    AO_B16(y);
    AO_B16(z);
    AO_LDB(a, s, f0);
    AO_LDB(b, s + 16, f0);
    AO_LDB(y, s + n - 32, f0);
    AO_LDB(z, s + n - 16, f0);
    AO_STB(d, a, f0, f8);
    AO_STB(d + 16, b, f16, f24);
    AO_STB(d + n - 32, y, f32, fy8);
    AO_STB(d + n - 16, z, fz, fz8);
    return AO_OK;
f0:
    return 0;
f8:
    return 8;
f16:
    return 16;
f24:
    return 24;
f32:
    return 32;
fy8:
    return ao_fault(ao_max(32, n - 24));
fz:
    return ao_fault(ao_max(32, n - 16));
fz8:
    return ao_fault(ao_max(32, n - 8));
}

/* n <= 64 (one return at the end: see copy_lt8).  Plain: inlined as the
   compiler sees fit (memmove_ual calls it from three places). */
#ifdef AO_EXTABLE
AO_INL
#else
static inline
#endif
size_t ual_copy_upto64(ao_dst d, ao_src s, size_t n)
{
    size_t r = AO_OK;
    if (n >= 32)                /* [32, 64]: head 32 + tail 32 */
        r = ual_copy_32_64(d, s, n);
    else if (n >= 16)           /* [16, 31]: head 16 + tail 16 */
        r = ual_copy_16_32(d, s, n);
    else if (n >= 8)            /* [8, 15]: head 8 + tail 8 */
        r = copy_8_16(d, s, n);
    else if (n >= 4)            /* [4, 7]: head 4 + tail 4 */
        r = copy_4_8(d, s, n);
    else if (n >= 2)            /* [2, 3]: head 2 + tail 2 */
        r = copy_2_4(d, s, n);
    else if (n == 1)            /* 1: one byte */
        r = copy_1(d, s);
    return r;
}

/* One block of the loops: 64 bytes loaded from s, then stored to d (16-aligned,
   where a 16-byte store never splits a cache line); progress from d. */
AO_INL size_t ual_copy_64a(ao_dst d, ao_src s)
{
    AO_B16(a);
    AO_B16(b);
    AO_B16(c);
    AO_B16(e);
    AO_LDB(a, s, f0);
    AO_LDB(b, s + 16, f0);
    AO_LDB(c, s + 32, f0);
    AO_LDB(e, s + 48, f0);
    AO_STBA(d, a, f0, f8);
    AO_STBA(d + 16, b, f16, f24);
    AO_STBA(d + 32, c, f32, f40);
    AO_STBA(d + 48, e, f48, f56);
    return AO_OK;
f0:
    return 0;
f8:
    return 8;
f16:
    return 16;
f24:
    return 24;
f32:
    return 32;
f40:
    return 40;
f48:
    return 48;
f56:
    return 56;
}

/* ---- Sets: v is the byte 8 times (vb: in a block value) ------------------- */

/* n in [8, 16]: 8 + 8 */
AO_INL size_t ual_set_8_16(ao_dst d, uint64_t v, size_t n)
{
    AO_ST64(d, v, f0);
    AO_ST64(d + n - 8, v, f8);
    return AO_OK;
f0:
    return 0;
f8:
    return 8;
}

/* n in [4, 8]: 4 + 4 */
AO_INL size_t ual_set_4_8(ao_dst d, uint64_t v, size_t n)
{
    AO_ST32(d, (uint32_t)v, f0);
    AO_ST32(d + n - 4, (uint32_t)v, f4);
    return AO_OK;
f0:
    return 0;
f4:
    return 4;
}

/* n in [2, 4]: 2 + 2 */
AO_INL size_t ual_set_2_4(ao_dst d, uint64_t v, size_t n)
{
    AO_ST16(d, (uint16_t)v, f0);
    AO_ST16(d + n - 2, (uint16_t)v, f2);
    return AO_OK;
f0:
    return 0;
f2:
    return 2;
}

/* n == 1 */
AO_INL size_t ual_set_1(ao_dst d, uint64_t v)
{
    AO_ST8(d, (unsigned char)v, f0);
    return AO_OK;
f0:
    return 0;
}

/* n in [16, 32]: 16 + 16 */
AO_INL size_t ual_set_16_32(ao_dst d, ao_setv vb, size_t n)
{
    AO_SETB(d, vb, f0, f8);
    AO_SETB(d + n - 16, vb, f16, fz8);
    return AO_OK;
f0:
    return 0;
f8:
    return 8;
f16:
    return 16;
fz8:
    return ao_fault(ao_max(16, n - 8));
}

/* n in [32, 64]: head 32 + tail 32, ascending (memset_ual stores the tail
   first: a plain-only layout). */
AO_INL size_t ual_set_32_64(ao_dst d, ao_setv vb, size_t n)
{
    AO_SETB(d, vb, f0, f8);
    AO_SETB(d + 16, vb, f16, f24);
    AO_SETB(d + n - 32, vb, f32, fy8);
    AO_SETB(d + n - 16, vb, fz, fz8);
    return AO_OK;
f0:
    return 0;
f8:
    return 8;
f16:
    return 16;
f24:
    return 24;
f32:
    return 32;
fy8:
    return ao_fault(ao_max(32, n - 24));
fz:
    return ao_fault(ao_max(32, n - 16));
fz8:
    return ao_fault(ao_max(32, n - 8));
}

/* One block of the loops: 64 bytes to d (16-aligned); progress from d. */
AO_INL size_t ual_set_64a(ao_dst d, ao_setv vb)
{
    AO_SETBA(d, vb, f0, f8);
    AO_SETBA(d + 16, vb, f16, f24);
    AO_SETBA(d + 32, vb, f32, f40);
    AO_SETBA(d + 48, vb, f48, f56);
    return AO_OK;
f0:
    return 0;
f8:
    return 8;
f16:
    return 16;
f24:
    return 24;
f32:
    return 32;
f40:
    return 40;
f48:
    return 48;
f56:
    return 56;
}

/* ---- Loops of memcpy_ual / memmove_ual (plain only) -------------------------

   Their first 16 bytes (forward) or last 16 (backward) are stored last, after
   the loop, which memmove needs (a head stored first would overwrite source
   bytes the loop has still to read) and a fault-tolerant copy cannot have (a
   fault in the loop would leave a hole below the progress): copy_user_ual
   stores its head first, from the same 64-byte blocks. */
#ifndef AO_EXTABLE

/* n > 64, forward; correct when dst does not lie inside (src, src + n).
   The first 16 bytes are loaded up front and stored last, so that the loop can
   start at a 16-aligned dst (where 16-byte stores never split a cache line)
   without storing over source bytes still to be read. */
static inline void ual_copy_fwd_large(unsigned char *d, const unsigned char *s, size_t n)
{
    unsigned char *d0 = d;
    uint64_t head0 = ld64(s), head1 = ld64(s + 8);
    size_t skip = 16 - ((uintptr_t)d & 15);      /* 1..16: dst 16-aligned after it */
    d += skip;
    s += skip;
    n -= skip;
    /* Body: 64 bytes per iteration, stores 16-aligned, loads before stores. */
    for (; n > 64; n -= 64, s += 64, d += 64)
        ual_copy_64a(d, s);
    /* Tail: 1..64 bytes. */
    ual_copy_upto64(d, s, n);
    st64(d0, head0);
    st64(d0 + 8, head1);
}

/* n > 64, backward; correct when dst does not lie below src inside its range. */
static inline void ual_copy_bwd_large(unsigned char *d, const unsigned char *s, size_t n)
{
    unsigned char *dend = d + n;
    uint64_t tail0 = ld64(s + n - 16), tail1 = ld64(s + n - 8);
    size_t skip = ((uintptr_t)(dend - 1) & 15) + 1;  /* 1..16: dst + n 16-aligned after it */
    n -= skip;
    /* Body: 64 bytes per iteration from the end, stores 16-aligned. */
    for (; n > 64; n -= 64) {
        const unsigned char *p = s + n - 64;
        uint64_t a = ld64(p), b = ld64(p + 8), c = ld64(p + 16), e = ld64(p + 24);
        uint64_t f = ld64(p + 32), g = ld64(p + 40), h = ld64(p + 48), i = ld64(p + 56);
        u64_al *q = (u64_al *)(void *)(d + n - 64);
        q[7] = i; q[6] = h; q[5] = g; q[4] = f;
        q[3] = e; q[2] = c; q[1] = b; q[0] = a;
    }
    /* Head: 1..64 bytes at the start. */
    ual_copy_upto64(d, s, n);
    st64(dend - 16, tail0);
    st64(dend - 8, tail1);
}

#endif

#endif
