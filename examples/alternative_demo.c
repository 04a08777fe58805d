/*
 * Your own routine, bound like altmem's memcpy: a patched direct branch at its
 * entry reaches the best of its variants for this CPU.
 *
 *   cc alternative_demo.c $(pkg-config --cflags --libs altmem) -o alternative_demo
 *   ./alternative_demo
 *   ALTMEM_TUNABLES=hwcaps=-UAL ./alternative_demo      # as on a strict-alignment CPU
 *
 * checksum32() adds a buffer up as 32-bit little-endian words (a byte tail is
 * zero-padded).  Two variants compute the same thing: one byte at a time, which
 * runs anywhere, and one unaligned word at a time, which is only fast where the
 * CPU has hardware unaligned access (feature UAL).
 */
#include <altmem_alternative.h>
#include <stdio.h>
#include <string.h>

uint32_t checksum32(const unsigned char *p, size_t n);

static uint32_t checksum32_bytes(const unsigned char *p, size_t n)
{
    uint32_t sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += (uint32_t)p[i] << (8 * (i & 3));
    return sum;
}

static uint32_t checksum32_words(const unsigned char *p, size_t n)
{
    uint32_t sum = 0;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        uint32_t w;
        memcpy(&w, p + i, 4);           /* one unaligned load where UAL holds */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        w = __builtin_bswap32(w);
#endif
        sum += w;
    }
    for (; i < n; i++)
        sum += (uint32_t)p[i] << (8 * (i & 3));
    return sum;
}

ALTMEM_ALTERNATIVE(checksum32, checksum32_bytes, ALTMEM_CHOICE(checksum32_words, ALTMEM_FEAT_UAL));

int main(void)
{
    static unsigned char buf[100003];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (unsigned char)(i * 2654435761u >> 13);

    const struct altmem_alternative_info *info = &ALTMEM_ALTERNATIVE_INFO(checksum32);
    printf("checksum32 -> %s (bound by %s)\n", info->chosen, info->bound_by);

    /* Every variant must agree, at every alignment of the start. */
    for (size_t off = 0; off < 8; off++) {
        uint32_t a = checksum32(buf + off, sizeof buf - off - 1);
        uint32_t b = checksum32_bytes(buf + off, sizeof buf - off - 1);
        if (a != b) {
            printf("MISMATCH at offset %zu: %08x vs %08x\n", off, (unsigned)a, (unsigned)b);
            return 1;
        }
    }
    printf("checksum32 = %08x, variants agree\n", (unsigned)checksum32(buf, sizeof buf));
    return 0;
}
