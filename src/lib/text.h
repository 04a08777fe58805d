/*
 * Freestanding string and text helpers (no C library), for every part of the
 * library that compares names or writes a diagnostic: tunables, profile,
 * decision, selection, the CPU detectors and their notes, the patcher.
 * altmem__text_features is defined in src/registry.c (the features' names),
 * altmem__text_quoted in src/tunables.c.
 */
#ifndef ALTMEM_TEXT_H
#define ALTMEM_TEXT_H

#include <stddef.h>
#include <stdint.h>

static inline size_t altmem__strlen(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

/* Case-insensitive comparison of s[0..len) with the NUL-terminated lit. */
static inline int altmem__eq_nocase(const char *s, size_t len, const char *lit)
{
    size_t i = 0;
    for (; i < len && lit[i]; i++) {
        char a = s[i], b = lit[i];
        if (a >= 'A' && a <= 'Z')
            a = (char)(a - 'A' + 'a');
        if (b >= 'A' && b <= 'Z')
            b = (char)(b - 'A' + 'a');
        if (a != b)
            return 0;
    }
    return i == len && lit[i] == '\0';
}

/* Bounded text builder for diagnostics: never overflows, always NUL-terminated. */
struct altmem__text {
    char *buf;
    size_t cap, len;
};

static inline void altmem__text_putn(struct altmem__text *t, const char *s, size_t n)
{
    for (size_t i = 0; i < n && t->len + 1 < t->cap; i++)
        t->buf[t->len++] = s[i];
    if (t->cap)
        t->buf[t->len] = '\0';
}

static inline void altmem__text_puts(struct altmem__text *t, const char *s)
{
    altmem__text_putn(t, s, altmem__strlen(s));
}

static inline void altmem__text_putu(struct altmem__text *t, unsigned long long v)
{
    char d[24];
    size_t n = 0;
    do {
        d[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        altmem__text_putn(t, &d[--n], 1);
}

/* v in hexadecimal, "0x" first. */
static inline void altmem__text_puthex(struct altmem__text *t, uintptr_t v)
{
    char d[16];
    int n = 0;
    do {
        d[n++] = "0123456789abcdef"[v & 15];
        v >>= 4;
    } while (v);
    altmem__text_puts(t, "0x");
    while (n)
        altmem__text_putn(t, &d[--n], 1);
}

/* Appends the names of the bits in mask, separated by sep ("none" if empty). */
void altmem__text_features(struct altmem__text *t, uint64_t mask, const char *sep);
/* s[0..n) quoted, at most 40 characters, unprintable bytes as '?'. */
void altmem__text_quoted(struct altmem__text *t, const char *s, size_t n);

#endif
