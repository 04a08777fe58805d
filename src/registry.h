/*
 * What the registry (src/registry.def) generates for C: one prototype per
 * variant built for this architecture, each routine's signature in parts
 * (ALTMEM__RET_, ALTMEM__PARAMS_, ALTMEM__ARGS_) and enum value (ALTMEM__ID_),
 * and ALTMEM__IF_ARCH_<arch>(...), which
 * keeps its arguments only when <arch> is the one being built (or "any").
 * Include this, never a list of prototypes of your own.
 */
#ifndef ALTMEM_REGISTRY_H
#define ALTMEM_REGISTRY_H

#include <stddef.h>

#define ALTMEM__IF_ARCH_any(...) __VA_ARGS__
#if defined(__x86_64__)
#define ALTMEM__IF_ARCH_x86_64(...) __VA_ARGS__
#else
#define ALTMEM__IF_ARCH_x86_64(...)
#endif
#if defined(__aarch64__)
#define ALTMEM__IF_ARCH_aarch64(...) __VA_ARGS__
#else
#define ALTMEM__IF_ARCH_aarch64(...)
#endif
#if defined(__riscv) && __riscv_xlen == 64
#define ALTMEM__IF_ARCH_riscv64(...) __VA_ARGS__
#else
#define ALTMEM__IF_ARCH_riscv64(...)
#endif
#if defined(__loongarch64)
#define ALTMEM__IF_ARCH_loongarch64(...) __VA_ARGS__
#else
#define ALTMEM__IF_ARCH_loongarch64(...)
#endif

/* Each routine's C signature, in parts (copy_user / clear_user return the
   bytes not done), and its enum altmem_routine value. */
#define ALTMEM__RET_memcpy void *
#define ALTMEM__PARAMS_memcpy (void *__restrict dst, const void *__restrict src, size_t n)
#define ALTMEM__ARGS_memcpy (dst, src, n)
#define ALTMEM__ID_memcpy ALTMEM_MEMCPY
#define ALTMEM__RET_memmove void *
#define ALTMEM__PARAMS_memmove (void *dst, const void *src, size_t n)
#define ALTMEM__ARGS_memmove (dst, src, n)
#define ALTMEM__ID_memmove ALTMEM_MEMMOVE
#define ALTMEM__RET_memset void *
#define ALTMEM__PARAMS_memset (void *dst, int c, size_t n)
#define ALTMEM__ARGS_memset (dst, c, n)
#define ALTMEM__ID_memset ALTMEM_MEMSET
#define ALTMEM__RET_copy_user size_t
#define ALTMEM__PARAMS_copy_user (void *dst, const void *src, size_t n)
#define ALTMEM__ARGS_copy_user (dst, src, n)
#define ALTMEM__ID_copy_user ALTMEM_COPY_USER
#define ALTMEM__RET_clear_user size_t
#define ALTMEM__PARAMS_clear_user (void *dst, size_t n)
#define ALTMEM__ARGS_clear_user (dst, n)
#define ALTMEM__ID_clear_user ALTMEM_CLEAR_USER

#define ALTMEM__PROTO(routine, f) ALTMEM__RET_##routine f ALTMEM__PARAMS_##routine;

#define VARIANT(routine, name, arch, flags, source, requires, summary) \
    ALTMEM__IF_ARCH_##arch(ALTMEM__PROTO(routine, altmem_##routine##_##name))
#include "registry.def"
#undef VARIANT

#endif
