/*
 * copy_user_lasx — fault-tolerant copy, LoongArch64 LASX (32-byte xvld/xvst; 16-byte vld/vst below 32 bytes).
 *
 * Assumptions:
 *   - UAL and LASX; src and dst do not overlap; every access is an extable
 *     accessor (extable.h), stores ascend and each class returns its
 *     progress, from which the fix-up finishes byte by byte (ua_la_vec.h).
 *   - A faulting vector store may have written part of its bytes: never relied
 *     on either way (the fix-up rewrites them from the progress).
 * Size classes: memcpy_lasx's (la_vec.h) with OPS_FAULT (the extable accessors); above
 * 256 bytes the first vector, aligned blocks of 4 vectors, the last 4
 * vectors, all ascending (memcpy_lasx stores its first vector last).
 */
#define LA_W 32
#include "ua_la_vec.h"
#include "uaccess/extable.h" /* the fix-up, the lazy installation, the end of the address space */

size_t altmem_copy_user_lasx(void *dst, const void *src, size_t n)
{
    /* First use: install the fault handler (extable.h). */
    if (UA_NOT_INSTALLED())
        return altmem__copy_user_first(dst, src, n, altmem_copy_user_lasx);
    return la_copy_user((uintptr_t)dst, (uintptr_t)src, n);
}
