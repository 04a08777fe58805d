/* The x86_64 SIMD variants (src/arch/x86_64/variants/), one file per routine and
   vector width, listed in the table in src/select.c.  Each uses rep movsb /
   rep stosb where the policy says (src/policy.h). */
#ifndef ALTMEM_X86_VARIANTS_H
#define ALTMEM_X86_VARIANTS_H

#include <stddef.h>

#include "../../../policy.h" /* the thresholds these variants read */

void *altmem_memcpy_avx512(void *__restrict dst, const void *__restrict src, size_t n);
void *altmem_memcpy_avx2(void *__restrict dst, const void *__restrict src, size_t n);
void *altmem_memcpy_sse2(void *__restrict dst, const void *__restrict src, size_t n);

void *altmem_memmove_avx512(void *dst, const void *src, size_t n);
void *altmem_memmove_avx2(void *dst, const void *src, size_t n);
void *altmem_memmove_sse2(void *dst, const void *src, size_t n);

void *altmem_memset_avx512(void *dst, int c, size_t n);
void *altmem_memset_avx2(void *dst, int c, size_t n);
void *altmem_memset_sse2(void *dst, int c, size_t n);

#endif
