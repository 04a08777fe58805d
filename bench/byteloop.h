/*
 * Byte-at-a-time reference routines for `altmem bench` (bench/byteloop.c).
 * They stand in for the kernel's __memcpy_generic / __memset_generic, the code
 * the LoongArch alternatives commit replaced: one load and one store per byte.
 */
#ifndef ALTMEM_BENCH_BYTELOOP_H
#define ALTMEM_BENCH_BYTELOOP_H

#include <altmem.h>
#include <stddef.h>

void *altmem_bench_byte_memcpy(void *__restrict dst, const void *__restrict src, size_t n);
void *altmem_bench_byte_memmove(void *dst, const void *src, size_t n);
void *altmem_bench_byte_memset(void *dst, int c, size_t n);

/* The byte loop of routine r; every member null for a routine that has none
   (copy_user, clear_user) and out of range. */
union altmem_routine_fn bench_byteloop(int r);

#endif
