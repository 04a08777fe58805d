/*
 * clear_user_lsx — fault-tolerant zeroing, LoongArch64 LSX (16-byte vld/vst).
 *
 * Assumptions:
 *   - UAL and LSX; every store is an extable accessor, stores ascend and each
 *     class returns its progress, from which the fix-up finishes byte by
 *     byte (ua_la_vec.h).
 *   - A faulting vector store may have written part of its bytes: never relied
 *     on either way.
 * Size classes: memset_lsx's (la_vec.h) with OPS_FAULT (the extable accessors), the same
 * ascending order.
 */
#define LA_W 16
#include "ua_la_vec.h"
#include "uaccess/extable.h" /* the fix-up, the lazy installation, the end of the address space */

size_t altmem_clear_user_lsx(void *dst, size_t n)
{
    /* First use: install the fault handler (extable.h). */
    if (UA_NOT_INSTALLED())
        return altmem__clear_user_first(dst, n, altmem_clear_user_lsx);
    return la_clear_user((uintptr_t)dst, n);
}
