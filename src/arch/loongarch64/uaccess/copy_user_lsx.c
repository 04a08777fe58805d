/*
 * copy_user_lsx — fault-tolerant copy, LoongArch64 LSX (16-byte vld/vst).
 *
 * Assumptions:
 *   - UAL and LSX; src and dst do not overlap; every access is an extable
 *     accessor (extable.h), stores ascend and each class returns its
 *     progress, from which the fix-up finishes byte by byte (ua_la_vec.h).
 *   - A faulting vector store may have written part of its bytes: never relied
 *     on either way (the fix-up rewrites them from the progress).
 * Size classes: memcpy_lsx's (la_vec.h) with OPS_FAULT (the extable accessors); above
 * 128 bytes the first vector, aligned blocks of 4 vectors, the last 4
 * vectors, all ascending (memcpy_lsx stores its first vector last).
 */
#define LA_W 16
#include "ua_la_vec.h"
#include "uaccess/extable.h" /* the fix-up, the lazy installation, the end of the address space */

size_t altmem_copy_user_lsx(void *dst, const void *src, size_t n)
{
    /* First use: install the fault handler (extable.h). */
    if (UA_NOT_INSTALLED())
        return altmem__copy_user_first(dst, src, n, altmem_copy_user_lsx);
    return la_copy_user((uintptr_t)dst, (uintptr_t)src, n);
}
