/* The copy_user / clear_user variants that src/variants/variants.h does not
   declare: the x86_64 vector ones (src/uaccess/). */
#ifndef ALTMEM_UACCESS_VARIANTS_H
#define ALTMEM_UACCESS_VARIANTS_H

#include <stddef.h>

#if defined(__x86_64__)
size_t altmem_copy_user_avx2(void *dst, const void *src, size_t n);
size_t altmem_clear_user_avx2(void *dst, size_t n);
size_t altmem_copy_user_avx512(void *dst, const void *src, size_t n);
size_t altmem_clear_user_avx512(void *dst, size_t n);
#endif

#endif
