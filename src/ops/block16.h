/*
 * The 16-byte block of the unaligned-access variants (memcpy_ual, memmove_ual,
 * memset_ual, copy_user_ual, clear_user_ual, riscv64's zicboz heads and
 * tails), for every architecture: src/ops/vector.h's classes instantiated
 * with a "vector" of W = 16 bytes held in two 64-bit words, so that the
 * ual size classes are vector.h's own (ht1: 16 + 16, ht2: 32 + 32, block4:
 * one 64-byte block of a loop) and need no vector registers.
 *
 * Where faults are caught or recorded, a block is two unaligned 64-bit
 * accesses through src/ops/access.h's accessors: the second word's store
 * reports 8 bytes known stored when it faults.  Where the architecture's
 * exception-table accessors move a block in one access (x86_64's
 * accessors.h: UA_B16_LD / UA_B16_ST, one SSE2 register), OPS_FAULT uses
 * those: a store that faults reports 0.  The block type holds both forms; an
 * instantiation uses one (OPS_FAULT on x86_64: the register, every other: the
 * words), so the other folds away.  OPS_PLAIN moves a block as one 16-byte
 * access of the two words (below).
 *
 * Include this instead of a vector header: a translation unit instantiates
 * vector.h once.
 *
 * Assumptions:
 *   - Unaligned 64-bit scalar accesses are single instructions (UAL; riscv64
 *     and loongarch64 files are built -mno-strict-align).
 *   - Little or big endian: words are only moved or repeated.
 */
#ifndef ALTMEM_OPS_BLOCK16_H
#define ALTMEM_OPS_BLOCK16_H

#include "ops/scalar.h"

#ifdef OPS_W
#error "src/ops/block16.h: this translation unit already instantiates src/ops/vector.h"
#endif

/* An asm goto never writes a member of the block: GCC 12 crashes splitting
   such a union or struct (seen on x86_64 and aarch64), so the fault loads go
   to locals first. */
#if defined(UA_B16_ST)
typedef struct {
    uint64_t w[2];
    ua_b16 x;                   /* x86_64's OPS_FAULT: one SSE2 register */
} ops_b16;
#else
typedef struct {
    uint64_t w[2];
} ops_b16;
#endif

/* The plain access of a block: one 16-byte access of two words at any
   alignment, which the compiler makes one instruction where it has one
   (x86_64 movdqu / movups, aarch64 ldr / str q) and two ld / sd elsewhere.
   One access, not two of 8 at p + off and p + off + 8: GCC pairs those (SLP)
   into one at an address of its own computing, p + (n - 32) with n - 32 in a
   register shared by src and dst, where this one keeps base + index +
   displacement (x86_64, memcpy_ual's 32 + 32 class: 2 instructions more). */
typedef uint64_t __attribute__((vector_size(16), aligned(1), may_alias)) ops_b16_plain;

typedef ops_b16 ops_vec;
#define OPS_W ((size_t)16)

OPS_INL int ops_vld(const enum ops_access acc, ops_b16 *v, uintptr_t p, ptrdiff_t off)
{
    uint64_t lo, hi;
#if defined(UA_B16_ST)
    if (acc == OPS_FAULT) {
        ua_b16 x;
        UA_B16_LD(x, p + off, fault);
        v->x = x;
        return 0;
    fault:
        return 1;
    }
#endif
    if (acc == OPS_PLAIN) {
        const ops_b16_plain x = *OPS_PLAIN_AT(const ops_b16_plain, p, off);
        v->w[0] = x[0];
        v->w[1] = x[1];
        return 0;
    }
    if (ops_ld64(acc, &lo, p, off) || ops_ld64(acc, &hi, p, off + 8))
        return 1;
    v->w[0] = lo;
    v->w[1] = hi;
    return 0;
}

/* Plain: one 16-byte store; else the two words, the second reporting 8 bytes
   stored when it faults. */
OPS_INL size_t ops_vst(const enum ops_access acc, uintptr_t p, ptrdiff_t off, ops_b16 v)
{
    size_t k;
#if defined(UA_B16_ST)
    if (acc == OPS_FAULT) {
        UA_B16_ST(p + off, v.x, fault);
        return OPS_OK;
    fault:
        return 0;
    }
#endif
    if (acc == OPS_PLAIN) {
        const ops_b16_plain x = {v.w[0], v.w[1]};
        *OPS_PLAIN_AT(ops_b16_plain, p, off) = x;
        return OPS_OK;
    }
    if ((k = ops_st64(acc, p, off, v.w[0])) != OPS_OK)
        return k;
    if ((k = ops_st64(acc, p, off + 8, v.w[1])) != OPS_OK)
        return 8 + k;           /* the first word is stored */
    return OPS_OK;
}

/* The loops' stores: to 16-aligned addresses.  There is no streaming form
   (no ual loop streams): OPS_STREAMING stores the same way. */
OPS_INL size_t ops_vstore(const enum ops_access acc, const enum ops_store how, uintptr_t p, ptrdiff_t off, ops_b16 v)
{
    (void)how;
    return ops_vst(acc, p, off, v);
}

/* A block's four stores go in whatever order GCC schedules them. */
#define OPS_STORE_ORDER() ((void)0)

/* The block of a set: the byte 8 times (v) in both words, or, for x86_64's
   OPS_FAULT, in one SSE2 register made opaque, so that GCC keeps it in that
   register instead of materialising it again inside a loop. */
OPS_INL ops_b16 ops_b16_splat(const enum ops_access acc, uint64_t v)
{
    ops_b16 b;
#if defined(UA_B16_ST)
    if (acc == OPS_FAULT) {
        UA_B16_SPLAT(b.x, v);
        return b;
    }
#else
    (void)acc;
#endif
    b.w[0] = v;
    b.w[1] = v;
    return b;
}

#include "ops/vector.h"

#endif
