/*
 * A library that calls memcpy, memmove and memset through its own PLT slots
 * (tests/dropin/plt_slots.c): linked into the program as libaltmem-plt-lib.so,
 * and dlopen()ed after start-up as libaltmem-plt-late.so.
 */
#include <stddef.h>
#include <string.h>

void *plt_lib_copy(void *dst, const void *src, size_t n)
{
    return memcpy(dst, src, n);
}

void *plt_lib_move(void *dst, const void *src, size_t n)
{
    return memmove(dst, src, n);
}

void *plt_lib_set(void *dst, int c, size_t n)
{
    return memset(dst, c, n);
}
