/*
 * Entry points: what callers call.  Each is one indirect jump through the
 * routine's binding (a sibling call the compiler turns into `jmp *ptr`).  The
 * pointers start at the generic variants and are rebound by altmem_init().
 */
#include "internal.h"

extern altmem_memcpy_fn *altmem__memcpy_impl;
extern altmem_memmove_fn *altmem__memmove_impl;
extern altmem_memset_fn *altmem__memset_impl;

void *altmem_memcpy(void *__restrict dst, const void *__restrict src, size_t n)
{
    return __atomic_load_n(&altmem__memcpy_impl, __ATOMIC_RELAXED)(dst, src, n);
}

void *altmem_memmove(void *dst, const void *src, size_t n)
{
    return __atomic_load_n(&altmem__memmove_impl, __ATOMIC_RELAXED)(dst, src, n);
}

void *altmem_memset(void *dst, int c, size_t n)
{
    return __atomic_load_n(&altmem__memset_impl, __ATOMIC_RELAXED)(dst, c, n);
}
