/*
 * The memory routines as a program calls them, checked against byte loops:
 * once by name (under _FORTIFY_SOURCE many of these become the _chk forms,
 * whose destination size the compiler knows here) and once through volatile
 * function pointers (the plain names, whatever the compiler knows).  Shared by
 * probe.c (dynamic, LD_PRELOAD) and static_prog.c (static glibc and musl).
 *
 * Build with -fno-builtin (and -fno-tree-loop-distribute-patterns under gcc):
 * the reference loops must not become calls to the routines they check.
 */
#ifndef DROPIN_CALLS_H
#define DROPIN_CALLS_H

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>

static void calls_ref_move(unsigned char *d, const unsigned char *s, size_t n)
{
    if (d < s)
        for (size_t i = 0; i < n; i++)
            d[i] = s[i];
    else
        for (size_t i = n; i-- > 0;)
            d[i] = s[i];
}

static int calls_same(const unsigned char *a, const unsigned char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != b[i])
            return 0;
    return 1;
}

/* Returns 0 when everything matched; prints one line either way. */
static int check_calls(void)
{
    enum { N = 4096 + 64 };
    static unsigned char a[N], b[N], want[N];
    void *(*volatile cpy)(void *, const void *, size_t) = memcpy;
    void *(*volatile mov)(void *, const void *, size_t) = memmove;
    void *(*volatile set)(void *, int, size_t) = memset;
    unsigned seed = 12345;
    unsigned bad = 0;
    for (size_t n = 0; n <= 4096; n = n < 80 ? n + 1 : n * 2 + 13) {
        for (size_t off = 0; off < 16; off += 5) {
            for (size_t i = 0; i < N; i++) {
                seed = seed * 1103515245u + 12345u;
                a[i] = (unsigned char)(seed >> 16);
                b[i] = want[i] = (unsigned char)~a[i];
            }
            calls_ref_move(want + off, a + 3, n);
            if (memcpy(b + off, a + 3, n) != b + off || !calls_same(b, want, N))
                bad |= 1;
            calls_ref_move(want + 7, a + off, n);
            if (mempcpy(b + 7, a + off, n) != b + 7 + n || !calls_same(b, want, N))
                bad |= 2;
            calls_ref_move(want + off + 9, want + off, n);
            memmove(b + off + 9, b + off, n);
            calls_ref_move(want + off, want + off + 9, n);
            memmove(b + off, b + off + 9, n);
            if (!calls_same(b, want, N))
                bad |= 4;
            for (size_t i = 0; i < n; i++)
                want[off + 1 + i] = (unsigned char)(n + off);
            memset(b + off + 1, (int)(n + off) | 0x100, n);
            if (!calls_same(b, want, N))
                bad |= 8;
            for (size_t i = 0; i < n; i++)
                want[off + i] = 0;
            bzero(b + off, n);
            if (!calls_same(b, want, N))
                bad |= 16;
            /* The same through pointers: the plain names. */
            calls_ref_move(want + 1, a + off, n);
            if (cpy(b + 1, a + off, n) != b + 1 || !calls_same(b, want, N))
                bad |= 32;
            calls_ref_move(want + off, want + off + 3, n);
            if (mov(b + off, b + off + 3, n) != b + off || !calls_same(b, want, N))
                bad |= 64;
            for (size_t i = 0; i < n; i++)
                want[off + 2 + i] = 0xa5;
            if (set(b + off + 2, 0xa5, n) != b + off + 2 || !calls_same(b, want, N))
                bad |= 128;
        }
    }
    static wchar_t w[300], v[300];
    for (size_t n = 0; n < 300; n += 37) {
        for (size_t i = 0; i < 300; i++) {
            v[i] = (wchar_t)(i * 2654435761u);
            w[i] = 0;
        }
        wmemcpy(w + 1, v, n);
        wmemset(w + 1 + n, (wchar_t)0x12345678, 300 - 1 - n);
        for (size_t i = 0; i < 300; i++) {
            wchar_t e = i == 0 ? 0 : i <= n ? v[i - 1] : (wchar_t)0x12345678;
            if (w[i] != e)
                bad |= 256;
        }
        wmemmove(w + 2, w + 1, n);
        for (size_t i = 0; i < n; i++)
            if (w[2 + i] != v[i])
                bad |= 512;
    }
    if (bad)
        printf("FAIL: routine results differ from byte loops (mask %#x)\n", bad);
    else
        printf("calls: memcpy mempcpy memmove memset bzero wmemcpy wmemset wmemmove, by name and by pointer, "
               "match byte loops\n");
    return bad != 0;
}

#endif
