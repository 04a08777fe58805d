/*
 * The C library's other names for copying and filling memory, in terms of
 * altmem's three routines, for libaltmem-preload.so (LD_PRELOAD) and
 * libaltmem-libc.a (static links).  memcpy, memmove and memset themselves are
 * the entry stubs' aliases (src/arch/<arch>/entry.S built with ALTMEM_PRELOAD);
 * in the preload, the callers' PLT slots for them are then given the variants
 * themselves (plt_bind.c).  What is here reaches the variant in one jump,
 * through the routine's pointer.
 *
 * Which names: those glibc exports for these operations and that programs on a
 * Debian system really import (`nm -D --undefined-only`: cp, ls and tar import
 * mempcpy; gzip, git and python3 the _chk forms; sort and python3
 * __explicit_bzero_chk).  A program compiled with _FORTIFY_SOURCE calls the _chk
 * forms instead of memcpy, so leaving them out would leave most of a hardened
 * distribution's calls with the C library.
 *
 * Built with the core's no-libc flags: a compiler-generated call to memcpy in
 * here would land on our own memcpy, which is correct, but the rule that altmem
 * code calls no libc keeps it checkable (tests/check_nolibc.sh).  The one libc
 * function used, __chk_fail, is weak so that a C library without it (musl)
 * still links; there a failed check traps instead.
 */
#include <altmem.h>
#include <stddef.h>
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

/* wchar_t without <wchar.h>: freestanding headers do not declare wmemcpy, and
   the compiler's own type is what the C library's ABI uses. */
typedef __WCHAR_TYPE__ altmem_wchar;

/* The C library's fortify failure report: prints "*** buffer overflow
   detected ***" and aborts (glibc).  Calling it, rather than printing our own
   message, keeps a fortified program's failure the same with and without
   altmem. */
extern void __chk_fail(void) __attribute__((noreturn, weak));

static void chk_fail(void) __attribute__((noreturn, cold));
static void chk_fail(void)
{
    if (__chk_fail)
        __chk_fail();
    __builtin_trap();
}

/* The routines' pointers (src/select.c), which hold the bound variants: the
   forms below jump to the variant through them, one jump, where a call of
   altmem_memcpy would take the stub's jump first. */
#define POINTER(routine) extern altmem_##routine##_fn *altmem__##routine##_impl __attribute__((visibility("hidden")));
POINTER(memcpy)
POINTER(memmove)
POINTER(memset)
#undef POINTER

#ifndef ALTMEM_PRELOAD_STUBS
/* Builds without patch stubs (ALTMEM_BINDING=pointer or ifunc, or an
   architecture without src/arch/<arch>/entry.S): the C names jump through
   the pointers, a tail call each. */
EXPORT void *memcpy(void *__restrict dst, const void *__restrict src, size_t n)
{
    return altmem__memcpy_impl(dst, src, n);
}
EXPORT void *memmove(void *dst, const void *src, size_t n)
{
    return altmem__memmove_impl(dst, src, n);
}
EXPORT void *memset(void *dst, int c, size_t n)
{
    return altmem__memset_impl(dst, c, n);
}
#endif

/* ---- Byte forms ---------------------------------------------------------- */

EXPORT void *mempcpy(void *__restrict dst, const void *__restrict src, size_t n)
{
    return (unsigned char *)altmem__memcpy_impl(dst, src, n) + n;
}
/* glibc's internal spelling, exported too and called by some older binaries. */
EXPORT void *__mempcpy(void *__restrict dst, const void *__restrict src, size_t n)
{
    return (unsigned char *)altmem__memcpy_impl(dst, src, n) + n;
}

EXPORT void bcopy(const void *src, void *dst, size_t n)
{
    altmem__memmove_impl(dst, src, n);
}

EXPORT void bzero(void *dst, size_t n)
{
    altmem__memset_impl(dst, 0, n);
}
EXPORT void __bzero(void *dst, size_t n)
{
    altmem__memset_impl(dst, 0, n);
}

/* The point of explicit_bzero is that the stores happen even when the buffer
   is dead afterwards.  Across a shared-library call no compiler can see that,
   but a static link with LTO could inline this; the empty asm that "reads" the
   buffer through memory makes the stores observable in any case. */
EXPORT void explicit_bzero(void *dst, size_t n)
{
    altmem__memset_impl(dst, 0, n);
    __asm__ __volatile__("" : : "r"(dst) : "memory");
}

/* ---- Fortified (_chk) forms: dstlen is what the compiler knew of the
   destination's size; a longer copy is a buffer overflow caught at run time. */

EXPORT void *__memcpy_chk(void *__restrict dst, const void *__restrict src, size_t n, size_t dstlen)
{
    if (__builtin_expect(dstlen < n, 0))
        chk_fail();
    return altmem__memcpy_impl(dst, src, n);
}

EXPORT void *__memmove_chk(void *dst, const void *src, size_t n, size_t dstlen)
{
    if (__builtin_expect(dstlen < n, 0))
        chk_fail();
    return altmem__memmove_impl(dst, src, n);
}

EXPORT void *__mempcpy_chk(void *__restrict dst, const void *__restrict src, size_t n, size_t dstlen)
{
    if (__builtin_expect(dstlen < n, 0))
        chk_fail();
    return (unsigned char *)altmem__memcpy_impl(dst, src, n) + n;
}

EXPORT void *__memset_chk(void *dst, int c, size_t n, size_t dstlen)
{
    if (__builtin_expect(dstlen < n, 0))
        chk_fail();
    return altmem__memset_impl(dst, c, n);
}

EXPORT void __explicit_bzero_chk(void *dst, size_t n, size_t dstlen)
{
    if (__builtin_expect(dstlen < n, 0))
        chk_fail();
    explicit_bzero(dst, n);
}

/* ---- Wide forms ---------------------------------------------------------- */
/* Copies of wchar_t arrays are copies of their bytes, so these are exact in
   terms of memcpy/memmove.  n * sizeof(wchar_t) cannot overflow for any n that
   describes a real array. */

EXPORT altmem_wchar *wmemcpy(altmem_wchar *__restrict dst, const altmem_wchar *__restrict src, size_t n)
{
    return altmem__memcpy_impl(dst, src, n * sizeof(altmem_wchar));
}

EXPORT altmem_wchar *wmemmove(altmem_wchar *dst, const altmem_wchar *src, size_t n)
{
    return altmem__memmove_impl(dst, src, n * sizeof(altmem_wchar));
}

EXPORT altmem_wchar *wmempcpy(altmem_wchar *__restrict dst, const altmem_wchar *__restrict src, size_t n)
{
    altmem__memcpy_impl(dst, src, n * sizeof(altmem_wchar));
    return dst + n;
}

/* Filling with a wide character is a byte fill only when all its bytes are
   equal (0 and -1, the common cases); otherwise each element is stored. */
EXPORT altmem_wchar *wmemset(altmem_wchar *dst, altmem_wchar c, size_t n)
{
    union {
        altmem_wchar w;
        unsigned char b[sizeof(altmem_wchar)];
    } u = {.w = c};
    int same = 1;
    for (size_t i = 1; i < sizeof u.b; i++)
        same &= u.b[i] == u.b[0];
    if (same)
        return altmem__memset_impl(dst, u.b[0], n * sizeof(altmem_wchar));
    for (size_t i = 0; i < n; i++)
        dst[i] = c;
    return dst;
}

/* The wide _chk forms receive the destination's size in wide characters, as
   glibc's <bits/wchar2.h> passes it (object size / sizeof(wchar_t)). */

EXPORT altmem_wchar *__wmemcpy_chk(altmem_wchar *__restrict dst, const altmem_wchar *__restrict src, size_t n,
                                   size_t dstlen)
{
    if (__builtin_expect(dstlen < n, 0))
        chk_fail();
    return wmemcpy(dst, src, n);
}

EXPORT altmem_wchar *__wmemmove_chk(altmem_wchar *dst, const altmem_wchar *src, size_t n, size_t dstlen)
{
    if (__builtin_expect(dstlen < n, 0))
        chk_fail();
    return wmemmove(dst, src, n);
}

EXPORT altmem_wchar *__wmempcpy_chk(altmem_wchar *__restrict dst, const altmem_wchar *__restrict src, size_t n,
                                    size_t dstlen)
{
    if (__builtin_expect(dstlen < n, 0))
        chk_fail();
    return wmempcpy(dst, src, n);
}

EXPORT altmem_wchar *__wmemset_chk(altmem_wchar *dst, altmem_wchar c, size_t n, size_t dstlen)
{
    if (__builtin_expect(dstlen < n, 0))
        chk_fail();
    return wmemset(dst, c, n);
}
