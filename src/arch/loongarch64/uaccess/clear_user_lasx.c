/*
 * clear_user_lasx — fault-tolerant zeroing, LoongArch64 LASX (32-byte xvld/xvst; 16-byte vld/vst below 32 bytes).
 *
 * Assumptions:
 *   - UAL and LASX; every store is an extable accessor, stores ascend and each
 *     class returns its progress, from which the fix-up finishes byte by
 *     byte (ua_la_vec.h).
 *   - A faulting vector store may have written part of its bytes: never relied
 *     on either way.
 * Size classes: memset_lasx's (la_vec.h) with OPS_FAULT (the extable accessors), the same
 * ascending order.
 */
#define LA_W 32
#include "ua_la_vec.h"
#include "uaccess/extable.h" /* the fix-up, the lazy installation, the end of the address space */

size_t altmem_clear_user_lasx(void *dst, size_t n)
{
    /* First use: install the fault handler (extable.h). */
    if (UA_NOT_INSTALLED())
        return altmem__clear_user_first(dst, n, altmem_clear_user_lasx);
    return la_clear_user((uintptr_t)dst, n);
}
