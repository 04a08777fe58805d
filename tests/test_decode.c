/*
 * The per-architecture feature decoders, on any host: they are pure functions
 * of the raw register and kernel values, so every rule is checked here rather
 * than only on the hardware (or emulator) that happens to produce the input.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "altmem.h"
#include "cpu.h"
#include "arch/aarch64/decode.h"
#include "arch/loongarch64/decode.h"
#include "arch/riscv64/decode.h"
#include "arch/x86_64/decode.h"

#include "check.h"

#define UAL ALTMEM_FEAT_UAL
#define S128 ALTMEM_FEAT_SIMD128
#define S256 ALTMEM_FEAT_SIMD256

#define CFG_UAL (UINT32_C(1) << 20)
#define HW_UAL (1ul << 2)
#define HW_LSX (1ul << 4)
#define HW_LASX (1ul << 5)

static char notes[256];

static uint64_t la(uint32_t cfg, int have, unsigned long hw)
{
    notes[0] = '\0';
    return altmem__decode_loongarch(cfg, have, hw, notes, sizeof notes);
}

#define RVV ALTMEM_FEAT_RVV
#define ZBOZ ALTMEM_FEAT_ZICBOZ
#define RV_V (UINT64_C(1) << 2)       /* IMA_EXT_0 bit 2  */
#define RV_ZICBOZ (UINT64_C(1) << 6)  /* IMA_EXT_0 bit 6  */
#define RV_HWCAP_V (1ul << 21)        /* AT_HWCAP 'V' - 'A' */

static uint32_t zb;

/* hwprobe answering keys 9 and 5 only (the others unknown), no AT_HWCAP. */
static uint64_t rv(long rc, int64_t p9, int64_t p5)
{
    struct altmem__riscv_raw r = {rc, p9, p5, 0, 0, 0, 0, 0, 0};
    notes[0] = '\0';
    return altmem__decode_riscv(&r, &zb, notes, sizeof notes);
}

/* hwprobe answering every key; ima0/block < 0: that key unknown. */
static uint64_t rvx(long rc, int64_t p9, int64_t p5, int64_t ima0, int64_t block, int have_hwcap,
                    unsigned long hwcap)
{
    struct altmem__riscv_raw r = {rc,         p9, p5, ima0 >= 0, block >= 0, have_hwcap, (uint64_t)ima0,
                                  (uint64_t)block, hwcap};
    notes[0] = '\0';
    zb = 12345;
    return altmem__decode_riscv(&r, &zb, notes, sizeof notes);
}

static void loongarch(void)
{
    uint64_t f;
    f = la(CFG_UAL, 1, HW_UAL);
    CHECK(f == UAL && notes[0] == '\0', "CPUCFG.UAL + HWCAP.UAL: f=%#llx notes='%s'", (unsigned long long)f, notes);
    f = la(CFG_UAL, 1, 0);
    CHECK(f == 0 && strstr(notes, "disagree"), "CPUCFG.UAL only: f=%#llx notes='%s'", (unsigned long long)f, notes);
    f = la(0, 1, HW_UAL);
    CHECK(f == 0 && strstr(notes, "disagree"), "HWCAP.UAL only: f=%#llx notes='%s'", (unsigned long long)f, notes);
    f = la(0, 1, 0);
    CHECK(f == 0 && notes[0] == '\0', "neither: f=%#llx notes='%s'", (unsigned long long)f, notes);
    /* Other CPUCFG bits must not count as UAL. */
    f = la(~CFG_UAL, 1, 0);
    CHECK(f == 0, "all CPUCFG bits but 20: f=%#llx", (unsigned long long)f);
    /* No auxiliary vector: CPUCFG alone decides UAL, and SIMD is not used. */
    f = la(CFG_UAL, 0, 0);
    CHECK(f == UAL && strstr(notes, "no AT_HWCAP"), "no hwcap, CPUCFG.UAL: f=%#llx notes='%s'",
          (unsigned long long)f, notes);
    f = la(0, 0, HW_UAL | HW_LSX | HW_LASX);
    CHECK(f == 0, "no hwcap: the (meaningless) hwcap value must be ignored: f=%#llx", (unsigned long long)f);
    f = la(CFG_UAL, 0, HW_LSX | HW_LASX);
    CHECK(f == UAL, "no hwcap: no SIMD: f=%#llx", (unsigned long long)f);
    /* SIMD from the kernel's word only (it reports what it has enabled). */
    f = la(CFG_UAL, 1, HW_UAL | HW_LSX);
    CHECK(f == (UAL | S128) && strstr(notes, "LSX (AT_HWCAP bit 4)") && !strstr(notes, "LASX"),
          "LSX: f=%#llx notes='%s'", (unsigned long long)f, notes);
    f = la(CFG_UAL, 1, HW_UAL | HW_LSX | HW_LASX);
    CHECK(f == (UAL | S128 | S256) && strstr(notes, "LSX (AT_HWCAP bit 4), LASX (AT_HWCAP bit 5)"),
          "LSX+LASX: f=%#llx notes='%s'", (unsigned long long)f, notes);
    f = la(CFG_UAL, 1, HW_UAL | HW_LASX);
    CHECK(f == (UAL | S256) && strstr(notes, "without LSX"), "LASX without LSX: f=%#llx notes='%s'",
          (unsigned long long)f, notes);
    f = la(0, 1, HW_LSX | HW_LASX);
    CHECK(f == (S128 | S256), "SIMD without UAL (2K-class): f=%#llx", (unsigned long long)f);
    f = la(0, 1, ~(HW_UAL | HW_LSX | HW_LASX));
    CHECK(f == 0, "unrelated hwcap bits: f=%#llx", (unsigned long long)f);
    /* Notes append to what is there, and never overflow a small buffer. */
    char small[12] = "x";
    char canary[8];
    memset(canary, 0x5a, sizeof canary);
    struct {
        char buf[8];
        char after[8];
    } b;
    memset(b.after, 0x5a, sizeof b.after);
    b.buf[0] = '\0';
    f = altmem__decode_loongarch(CFG_UAL, 1, 0, b.buf, sizeof b.buf);
    CHECK(f == 0 && strlen(b.buf) == sizeof b.buf - 1 && !memcmp(b.after, canary, sizeof canary),
          "8-byte notes buffer: '%s' (must be truncated to 7 characters, nothing written past it)", b.buf);
    f = altmem__decode_loongarch(CFG_UAL, 1, 0, small, sizeof small);
    CHECK(!strncmp(small, "x; ", 3), "notes are appended after '; ': '%s'", small);
    printf("loongarch: CPUCFG/HWCAP agreement, no-hwcap path, LSX/LASX, notes bounds checked\n");
}

static void riscv(void)
{
    uint64_t f;
    f = rv(-ENOSYS, -1, -1);
    CHECK(f == 0 && strstr(notes, "hwprobe failed") && strstr(notes, "38"), "ENOSYS: f=%#llx notes='%s'",
          (unsigned long long)f, notes);
    f = rv(-ENOSYS, 3, 3);
    CHECK(f == 0, "a failed call's (stale) values must be ignored: f=%#llx", (unsigned long long)f);
    f = rv(0, 3, -1);
    CHECK(f == UAL && !strcmp(notes, "hwprobe: MISALIGNED_SCALAR_PERF FAST"), "key 9 = FAST: f=%#llx notes='%s'", (unsigned long long)f, notes);
    static const int64_t not_fast[] = {0, 1, 2, 4};
    for (size_t i = 0; i < sizeof not_fast / sizeof not_fast[0]; i++) {
        char want[8];
        snprintf(want, sizeof want, "= %d", (int)not_fast[i]);
        f = rv(0, not_fast[i], -1);
        CHECK(f == 0 && strstr(notes, want), "key 9 = %d: f=%#llx notes='%s'", (int)not_fast[i],
              (unsigned long long)f, notes);
    }
    /* Key 9 wins over key 5 when the kernel knows it. */
    f = rv(0, 1, 3);
    CHECK(f == 0, "key 9 EMULATED, key 5 FAST: f=%#llx", (unsigned long long)f);
    f = rv(0, 3, 1);
    CHECK(f == UAL, "key 9 FAST, key 5 EMULATED: f=%#llx", (unsigned long long)f);
    /* Older kernels: key 5's low three bits. */
    f = rv(0, -1, 3);
    CHECK(f == UAL, "key 9 unknown, key 5 = 3: f=%#llx", (unsigned long long)f);
    f = rv(0, -1, 0x3 | 0xf8);
    CHECK(f == UAL, "key 5 = FAST with higher bits set: f=%#llx", (unsigned long long)f);
    f = rv(0, -1, 0x4 | 0x8);
    CHECK(f == 0, "key 5 = UNSUPPORTED with a higher bit: f=%#llx", (unsigned long long)f);
    f = rv(0, -1, 1);
    CHECK(f == 0 && strstr(notes, "= 1"), "key 5 = EMULATED: f=%#llx notes='%s'", (unsigned long long)f, notes);
    f = rv(0, -1, -1);
    CHECK(f == 0 && strstr(notes, "no misaligned-access key"), "both keys unknown: f=%#llx notes='%s'",
          (unsigned long long)f, notes);
    printf("riscv: ENOSYS, key 9 values 0-4, key 5 fallback (low bits), precedence, unknown keys checked\n");

    /* V, Zicboz and the block size. */
    f = rvx(0, -1, 3, (int64_t)(RV_V | RV_ZICBOZ), 64, 1, 0);
    CHECK(f == (UAL | RVV | ZBOZ) && zb == 64 &&
              !strcmp(notes, "hwprobe: IMA_EXT_0 V (bit 2) ZICBOZ (bit 6), block 64 B; CPUPERF_0 FAST"),
          "V + Zicboz 64 B, key 5 FAST: f=%#llx zb=%u notes='%s'", (unsigned long long)f, zb, notes);
    f = rvx(0, 3, -1, (int64_t)RV_V, -1, 1, 0);
    CHECK(f == (UAL | RVV) && zb == 0 && !strcmp(notes, "hwprobe: IMA_EXT_0 V (bit 2); MISALIGNED_SCALAR_PERF FAST"),
          "V, key 9 FAST: f=%#llx zb=%u notes='%s'", (unsigned long long)f, zb, notes);
    f = rvx(0, 2, -1, (int64_t)RV_ZICBOZ, 4096, 0, 0);
    CHECK(f == ZBOZ && zb == 4096 && strstr(notes, "block 4096 B") && strstr(notes, "= 2"),
          "Zicboz 4096 B, no V, key 9 SLOW: f=%#llx zb=%u notes='%s'", (unsigned long long)f, zb, notes);
    f = rvx(0, -1, 3, (int64_t)RV_ZICBOZ, 16, 0, 0);
    CHECK(f == (UAL | ZBOZ) && zb == 16, "Zicboz 16 B: f=%#llx zb=%u", (unsigned long long)f, zb);
    /* Block sizes that are not used: no ZICBOZ, no block, a note. */
    static const int64_t bad_block[] = {0, 8, 48, 96, 8192, INT64_C(1) << 40};
    for (size_t i = 0; i < sizeof bad_block / sizeof bad_block[0]; i++) {
        f = rvx(0, -1, 3, (int64_t)RV_ZICBOZ, bad_block[i], 0, 0);
        CHECK(f == UAL && zb == 0 && strstr(notes, "Zicboz not used"), "Zicboz block %lld: f=%#llx zb=%u notes='%s'",
              (long long)bad_block[i], (unsigned long long)f, zb, notes);
    }
    f = rvx(0, -1, 3, (int64_t)RV_ZICBOZ, -1, 0, 0);
    CHECK(f == UAL && zb == 0 && strstr(notes, "no ZICBOZ_BLOCK_SIZE"), "Zicboz, key 6 unknown: f=%#llx zb=%u notes='%s'",
          (unsigned long long)f, zb, notes);
    /* Negative controls: a block size without the bit, and every other
       IMA_EXT_0 bit, give neither feature. */
    f = rvx(0, -1, 3, 0, 64, 0, 0);
    CHECK(f == UAL && zb == 0, "block size without the Zicboz bit: f=%#llx zb=%u", (unsigned long long)f, zb);
    f = rvx(0, -1, 3, (int64_t)(~(RV_V | RV_ZICBOZ) & ~(UINT64_C(1) << 63)), 64, 1, ~RV_HWCAP_V);
    CHECK(f == UAL && zb == 0, "all IMA_EXT_0 and AT_HWCAP bits but V and Zicboz: f=%#llx zb=%u",
          (unsigned long long)f, zb);
    /* Where hwprobe answers key 4, it decides V (a 6.4 kernel knows key 4
       but not V); AT_HWCAP only where key 4 or the whole call is missing. */
    f = rvx(0, -1, 3, 0, -1, 1, RV_HWCAP_V);
    CHECK(f == UAL, "key 4 without V, AT_HWCAP V: f=%#llx", (unsigned long long)f);
    f = rvx(0, -1, 3, -1, -1, 1, RV_HWCAP_V);
    CHECK(f == (UAL | RVV) && strstr(notes, "V from AT_HWCAP bit 21"), "key 4 unknown, AT_HWCAP V: f=%#llx notes='%s'",
          (unsigned long long)f, notes);
    f = rvx(-ENOSYS, -1, -1, -1, -1, 1, RV_HWCAP_V);
    CHECK(f == RVV && zb == 0 && strstr(notes, "errno 38") && strstr(notes, "hwcap: V (AT_HWCAP bit 21)"),
          "ENOSYS, AT_HWCAP V: f=%#llx zb=%u notes='%s'", (unsigned long long)f, zb, notes);
    f = rvx(-ENOSYS, 3, 3, (int64_t)(RV_V | RV_ZICBOZ), 64, 1, ~RV_HWCAP_V);
    CHECK(f == 0 && zb == 0, "ENOSYS: stale key values and other AT_HWCAP bits ignored: f=%#llx zb=%u",
          (unsigned long long)f, zb);
    f = rvx(-ENOSYS, -1, -1, -1, -1, 0, RV_HWCAP_V);
    CHECK(f == 0, "ENOSYS, no auxv: the hwcap value must be ignored: f=%#llx", (unsigned long long)f);
    printf("riscv: V from IMA_EXT_0 bit 2 or AT_HWCAP bit 21, Zicboz bit 6 with block sizes, notes checked\n");
}

#define A_ASIMD (1ul << 1)
#define A_SVE (1ul << 22)
#define A_MOPS (UINT64_C(1) << 43)
#define SVE ALTMEM_FEAT_SVE
#define MOPS ALTMEM_FEAT_MOPS

static uint32_t zb;

static uint64_t a64(int have, unsigned long hw, int have2, uint64_t hw2, int have_dczid, uint64_t dczid,
                    const char *release)
{
    struct altmem__aarch64_raw r = {0};
    r.have_hwcap = have;
    r.hwcap = hw;
    r.have_hwcap2 = have2;
    r.hwcap2 = hw2;
    r.have_dczid = have_dczid;
    r.dczid = dczid;
    r.release = release;
    notes[0] = '\0';
    zb = 12345;
    return altmem__decode_aarch64(&r, &zb, notes, sizeof notes);
}

static void aarch64(void)
{
    uint64_t f;
    f = a64(0, 0, 0, 0, 0, 0, "6.8.0");
    CHECK(f == UAL && zb == 0 && strstr(notes, "no AT_HWCAP"), "no hwcap: f=%#llx notes='%s'", (unsigned long long)f, notes);
    f = a64(0, ~0ul, 0, ~UINT64_C(0), 0, 0, "6.8.0");
    CHECK(f == UAL, "no hwcap, values ignored: f=%#llx", (unsigned long long)f);
    f = a64(1, A_ASIMD, 1, 0, 0, 0, "6.8.0");
    CHECK(f == (UAL | S128) && strstr(notes, "ASIMD (AT_HWCAP bit 1)"), "ASIMD: f=%#llx notes='%s'",
          (unsigned long long)f, notes);
    /* Negative control: every other bit set must detect none of ASIMD, SVE, MOPS. */
    f = a64(1, ~(A_ASIMD | A_SVE), 1, ~A_MOPS, 0, 0, "6.8.0");
    CHECK(f == UAL, "all hwcap/hwcap2 bits but ASIMD, SVE, MOPS: f=%#llx", (unsigned long long)f);
    /* All three, modern kernel, DC ZVA of 64 bytes (BS = 4: 4 << 4). */
    f = a64(1, A_ASIMD | A_SVE, 1, A_MOPS, 1, 4, "6.8.0-45-generic");
    CHECK(f == (UAL | S128 | SVE | MOPS) && zb == 64, "ASIMD+SVE+MOPS, 6.8: f=%#llx zb=%u", (unsigned long long)f, zb);
    CHECK(strstr(notes, "SVE (AT_HWCAP bit 22)") && strstr(notes, "MOPS (AT_HWCAP2 bit 43)") &&
              strstr(notes, "dczva 64 B") && strstr(notes, "kernel 6.8.0: SVE preferred"),
          "notes name the bits: '%s'", notes);
    /* MOPS only from AT_HWCAP2; a missing AT_HWCAP2 means no MOPS whatever the value. */
    f = a64(1, A_ASIMD, 0, A_MOPS, 0, 0, "6.8.0");
    CHECK(f == (UAL | S128) && strstr(notes, "no AT_HWCAP2"), "hwcap2 missing: f=%#llx notes='%s'",
          (unsigned long long)f, notes);
    f = a64(1, A_ASIMD | A_MOPS, 1, 0, 0, 0, "6.8.0");
    CHECK(f == (UAL | S128), "bit 43 of AT_HWCAP is not MOPS: f=%#llx", (unsigned long long)f);
    /* The SVE kernel rule (glibc's prefer_sve_ifuncs). */
    static const struct {
        const char *rel;
        int pref;
    } k[] = {
        {"4.14.0", 1}, {"4.14", 1},  {"4.15.0", 0}, {"4.15", 0},  {"5.13.0-52-generic", 0},
        {"5.14.0-427.13.1.el9_4.aarch64", 1},       {"5.14", 1},  {"5.14.21-150400", 0},
        {"6.1.0-18-arm64", 0},      {"6.1", 0},     {"6.1.99", 0}, {"6.2.0", 1}, {"6.2", 1},
        {"6.8.0", 1},  {"10.0.0", 1}, {"5.15.0-rc1", 0},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        f = a64(1, A_ASIMD | A_SVE, 1, 0, 0, 0, k[i].rel);
        CHECK(!!(f & SVE) == k[i].pref && strstr(notes, k[i].pref ? "SVE preferred" : "SVE not preferred"),
              "kernel '%s': SVE %s expected: f=%#llx notes='%s'", k[i].rel, k[i].pref ? "preferred" : "not preferred",
              (unsigned long long)f, notes);
    }
    static const char *const bad[] = {"", "linux", "6", "6.", ".1.0", "v6.8.0", "-6.8"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        f = a64(1, A_ASIMD | A_SVE, 1, 0, 0, 0, bad[i]);
        CHECK(!(f & SVE) && strstr(notes, "release unreadable"), "malformed release '%s': f=%#llx notes='%s'",
              bad[i], (unsigned long long)f, notes);
    }
    f = a64(1, A_ASIMD | A_SVE, 1, 0, 0, 0, NULL);
    CHECK(!(f & SVE) && strstr(notes, "release unreadable"), "no release: f=%#llx notes='%s'", (unsigned long long)f,
          notes);
    /* The kernel rule never turns SVE on without the HWCAP bit. */
    f = a64(1, A_ASIMD, 1, 0, 0, 0, "6.8.0");
    CHECK(!(f & SVE) && !strstr(notes, "kernel"), "no SVE bit, modern kernel: f=%#llx notes='%s'",
          (unsigned long long)f, notes);
    /* DCZID_EL0: DZP (bit 4) prohibits; BS in bits 3:0; higher bits ignored. */
    f = a64(1, A_ASIMD, 1, 0, 1, 0x10 | 4, "6.8.0");
    CHECK(zb == 0 && strstr(notes, "prohibited"), "DZP set: zb=%u notes='%s'", zb, notes);
    f = a64(1, A_ASIMD, 1, 0, 1, 6, "6.8.0");
    CHECK(zb == 256, "BS 6 (A64FX): zb=%u", zb);
    f = a64(1, A_ASIMD, 1, 0, 1, 0xffffffe0u | 4, "6.8.0");
    CHECK(zb == 64, "bits above 4 ignored: zb=%u", zb);
    f = a64(1, A_ASIMD, 1, 0, 1, 12, "6.8.0");
    CHECK(zb == 0 && strstr(notes, "out of range"), "BS 12: zb=%u notes='%s'", zb, notes);
    f = a64(1, A_ASIMD, 1, 0, 0, 4, "6.8.0");
    CHECK(zb == 0, "no DCZID_EL0: zb=%u", zb);
    /* Notes never overflow a small buffer. */
    struct {
        char buf[16];
        char after[8];
    } b;
    char canary[8];
    memset(canary, 0x5a, sizeof canary);
    memset(b.after, 0x5a, sizeof b.after);
    b.buf[0] = '\0';
    struct altmem__aarch64_raw r = {1, 1, 1, A_ASIMD | A_SVE, A_MOPS, 4, "5.10.0"};
    f = altmem__decode_aarch64(&r, &zb, b.buf, sizeof b.buf);
    CHECK(f == (UAL | S128 | MOPS) && strlen(b.buf) == sizeof b.buf - 1 && !memcmp(b.after, canary, sizeof canary),
          "16-byte notes buffer: '%s' f=%#llx", b.buf, (unsigned long long)f);
    printf("aarch64: UAL always, ASIMD/SVE (HWCAP 1, 22), MOPS (HWCAP2 43), the SVE kernel rule, DCZID_EL0 checked\n");
}

/* ---- glibc 2.36's cache figures (x86 CPUID) ---------------------------------------- */

/* The Intel family 6 model 207 KVM guest of issue 20, CPUID as read there:
   ld.so --list-diagnostics gave shared_cache_size 0x10600000 and
   non_temporal_threshold 0x6300000. */
static struct altmem__x86_cache_raw intel207(void)
{
    struct altmem__x86_cache_raw r = {
        .vendor = ALTMEM__VENDOR_INTEL, .family = 6, .model = 207, .max_leaf = 0x1c,
        .leaf1_ebx = 0x00020800, .leaf1_edx = 0x1f8bfbff, .erms = 1,
        .n_leaf4 = 5,
        .leaf4 = {{0x04000121, 0x02c0003f, 0x3f, 0}, {0x04000122, 0x01c0003f, 0x3f, 0},
                  {0x04000143, 0x03c0003f, 0x7ff, 0}, {0x04004163, 0x04c0003f, 0x33fff, 0}, {0, 0, 0, 0}},
        .n_leaf11 = 3,
        .leaf11 = {{0, 1, 0x100, 0}, {5, 2, 0x201, 0}, {0, 0, 2, 0}},
        .intel_l2 = 2u << 20, .intel_l3 = 260u << 20, .ext_max = 0x80000021,
        .e6_ecx = 0x08007040,
    };
    return r;
}

/* The AMD family 25 model 1 (Zen 3) KVM guest of issue 21: CPUID.1 from its
   ld.so --list-diagnostics (EBX 0x20800: 2 logical processors; EDX with HTT);
   0x80000006 as glibc decoded it there (L2 512 KiB, L3 256 MiB); 2 threads per
   CCX, the value its non_temporal_threshold 0xc000000 implies. */
static struct altmem__x86_cache_raw zen3(void)
{
    struct altmem__x86_cache_raw r = {
        .vendor = ALTMEM__VENDOR_AMD, .family = 0x19, .model = 1, .max_leaf = 0x10,
        .leaf1_ebx = 0x00020800, .leaf1_edx = 0x178bfbff, .erms = 1, .ext_max = 0x80000023,
        .e6_ecx = 0x02006140, .e6_edx = 0x08009140, .e8_ecx = 0x1001, .e1d3_eax = 0x4163,
    };
    return r;
}

static void glibc_cache(void)
{
    struct altmem__glibc_cache g;
    struct altmem__x86_cache_raw r = intel207();
    altmem__decode_glibc_cache(&r, &g);
    CHECK(g.nt == 0x6300000 && g.shared == 0x10600000 && g.movsb_stop == g.nt,
          "Intel 6/207: nt %#zx shared %#lx stop %#zx, expected 0x6300000 0x10600000 (ld.so) and nt", g.nt, g.shared,
          g.movsb_stop);
    r.leaf4[3][3] |= 2; /* an inclusive L3: no L2 added; 3/4 of 130 MiB */
    altmem__decode_glibc_cache(&r, &g);
    CHECK(g.nt == 0x6180000 && g.shared == 0x10400000, "Intel, inclusive L3: nt %#zx shared %#lx", g.nt, g.shared);
    r = intel207();
    r.max_leaf = 10; /* no leaf 11: the leaf-4 count (1 + 1) stands */
    altmem__decode_glibc_cache(&r, &g);
    CHECK(g.nt == 0x6300000, "Intel without leaf 11: nt %#zx", g.nt);
    r = intel207();
    r.leaf1_edx &= ~(1u << 28); /* no HTT: the whole L3 per thread, leaf 4 not read (so "inclusive") */
    altmem__decode_glibc_cache(&r, &g);
    CHECK(g.nt == (size_t)(260u << 20) / 4 * 3, "Intel without HTT: nt %#zx", g.nt);
    r = intel207();
    r.n_leaf4 = 3;
    r.leaf4[2][0] = 0; /* leaf 4 ends before the L3: glibc falls back to CPUID.1's count (2) */
    altmem__decode_glibc_cache(&r, &g);
    CHECK(g.nt == (size_t)(130u << 20) / 4 * 3, "Intel, leaf 4 cut short: nt %#zx", g.nt);

    r = zen3();
    altmem__decode_glibc_cache(&r, &g);
    CHECK(g.nt == 0xc000000 && g.shared == 0x10000000 && g.movsb_stop == 0x80000,
          "AMD Zen 3 KVM: nt %#zx shared %#lx stop %#zx, expected 0xc000000 0x10000000 0x80000 (ld.so)", g.nt, g.shared,
          g.movsb_stop);
    r.erms = 0; /* without ERMS: 3/4 of the per-thread share alone */
    altmem__decode_glibc_cache(&r, &g);
    CHECK(g.nt == 0xc000000, "AMD without ERMS: nt %#zx", g.nt);
    r = zen3();
    r.family = 0x15; /* before Zen: the L2 added, no CCX */
    r.e8_ecx = 0x2000; /* APIC ID width 2: 4 threads */
    r.leaf1_edx &= ~(1u << 28);
    altmem__decode_glibc_cache(&r, &g);
    CHECK(g.nt == ((size_t)(256u << 20) + (512u << 10)) / 4, "AMD family 0x15: nt %#zx", g.nt);
    r = zen3();
    r.e6_edx = 0; /* no L3: the L2 */
    altmem__decode_glibc_cache(&r, &g);
    CHECK(g.nt == 0x60000, "AMD without L3: nt %#zx, expected 3/4 of the 512 KiB L2", g.nt);

    struct altmem__x86_cache_raw other = {.vendor = ALTMEM__VENDOR_OTHER, .erms = 1};
    altmem__decode_glibc_cache(&other, &g);
    CHECK(g.nt == 0x4040, "another vendor (glibc knows no cache): nt %#zx, expected the floor 0x4040", g.nt);
    printf("glibc 2.36 cache figures: Intel 6/207 and AMD Zen 3 as their ld.so reported, and the branches around them\n");
}

/* The machine the test runs on: altmem's computation against glibc's own figures
   (tests/check_glibc_nt.sh passes ld.so --list-diagnostics's values). */
static int here(const char *nt_s, const char *stop_s)
{
    struct altmem__cpu c;
    altmem__cpu_detect(&c);
    size_t nt = (size_t)strtoull(nt_s, NULL, 0), stop = (size_t)strtoull(stop_s, NULL, 0);
    int ok = c.glibc_nt == nt && c.glibc_movsb_stop == stop;
    printf("%s: %s: altmem computes glibc's non_temporal_threshold %#zx, rep_movsb_stop_threshold %#zx; ld.so says "
           "%#zx, %#zx\n",
           ok ? "ok" : "FAIL", c.notes, c.glibc_nt, c.glibc_movsb_stop, nt, stop);
    return ok ? 0 : 1;
}

/* AMD's legacy cache leaves (0x80000005/6), read where 0x8000001D is missing or
   empty: the values of the Zen 4 KVM guest of docs/perf/amd-family25-model17.md
   (this CPU's own leaves; glibc 2.36's ld.so --list-diagnostics shows the L3 of
   320 MiB it read there) and of the Zen 5 guest of issue 30, whose 0x8000001D
   is all zeros (glibc 2.36 and 2.41 both print 48 KiB, 1 MiB and 508 MiB). */
static void amd_legacy_caches(void)
{
    static const struct {
        const char *what;
        uint32_t e5_ecx, e6_ecx, e6_edx;
        size_t l1d, l2, l3;
    } k[] = {
        {"Zen 4 guest", 0x20080140, 0x04006140, 0x0a009140, 32 << 10, 1 << 20, (size_t)320 << 20},
        {"Zen 5 guest, no TOPOEXT", 0x30080140, 0x04006140, 0x0fe09140, 48 << 10, 1 << 20, (size_t)508 << 20},
        {"zeros", 0, 0, 0, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        size_t l1d, l2, l3;
        altmem__decode_amd_legacy_caches(k[i].e5_ecx, k[i].e6_ecx, k[i].e6_edx, &l1d, &l2, &l3);
        CHECK(l1d == k[i].l1d && l2 == k[i].l2 && l3 == k[i].l3, "%s: L1d %zu L2 %zu L3 %zu, expected %zu %zu %zu",
              k[i].what, l1d, l2, l3, k[i].l1d, k[i].l2, k[i].l3);
    }
}

/* Intel's leaf 2 descriptors, read where leaf 4 is missing, as glibc reads
   them.  The first row is qemu's (its Intel models, run with level=2 so that
   leaf 4 is gone; glibc 2.36 and 2.41 both print L1d 32 KiB, L2 2 MiB, L3 16
   MiB there). */
static void intel_leaf2(void)
{
    static const struct {
        const char *what;
        uint32_t regs[4];
        unsigned family, model;
        size_t l1d, l2, l3;
    } k[] = {
        {"qemu's Intel models", {0x00000001, 0, 0x0000004d, 0x002c307d}, 6, 0x55, 32 << 10, 2 << 20, 16 << 20},
        {"count byte not 1: leaf 4's job", {0x00000002, 0, 0x0000004d, 0x002c307d}, 6, 0x55, 0, 0, 0},
        {"0xff: see leaf 4", {0x00ff0001, 0, 0x0000004d, 0x002c307d}, 6, 0x55, 0, 0, 0},
        {"a register with bit 31 set is not read", {0x00000001, 0, 0x8000004d, 0x002c307d}, 6, 0x55, 32 << 10,
         2 << 20, 0},
        {"the first descriptor wins, EAX before EDX", {0x00002c01, 0, 0, 0x00000d7d}, 6, 0x0f, 32 << 10, 2 << 20, 0},
        {"0x40 ends the L3's search in its register", {0x00000001, 0, 0x00004d40, 0x00000029}, 6, 0x0f, 0, 0,
         4 << 20},
        {"0x49 is an L2", {0x00490001, 0, 0, 0}, 6, 0x0f, 0, 4 << 20, 0},
        {"0x49 is also the L3 of family 15 model 6", {0x00490001, 0, 0, 0}, 15, 6, 0, 4 << 20, 4 << 20},
        {"glibc's 0xdc-0xde (2, 4, 8 MiB)", {0x00dc0001, 0, 0, 0}, 6, 0x17, 0, 0, 2 << 20},
        {"nothing", {0x00000001, 0, 0, 0}, 6, 0x0f, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        size_t l1d, l2, l3;
        altmem__decode_intel_leaf2(k[i].regs, k[i].family, k[i].model, &l1d, &l2, &l3);
        CHECK(l1d == k[i].l1d && l2 == k[i].l2 && l3 == k[i].l3, "%s: L1d %zu L2 %zu L3 %zu, expected %zu %zu %zu",
              k[i].what, l1d, l2, l3, k[i].l1d, k[i].l2, k[i].l3);
    }
}

/* The vendor from glibc's kept leaves 1 (EAX) and 0x80000001 (ECX): named only
   where no other vendor's family meets it, AMD's only with SSE4A, Intel's (family
   6, model 0x20 and up) only without. */
static void vendor_from_kept(void)
{
    static const struct {
        const char *what;
        uint32_t leaf1_eax, ext1_ecx;
        const char *vendor;
    } k[] = {
        {"Zen 4 guest (family 0x19 model 0x11)", 0x00a10f11, 0x004003f3, "AuthenticAMD"},
        {"the same without SSE4A (a hypervisor hid it)", 0x00a10f11, 0x004003b3, NULL},
        {"Zen 1 (0x17)", 0x00800f11, 0x35c233ff, "AuthenticAMD"},
        {"Zen 5 guest (0x1a model 2; its ld.so --list-diagnostics)", 0x00b00f21, 0x440001f1, "AuthenticAMD"},
        {"Hygon Dhyana (0x18)", 0x00900f01, 0x35c233ff, "HygonGenuine"},
        {"AMD Llano (0x12, Intel's 18 too)", 0x00300f10, 0x000037ff, NULL},
        {"AMD family 0x15", 0x00600f20, 0x2fcbfff, NULL},
        {"Intel 6/207 (family 6 model 0xcf)", 0x000c06f2, 0x00000121, "GenuineIntel"},
        {"Intel 6/167 (model 0xa7; its ld.so --list-diagnostics)", 0x000a0671, 0x00000121, "GenuineIntel"},
        {"Intel 6/167, 0x80000001 unknown (musl)", 0x000a0671, 0, "GenuineIntel"},
        {"Intel Sandy Bridge (6/0x2a)", 0x000206a7, 0x00000001, "GenuineIntel"},
        {"Intel Nehalem (6/0x1a): below 0x20, leaf 0 read", 0x000106a5, 0x00000001, NULL},
        {"Intel Core 2 (6/0x0f), Zhaoxin's model too", 0x000006f6, 0x00000001, NULL},
        {"Zhaoxin ZX-C (6/0x19)", 0x00010690, 0x00000121, NULL},
        {"family 6 model 0xa7 with SSE4A (not Intel)", 0x000a0671, 0x00000161, NULL},
        {"Intel family 19 (0xf + 4), SSE4A bit forged", 0x00400f00, 0x00000161, NULL},
        {"Zhaoxin family 7", 0x00070f00, 0x00000121, NULL},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        const char *v = altmem__x86_vendor_from_kept(k[i].leaf1_eax, k[i].ext1_ecx);
        CHECK(v == k[i].vendor || (v && k[i].vendor && !strcmp(v, k[i].vendor)), "%s: %s, expected %s", k[i].what,
              v ? v : "(not named)", k[i].vendor ? k[i].vendor : "(not named)");
    }
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "--glibc-here"))
        return here(argv[2], argv[3]);
    loongarch();
    riscv();
    aarch64();
    glibc_cache();
    amd_legacy_caches();
    intel_leaf2();
    vendor_from_kept();
    printf("decode: %d checks, %d failures: %s\n", checks, failures, failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
