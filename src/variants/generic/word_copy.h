/*
 * Building blocks of the strict-alignment variants (memcpy_generic,
 * memmove_generic, memset_generic): copy forward or backward a word at a time,
 * with every multi-byte access at an address that is a multiple of its size.
 * word_set is written over the access operation (src/ops/access.h): memset_generic
 * calls it with OPS_PLAIN, clear_user_generic with OPS_FAULT.
 *
 * Assumptions:
 *   - Any ISA; word = uintptr_t (8 bytes on 64-bit targets); either byte order.
 *   - Aligned word loads and stores; bytes only for heads and tails.
 *   - When src and dst are misaligned differently, stores stay aligned and each
 *     stored word is merged from two aligned source words by shifts.
 *   - Loads may touch bytes before src inside src's first aligned word (same
 *     page, same sanitizer granule), never a byte at or after src + n.
 *   - Each block of words is loaded before any of it is stored, so the forward
 *     kernel is correct for dst < src and the backward one for dst > src.
 * Must be compiled without auto-vectorisation (the build does so): a vector of two
 * words at a word-aligned address would be a misaligned access.
 */
#ifndef ALTMEM_WORD_COPY_H
#define ALTMEM_WORD_COPY_H

#include <stddef.h>
#include <stdint.h>

#include "ops/word.h" /* the access operation, with the word accessors */

typedef ops_word altmem_word;
#define W OPS_WORD

/* Joins the tail of `lo` (from byte `off` on) with the head of `hi` into the word
   that starts off bytes into lo.  1 <= off < W, so neither shift is by 0 or W*8. */
static inline altmem_word word_merge(altmem_word lo, altmem_word hi, size_t off)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return (lo >> (off * 8)) | (hi << ((W - off) * 8));
#else
    return (lo << (off * 8)) | (hi >> ((W - off) * 8));
#endif
}

static inline void bytes_fwd(unsigned char *d, const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        d[i] = s[i];
}

static inline void bytes_bwd(unsigned char *d, const unsigned char *s, size_t n)
{
    while (n) {
        n--;
        d[n] = s[n];
    }
}

/* The misaligned loops, forward and backward; inlined into a switch on `off`
   so that each copy sees a constant. */
OPS_INL void merge_fwd(altmem_word **dwp, const altmem_word **swp, size_t *np, size_t off)
{
    altmem_word *dw = *dwp;
    const altmem_word *sw = *swp;
    size_t n = *np;
    altmem_word prev = sw[0];
    for (; n >= 5 * W - off; n -= 4 * W, sw += 4, dw += 4) {
        altmem_word a = sw[1], b = sw[2], c = sw[3], e = sw[4];
        dw[0] = word_merge(prev, a, off);
        dw[1] = word_merge(a, b, off);
        dw[2] = word_merge(b, c, off);
        dw[3] = word_merge(c, e, off);
        prev = e;
    }
    for (; n >= 2 * W - off; n -= W, sw++, dw++) {
        altmem_word a = sw[1];
        *dw = word_merge(prev, a, off);
        prev = a;
    }
    *dwp = dw;
    *swp = sw;
    *np = n;
}

OPS_INL void merge_bwd(altmem_word **dwp, const altmem_word **swp, size_t *np, size_t off)
{
    altmem_word *dw = *dwp;
    const altmem_word *sw = *swp;
    size_t n = *np;
    altmem_word next = sw[0];
    for (; n >= 4 * W; n -= 4 * W) {
        sw -= 4;
        dw -= 4;
        altmem_word e = sw[3], c = sw[2], b = sw[1], a = sw[0];
        dw[3] = word_merge(e, next, off);
        dw[2] = word_merge(c, e, off);
        dw[1] = word_merge(b, c, off);
        dw[0] = word_merge(a, b, off);
        next = a;
    }
    for (; n >= W; n -= W) {
        altmem_word a = *--sw;
        *--dw = word_merge(a, next, off);
        next = a;
    }
    *dwp = dw;
    *swp = sw;
    *np = n;
}

static inline void word_copy_fwd(unsigned char *d, const unsigned char *s, size_t n)
{
    /* Fewer than 3 words: not worth aligning. */
    if (n < 3 * W) {
        bytes_fwd(d, s, n);
        return;
    }
    /* Head: bytes until dst is word-aligned. */
    size_t head = (size_t)(-(uintptr_t)d & (W - 1));
    bytes_fwd(d, s, head);
    d += head;
    s += head;
    n -= head;

    altmem_word *dw = (altmem_word *)(void *)d;
    size_t off = (uintptr_t)s & (W - 1);
    if (off == 0) {
        /* Same alignment: 4 words per iteration, then single words. */
        const altmem_word *sw = (const altmem_word *)(const void *)s;
        for (; n >= 4 * W; n -= 4 * W, sw += 4, dw += 4) {
            altmem_word a = sw[0], b = sw[1], c = sw[2], e = sw[3];
            dw[0] = a;
            dw[1] = b;
            dw[2] = c;
            dw[3] = e;
        }
        for (; n >= W; n -= W)
            *dw++ = *sw++;
        s = (const unsigned char *)sw;
    } else {
        /* Different alignment: stored word i is merged from source words i and
           i + 1; word i + 1 must end at or before src + n, so a word is stored
           only while n >= 2W - off.  One loop per offset, so that the shifts are
           by constants (a shift by a register costs several uops on x86, and a
           constant pair becomes one double-shift instruction). */
        const altmem_word *sw = (const altmem_word *)(const void *)(s - off);
        switch (off) {
#define FWD_CASE(k)                                                                      \
    case k:                                                                              \
        merge_fwd(&dw, &sw, &n, k);                                                      \
        break;
        FWD_CASE(1) FWD_CASE(2) FWD_CASE(3)
#if UINTPTR_MAX > 0xffffffffu
        FWD_CASE(4) FWD_CASE(5) FWD_CASE(6) FWD_CASE(7)
#endif
#undef FWD_CASE
        }
        s = (const unsigned char *)sw + off;
    }
    /* Tail: fewer than 2 words left. */
    bytes_fwd((unsigned char *)dw, s, n);
}

static inline void word_copy_bwd(unsigned char *d, const unsigned char *s, size_t n)
{
    if (n < 3 * W) {
        bytes_bwd(d, s, n);
        return;
    }
    /* Tail: bytes until dst + n is word-aligned. */
    size_t tail = (uintptr_t)(d + n) & (W - 1);
    bytes_bwd(d + n - tail, s + n - tail, tail);
    n -= tail;

    size_t off = (uintptr_t)(s + n) & (W - 1);
    if (off == 0) {
        /* Same alignment: 4 words per iteration, then single words. */
        altmem_word *dw = (altmem_word *)(void *)(d + n);
        const altmem_word *sw = (const altmem_word *)(const void *)(s + n);
        for (; n >= 4 * W; n -= 4 * W) {
            sw -= 4;
            dw -= 4;
            altmem_word a = sw[0], b = sw[1], c = sw[2], e = sw[3];
            dw[3] = e;
            dw[2] = c;
            dw[1] = b;
            dw[0] = a;
        }
        for (; n >= W; n -= W)
            *--dw = *--sw;
    } else {
        /* The word holding the source end also holds W - off bytes past it; they
           are inside the source only if the tail copied at least that many.
           Otherwise copy one more word's worth by bytes (dst stays aligned). */
        if (tail < W - off) {
            bytes_bwd(d + n - W, s + n - W, W);
            n -= W;
        }
        /* Stored word i (counting down) is merged from the aligned source words
           below and at the source end; the lower one must not start below the
           word holding src, which holds while n >= W.  One loop per offset. */
        altmem_word *dw = (altmem_word *)(void *)(d + n);
        const altmem_word *sw = (const altmem_word *)(const void *)(s + n - off);
        switch (off) {
#define BWD_CASE(k)                                                                      \
    case k:                                                                              \
        merge_bwd(&dw, &sw, &n, k);                                                      \
        break;
        BWD_CASE(1) BWD_CASE(2) BWD_CASE(3)
#if UINTPTR_MAX > 0xffffffffu
        BWD_CASE(4) BWD_CASE(5) BWD_CASE(6) BWD_CASE(7)
#endif
#undef BWD_CASE
        }
    }
    /* Head: fewer than W bytes left at the start. */
    bytes_bwd(d, s, n);
}

/* memset's body: bytes up to 3 words; else bytes to word alignment, aligned
   words (4 per iteration), bytes at the end.  Stores ascend, each at d + i:
   on a fault the progress is i plus the stores of this step before it, next
   to each.  (The index from the fixed d and the count left, not an advancing
   d: GCC then keeps one induction variable per stream, as with the pointer
   it had before.) */
OPS_INL size_t word_set(const enum ops_access acc, uintptr_t d, unsigned char b, size_t n)
{
    size_t i = 0, k;
    /* Fewer than 3 words: bytes. */
    if (n < 3 * W) {
        for (; i < n; i++)
            if ((k = ops_st8(acc, d, i, b)) != OPS_OK)
                return ops_fault(i + k);
        return OPS_OK;
    }
    /* Head: bytes until d + i is word-aligned. */
    const size_t head = (size_t)(-d & (W - 1));
    for (; i < head; i++)
        if ((k = ops_st8(acc, d, i, b)) != OPS_OK)
            return ops_fault(i + k);
    size_t left = n - head;

    /* b in every byte, in one register (else GCC materialises clear_user's
       zero again before each store: an asm goto ends a basic block). */
    altmem_word v = (altmem_word)-1 / 0xff * b;
    OPS_LAUNDER(v);
    /* Body: 4 aligned words per iteration, then single words. */
    for (; left >= 4 * W; left -= 4 * W, i += 4 * W) {
        if ((k = ops_sta_word(acc, d, i, v)) != OPS_OK)
            return ops_fault(i + k);
        if ((k = ops_sta_word(acc, d, i + W, v)) != OPS_OK)
            return ops_fault(i + W + k);
        if ((k = ops_sta_word(acc, d, i + 2 * W, v)) != OPS_OK)
            return ops_fault(i + 2 * W + k);
        if ((k = ops_sta_word(acc, d, i + 3 * W, v)) != OPS_OK)
            return ops_fault(i + 3 * W + k);
    }
    for (; left >= W; left -= W, i += W)
        if ((k = ops_sta_word(acc, d, i, v)) != OPS_OK)
            return ops_fault(i + k);
    /* Tail: fewer than W bytes. */
    for (; i < n; i++)
        if ((k = ops_st8(acc, d, i, b)) != OPS_OK)
            return ops_fault(i + k);
    return OPS_OK;
}

#endif
