/*
 * fuzz_encode: the patch-site branch encoders and decoders of all four
 * architectures (src/arch/<arch>/encode.c), against each other and against reference
 * encoders/decoders written here from the instruction set manuals:
 *
 *   x86_64       jmp rel32: E9 + rel32, rel = target - (site + 5), signed 32 bits
 *   aarch64      B: 000101 imm26, target = site + 4 * sext(imm26)
 *   loongarch64  B: 010100 offs[15:0] (bits 25..10) offs[25:16] (bits 9..0),
 *                target = site + 4 * sext(offs26)
 *   riscv64      auipc t1, hi20 ; jalr x0, lo12(t1):
 *                target = (site + (sext(hi20) << 12) + sext(lo12)) & ~1 (jalr
 *                clears bit 0)
 *
 * All address arithmetic is modulo 2^64, as the encoders' is (a displacement is
 * target - site as a 64-bit two's-complement number).  Sites are aligned as the
 * architecture requires its instructions to be (4 bytes for aarch64 and
 * loongarch64, 2 for riscv64), any byte for x86_64.
 *
 * Checks:
 *   encode(site, target): succeeds iff the displacement is in reach (computed here:
 *     x86_64 rel in [-2^31, 2^31 - 1]; aarch64/loongarch64 a multiple of 4 in
 *     [-2^27, 2^27 - 4]; riscv64 even, in [-2^31 - 2048, 2^31 - 2049], i.e. hi20 in
 *     range after rounding for the sign-extended lo12); then writes exactly the
 *     reference bytes (and nothing after the site's 5, 4, 4 or 8 bytes), and
 *     decode(site, bytes) == target;
 *   decode(site, arbitrary bytes): never crashes; returns what the reference decoder
 *     says the branch's target is, or 0 if the bytes are not that branch (a branch
 *     whose target is address 0 also decodes to 0: the API cannot tell them apart);
 *     and when it returns a target, encode(site, target) succeeds and gives back
 *     the same bytes (all four encodings are canonical: every bit of the
 *     instructions is either fixed or part of the displacement).
 *
 * Input layout:
 *      0  architecture: % 4 (x86_64 aarch64 loongarch64 riscv64)
 *      1  mode: % 4: 0 target = site + displacement near a reach edge or zero
 *         (edge +- detail % 64, edges: min, max, 0, +-2048, +-4096 for riscv's
 *         rounding), 1 displacement = sext(detail) (uniform over 64 bits; bit 63 of
 *         byte 1 picks a 32/40/64-bit range), 2 target = arbitrary 64 bits,
 *         3 decode the 8 code bytes that follow (and the encode checks on the result)
 *   2-9  site (64 bits; aligned down as above)
 *  10-17  detail / target (64 bits)
 *  18-25  code bytes (mode 3)
 * Found by this target and fixed in src/arch/<arch>/encode.c (regression inputs in
 * tests/fuzz/regress/fuzz_encode/, and checks in tests/test_encode.c): riscv64 decode
 * of a jalr with an odd lo12 (it did not clear bit 0), and riscv64 encode's signed
 * overflow for displacements above INT64_MAX - 2048.
 * With FUZZ_PLANT=1 the aarch64 encoder under test is replaced by one whose reach
 * check is one word too generous (accepts +2^27, which wraps to -2^27).
 *
 * Seeds (tests/fuzz/corpus/fuzz_encode/, tests/fuzz/make_seeds.sh): each
 * architecture at each reach edge, one far target, the stubs' initial branches as
 * bytes, and junk bytes.
 */
#define FZ_NAME "fuzz_encode"
#include "fuzz_common.h"

#include "patch/encode.h"

typedef int encode_fn(uintptr_t, uintptr_t, unsigned char *);
typedef uintptr_t decode_fn(uintptr_t, const unsigned char *);

static int64_t sx(uint64_t v, unsigned bits)
{
    return (int64_t)(v << (64 - bits)) >> (64 - bits);
}

static uint32_t word(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_word(unsigned char *p, uint32_t w)
{
    p[0] = (unsigned char)w;
    p[1] = (unsigned char)(w >> 8);
    p[2] = (unsigned char)(w >> 16);
    p[3] = (unsigned char)(w >> 24);
}

/* ---- References ------------------------------------------------------------------- */

/* Each returns 1 and fills out (len bytes) if in reach, else 0. */
static int ref_enc_x86(uint64_t site, uint64_t target, unsigned char *out)
{
    int64_t rel = (int64_t)(target - site - 5);
    if (rel < INT32_MIN || rel > INT32_MAX)
        return 0;
    out[0] = 0xe9;
    put_word(out + 1, (uint32_t)rel);
    return 1;
}

static int ref_enc_b26(uint64_t site, uint64_t target, unsigned char *out, int loong)
{
    int64_t off = (int64_t)(target - site);
    if (off % 4 || off < -(INT64_C(1) << 27) || off > (INT64_C(1) << 27) - 4)
        return 0;
    uint32_t imm = (uint32_t)(off / 4) & 0x3ffffff;
    put_word(out, loong ? 0x50000000u | (imm & 0xffff) << 10 | imm >> 16 : 0x14000000u | imm);
    return 1;
}

static int ref_enc_rv(uint64_t site, uint64_t target, unsigned char *out)
{
    int64_t off = (int64_t)(target - site);
    if (off % 2 || off < -(INT64_C(1) << 31) - 2048 || off > (INT64_C(1) << 31) - 2049)
        return 0;
    /* lo12 is what jalr adds (sign-extended): the low 12 bits, as -2048..2047. */
    int64_t lo = sx((uint64_t)off & 0xfff, 12);
    int64_t hi = (off - lo) / 4096;
    put_word(out, 0x00000317u | ((uint32_t)hi & 0xfffff) << 12);      /* auipc t1, hi */
    put_word(out + 4, 0x00030067u | ((uint32_t)lo & 0xfff) << 20);    /* jalr x0, lo(t1) */
    return 1;
}

/* 1 and *target if the bytes are the branch, else 0. */
static int ref_dec(int arch, uint64_t site, const unsigned char *c, uint64_t *target)
{
    uint32_t w = word(c);
    switch (arch) {
    case 0:
        if (c[0] != 0xe9)
            return 0;
        *target = site + 5 + (uint64_t)sx(word(c + 1), 32);
        return 1;
    case 1:
        if (w >> 26 != 0x05)
            return 0;
        *target = site + (uint64_t)sx(w & 0x3ffffff, 26) * 4;
        return 1;
    case 2:
        if (w >> 26 != 0x14)
            return 0;
        *target = site + (uint64_t)sx(((w >> 10) & 0xffff) | (w & 0x3ff) << 16, 26) * 4;
        return 1;
    default: {
        uint32_t j = word(c + 4);
        /* auipc: opcode 0010111, rd x6; jalr: opcode 1100111, rd x0, funct3 0, rs1 x6 */
        if ((w & 0x7f) != 0x17 || ((w >> 7) & 31) != 6 || (j & 0x7f) != 0x67 || ((j >> 7) & 31) != 0 ||
            ((j >> 12) & 7) != 0 || ((j >> 15) & 31) != 6)
            return 0;
        uint64_t t1 = site + ((uint64_t)sx(w >> 12, 20) << 12);
        *target = (t1 + (uint64_t)sx(j >> 20, 12)) & ~(uint64_t)1;
        return 1;
    }
    }
}

static int ref_enc(int arch, uint64_t site, uint64_t target, unsigned char *out)
{
    switch (arch) {
    case 0: return ref_enc_x86(site, target, out);
    case 1: return ref_enc_b26(site, target, out, 0);
    case 2: return ref_enc_b26(site, target, out, 1);
    default: return ref_enc_rv(site, target, out);
    }
}

/* ---- Under test --------------------------------------------------------------------- */

static int broken_enc_aarch64(uintptr_t site, uintptr_t target, unsigned char *out)
{
    int64_t off = (int64_t)(target - site);
    if ((off & 3) || off < -(INT64_C(1) << 27) || off > (INT64_C(1) << 27))   /* one word too far */
        return -1;
    put_word(out, 0x14000000u | ((uint32_t)(off >> 2) & 0x03ffffffu));
    return 0;
}

static const struct arch {
    const char *name;
    encode_fn *enc;
    decode_fn *dec;
    size_t len;
    uint64_t align;
    int64_t min, max; /* reach of target - site, for the edge mode */
} arches[4] = {
    {"x86_64", altmem__branch_encode_x86_64, altmem__branch_decode_x86_64, 5, 1, (int64_t)INT32_MIN + 5,
     (int64_t)INT32_MAX + 5},
    {"aarch64", altmem__branch_encode_aarch64, altmem__branch_decode_aarch64, 4, 4, -(INT64_C(1) << 27),
     (INT64_C(1) << 27) - 4},
    {"loongarch64", altmem__branch_encode_loongarch64, altmem__branch_decode_loongarch64, 4, 4,
     -(INT64_C(1) << 27), (INT64_C(1) << 27) - 4},
    {"riscv64", altmem__branch_encode_riscv64, altmem__branch_decode_riscv64, 8, 2, -(INT64_C(1) << 31) - 2048,
     (INT64_C(1) << 31) - 2049},
};

static encode_fn *enc_under_test[4];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    for (int i = 0; i < 4; i++)
        enc_under_test[i] = arches[i].enc;
    if (fz_planted())
        enc_under_test[1] = broken_enc_aarch64;
    return 0;
}

static void hex(char *buf, const unsigned char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sprintf(buf + 3 * i, "%02x ", b[i]);
    if (n)
        buf[3 * n - 1] = '\0';
    else
        buf[0] = '\0';
}

/* encode(site, target) against the reference; then the round trip. */
static void check_encode(int ai, uint64_t site, uint64_t target)
{
    const struct arch *a = &arches[ai];
    unsigned char got[16], want[16];
    memset(got, 0xa5, sizeof got);
    memset(want, 0xa5, sizeof want);
    int in_reach = ref_enc(ai, site, target, want);
    int64_t disp = (int64_t)(target - site);
    int r = enc_under_test[ai](site, target, got);
    if ((r == 0) != in_reach)
        FZ_FAIL("%s encode(site %#llx, target %#llx, displacement %lld) returned %d, but it is %s reach", a->name,
                (unsigned long long)site, (unsigned long long)target, (long long)disp, r, in_reach ? "in" : "out of");
    if (r != 0 && r != -1)
        FZ_FAIL("%s encode returned %d (not 0 or -1)", a->name, r);
    if (r != 0)
        return;
    if (memcmp(got, want, sizeof got)) {
        char g[64], w[64];
        hex(g, got, a->len + 2);
        hex(w, want, a->len + 2);
        FZ_FAIL("%s encode(site %#llx, displacement %lld) wrote [%s], the reference says [%s] (%zu bytes, then a5 a5)",
                a->name, (unsigned long long)site, (long long)disp, g, w, a->len);
    }
    uintptr_t back = a->dec(site, got);
    if (back != target && !(target == 0 && back == 0))
        FZ_FAIL("%s decode(encode(site %#llx, target %#llx)) = %#llx", a->name, (unsigned long long)site,
                (unsigned long long)target, (unsigned long long)back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fz_in in = {data, size, 0};
    int ai = fz_u8(&in) % 4;
    const struct arch *a = &arches[ai];
    uint8_t mode = fz_u8(&in);
    uint64_t site = fz_u64(&in) & ~(a->align - 1);
    uint64_t x = fz_u64(&in);
    unsigned char code[8];
    for (int i = 0; i < 8; i++)
        code[i] = fz_u8(&in);

    switch (mode % 4) {
    case 0: {
        const int64_t edges[] = {a->min, a->max, 0, 2048, -2048, 4096, -4096, a->min - 1, a->max + 1};
        int64_t e = edges[(x >> 8) % (sizeof edges / sizeof edges[0])];
        int64_t delta = (int64_t)(x % 64) - 32;
        check_encode(ai, site, site + (uint64_t)(e + delta));
        break;
    }
    case 1: {
        static const unsigned widths[4] = {32, 36, 40, 64};
        check_encode(ai, site, site + (uint64_t)sx(x, widths[(mode >> 2) % 4]));
        break;
    }
    case 2:
        check_encode(ai, site, x);
        break;
    default: {
        uintptr_t t = a->dec(site, code);
        uint64_t rt = 0;
        int is_branch = ref_dec(ai, site, code, &rt);
        char c[32];
        hex(c, code, a->len);
        if (t != (is_branch ? rt : 0))
            FZ_FAIL("%s decode(site %#llx, [%s]) = %#llx, the reference says %s %#llx", a->name,
                    (unsigned long long)site, c, (unsigned long long)t, is_branch ? "a branch to" : "no branch:",
                    (unsigned long long)rt);
        if (t) {
            unsigned char again[16];
            memset(again, 0xa5, sizeof again);
            if (enc_under_test[ai](site, t, again) != 0)
                FZ_FAIL("%s decode(site %#llx, [%s]) = %#llx, which encode refuses", a->name,
                        (unsigned long long)site, c, (unsigned long long)t);
            /* Canonical, but for riscv64's lo12 bit 0, which jalr ignores: an odd
               lo12 decodes to the even target, which encodes with it clear. */
            unsigned char canon[16];
            memcpy(canon, code, a->len);
            if (ai == 3)
                canon[6] &= (unsigned char)~0x10;
            if (memcmp(again, canon, a->len)) {
                char g[32];
                hex(g, again, a->len);
                FZ_FAIL("%s decode(site %#llx, [%s]) = %#llx, re-encoded as [%s]", a->name, (unsigned long long)site,
                        c, (unsigned long long)t, g);
            }
            check_encode(ai, site, t);
        }
        break;
    }
    }
    return 0;
}
