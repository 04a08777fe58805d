/*
 * Unaligned scalar accesses and the access operation that the size classes of
 * the ual and x86_64 variants are written over (ual_classes.h, x86_vec.h): plain
 * here; the uaccess variants define AO_EXTABLE and exception-table accessors
 * first (src/uaccess/ua_access.h).  Also the scalar classes both families share
 * (8 + 8, 4 + 4, 2 + 2, 1 byte).
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

/* ---- The access operation ---------------------------------------------------

   A size class is an inline function over AO_LDn(v, p, L) / AO_STn(p, v, L)
   (v = the n bits at p, or store them; AO_STA64: to an 8-aligned address) that
   returns AO_OK, or, when an access faulted, its progress: every byte of dst
   below it stored, none at or above.  L is a label of the class itself, one
   per store, that returns the progress at that store (the stores of a class go
   in ascending order, each beginning at or below the end of those before it);
   the caller turns it into the fix-up (a fault-tolerant variant) or ignores it
   (a plain one, whose accesses never jump: the labels, the progress and the
   test fold away).  Why labels in the class and not a parameter: C cannot
   pass a label to a function, and an asm goto may only jump to a label of the
   function it is in; an inline function is one (the kernel's static keys are
   asm goto in always_inline functions the same way).  Macros for the accesses,
   so that the uaccess files can substitute their accessors; functions for the
   classes, so that each has its own labels and scope. */

#define AO_OK ((size_t)-1)
static inline size_t ao_max(size_t a, size_t b) { return a > b ? a : b; }
/* A computed progress: below n, so never AO_OK (said to the compiler, which
   then drops the caller's test of it on the fault path). */
static inline size_t ao_fault(size_t done)
{
    if (done == AO_OK)
        __builtin_unreachable();
    return done;
}
/* At a fault label: keeps x out of GCC's reach, so that a loop keeps no
   register per store address for the labels' arithmetic. */
#define AO_LAUNDER(x) __asm__("" : "+r"(x))

#ifndef AO_EXTABLE
/* Addresses: pointers here; integers in the uaccess variants, which must not do
   pointer arithmetic on the caller's pointers. */
typedef unsigned char *ao_dst;
typedef const unsigned char *ao_src;
#endif
/* The classes: always inlined (their labels and the caller's test of the
   progress fold only then). */
#ifndef AO_INL
#define AO_INL static inline __attribute__((always_inline))
#endif
#ifndef AO_EXTABLE
/* The plain access ignores its label (a dead goto keeps -Wunused-label quiet). */
#define AO_PLAIN(stmt, L)                                                        \
    do {                                                                         \
        stmt;                                                                    \
        if (0)                                                                   \
            goto L;                                                              \
    } while (0)
#define AO_LD8(v, p, L) AO_PLAIN((v) = *(p), L)
#define AO_LD16(v, p, L) AO_PLAIN((v) = ld16(p), L)
#define AO_LD32(v, p, L) AO_PLAIN((v) = ld32(p), L)
#define AO_LD64(v, p, L) AO_PLAIN((v) = ld64(p), L)
#define AO_ST8(p, v, L) AO_PLAIN(*(p) = (v), L)
#define AO_ST16(p, v, L) AO_PLAIN(st16(p, v), L)
#define AO_ST32(p, v, L) AO_PLAIN(st32(p, v), L)
#define AO_ST64(p, v, L) AO_PLAIN(st64(p, v), L)
#define AO_STA64(p, v, L) AO_PLAIN(*(u64_al *)(void *)(p) = (v), L)
#endif

/* ---- Scalar classes: every byte loaded before any is stored --------------- */

/* n in [8, 16]: 8 + 8 */
AO_INL size_t copy_8_16(ao_dst d, ao_src s, size_t n)
{
    uint64_t a, b;
    AO_LD64(a, s, f0);
    AO_LD64(b, s + n - 8, f0);
    AO_ST64(d, a, f0);
    AO_ST64(d + n - 8, b, f8);
    return AO_OK;
f0:
    return 0;
f8:
    return 8;
}

/* n in [4, 8]: 4 + 4 */
AO_INL size_t copy_4_8(ao_dst d, ao_src s, size_t n)
{
    uint32_t a, b;
    AO_LD32(a, s, f0);
    AO_LD32(b, s + n - 4, f0);
    AO_ST32(d, a, f0);
    AO_ST32(d + n - 4, b, f4);
    return AO_OK;
f0:
    return 0;
f4:
    return 4;
}

/* n in [2, 4]: 2 + 2 */
AO_INL size_t copy_2_4(ao_dst d, ao_src s, size_t n)
{
    uint16_t a, b;
    AO_LD16(a, s, f0);
    AO_LD16(b, s + n - 2, f0);
    AO_ST16(d, a, f0);
    AO_ST16(d + n - 2, b, f2);
    return AO_OK;
f0:
    return 0;
f2:
    return 2;
}

/* n == 1 */
AO_INL size_t copy_1(ao_dst d, ao_src s)
{
    unsigned char a;
    AO_LD8(a, s, f0);
    AO_ST8(d, a, f0);
    return AO_OK;
f0:
    return 0;
}

/* n < 8: two overlapping scalar accesses per class, one byte for n == 1.
   (One return at the end, not one per class: GCC predicts a branch to a
   `return constant` not taken, which would lay the classes out otherwise.) */
AO_INL size_t copy_lt8(ao_dst d, ao_src s, size_t n)
{
    size_t r = AO_OK;
    if (n >= 4)                 /* [4, 7]: 4 + 4 */
        r = copy_4_8(d, s, n);
    else if (n >= 2)            /* [2, 3]: 2 + 2 */
        r = copy_2_4(d, s, n);
    else if (n == 1)            /* 1 */
        r = copy_1(d, s);
    return r;
}

#endif
