/*
 * copy_user_ual — fault-tolerant copy for CPUs with fast unaligned access (UAL).
 *
 * Assumptions:
 *   - Unaligned 2/4/8-byte (and on x86_64 16-byte SSE2) loads and stores are
 *     single fast instructions; every access is an extable accessor.
 *   - src and dst do not overlap.
 *   - Every block is loaded before it is stored and blocks are stored in
 *     ascending order, each beginning at or below the end of the stored prefix,
 *     so when an access faults no byte at or past the first inaccessible one has
 *     been written, and each fault label knows the progress (every byte below it
 *     stored, none above); the fix-up goes on from there byte by byte and returns
 *     the exact count (altmem__uaccess_bytes).
 *   - Addresses are integers (uintptr_t): no C pointer arithmetic on the
 *     caller's pointers, which may be NULL, wild or at the end of the address
 *     space.
 * Size classes, as memcpy_ual's: [0,16) two overlapping accesses of the largest
 * fitting width; [16,32] 16 + 16 and (32,64] 32 + 32 bytes from each end, every
 * load before the first store; above, the first 16 bytes unaligned, 64-byte
 * blocks stored 16-aligned while more than 64 bytes remain, then the last 64
 * bytes unaligned (loaded after the loop, stored ascending: they begin inside
 * the stored prefix).
 */
#include "../variants/variants.h"
#include "extable.h"

#if defined(__x86_64__)
#include <emmintrin.h>
/* 16-byte blocks through SSE2 registers (baseline on x86_64).  A block is one
   store: L8 (the fault label of its second half elsewhere) is never taken. */
#define BLOCK16(v) __m128i v
#define LD16B(v, p, L) UA_VLD16(v, p, L)
#define ST16B(p, v, L, L8)                                                               \
    __asm__ goto("1:\tmovdqu %[val], %[mem]\n\t" UA_EXTABLE("1b", "%l[" #L "]")         \
                 : : [mem] "m"(*(__m128i_u *)(p)), [val] "x"(v) : "memory" : L, L8)
#else
/* Elsewhere a 16-byte block is two 8-byte words (two scalars, not a struct:
   GCC 12 for aarch64 crashes splitting a struct that asm goto writes); a fault
   on the second word goes to L8, where the first is known to be stored. */
#define BLOCK16(v) uint64_t v##_lo, v##_hi
#define LD16B(v, p, L)                                                                   \
    do {                                                                                 \
        UA_LD64(v##_lo, (p), L);                                                         \
        UA_LD64(v##_hi, (p) + 8, L);                                                     \
    } while (0)
#define ST16B(p, v, L, L8)                                                               \
    do {                                                                                 \
        UA_ST64((p), v##_lo, L);                                                         \
        UA_ST64((p) + 8, v##_hi, L8);                                                    \
    } while (0)
#endif

#define MAX altmem__ua_max
#if defined(__x86_64__)
/* The return value 0 goes to %rax on entry (an empty asm pins it there), so
   that each size class can end in its own ret rather than jump to a shared
   "xor; ret" (as in ua_x86_vec.h). */
#define ZERO_IN_RAX(v) __asm__("" : "+a"(v))
#else
#define ZERO_IN_RAX(v) ((void)0)
#endif
/* Keeps p out of GCC's reach at a fault label, so that the loop does not keep
   p + 16, p + 32, ... in registers of their own for the labels' arithmetic. */
#define LAUNDER(x) __asm__("" : "+r"(x))

size_t altmem_copy_user_ual(void *dst, const void *src, size_t n)
{
    const uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
    size_t k = 0;

    /* First use: install the fault handler (extable.h). */
    if (UA_NOT_INSTALLED())
        goto first_use;
    size_t ok = 0;
    ZERO_IN_RAX(ok);
    /* As memcpy_ual: above 64 out of the way, [32, 64] falls through. */
    if (n > 64)
        goto large;
    if (n >= 32) {              /* [32, 64]: 32 + 32 */
        BLOCK16(a);
        BLOCK16(b);
        BLOCK16(y);
        BLOCK16(z);
        LD16B(a, s, f0);
        LD16B(b, s + 16, f0);
        LD16B(y, s + n - 32, f0);
        LD16B(z, s + n - 16, f0);
        ST16B(d, a, f0, f8);
        ST16B(d + 16, b, f16, f24);
        ST16B(d + n - 32, y, f32, f32n24);
        ST16B(d + n - 16, z, f32n16, f32n8);
        return ok;
    }
    if (n >= 16) {              /* [16, 32): 16 + 16 */
        BLOCK16(a);
        BLOCK16(z);
        LD16B(a, s, f0);
        LD16B(z, s + n - 16, f0);
        ST16B(d, a, f0, f8);
        ST16B(d + n - 16, z, f16, f16n8);
        return ok;
    }
    if (n >= 8) {               /* [8, 16): 8 + 8 */
        uint64_t a, z;
        UA_LD64(a, s, f0);
        UA_LD64(z, s + n - 8, f0);
        UA_ST64(d, a, f0);
        UA_ST64(d + n - 8, z, f8);
        return ok;
    }
    if (n >= 4) {               /* [4, 8): 4 + 4 */
        uint32_t a, z;
        UA_LD32(a, s, f0);
        UA_LD32(z, s + n - 4, f0);
        UA_ST32(d, a, f0);
        UA_ST32(d + n - 4, z, f4);
        return ok;
    }
    if (n >= 2) {               /* [2, 4): 2 + 2 */
        uint16_t a, z;
        UA_LD16(a, s, f0);
        UA_LD16(z, s + n - 2, f0);
        UA_ST16(d, a, f0);
        UA_ST16(d + n - 2, z, f2);
        return ok;
    }
    if (n) {                    /* 1 */
        uint8_t a;
        UA_LD8(a, s, f0);
        UA_ST8(d, a, f0);
    }
    return ok;
large:
    {
        /* Head: 16 unaligned bytes, then continue where dst is 16-aligned
           (the next block rewrites part of the head with the same bytes). */
        BLOCK16(h);
        LD16B(h, s, f0);
        ST16B(d, h, f0, f8);
    }
    /* Body: 64 bytes per iteration, stores 16-aligned, loaded before stored,
       while more than 64 remain; one pointer per stream with offsets. */
    uintptr_t p = d + 16 - (d & 15), q = s + (p - d);
    const size_t end = n - 64;
    if (p - d < end) {
        /* The iteration count up front: the loop is a count and two pointer
           increments (as memcpy_ual's), no comparison with an end address
           (d + n may wrap for a wild dst). */
        size_t c = (end - (p - d) + 63) / 64;
        do {
            BLOCK16(a);
            BLOCK16(b);
            BLOCK16(c0);
            BLOCK16(e);
            LD16B(a, q, fl);
            LD16B(b, q + 16, fl);
            LD16B(c0, q + 32, fl);
            LD16B(e, q + 48, fl);
            ST16B(p, a, fl, fl8);
            ST16B(p + 16, b, fl16, fl24);
            ST16B(p + 32, c0, fl32, fl40);
            ST16B(p + 48, e, fl48, fl56);
            p += 64;
            q += 64;
        } while (--c);
    }
    {
        /* Tail: the last 64 bytes, unaligned (n - 64 <= p - d: they begin inside
           the stored prefix). */
        BLOCK16(w);
        BLOCK16(x);
        BLOCK16(y);
        BLOCK16(z);
        LD16B(w, s + n - 64, ft);
        LD16B(x, s + n - 48, ft);
        LD16B(y, s + n - 32, ft);
        LD16B(z, s + n - 16, ft);
        ST16B(d + n - 64, w, ft, ft8);
        ST16B(d + n - 48, x, ft16, ft24);
        ST16B(d + n - 32, y, ft32, ft40);
        ST16B(d + n - 16, z, ft48, ft56);
    }
    return ok;
    /* Progress in the loop: [0, p - d) plus the words of this iteration stored
       before the fault (k), and the 16-byte head (the first block may start
       inside it). */
fl56:
    k += 8;
fl48:
    k += 8;
fl40:
    k += 8;
fl32:
    k += 8;
fl24:
    k += 8;
fl16:
    k += 8;
fl8:
    k += 8;
fl:
    LAUNDER(p);
    return altmem__uaccess_bytes(d, s, n, MAX(p - d + k, 16), 0);
    /* In the tail: the prefix [0, max(p - d, 16)) and the tail's words stored
       before the fault, from n - 64. */
ft56:
    k += 8;
ft48:
    k += 8;
ft40:
    k += 8;
ft32:
    k += 8;
ft24:
    k += 8;
ft16:
    k += 8;
ft8:
    k += 8;
ft:
    LAUNDER(p);
    return altmem__uaccess_bytes(d, s, n, MAX(MAX(p - d, 16), n - 64 + k), 0);
f32n8:
    return altmem__uaccess_bytes(d, s, n, MAX(32, n - 8), 0);
f32n16:
    return altmem__uaccess_bytes(d, s, n, MAX(32, n - 16), 0);
f32n24:
    return altmem__uaccess_bytes(d, s, n, MAX(32, n - 24), 0);
f16n8:
    return altmem__uaccess_bytes(d, s, n, MAX(16, n - 8), 0);
f32:
    return altmem__uaccess_bytes(d, s, n, 32, 0);
f24:
    return altmem__uaccess_bytes(d, s, n, 24, 0);
f16:
    return altmem__uaccess_bytes(d, s, n, 16, 0);
f8:
    return altmem__uaccess_bytes(d, s, n, 8, 0);
f4:
    return altmem__uaccess_bytes(d, s, n, 4, 0);
f2:
    return altmem__uaccess_bytes(d, s, n, 2, 0);
f0:
    return altmem__uaccess_bytes(d, s, n, 0, 0);
first_use:
    return altmem__copy_user_first(dst, src, n, altmem_copy_user_ual);
}
