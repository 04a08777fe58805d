/*
 * clear_user_ual — fault-tolerant zeroing for CPUs with fast unaligned access.
 *
 * Assumptions:
 *   - Unaligned 2/4/8-byte (and on x86_64 16-byte SSE2) stores are single fast
 *     instructions; every store is an extable accessor.
 *   - Stores go in ascending address order, each beginning at or below the end
 *     of the zeroed prefix, so a fault leaves nothing written at or past the
 *     first inaccessible byte and each fault label knows the progress (every
 *     byte below it zeroed, none above); the fix-up goes on from there byte by
 *     byte for the exact count.
 *   - Addresses are integers (uintptr_t): no C pointer arithmetic on the
 *     caller's pointers, which may be NULL, wild or at the end of the address
 *     space.
 * Size classes, as memset_ual's: [0,16] two overlapping stores of the largest
 * fitting width; (16,32] 16 + 16 and (32,64] 32 + 32 bytes from each end; above,
 * the first 16 bytes unaligned, 64-byte blocks stored 16-aligned while more than
 * 64 bytes remain, then the last 64 bytes unaligned (memset_ual stores them
 * first; here they come last, beginning inside the zeroed prefix).
 */
#include "../variants/variants.h"
#include "extable.h"

#if defined(__x86_64__)
#include <emmintrin.h>
/* 16 zero bytes in one SSE2 store (baseline on x86_64); L8 is never taken. */
/* The zero vector is made opaque, so that GCC keeps it in one register
   instead of materialising it again inside the loop. */
#define ZBLOCK(v)                                                                        \
    __m128i v = _mm_setzero_si128();                                                     \
    __asm__("" : "+x"(v))
#define ZST16(p, v, L, L8)                                                               \
    __asm__ goto("1:\tmovdqu %[val], %[mem]\n\t" UA_EXTABLE("1b", "%l[" #L "]")         \
                 : : [mem] "m"(*(__m128i_u *)(p)), [val] "x"(v) : "memory" : L, L8)
#else
/* Elsewhere two 8-byte stores; a fault on the second goes to L8, where the
   first is known to be stored. */
#define ZBLOCK(v) const uint64_t v = 0
#define ZST16(p, v, L, L8)                                                               \
    do {                                                                                 \
        UA_ST64((p), v, L);                                                              \
        UA_ST64((p) + 8, v, L8);                                                         \
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
/* Keeps i out of GCC's reach at a fault label (no register per store address
   for the labels' arithmetic). */
#define LAUNDER(x) __asm__("" : "+r"(x))

size_t altmem_clear_user_ual(void *dst, size_t n)
{
    const uintptr_t d = (uintptr_t)dst;
    const uint64_t z = 0;
    size_t k = 0;

    /* First use: install the fault handler (extable.h). */
    if (UA_NOT_INSTALLED())
        goto first_use;
    size_t ok = 0;
    ZERO_IN_RAX(ok);
    if (n <= 16) {
        if (n >= 8) {           /* [8, 16] */
            UA_ST64(d, z, f0);
            UA_ST64(d + n - 8, z, f8);
        } else if (n >= 4) {    /* [4, 7] */
            UA_ST32(d, (uint32_t)z, f0);
            UA_ST32(d + n - 4, (uint32_t)z, f4);
        } else if (n >= 2) {    /* [2, 3] */
            UA_ST16(d, (uint16_t)z, f0);
            UA_ST16(d + n - 2, (uint16_t)z, f2);
        } else if (n == 1) {    /* 1 */
            UA_ST8(d, (uint8_t)z, f0);
        }
        return ok;
    }
    ZBLOCK(v);
    if (n <= 32) {              /* (16, 32]: 16 + 16 */
        ZST16(d, v, f0, f8);
        ZST16(d + n - 16, v, f16, f16n8);
        return ok;
    }
    if (n <= 64) {              /* (32, 64]: 32 + 32 */
        ZST16(d, v, f0, f8);
        ZST16(d + 16, v, f16, f24);
        ZST16(d + n - 32, v, f32, f32n24);
        ZST16(d + n - 16, v, f32n16, f32n8);
        return ok;
    }
    /* Head: 16 unaligned bytes, then from the next 16-aligned address. */
    ZST16(d, v, f0, f8);
    /* Body: 64 bytes per iteration, 16-aligned, while more than 64 remain,
       the bound computed once.  (An index here, not memcpy's pointer and
       count: this shape measured faster for clear_user at 128 B - 1 KiB.) */
    size_t i = 16 - (d & 15);
    const size_t end = n - 64;
    for (; i < end; i += 64) {
        ZST16(d + i, v, fl, fl8);
        ZST16(d + i + 16, v, fl16, fl24);
        ZST16(d + i + 32, v, fl32, fl40);
        ZST16(d + i + 48, v, fl48, fl56);
    }
    /* Tail: the last 64 bytes, unaligned (n - 64 <= i: inside the prefix). */
    ZST16(d + n - 64, v, ft, ft8);
    ZST16(d + n - 48, v, ft16, ft24);
    ZST16(d + n - 32, v, ft32, ft40);
    ZST16(d + n - 16, v, ft48, ft56);
    return ok;
    /* Progress in the loop: [0, i) plus the words of this iteration stored
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
    LAUNDER(i);
    return altmem__uaccess_bytes(d, 0, n, MAX(i + k, 16), 1);
    /* In the tail: the prefix [0, max(i, 16)) and the tail's words stored
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
    LAUNDER(i);
    return altmem__uaccess_bytes(d, 0, n, MAX(MAX(i, 16), n - 64 + k), 1);
f32n8:
    return altmem__uaccess_bytes(d, 0, n, MAX(32, n - 8), 1);
f32n16:
    return altmem__uaccess_bytes(d, 0, n, MAX(32, n - 16), 1);
f32n24:
    return altmem__uaccess_bytes(d, 0, n, MAX(32, n - 24), 1);
f16n8:
    return altmem__uaccess_bytes(d, 0, n, MAX(16, n - 8), 1);
f32:
    return altmem__uaccess_bytes(d, 0, n, 32, 1);
f24:
    return altmem__uaccess_bytes(d, 0, n, 24, 1);
f16:
    return altmem__uaccess_bytes(d, 0, n, 16, 1);
f8:
    return altmem__uaccess_bytes(d, 0, n, 8, 1);
f4:
    return altmem__uaccess_bytes(d, 0, n, 4, 1);
f2:
    return altmem__uaccess_bytes(d, 0, n, 2, 1);
f0:
    return altmem__uaccess_bytes(d, 0, n, 0, 1);
first_use:
    return altmem__clear_user_first(dst, n, altmem_clear_user_ual);
}
