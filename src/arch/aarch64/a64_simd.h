/*
 * The Advanced SIMD size classes of the aarch64 advsimd copies and memset
 * (and of the sve ones' large sizes when the vector is shorter than 64
 * bytes): q registers (16 bytes, unaligned loads and stores are single
 * instructions on normal memory), overlapping head/tail classes, a 64-byte
 * copy loop of one four-register LD1 and one four-register ST1, both
 * post-indexed, stores 16-aligned; memset's 256-byte STP q loop and its
 * DC ZVA loop.
 *
 * Assumptions:
 *   - Advanced SIMD (AT_HWCAP bit 1; baseline on AArch64 Linux) and unaligned
 *     access to normal memory (SCTLR_EL1.A clear under Linux).  LD1/ST1 of
 *     .16b elements have byte elements, so they never need alignment.
 *   - Every class up to 128 bytes loads everything before it stores anything,
 *     so memmove can use them for any overlap.
 *   - The loops are written so that GCC 12 -O2/-O3 keeps the two pointers in
 *     the post-index writeback of the LD1/ST1 (4 instructions per 64 bytes:
 *     ld1, st1, cmp, b); an unrolled form of the same C gets address
 *     arithmetic of its own (checked with objdump -d), so they are not unrolled.
 *   - DC ZVA zeroes one whole naturally aligned block of altmem__zero_block
 *     bytes (DCZID_EL0, detection); 0 means prohibited or unknown, and then it
 *     is never used.  Only whole blocks inside [dst, dst + n) are zeroed by it.
 */
#ifndef ALTMEM_A64_SIMD_H
#define ALTMEM_A64_SIMD_H

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>

#include "ops/scalar.h"
#include "policy.h"

/* ---- The vector of src/ops/vector.h's classes: one q register ----------------- */

typedef uint8x16_t ops_vec;
#define OPS_W ((size_t)16)

#define A64_FAULT_LDQ(v, p, off, L) UA_LDQ(v, (p) + (off), L)
#define A64_FAULT_STQ(p, off, v, L) UA_STQ((p) + (off), v, L)
OPS_VECTOR_LOAD(uint8x16_t, ops_vld, vld1q_u8, A64_FAULT_LDQ)
OPS_VECTOR_STORE(uint8x16_t, ops_vst, vst1q_u8, A64_FAULT_STQ)

/* A loop's store: str q at any address (no streaming form). */
OPS_INL size_t ops_vstore(const enum ops_access acc, const enum ops_store how, uintptr_t p, ptrdiff_t off, uint8x16_t v)
{
    (void)how;
    return ops_vst(acc, p, off, v);
}

#define OPS_STORE_ORDER() ((void)0)

#include "ops/vector.h"

/* [0, 32]: the classes of src/ops/ (one q register from each end from 16
   bytes; below, two scalars, or bytes 0, n/2, n - 1), all loads before all
   stores.  Tested by bits below 16 (n & 8, n & 4): one tbnz each.  A return
   per class: GCC then lays out [1, 3] falling through, as before the classes
   were shared. */
OPS_INL size_t a64_copy_le32(const enum ops_access acc, uintptr_t d, uintptr_t s, size_t n)
{
    if (n >= 16)                /* [16, 32]: 16 + 16 */
        return ops_vcopy_ht1(acc, d, s, n);
    if (n & 8)                  /* [8, 15]: 8 + 8 */
        return ops_copy_8_16(acc, d, s, n);
    if (n & 4)                  /* [4, 7]: 4 + 4 */
        return ops_copy_4_8(acc, d, s, n);
    if (n)                      /* [1, 3]: bytes 0, n/2, n-1 */
        return ops_copy_1_3(acc, d, s, n);
    return OPS_OK;
}

/* n <= 64 of copy_user_advsimd: the classes above, then 32 + 32 stored
   ascending (ops_vcopy_ht2). */
OPS_INL size_t a64_copy_le64(const enum ops_access acc, uintptr_t d, uintptr_t s, size_t n)
{
    if (n <= 32)
        return a64_copy_le32(acc, d, s, n);
    return ops_vcopy_ht2(acc, d, s, n);
}

/* n in [1, 3]: bytes 0, n/2 and n - 1 (scalar.h has the copy, not the set). */
OPS_INL size_t a64_set_1_3(const enum ops_access acc, uintptr_t d, unsigned char b, size_t n)
{
    size_t k;
    if ((k = ops_st8(acc, d, 0, b)) != OPS_OK)
        return k;
    if ((k = ops_st8(acc, d, n >> 1, b)) != OPS_OK)
        return ops_fault(1 + k);
    if ((k = ops_st8(acc, d, n - 1, b)) != OPS_OK)
        return ops_fault((n >> 1) + 1 + k);
    return OPS_OK;
}

/* [0, 32] of a set: x is the byte b in every lane; the scalar classes store
   x's low 8 or 4 bytes (GCC stores them from the vector register: str d, str
   s), the bytes b. */
OPS_INL size_t a64_set_le32(const enum ops_access acc, uintptr_t d, uint8x16_t x, unsigned char b, size_t n)
{
    const uint64_t v = vgetq_lane_u64(vreinterpretq_u64_u8(x), 0);
    if (n >= 16)                /* [16, 32]: 16 + 16 */
        return ops_vset_ht1(acc, d, x, n);
    if (n & 8)                  /* [8, 15]: 8 + 8 */
        return ops_set_8_16(acc, d, v, n);
    if (n & 4)                  /* [4, 7]: 4 + 4 */
        return ops_set_4_8(acc, d, v, n);
    if (n)                      /* [1, 3]: bytes 0, n/2, n-1 */
        return a64_set_1_3(acc, d, b, n);
    return OPS_OK;
}

/* ---- Plain only: the four-register LD1 / ST1 -----------------------------------

   64 bytes in one instruction each way, which no class of src/ops/ has (its
   blocks are one access per vector): the copies above 64 bytes and their
   loops, post-indexed. */
OPS_INL uint8x16_t a64_ld(const unsigned char *p) { return vld1q_u8(p); }
OPS_INL void a64_st(unsigned char *p, uint8x16_t v) { vst1q_u8(p, v); }
OPS_INL uint8x16x4_t a64_ld4(const unsigned char *p) { return vld1q_u8_x4(p); }
OPS_INL void a64_st4(unsigned char *p, uint8x16x4_t v) { vst1q_u8_x4(p, v); }

/* (32, 64]: 32 + 32, all loads before all stores; the end pair stored first,
   from s + n and d + n (GCC 12 then pairs each end's loads into one LDP;
   ops_vcopy_ht2's offsets n - 32 and n - 16 take two register-offset ldr q:
   +2 instructions). */
OPS_INL void a64_copy_32_64(unsigned char *d, const unsigned char *s, size_t n)
{
    const unsigned char *se = s + n;
    unsigned char *de = d + n;
    uint8x16_t a = a64_ld(s), b = a64_ld(s + 16), c = a64_ld(se - 32), e = a64_ld(se - 16);
    a64_st(de - 32, c);
    a64_st(de - 16, e);
    a64_st(d, a);
    a64_st(d + 16, b);
}

/* (64, 128]: 64 + 64, all loads before all stores. */
OPS_INL void a64_copy_64_128(unsigned char *d, const unsigned char *s, size_t n)
{
    uint8x16x4_t a = a64_ld4(s), z = a64_ld4(s + n - 64);
    a64_st4(d, a);
    a64_st4(d + n - 64, z);
}

/* n > 128, forward: the first 16 and last 64 bytes loaded up front, 64-byte
   blocks stored 16-aligned (each loaded before stored), then the tail, the
   head last: correct for memmove when dst is below src. */
OPS_INL void a64_copy_fwd(unsigned char *d, const unsigned char *s, size_t n)
{
    uint8x16_t h = a64_ld(s);
    uint8x16x4_t z = a64_ld4(s + n - 64);
    unsigned char *de = d + n - 64;
    const size_t skip = 16 - ((uintptr_t)d & 15);      /* 1..16 */
    unsigned char *q = d + skip;
    const unsigned char *p = s + skip;
    /* q < de holds at entry (skip <= 16 < n - 64); each block ends before de + 64. */
    do {
        uint8x16x4_t a = a64_ld4(p);
        p += 64;
        a64_st4(q, a);
        q += 64;
    } while (q < de);
    a64_st4(de, z);
    a64_st(d, h);
}

/* n > 128, backward (dst above src, overlapping): the mirror image, the last
   16 and first 64 bytes loaded up front, 64-byte blocks from the end. */
OPS_INL void a64_copy_bwd(unsigned char *d, const unsigned char *s, size_t n)
{
    uint8x16_t t = a64_ld(s + n - 16);
    uint8x16x4_t a = a64_ld4(s);
    /* [q - d, n) (fewer than 16 bytes) is inside the tail; q is 16-aligned. */
    unsigned char *q = (unsigned char *)(((uintptr_t)d + n) & ~(uintptr_t)15);
    const unsigned char *p = s + (q - d);
    unsigned char *const d64 = d + 64;
    /* q > d + 64 at entry (n > 128); each block starts at or after d. */
    do {
        p -= 64;
        q -= 64;
        uint8x16x4_t b = a64_ld4(p);
        a64_st4(q, b);
    } while (q > d64);
    a64_st4(d, a);
    a64_st(d + n - 16, t);
}

/* n > 32: the classes above 32 bytes, forward or (overlap_ok 1, dst inside
   (src, src + n)) backward.  Also the large path of memcpy_sve/memmove_sve
   when the SVE vector is shorter than 64 bytes (n > 2 VL >= 32 there). */
OPS_INL void a64_copy_gt32(unsigned char *d, const unsigned char *s, size_t n, int overlap_ok)
{
    if (n <= 64)
        a64_copy_32_64(d, s, n);
    else if (n <= 128)
        a64_copy_64_128(d, s, n);
    else if (!overlap_ok || (uintptr_t)d - (uintptr_t)s >= n)
        a64_copy_fwd(d, s, n);
    else
        a64_copy_bwd(d, s, n);
}

/* The class chain of memcpy (overlap_ok 0: always forward) and memmove
   (overlap_ok 1: backward when dst lies inside (src, src + n)). */
OPS_INL void a64_copy(unsigned char *d, const unsigned char *s, size_t n, int overlap_ok)
{
    if (n <= 32)
        a64_copy_le32(OPS_PLAIN, (uintptr_t)d, (uintptr_t)s, n);
    else
        a64_copy_gt32(d, s, n, overlap_ok);
}

/* ---- memset ---------------------------------------------------------------------- */

/* 64 bytes from p: two STP q. */
OPS_INL void a64_set64(unsigned char *p, uint8x16_t v)
{
    a64_st(p, v);
    a64_st(p + 16, v);
    a64_st(p + 32, v);
    a64_st(p + 48, v);
}

/* n >= 64: 64 + 64 up to 128, 128 + 128 up to 256, above 256-byte blocks
   (eight STP q) stored 16-aligned after 16 unaligned bytes, then the last
   256 bytes unaligned. */
OPS_INL void a64_set_ge64(unsigned char *d, uint8x16_t v, size_t n)
{
    unsigned char *const de = d + n;
    if (n <= 128) {             /* [64, 128]: 64 + 64 (not ops_vset_ht4: its end
                                   stores, from d + n, pair otherwise, +2) */
        a64_set64(d, v);
        a64_set64(de - 64, v);
        return;
    }
    if (n <= 256) {             /* (128, 256]: 128 + 128 */
        a64_set64(d, v);
        a64_set64(d + 64, v);
        a64_set64(de - 128, v);
        a64_set64(de - 64, v);
        return;
    }
    /* (256, ...): each block [p, p + 256) with p < e ends before de. */
    a64_st(d, v);
    unsigned char *p = (unsigned char *)(((uintptr_t)d + 16) & ~(uintptr_t)15);
    unsigned char *const e = de - 256;
    while (p < e) {
        a64_set64(p, v);
        a64_set64(p + 64, v);
        a64_set64(p + 128, v);
        a64_set64(p + 192, v);
        p += 256;
    }
    a64_set64(e, v);
    a64_set64(e + 64, v);
    a64_set64(e + 128, v);
    a64_set64(e + 192, v);
}

/* DC ZVA on every block of [p, end) (both zb-aligned, p < end): four blocks
   per iteration while at least four remain, then the rest one by one.  Each
   dc zva zeroes exactly the naturally aligned block holding its address. */
OPS_INL void a64_dc_zva(uintptr_t p, uintptr_t end, size_t zb)
{
    const size_t zb4 = 4 * zb;
    if (end - p >= zb4) {
        const uintptr_t lim = end - zb4;        /* no wrap: end >= p + zb4 */
        do {
            __asm__ volatile("dc zva, %0" : : "r"(p) : "memory");
            __asm__ volatile("dc zva, %0" : : "r"(p + zb) : "memory");
            __asm__ volatile("dc zva, %0" : : "r"(p + 2 * zb) : "memory");
            __asm__ volatile("dc zva, %0" : : "r"(p + 3 * zb) : "memory");
            p += zb4;
        } while (p <= lim);
    }
    for (; p < end; p += zb)
        __asm__ volatile("dc zva, %0" : : "r"(p) : "memory");
}

/* n > 32, storing v (every byte b): (32, 64] two q registers from each end;
   zeroing above 256 bytes and of at least 2 blocks of zb (altmem__zero_block;
   0 = no DC ZVA): vectors up to the first block boundary
   (at least 64 bytes), DC ZVA for the whole naturally aligned blocks inside
   [d, d + n), vectors for the rest; otherwise a64_set_ge64.  memset_advsimd
   above 32 bytes, and memset_sve above 2 VL when VL < 64. */
OPS_INL void a64_set_gt32(unsigned char *d, uint8x16_t v, uint8_t b, size_t n)
{
    if (n <= 64) {              /* (32, 64]: 32 + 32 */
        ops_vset_ht2(OPS_PLAIN, (uintptr_t)d, v, n);
        return;
    }
    if (b == 0 && n > 256) {
        const size_t zb = __atomic_load_n(&altmem__zero_block, __ATOMIC_RELAXED);
        if (zb >= 16 && n >= 2 * zb) {
            uintptr_t p = ((uintptr_t)d + zb - 1) & ~(uintptr_t)(zb - 1);
            const uintptr_t end = ((uintptr_t)d + n) & ~(uintptr_t)(zb - 1);
            if (p > (uintptr_t)d)
                a64_set_ge64(d, v, p - (uintptr_t)d < 64 ? 64 : p - (uintptr_t)d);
            a64_dc_zva(p, end, zb);
            const size_t rest = (uintptr_t)d + n - end;
            if (rest)
                a64_set_ge64((unsigned char *)end + rest - (rest < 64 ? 64 : rest), v, rest < 64 ? 64 : rest);
            return;
        }
    }
    a64_set_ge64(d, v, n);
}

#endif
