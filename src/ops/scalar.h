/*
 * Scalar size classes, for every architecture (the word and vector variants
 * use them below their own widths): two overlapping accesses from each end
 * cover n in [N, 2N] with no branch per byte.  Each class loads all it copies
 * before its first store, so memmove may use it too; its stores go in
 * ascending order, and each returns OPS_OK or its progress (src/ops/access.h).
 *
 * An architecture may define OPS_COPY_4_8_TAIL_FIRST before including it: the
 * plain (not fault-tolerant) [4, 8] copy then loads and stores its last 4
 * bytes first (see ops_copy_4_8).
 *
 * Assumptions:
 *   - Unaligned 16-, 32- and 64-bit accesses are single instructions (UAL).
 *   - Little or big endian: values are only moved or repeated, never combined.
 */
#ifndef ALTMEM_OPS_SCALAR_H
#define ALTMEM_OPS_SCALAR_H

#include "ops/access.h"

/* ---- Copies ---------------------------------------------------------------- */

/* n in [8, 16]: 8 + 8 */
OPS_INL size_t ops_copy_8_16(const enum ops_access acc, uintptr_t d, uintptr_t s, size_t n)
{
    uint64_t head, tail;
    size_t k;
    if (ops_ld64(acc, &head, s, 0) || ops_ld64(acc, &tail, s, n - 8))
        return 0;
    if ((k = ops_st64(acc, d, 0, head)) != OPS_OK)
        return k;
    if ((k = ops_st64(acc, d, n - 8, tail)) != OPS_OK)
        return ops_fault(8 + k);
    return OPS_OK;
}

/* n in [4, 8]: 4 + 4 */
OPS_INL size_t ops_copy_4_8(const enum ops_access acc, uintptr_t d, uintptr_t s, size_t n)
{
    uint32_t head, tail;
    size_t k;
#ifdef OPS_COPY_4_8_TAIL_FIRST
    /* Repeated on one overlapping buffer, the order decides which direction
       waits for a store (as in src/ops/vector.h, ops_vcopy_ht2).  No progress
       in this order, so only the plain copy takes it. */
    if (acc == OPS_PLAIN) {
        ops_ld32(acc, &tail, s, n - 4);
        ops_ld32(acc, &head, s, 0);
        ops_st32(acc, d, n - 4, tail);
        ops_st32(acc, d, 0, head);
        return OPS_OK;
    }
#endif
    if (ops_ld32(acc, &head, s, 0) || ops_ld32(acc, &tail, s, n - 4))
        return 0;
    if ((k = ops_st32(acc, d, 0, head)) != OPS_OK)
        return k;
    if ((k = ops_st32(acc, d, n - 4, tail)) != OPS_OK)
        return ops_fault(4 + k);
    return OPS_OK;
}

/* n in [2, 4]: 2 + 2 */
OPS_INL size_t ops_copy_2_4(const enum ops_access acc, uintptr_t d, uintptr_t s, size_t n)
{
    uint16_t head, tail;
    size_t k;
    if (ops_ld16(acc, &head, s, 0) || ops_ld16(acc, &tail, s, n - 2))
        return 0;
    if ((k = ops_st16(acc, d, 0, head)) != OPS_OK)
        return k;
    if ((k = ops_st16(acc, d, n - 2, tail)) != OPS_OK)
        return ops_fault(2 + k);
    return OPS_OK;
}

/* n == 1 */
OPS_INL size_t ops_copy_1(const enum ops_access acc, uintptr_t d, uintptr_t s)
{
    unsigned char byte;
    if (ops_ld8(acc, &byte, s, 0))
        return 0;
    return ops_st8(acc, d, 0, byte);
}

/* n in [1, 3]: bytes 0, n/2 and n - 1 cover them all, no branch. */
OPS_INL size_t ops_copy_1_3(const enum ops_access acc, uintptr_t d, uintptr_t s, size_t n)
{
    unsigned char first, middle, last;
    size_t k;
    if (ops_ld8(acc, &first, s, 0) || ops_ld8(acc, &middle, s, n >> 1) || ops_ld8(acc, &last, s, n - 1))
        return 0;
    if ((k = ops_st8(acc, d, 0, first)) != OPS_OK)
        return k;
    if ((k = ops_st8(acc, d, n >> 1, middle)) != OPS_OK)
        return ops_fault(1 + k);
    if ((k = ops_st8(acc, d, n - 1, last)) != OPS_OK)
        return ops_fault((n >> 1) + 1 + k);
    return OPS_OK;
}

/* n < 8: two overlapping scalar accesses per class, one byte for n == 1.
   (One return at the end, not one per class: GCC predicts a branch to a
   `return constant` not taken, which would lay the classes out otherwise.) */
OPS_INL size_t ops_copy_lt8(const enum ops_access acc, uintptr_t d, uintptr_t s, size_t n)
{
    size_t r = OPS_OK;
    if (n >= 4)                 /* [4, 7]: 4 + 4 */
        r = ops_copy_4_8(acc, d, s, n);
    else if (n >= 2)            /* [2, 3]: 2 + 2 */
        r = ops_copy_2_4(acc, d, s, n);
    else if (n == 1)            /* 1 */
        r = ops_copy_1(acc, d, s);
    return r;
}

/* n < 16 */
OPS_INL size_t ops_copy_lt16(const enum ops_access acc, uintptr_t d, uintptr_t s, size_t n)
{
    size_t r;
    if (n >= 8)
        r = ops_copy_8_16(acc, d, s, n); /* [8, 15]: 8 + 8 */
    else
        r = ops_copy_lt8(acc, d, s, n);  /* [0, 7] */
    return r;
}

/* ---- Sets: v is the byte 8 times ------------------------------------------- */

/* n in [8, 16]: 8 + 8 */
OPS_INL size_t ops_set_8_16(const enum ops_access acc, uintptr_t d, uint64_t v, size_t n)
{
    size_t k;
    if ((k = ops_st64(acc, d, 0, v)) != OPS_OK)
        return k;
    if ((k = ops_st64(acc, d, n - 8, v)) != OPS_OK)
        return ops_fault(8 + k);
    return OPS_OK;
}

/* n in [4, 8]: 4 + 4 */
OPS_INL size_t ops_set_4_8(const enum ops_access acc, uintptr_t d, uint64_t v, size_t n)
{
    size_t k;
    if ((k = ops_st32(acc, d, 0, (uint32_t)v)) != OPS_OK)
        return k;
    if ((k = ops_st32(acc, d, n - 4, (uint32_t)v)) != OPS_OK)
        return ops_fault(4 + k);
    return OPS_OK;
}

/* n in [2, 4]: 2 + 2 */
OPS_INL size_t ops_set_2_4(const enum ops_access acc, uintptr_t d, uint64_t v, size_t n)
{
    size_t k;
    if ((k = ops_st16(acc, d, 0, (uint16_t)v)) != OPS_OK)
        return k;
    if ((k = ops_st16(acc, d, n - 2, (uint16_t)v)) != OPS_OK)
        return ops_fault(2 + k);
    return OPS_OK;
}

/* n == 1 */
OPS_INL size_t ops_set_1(const enum ops_access acc, uintptr_t d, uint64_t v)
{
    return ops_st8(acc, d, 0, (unsigned char)v);
}

/* n < 16 (one return at the end, as ops_copy_lt8). */
OPS_INL size_t ops_set_lt16(const enum ops_access acc, uintptr_t d, uint64_t v, size_t n)
{
    size_t r = OPS_OK;
    if (n >= 8)                 /* [8, 15]: 8 + 8 */
        r = ops_set_8_16(acc, d, v, n);
    else if (n >= 4)            /* [4, 7]: 4 + 4 */
        r = ops_set_4_8(acc, d, v, n);
    else if (n >= 2)            /* [2, 3]: 2 + 2 */
        r = ops_set_2_4(acc, d, v, n);
    else if (n == 1)            /* 1 */
        r = ops_set_1(acc, d, v);
    return r;
}

#endif
