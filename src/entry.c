/*
 * Entry points in C, for builds without patch sites: ALTMEM_BINDING=pointer
 * (and architectures without src/arch/<arch>/entry.S) and ALTMEM_BINDING=ifunc
 * (whose static library is built from this file in pointer mode).
 * The default build uses the patched-branch stubs of src/arch/<arch>/entry.S.
 */
#include "internal.h"

extern altmem_memcpy_fn *altmem__memcpy_impl;
extern altmem_memmove_fn *altmem__memmove_impl;
extern altmem_memset_fn *altmem__memset_impl;
extern altmem_copy_user_fn *altmem__copy_user_impl;
extern altmem_clear_user_fn *altmem__clear_user_impl;

/* What `altmem info` reports as "bound by" (src/select.c). */
#if ALTMEM_BIND_MODE == ALTMEM_BIND_IFUNC
const char altmem__entry_binding[] = "ifunc";
#else
const char altmem__entry_binding[] = "pointer";
#endif

#if ALTMEM_BIND_MODE == ALTMEM_BIND_IFUNC
/* The dynamic loader asks once, while relocating, and writes the answer into
   the callers' GOT: the entry is then as direct as a PLT call can be.  The
   resolver runs before constructors, so it initialises the library itself. */
static altmem_memcpy_fn *resolve_memcpy(void)
{
    altmem_init();
    return altmem__memcpy_impl;
}
static altmem_memmove_fn *resolve_memmove(void)
{
    altmem_init();
    return altmem__memmove_impl;
}
static altmem_memset_fn *resolve_memset(void)
{
    altmem_init();
    return altmem__memset_impl;
}
void *altmem_memcpy(void *__restrict dst, const void *__restrict src, size_t n)
    __attribute__((ifunc("resolve_memcpy")));
void *altmem_memmove(void *dst, const void *src, size_t n) __attribute__((ifunc("resolve_memmove")));
void *altmem_memset(void *dst, int c, size_t n) __attribute__((ifunc("resolve_memset")));
/* copy_user / clear_user too: their variants check the lazy installation of the
   fault handler themselves (src/uaccess/extable.h). */
static altmem_copy_user_fn *resolve_copy_user(void)
{
    altmem_init();
    return altmem__copy_user_impl;
}
static altmem_clear_user_fn *resolve_clear_user(void)
{
    altmem_init();
    return altmem__clear_user_impl;
}
size_t altmem_copy_user(void *dst, const void *src, size_t n) __attribute__((ifunc("resolve_copy_user")));
size_t altmem_clear_user(void *dst, size_t n) __attribute__((ifunc("resolve_clear_user")));

#else
/* One indirect jump each: a sibling call the compiler emits as `jmp *ptr`.  The
   pointers start at the generic variants, correct before altmem_init(). */
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

/* The variants check the lazy installation of the fault handler themselves
   (src/uaccess/extable.h). */
size_t altmem_copy_user(void *dst, const void *src, size_t n)
{
    return __atomic_load_n(&altmem__copy_user_impl, __ATOMIC_RELAXED)(dst, src, n);
}

size_t altmem_clear_user(void *dst, size_t n)
{
    return __atomic_load_n(&altmem__clear_user_impl, __ATOMIC_RELAXED)(dst, n);
}
#endif
