/*
 * memset_generic — for CPUs without hardware unaligned access.
 *
 * Assumptions:
 *   - Any ISA; no CPU feature required.
 *   - Never performs a multi-byte store at an address that is not a multiple of
 *     its size; must be compiled without auto-vectorisation.
 */
#include <stdint.h>

#include "../variants.h"

typedef uintptr_t __attribute__((may_alias)) word_t;
#define W ((size_t)sizeof(word_t))

void *altmem_memset_generic(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    unsigned char b = (unsigned char)c;

    /* Fewer than 3 words: bytes. */
    if (n < 3 * W) {
        for (size_t i = 0; i < n; i++)
            d[i] = b;
        return dst;
    }
    /* Head: bytes until d is word-aligned. */
    size_t head = (size_t)(-(uintptr_t)d & (W - 1));
    for (size_t i = 0; i < head; i++)
        d[i] = b;
    d += head;
    n -= head;

    word_t v = (word_t)-1 / 0xff * b;   /* b in every byte */
    word_t *dw = (word_t *)(void *)d;
    /* Body: 4 aligned words per iteration, then single words. */
    for (; n >= 4 * W; n -= 4 * W, dw += 4) {
        dw[0] = v;
        dw[1] = v;
        dw[2] = v;
        dw[3] = v;
    }
    for (; n >= W; n -= W)
        *dw++ = v;
    /* Tail: fewer than W bytes. */
    d = (unsigned char *)dw;
    for (size_t i = 0; i < n; i++)
        d[i] = b;
    return dst;
}
