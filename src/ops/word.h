/*
 * The machine word of the strict-alignment variants (memcpy_generic ...
 * clear_user_generic): uintptr_t, 8 bytes on 64-bit targets, 4 on 32-bit
 * ones, always at an address that is a multiple of its size.  The accessors
 * follow src/ops/access.h's contract (base + offset; a load returns nonzero on
 * a fault, a store OPS_OK or 0).
 *
 * Assumptions:
 *   - Aligned word loads and stores are single instructions on every target.
 *   - The exception-table accessors of 64-bit targets move 64 bits
 *     (UA_LD64 / UA_ST64); a 32-bit target's word is UA_LD32 / UA_ST32.
 */
#ifndef ALTMEM_OPS_WORD_H
#define ALTMEM_OPS_WORD_H

#include "ops/access.h"

typedef uintptr_t __attribute__((may_alias)) ops_word;
#define OPS_WORD ((size_t)sizeof(ops_word))

/* p + off is a multiple of OPS_WORD. */
OPS_INL int ops_lda_word(const enum ops_access acc, ops_word *v, uintptr_t p, ptrdiff_t off)
{
    if (acc == OPS_PLAIN) {
        *v = *OPS_PLAIN_AT(const ops_word, p, off);
        return 0;
    }
#if UINTPTR_MAX > 0xffffffffu
    uint64_t w;
    const int f = ops_ld64(acc, &w, p, off);
#else
    uint32_t w;
    const int f = ops_ld32(acc, &w, p, off);
#endif
    *v = w;
    return f;
}

OPS_INL size_t ops_sta_word(const enum ops_access acc, uintptr_t p, ptrdiff_t off, ops_word v)
{
    if (acc == OPS_PLAIN) {
        *OPS_PLAIN_AT(ops_word, p, off) = v;
        return OPS_OK;
    }
#if UINTPTR_MAX > 0xffffffffu
    return ops_st64(acc, p, off, v);
#else
    return ops_st32(acc, p, off, v);
#endif
}

#endif
