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
 *   - On x86_64 a 16-byte block (AO_B16) is one SSE2 register and one access;
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
#if defined(__x86_64__)
#include <emmintrin.h>
typedef __m128i ao_setv;        /* a set's block value */
#define AO_B16(v) __m128i v
#define AO_LDB(v, p, L) UA_VLD16(v, p, L)
/* One store: L8 (the label of its second half elsewhere) is never taken. */
#define AO_STB(p, v, L, L8)                                                      \
    __asm__ goto("1:\tmovdqu %[val], %[mem]\n\t" UA_EXTABLE("1b", "%l[" #L "]")  \
                 : : [mem] "m"(*(__m128i_u *)(p)), [val] "x"(v) : "memory" : L, L8)
#define AO_SETB(p, v, L, L8) AO_STB(p, v, L, L8)
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
/* The loops' stores to 16-aligned addresses: the same instructions. */
#define AO_STBA(p, v, L, L8) AO_STB(p, v, L, L8)
#define AO_SETBA(p, v, L, L8) AO_SETB(p, v, L, L8)

#endif
