/*
 * The access operation every size class is written over (src/ops/scalar.h,
 * src/ops/vector.h): a class takes `const enum ops_access acc` as its first
 * argument and does each load and store through the accessors below, so one
 * body serves both instantiations, and the call says which one it is:
 *
 *   OPS_PLAIN  plain loads and stores (memcpy, memmove, memset);
 *   OPS_FAULT  exception-table accessors (copy_user, clear_user): an access
 *              that faults returns to the class, which returns its progress;
 *   OPS_RECORD the test's accessors (tests/test_ops_progress.c), which check
 *              every class's progress at every access.
 *
 * A class returns OPS_OK, or, when an access faulted, its progress: every byte
 * of dst below it stored, none at or above (the stores of a class go in
 * ascending order, each beginning at or below the end of those before it).
 * Loads report a fault as nonzero (nothing was stored); a store reports
 * OPS_OK, or how many of its own bytes are known stored (0 for one
 * instruction, 8 for the second word of a two-word block), so the progress
 * at every store is written once, next to it, in the class.
 *
 * acc is a constant at every call and the classes are always inlined, so the
 * test of it, the fault paths of OPS_PLAIN and its unused accessors fold away:
 * an OPS_PLAIN class compiles to the plain accesses alone, with no
 * exception-table entry (the plain variants must not catch faults).  That
 * folding needs the optimizer, hence the #error below.
 *
 * Assumptions:
 *   - Addresses are integers (uintptr_t): no C pointer arithmetic on the
 *     caller's pointers, which may be NULL, wild or at the end of the address
 *     space in copy_user / clear_user.
 *   - Unaligned scalar accesses are single instructions where a class uses
 *     them (feature UAL; riscv64 and loongarch64 files are built
 *     -mno-strict-align); the strict-alignment variants use only ops_ld8,
 *     ops_st8 and src/ops/word.h's aligned-word accessors.
 */
#ifndef ALTMEM_OPS_ACCESS_H
#define ALTMEM_OPS_ACCESS_H

#include <stddef.h>
#include <stdint.h>

#include "ops/fault_access.h"

#if !defined(__OPTIMIZE__)
#error "src/ops: the access operation folds only when optimizing (-O1 and above)"
#endif

/* The one spelling of always_inline for size classes and accessors. */
#define OPS_INL static inline __attribute__((always_inline))

enum ops_access { OPS_PLAIN, OPS_FAULT, OPS_RECORD };

/* OPS_RECORD: the accesses go to these two functions instead of memory, which
   tests/test_ops_progress.c defines: it makes the k-th access fault and checks
   each class's progress against the stores it saw.  Nothing else calls a class
   with OPS_RECORD, so nothing else references them. */
int ops_record_load(uintptr_t p, size_t bytes);    /* nonzero: this load faults */
size_t ops_record_store(uintptr_t p, size_t bytes); /* OPS_OK, or 0: it faults   */

/* How a loop stores its blocks: to W-aligned destination addresses, or
   streaming (non-temporal, whole 64-byte lines; the caller fences). */
enum ops_store { OPS_ALIGNED, OPS_STREAMING };

/* A class's result when every access succeeded (else: its progress). */
#define OPS_OK ((size_t)-1)

OPS_INL size_t ops_max(size_t a, size_t b) { return a > b ? a : b; }

/* A computed progress: below n, so never OPS_OK (said to the compiler, which
   then drops the caller's test of it on the fault path). */
OPS_INL size_t ops_fault(size_t done)
{
    if (done == OPS_OK)
        __builtin_unreachable();
    return done;
}

/* One store of a size class, its result in k: if it faulted, the class
   returns its progress, done, an expression of k (the bytes stored before it
   and by it). */
#define OPS_STORE_OR_FAULT(k, store, done)                                                                     \
    do {                                                                                                       \
        if (((k) = (store)) != OPS_OK)                                                                         \
            return ops_fault(done);                                                                            \
    } while (0)

/* Keeps x out of GCC's reach: it may assume nothing of x's value after it.  At
   a fault path, so that a loop keeps no register per store address for the
   progress arithmetic; in a size class, so that GCC does not merge accesses
   the class keeps apart (x86's 2-3 byte copies). */
#define OPS_LAUNDER(x) __asm__("" : "+r"(x))

typedef uint64_t __attribute__((may_alias)) ops_u64_aligned;

/* ops_ldN(acc, &v, p, off) / ops_stN(acc, p, off, v), N = 8, 16, 32, 64 bits,
   unaligned, at address p + off.  The offset is separate so that the plain
   access adds it to a pointer (GCC then folds base + index + displacement into
   the instruction, as in pointer code; added to an integer it keeps p + n in a
   register of its own: +1 or +2 instructions per class at 33-256 B, measured by
   scripts/small-cost.sh), and the other accesses to an integer. */
#define OPS_PLAIN_AT(type, p, off) ((type *)((unsigned char *)(p) + (off)))
#define OPS_SCALAR_ACCESSORS(bits, type, unaligned)                              \
    OPS_INL int ops_ld##bits(const enum ops_access acc, type *v, uintptr_t p, ptrdiff_t off) \
    {                                                                            \
        if (acc == OPS_RECORD) {                                                 \
            *v = 0;                                                              \
            return ops_record_load(p + off, sizeof(type));                       \
        }                                                                        \
        if (acc == OPS_FAULT) {                                                  \
            UA_LD##bits(*v, p + off, fault);                                     \
            return 0;                                                            \
        fault:                                                                   \
            return 1;                                                            \
        }                                                                        \
        *v = *OPS_PLAIN_AT(const unaligned, p, off);                             \
        return 0;                                                                \
    }                                                                            \
    OPS_INL size_t ops_st##bits(const enum ops_access acc, uintptr_t p, ptrdiff_t off, type v) \
    {                                                                            \
        if (acc == OPS_RECORD)                                                   \
            return ops_record_store(p + off, sizeof(type));                      \
        if (acc == OPS_FAULT) {                                                  \
            UA_ST##bits(p + off, v, fault);                                      \
            return OPS_OK;                                                       \
        fault:                                                                   \
            return 0;                                                            \
        }                                                                        \
        *OPS_PLAIN_AT(unaligned, p, off) = v;                                    \
        return OPS_OK;                                                           \
    }
OPS_SCALAR_ACCESSORS(8, unsigned char, unsigned char)
OPS_SCALAR_ACCESSORS(16, uint16_t, u16_una)
OPS_SCALAR_ACCESSORS(32, uint32_t, u32_una)
OPS_SCALAR_ACCESSORS(64, uint64_t, u64_una)
#undef OPS_SCALAR_ACCESSORS

/* An architecture's accessors of one vector type, written once: name_ld(acc,
   &v, p, off) and name_st(acc, p, off, v) as the scalar ones above.  plain_ld(q)
   / plain_st(q, v): the plain access at the pointer q; fault_ld(v, p, off, L) /
   fault_st(p, off, v, L): the exception-table access at p + off, which resumes
   at label L if it faults (it may pick its addressing form from off).  The
   fault load goes to a local first: GCC 12 crashes splitting a struct or union
   that an asm goto writes. */
#define OPS_VECTOR_LOAD(type, name, plain_ld, fault_ld)                          \
    OPS_INL int name(const enum ops_access acc, type *v, uintptr_t p, ptrdiff_t off) \
    {                                                                            \
        if (acc == OPS_FAULT) {                                                  \
            type x_;                                                             \
            fault_ld(x_, p, off, fault);                                         \
            *v = x_;                                                             \
            return 0;                                                            \
        fault:                                                                   \
            return 1;                                                            \
        }                                                                        \
        *v = plain_ld(OPS_PLAIN_AT(const unsigned char, p, off));                \
        return 0;                                                                \
    }
#define OPS_VECTOR_STORE(type, name, plain_st, fault_st)                         \
    OPS_INL size_t name(const enum ops_access acc, uintptr_t p, ptrdiff_t off, type v) \
    {                                                                            \
        if (acc == OPS_FAULT) {                                                  \
            fault_st(p, off, v, fault);                                          \
            return OPS_OK;                                                       \
        fault:                                                                   \
            return 0;                                                            \
        }                                                                        \
        plain_st(OPS_PLAIN_AT(unsigned char, p, off), v);                        \
        return OPS_OK;                                                           \
    }

/* A 64-bit word to an 8-aligned address (the loops of the word and block
   classes): the same instruction as ops_st64 where faults are recorded. */
OPS_INL size_t ops_sta64(const enum ops_access acc, uintptr_t p, ptrdiff_t off, uint64_t v)
{
    if (acc != OPS_PLAIN)
        return ops_st64(acc, p, off, v);
    *OPS_PLAIN_AT(ops_u64_aligned, p, off) = v;
    return OPS_OK;
}

#endif
