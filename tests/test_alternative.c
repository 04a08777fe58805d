/*
 * ALTMEM_ALTERNATIVE for a user's routine: the expected choice is bound, calls
 * reach exactly that variant, and the entry is a patched branch (or a pointer
 * when told so).  Usage: test_alternative EXPECTED_CHOICE|auto EXPECTED_BOUND_BY
 */
#include <altmem_alternative.h>
#include <stdio.h>
#include <string.h>

static const char *called;

size_t count_zeros(const unsigned char *p, size_t n);

static size_t count_zeros_bytes(const unsigned char *p, size_t n)
{
    called = "count_zeros_bytes";
    size_t z = 0;
    for (size_t i = 0; i < n; i++)
        z += p[i] == 0;
    return z;
}

static size_t count_zeros_words(const unsigned char *p, size_t n)
{
    called = "count_zeros_words";
    size_t z = 0, i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        /* a byte of w is zero iff its bit 7 is set here (no carries escape) */
        uint64_t t = ((w & 0x7f7f7f7f7f7f7f7full) + 0x7f7f7f7f7f7f7f7full) | w | 0x7f7f7f7f7f7f7f7full;
        z += (size_t)__builtin_popcountll(~t);
    }
    for (; i < n; i++)
        z += p[i] == 0;
    return z;
}

static size_t count_zeros_simd(const unsigned char *p, size_t n)
{
    size_t z = count_zeros_words(p, n);
    called = "count_zeros_simd";
    return z;
}

ALTMEM_ALTERNATIVE(count_zeros, count_zeros_bytes,
                   ALTMEM_CHOICE(count_zeros_simd, ALTMEM_FEAT_SIMD256 | ALTMEM_FEAT_UAL),
                   ALTMEM_CHOICE(count_zeros_words, ALTMEM_FEAT_UAL));

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_alternative EXPECTED_CHOICE EXPECTED_BOUND_BY\n");
        return 2;
    }
    const char *expected = argv[1];
    if (!strcmp(expected, "auto")) {
        /* The rule, restated from the CPU's active features. */
        struct altmem_cpu_info cpu;
        altmem_cpu(&cpu);
        uint64_t f = cpu.active;
        expected = (f & ALTMEM_FEAT_SIMD256) && (f & ALTMEM_FEAT_UAL) ? "count_zeros_simd"
                   : (f & ALTMEM_FEAT_UAL)                         ? "count_zeros_words"
                                                                   : "count_zeros_bytes";
    }
    int fail = 0;
    const struct altmem_alternative_info *info = &ALTMEM_ALTERNATIVE_INFO(count_zeros);
    printf("count_zeros -> %s (%s)\n", info->chosen, info->bound_by);
    if (strcmp(info->chosen, expected) || strcmp(info->bound_by, argv[2])) {
        printf("FAIL: expected %s (%s)\n", expected, argv[2]);
        fail = 1;
    }
    unsigned char buf[1000];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (unsigned char)(i % 7 == 0 ? 0 : i * 13 + 1);
    for (size_t n = 0; n <= sizeof buf; n += 37) {
        called = NULL;
        size_t want_n = 0;
        for (size_t i = 0; i < n; i++)
            want_n += buf[i] == 0;
        size_t got = count_zeros(buf, n);
        if (got != want_n || !called || strcmp(called, expected)) {
            printf("FAIL: n=%zu got %zu want %zu, reached %s\n", n, got, want_n, called ? called : "nothing");
            fail = 1;
        }
    }
    printf("%s\n", fail ? "FAILED" : "ok");
    return fail;
}
