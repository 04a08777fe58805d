/*
 * clear_user_generic — fault-tolerant zeroing for CPUs without unaligned access.
 *
 * Assumptions:
 *   - Any ISA with the extable accessors; never a multi-byte store at an address
 *     that is not a multiple of its size.
 *   - Stores in ascending order: a fault leaves nothing written at or past the
 *     first inaccessible byte, and everything below d (plus the words stored
 *     before the faulting one) written; the fix-up goes on from there byte by byte.
 *   - Addresses are integers (uintptr_t): no C pointer arithmetic on the
 *     caller's pointers, which may be NULL or wild.
 * Size classes: memset_generic's own (word_set, src/variants/generic/word_copy.h)
 * with OPS_FAULT (exception-table accessors): < 3 words bytes;
 * else bytes to word alignment, aligned words (4 per iteration), bytes at the
 * end.
 */
#include "registry.h"
#include "variants/generic/word_copy.h"
#include "uaccess/extable.h" /* the fix-up, the lazy installation, the end of the address space */

size_t altmem_clear_user_generic(void *dst, size_t n)
{
    /* First use: install the fault handler (extable.h). */
    if (UA_NOT_INSTALLED())
        return altmem__clear_user_first(dst, n, altmem_clear_user_generic);
    const size_t done = word_set(OPS_FAULT, (uintptr_t)dst, 0, n);
    if (__builtin_expect(done != OPS_OK, 0))
        return altmem__uaccess_bytes((uintptr_t)dst, 0, n, done, 1);
    return 0;
}
