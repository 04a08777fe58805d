/*
 * The exception-table access operation: what the size classes of the plain
 * variants (src/variants/ual/ual_access.h, ual_classes.h,
 * src/arch/x86_64/variants/x86_vec.h) are compiled over in the copy_user /
 * clear_user variants.  Included before those headers: each access is then an
 * extable accessor (extable.h) that, on a fault, resumes at the class's label
 * for that access, which returns the class's progress.
 *
 * Assumptions:
 *   - Addresses are integers (uintptr_t): no C pointer arithmetic on the
 *     caller's pointers, which may be NULL, wild or at the end of the address
 *     space.
 *   - The classes are always inlined: each call site has its own copy of the
 *     accessors' table entries and labels, and the caller's test of the
 *     progress folds into the fault paths.
 *   - A 16-byte block (AO_B16) is one access where the architecture's
 *     accessors say so (UA_B16_ONE_ACCESS: x86_64, one SSE2 register);
 *     elsewhere two 8-byte words, the second with a label of its own.
 */
#ifndef ALTMEM_UA_ACCESS_H
#define ALTMEM_UA_ACCESS_H

#include "extable.h"

#define AO_EXTABLE 1
typedef uintptr_t ao_dst;
typedef uintptr_t ao_src;
#define AO_INL static inline __attribute__((always_inline))
#define AO_LD8(v, p, L) UA_LD8(v, p, L)
#define AO_LD16(v, p, L) UA_LD16(v, p, L)
#define AO_LD32(v, p, L) UA_LD32(v, p, L)
#define AO_LD64(v, p, L) UA_LD64(v, p, L)
#define AO_ST8(p, v, L) UA_ST8(p, v, L)
#define AO_ST16(p, v, L) UA_ST16(p, v, L)
#define AO_ST32(p, v, L) UA_ST32(p, v, L)
#define AO_ST64(p, v, L) UA_ST64(p, v, L)
#define AO_STA64(p, v, L) UA_ST64(p, v, L)
#define AO_STW(p, v, L) UA_ST64(p, v, L) /* an aligned word (word_copy.h; 64-bit targets) */

/* 16-byte blocks (ual_classes.h).  AO_STB(p, v, L, L8): L8 is the label of
   the second 8 bytes, where the first 8 are known to be stored. */
#if defined(UA_B16_ONE_ACCESS)
/* One access per 16-byte block (x86_64's accessors.h: an SSE2 register). */
typedef ua_b16_setv ao_setv;    /* a set's block value */
#define AO_B16(v) UA_B16_DECL(v)
#define AO_LDB(v, p, L) UA_VLD16(v, p, L)
#define AO_STB(p, v, L, L8) UA_B16_ST(p, v, L, L8)
#define AO_SETB(p, v, L, L8) UA_B16_ST(p, v, L, L8)
#else
/* Two scalars, not a struct: GCC 12 for aarch64 crashes splitting a struct
   that asm goto writes. */
typedef uint64_t ao_setv;
#define AO_B16(v) uint64_t v##_lo, v##_hi
#define AO_LDB(v, p, L)                                                          \
    do {                                                                         \
        UA_LD64(v##_lo, (p), L);                                                 \
        UA_LD64(v##_hi, (p) + 8, L);                                             \
    } while (0)
#define AO_STB(p, v, L, L8)                                                      \
    do {                                                                         \
        UA_ST64((p), v##_lo, L);                                                 \
        UA_ST64((p) + 8, v##_hi, L8);                                            \
    } while (0)
#define AO_SETB(p, v, L, L8)                                                     \
    do {                                                                         \
        UA_ST64((p), v, L);                                                      \
        UA_ST64((p) + 8, v, L8);                                                 \
    } while (0)
#endif
/* What an architecture's accessors may leave out: pinning a variant's return
   value in its return register (UA_ZERO_IN_RET) and a zero block held in one
   register (UA_ZERO_B16). */
#ifndef UA_ZERO_IN_RET
#define UA_ZERO_IN_RET(v) ((void)0)
#endif
#ifndef UA_ZERO_B16
#define UA_ZERO_B16(v) const ao_setv v = 0
#endif
/* The loops' stores to 16-aligned addresses: the same instructions. */
#define AO_STBA(p, v, L, L8) AO_STB(p, v, L, L8)
#define AO_SETBA(p, v, L, L8) AO_SETB(p, v, L, L8)

#endif
