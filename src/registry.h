/*
 * What the registry (src/registry.def) generates for C: one prototype per
 * variant built for this architecture, and ALTMEM__IF_ARCH_<arch>(...), which
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

/* Each routine's C signature (copy_user / clear_user return the bytes not done). */
#define ALTMEM__PROTO_memcpy(f) void *f(void *__restrict dst, const void *__restrict src, size_t n);
#define ALTMEM__PROTO_memmove(f) void *f(void *dst, const void *src, size_t n);
#define ALTMEM__PROTO_memset(f) void *f(void *dst, int c, size_t n);
#define ALTMEM__PROTO_copy_user(f) size_t f(void *dst, const void *src, size_t n);
#define ALTMEM__PROTO_clear_user(f) size_t f(void *dst, size_t n);

#define VARIANT(routine, name, arch, flags, source, requires, summary) \
    ALTMEM__IF_ARCH_##arch(ALTMEM__PROTO_##routine(altmem_##routine##_##name))
#include "registry.def"
#undef VARIANT

#endif
