/*
 * Building blocks of the unaligned-access variants (memcpy_ual, memmove_ual,
 * memset_ual), in the spirit of LLVM libc's memory_utils: each size class is one
 * head_tail (two overlapping accesses cover n in [N, 2N]) or a loop.
 *
 * Assumptions:
 *   - The CPU performs unaligned scalar loads and stores in hardware, at about
 *     the speed of aligned ones (feature UAL).  On targets whose compiler
 *     assumes strict alignment by default (riscv64, loongarch64) these files are
 *     built with -mno-strict-align so the accesses below are single instructions.
 *   - Little or big endian: values are only moved, never combined.
 */
#ifndef ALTMEM_UAL_ACCESS_H
#define ALTMEM_UAL_ACCESS_H

#include <stddef.h>
#include <stdint.h>

typedef uint64_t __attribute__((aligned(1), may_alias)) u64_una;
typedef uint32_t __attribute__((aligned(1), may_alias)) u32_una;
typedef uint16_t __attribute__((aligned(1), may_alias)) u16_una;
typedef uint64_t __attribute__((may_alias)) u64_al;

static inline uint64_t ld64(const unsigned char *p) { return *(const u64_una *)(const void *)p; }
static inline uint32_t ld32(const unsigned char *p) { return *(const u32_una *)(const void *)p; }
static inline uint16_t ld16(const unsigned char *p) { return *(const u16_una *)(const void *)p; }
static inline void st64(unsigned char *p, uint64_t v) { *(u64_una *)(void *)p = v; }
static inline void st32(unsigned char *p, uint32_t v) { *(u32_una *)(void *)p = v; }
static inline void st16(unsigned char *p, uint16_t v) { *(u16_una *)(void *)p = v; }

/* n <= 64.  Every byte is loaded before any is stored, so src and dst may
   overlap in any way (memmove's small sizes and the tails of its loops). */
static inline void ual_copy_upto64(unsigned char *d, const unsigned char *s, size_t n)
{
    if (n >= 32) {          /* [32, 64]: head 32 + tail 32 */
        uint64_t a = ld64(s), b = ld64(s + 8), c = ld64(s + 16), e = ld64(s + 24);
        uint64_t w = ld64(s + n - 32), x = ld64(s + n - 24), y = ld64(s + n - 16),
                 z = ld64(s + n - 8);
        st64(d, a);
        st64(d + 8, b);
        st64(d + 16, c);
        st64(d + 24, e);
        st64(d + n - 32, w);
        st64(d + n - 24, x);
        st64(d + n - 16, y);
        st64(d + n - 8, z);
    } else if (n >= 16) {   /* [16, 31]: head 16 + tail 16 */
        uint64_t a = ld64(s), b = ld64(s + 8), y = ld64(s + n - 16), z = ld64(s + n - 8);
        st64(d, a);
        st64(d + 8, b);
        st64(d + n - 16, y);
        st64(d + n - 8, z);
    } else if (n >= 8) {    /* [8, 15]: head 8 + tail 8 */
        uint64_t a = ld64(s), z = ld64(s + n - 8);
        st64(d, a);
        st64(d + n - 8, z);
    } else if (n >= 4) {    /* [4, 7]: head 4 + tail 4 */
        uint32_t a = ld32(s), z = ld32(s + n - 4);
        st32(d, a);
        st32(d + n - 4, z);
    } else if (n >= 2) {    /* [2, 3]: head 2 + tail 2 */
        uint16_t a = ld16(s), z = ld16(s + n - 2);
        st16(d, a);
        st16(d + n - 2, z);
    } else if (n == 1) {    /* 1: one byte */
        *d = *s;
    }
}

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
    for (; n > 64; n -= 64, s += 64, d += 64) {
        uint64_t a = ld64(s), b = ld64(s + 8), c = ld64(s + 16), e = ld64(s + 24);
        uint64_t f = ld64(s + 32), g = ld64(s + 40), h = ld64(s + 48), i = ld64(s + 56);
        u64_al *q = (u64_al *)(void *)d;
        q[0] = a; q[1] = b; q[2] = c; q[3] = e;
        q[4] = f; q[5] = g; q[6] = h; q[7] = i;
    }
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
