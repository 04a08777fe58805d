/* Every variant of every routine; each is defined in its own file below
   src/variants/ or src/arch/, and listed once in the table in src/select.c. */
#ifndef ALTMEM_VARIANTS_H
#define ALTMEM_VARIANTS_H

#include <stddef.h>

void *altmem_memcpy_generic(void *__restrict dst, const void *__restrict src, size_t n);
void *altmem_memmove_generic(void *dst, const void *src, size_t n);
void *altmem_memset_generic(void *dst, int c, size_t n);

void *altmem_memcpy_ual(void *__restrict dst, const void *__restrict src, size_t n);
void *altmem_memmove_ual(void *dst, const void *src, size_t n);
void *altmem_memset_ual(void *dst, int c, size_t n);

size_t altmem_copy_user_generic(void *dst, const void *src, size_t n);
size_t altmem_clear_user_generic(void *dst, size_t n);
size_t altmem_copy_user_ual(void *dst, const void *src, size_t n);
size_t altmem_clear_user_ual(void *dst, size_t n);
#if defined(__x86_64__)
size_t altmem_copy_user_avx2(void *dst, const void *src, size_t n);
size_t altmem_clear_user_avx2(void *dst, size_t n);
#endif

#endif
