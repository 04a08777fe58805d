/*
 * The patch-site branch encoders of every architecture (src/arch/<arch>/encode.c):
 * golden encodings taken from clang-19's assembler, round trips over the whole
 * reach, and refusal just past it.  `--emit ARCH OFFSET [--broken]` prints one
 * encoding in hex for tests/check_encode_asm.sh, which compares it with what the
 * assembler makes of the same branch (--broken flips a bit: its negative control).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patch/encode.h"

typedef int encode_fn(uintptr_t, uintptr_t, unsigned char *);
typedef uintptr_t decode_fn(uintptr_t, const unsigned char *);

static const struct arch {
    const char *name;
    encode_fn *enc;
    decode_fn *dec;
    size_t len;
    int64_t min, max;      /* reach: target - site */
    int64_t step;          /* offsets must be multiples of this */
} arches[] = {
    {"x86_64", altmem__branch_encode_x86_64, altmem__branch_decode_x86_64, 5, INT32_MIN + 5, (int64_t)INT32_MAX + 5, 1},
    {"aarch64", altmem__branch_encode_aarch64, altmem__branch_decode_aarch64, 4, -(INT64_C(1) << 27), (INT64_C(1) << 27) - 4, 4},
    {"loongarch64", altmem__branch_encode_loongarch64, altmem__branch_decode_loongarch64, 4, -(INT64_C(1) << 27),
     (INT64_C(1) << 27) - 4, 4},
    {"riscv64", altmem__branch_encode_riscv64, altmem__branch_decode_riscv64, 8, -(INT64_C(1) << 31) - 2048,
     (INT64_C(1) << 31) - 2049, 2},
};

#include "check.h"

static const struct arch *find(const char *name)
{
    for (size_t i = 0; i < sizeof arches / sizeof arches[0]; i++)
        if (!strcmp(arches[i].name, name))
            return &arches[i];
    return NULL;
}

/* A site far from 0 and from the top, so every offset in reach is representable. */
#define SITE ((uintptr_t)1 << 40)

static void golden(const char *arch, int64_t off, const char *hex)
{
    const struct arch *a = find(arch);
    unsigned char out[8];
    char got[32] = "";
    CHECK(a->enc(SITE, SITE + (uintptr_t)off, out) == 0, "%s %lld: refused", arch, (long long)off);
    for (size_t i = 0; i < a->len; i++)
        sprintf(got + 3 * i, i + 1 < a->len ? "%02x " : "%02x", out[i]);
    CHECK(!strcmp(got, hex), "%s %+lld: encoded %s, assembler says %s", arch, (long long)off, got, hex);
}

static void round_trip(const struct arch *a, int64_t off)
{
    unsigned char out[8];
    int r = a->enc(SITE, SITE + (uintptr_t)off, out);
    int in_reach = off >= a->min && off <= a->max && off % a->step == 0;
    CHECK((r == 0) == in_reach, "%s %+lld: encode returned %d, in reach %d", a->name, (long long)off, r, in_reach);
    if (r == 0)
        CHECK(a->dec(SITE, out) == SITE + (uintptr_t)off, "%s %+lld: decodes to %+lld", a->name,
              (long long)off, (long long)(a->dec(SITE, out) - SITE));
}

static int emit(const char *arch, const char *offs, int broken)
{
    const struct arch *a = find(arch);
    if (!a) {
        fprintf(stderr, "test_encode: unknown architecture '%s'\n", arch);
        return 2;
    }
    unsigned char out[8];
    int64_t off = strtoll(offs, NULL, 0);
    if (a->enc(SITE, SITE + (uintptr_t)off, out) != 0) {
        printf("out-of-reach\n");
        return 0;
    }
    if (broken)
        out[a->len - 1] ^= 0x10;
    for (size_t i = 0; i < a->len; i++)
        printf(i + 1 < a->len ? "%02x " : "%02x\n", out[i]);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 4 && !strcmp(argv[1], "--emit"))
        return emit(argv[2], argv[3], argc >= 5 && !strcmp(argv[4], "--broken"));

    /* From clang-19 -c of `s: <branch to t>; .skip 70000; t:` (riscv64 -mno-relax). */
    golden("x86_64", 70005, "e9 70 11 01 00");
    golden("aarch64", 70004, "5d 44 00 14");
    golden("loongarch64", 70004, "00 74 11 51");
    golden("riscv64", 70008, "17 13 01 00 67 00 83 17");
    /* The stubs' initial branches: to the dispatcher right after the site. */
    golden("x86_64", 5, "e9 00 00 00 00");
    golden("aarch64", 4, "01 00 00 14");
    golden("riscv64", 8, "17 03 00 00 67 00 83 00");

    for (size_t i = 0; i < sizeof arches / sizeof arches[0]; i++) {
        const struct arch *a = &arches[i];
        int64_t edges[] = {0, a->step, -a->step, a->min, a->max, a->min - a->step, a->max + a->step,
                           a->min + a->step, a->max - a->step, 2048, 2046, -2048, -2050, 4096, -4096,
                           (int64_t)1 << 40, -((int64_t)1 << 40), 3};
        for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++)
            round_trip(a, edges[e]);
        /* Every 4 KiB-ish stride over the reach, with odd low bits. */
        uint64_t x = 0x9e3779b97f4a7c15u;
        for (int k = 0; k < 200000; k++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            int64_t span = a->max - a->min + 1;
            int64_t off = a->min + (int64_t)(x % (uint64_t)span);
            round_trip(a, off - off % a->step);
        }
        /* A site that is not a branch is not decoded as one. */
        unsigned char junk[8] = {0x90, 0x90, 0x90, 0x90, 0x13, 0x00, 0x00, 0x00};
        CHECK(a->dec(SITE, junk) == 0, "%s: decoded nops as a branch", a->name);
    }
    /* Found by fuzz_encode (docs/fuzzing.md): jalr clears bit 0 of its target,
       so an odd lo12 decodes to the even address the branch really reaches ... */
    {
        const unsigned char odd[8] = {0x17, 0x03, 0x00, 0x00, 0x67, 0x00, 0x93, 0x00}; /* lo12 = 9 */
        uintptr_t got = altmem__branch_decode_riscv64(SITE, odd);
        CHECK(got == SITE + 8, "riscv64: auipc 0; jalr 9(t1) decoded to site%+lld, the branch goes to site+8",
              (long long)(got - SITE));
        /* ... and offsets far past the reach are refused without a signed
           overflow in the rounding (UBSan builds would report it). */
        unsigned char out[8];
        const uintptr_t far[] = {(uintptr_t)INT64_MAX - 9, (uintptr_t)INT64_MAX - 2047, (uintptr_t)INT64_MAX,
                                 (uintptr_t)INT64_MIN, (uintptr_t)INT64_MIN + 2048};
        for (size_t i = 0; i < sizeof far / sizeof far[0]; i++)
            CHECK(altmem__branch_encode_riscv64(0, far[i] & ~(uintptr_t)1, out) == -1,
                  "riscv64: offset %#llx accepted", (unsigned long long)far[i]);
    }
    printf("encode: %d checks, %d failures: %s\n", checks, failures, failures ? "FAILED" : "ok");
    return failures != 0;
}
