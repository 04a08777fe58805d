/*
 * Pure decoders: from what an architecture's registers or the kernel report to
 * portable feature bits.  Compiled on every architecture, so tests/test_decode.c
 * checks the LoongArch and RISC-V rules on any host; the per-architecture files
 * only gather the raw values.
 */
#include "../internal.h"

static void note(char *notes, size_t len, const char *a, unsigned long long v, const char *b)
{
    struct altmem__text t = {notes, len, altmem__strlen(notes)};
    if (t.len)
        altmem__text_puts(&t, "; ");
    altmem__text_puts(&t, a);
    if (b) {
        altmem__text_putu(&t, v);
        altmem__text_puts(&t, b);
    }
}

/* LoongArch: UAL is CPUCFG word 1 bit 20; Linux mirrors it as AT_HWCAP bit 2 and
   reports LSX (bit 4) and LASX (bit 5) only when it has enabled them. */
uint64_t altmem__decode_loongarch(uint32_t cpucfg1, int have_hwcap, unsigned long hwcap,
                                  char *notes, size_t notes_len)
{
    uint64_t f = 0;
    int cfg_ual = (cpucfg1 >> 20) & 1;
    if (!have_hwcap) {
        /* Freestanding without an auxiliary vector: CPUCFG alone. */
        if (cfg_ual)
            f |= ALTMEM_FEAT_UAL;
        note(notes, notes_len, "no AT_HWCAP: UAL from CPUCFG alone, SIMD not used", 0, 0);
        return f;
    }
    int hw_ual = (hwcap >> 2) & 1;
    if (cfg_ual && hw_ual)
        f |= ALTMEM_FEAT_UAL;
    else if (cfg_ual != hw_ual)
        note(notes, notes_len, "CPUCFG.UAL and AT_HWCAP.UAL disagree (CPUCFG says ", (unsigned)cfg_ual,
             "): assuming no UAL");
    if (hwcap & (1ul << 4))
        f |= ALTMEM_FEAT_SIMD128;
    if (hwcap & (1ul << 5))
        f |= ALTMEM_FEAT_SIMD256;
    /* Which bits gave the vector features (what `altmem info` shows beside the
       lsx / lasx bindings). */
    if (f & ALTMEM_FEAT_SIMD128)
        note(notes, notes_len, f & ALTMEM_FEAT_SIMD256 ? "hwcap: LSX (AT_HWCAP bit 4), LASX (AT_HWCAP bit 5)"
                                                       : "hwcap: LSX (AT_HWCAP bit 4)", 0, 0);
    else if (f & ALTMEM_FEAT_SIMD256)
        note(notes, notes_len, "hwcap: LASX (AT_HWCAP bit 5) without LSX (bit 4)", 0, 0);
    return f;
}

/* RISC-V (Linux arch/riscv/include/uapi/asm/hwprobe.h; defined here because
   Debian 12's cross headers are 6.1, which has no riscv_hwprobe). */
#define RV_KEY_IMA_EXT_0 4              /* bitmask of extensions               */
#define RV_IMA_V (UINT64_C(1) << 2)     /* RISCV_HWPROBE_IMA_V                 */
#define RV_EXT_ZICBOZ (UINT64_C(1) << 6) /* RISCV_HWPROBE_EXT_ZICBOZ           */
#define RV_MISALIGNED_FAST 3            /* keys 9 and 5 (bits 0-2)             */
#define RV_HWCAP_V (1ul << ('V' - 'A')) /* AT_HWCAP: one bit per letter, bit 21 */

/* RISC-V.  UAL: only MISALIGNED_SCALAR_PERF == FAST (3) counts: EMULATED (1)
   traps into the kernel at every access (10-100x slower), SLOW (2) is slower than
   bytes, UNKNOWN (0) and UNSUPPORTED (4) promise nothing.  Kernels before 6.11
   answer through CPUPERF_0 (key 5) with the same values in bits 0-2.
   V: IMA_EXT_0 bit 2 (kernels >= 6.5 set it only when they save the vector
   state); AT_HWCAP bit 21 where hwprobe is absent or does not know key 4.
   Zicboz: IMA_EXT_0 bit 6 with the block size of key 6, a power of two from 16
   to 4096 bytes (a block inside a page: the variants zero whole aligned
   blocks and a fault is then one page's); anything else is not used. */
uint64_t altmem__decode_riscv(const struct altmem__riscv_raw *r, uint32_t *zero_block, char *notes,
                              size_t notes_len)
{
    uint64_t f = 0;
    *zero_block = 0;
    if (r->hwprobe_rc != 0) {
        note(notes, notes_len, "riscv_hwprobe failed (errno ", (unsigned long long)-r->hwprobe_rc,
             "): assuming no fast unaligned access");
        if (r->have_hwcap && (r->hwcap & RV_HWCAP_V)) {
            f |= ALTMEM_FEAT_RVV;
            note(notes, notes_len, "hwcap: V (AT_HWCAP bit 21)", 0, 0);
        }
        return f;
    }
    /* One note: "hwprobe: IMA_EXT_0 V (bit 2) ZICBOZ (bit 6), block 64 B;
       CPUPERF_0 FAST", what each feature came from. */
    char buf[160];
    struct altmem__text t = {buf, sizeof buf, 0};
    buf[0] = '\0';
    altmem__text_puts(&t, "hwprobe:");
    if (r->have_ima0) {
        if (r->ima0 & (RV_IMA_V | RV_EXT_ZICBOZ))
            altmem__text_puts(&t, " IMA_EXT_0");
        if (r->ima0 & RV_IMA_V) {
            f |= ALTMEM_FEAT_RVV;
            altmem__text_puts(&t, " V (bit 2)");
        }
        if (r->ima0 & RV_EXT_ZICBOZ) {
            altmem__text_puts(&t, " ZICBOZ (bit 6)");
            uint64_t b = r->block;
            if (!r->have_block) {
                altmem__text_puts(&t, " but no ZICBOZ_BLOCK_SIZE (key 6): Zicboz not used");
            } else if (b < 16 || b > 4096 || (b & (b - 1))) {
                altmem__text_puts(&t, ", block ");
                altmem__text_putu(&t, b);
                altmem__text_puts(&t, " B (not a power of two in 16..4096): Zicboz not used");
            } else {
                f |= ALTMEM_FEAT_ZICBOZ;
                *zero_block = (uint32_t)b;
                altmem__text_puts(&t, ", block ");
                altmem__text_putu(&t, b);
                altmem__text_puts(&t, " B");
            }
        }
    } else if (r->have_hwcap && (r->hwcap & RV_HWCAP_V)) {
        f |= ALTMEM_FEAT_RVV;
        altmem__text_puts(&t, " no IMA_EXT_0 (key 4), V from AT_HWCAP bit 21");
    }
    int from9 = r->perf9 >= 0;
    int64_t perf = from9 ? r->perf9 : r->perf5 >= 0 ? (r->perf5 & 7) : -1;
    if (t.len > sizeof "hwprobe:" - 1)
        altmem__text_puts(&t, ";");
    if (perf < 0) {
        altmem__text_puts(&t, " knows no misaligned-access key: assuming no UAL");
    } else {
        altmem__text_puts(&t, from9 ? " MISALIGNED_SCALAR_PERF" : " CPUPERF_0");
        if (perf == RV_MISALIGNED_FAST) {
            f |= ALTMEM_FEAT_UAL;
            altmem__text_puts(&t, " FAST");
        } else {
            altmem__text_puts(&t, " misaligned scalar perf = ");
            altmem__text_putu(&t, (unsigned long long)perf);
            altmem__text_puts(&t, " (3 = fast): no UAL");
        }
    }
    note(notes, notes_len, buf, 0, 0);
    return f;
}

/* AArch64.  The constants are defined here (Debian 12's cross kernel headers
   are 6.1 and lack HWCAP2_MOPS):
     AT_HWCAP (16)  bit 1  ASIMD   -> SIMD128
                    bit 22 SVE     -> SVE, where the kernel keeps SVE cheap (below)
     AT_HWCAP2 (26) bit 43 MOPS    -> MOPS (FEAT_MOPS: CPY*, SET*)
     DCZID_EL0 (readable at EL0)   bit 4 DZP: DC ZVA prohibited; bits 3:0 BS:
                                   the block is 4 << BS bytes (BS <= 9, 2 KiB)
   Unaligned access to normal memory is architectural (SCTLR_EL1.A is clear
   under Linux) and fast: UAL always.

   The SVE kernel rule is glibc's (sysdeps/unix/sysv/linux/aarch64/
   cpu-features.c, prefer_sve_ifuncs): kernels 4.15.0 up to (not including)
   6.2.0 disable SVE for the task at every system call, so the next SVE
   instruction traps to re-enable it and an SVE memcpy pays a trap after each
   syscall; 5.14.0 exactly (the RHEL 9 kernel, which has the fix backported)
   is the exception.  Versions below 4.15 have no SVE support at all (the
   HWCAP bit is then clear anyway).  glibc assumes a modern kernel when the
   release does not parse; here an unparsable release means "not preferred"
   (the safe choice: the advsimd variants are always correct and never trap). */
/* Appends without a separator (note() starts a new item). */
static void put(char *notes, size_t len, const char *a)
{
    struct altmem__text t = {notes, len, altmem__strlen(notes)};
    altmem__text_puts(&t, a);
}

#define A64_HWCAP_ASIMD (1ul << 1)
#define A64_HWCAP_SVE (1ul << 22)
#define A64_HWCAP2_MOPS (UINT64_C(1) << 43)
#define A64_DCZID_DZP (1u << 4)
#define A64_DCZID_BS 0xfu

/* "MAJOR.MINOR[.PATCH]..." -> 1 and the three numbers (a missing patch is 0),
   or 0 when it does not begin that way. */
static int parse_release(const char *r, unsigned v[3])
{
    v[0] = v[1] = v[2] = 0;
    if (!r)
        return 0;
    for (int k = 0; k < 3; k++) {
        if (*r < '0' || *r > '9')
            return k >= 2;      /* MAJOR.MINOR at least */
        unsigned x = 0;
        for (; *r >= '0' && *r <= '9'; r++)
            x = x > 100000 ? x : x * 10 + (unsigned)(*r - '0');
        v[k] = x;
        if (k < 2 && *r != '.')
            return k >= 1;
        if (k < 2)
            r++;
    }
    return 1;
}

int altmem__aarch64_sve_preferred(const char *release, unsigned v[3])
{
    if (!parse_release(release, v))
        return -1;
    const unsigned long long k = (unsigned long long)v[0] << 32 | (unsigned long long)v[1] << 16 | v[2];
#define KV(a, b, c) ((unsigned long long)(a) << 32 | (unsigned long long)(b) << 16 | (c))
    if (k >= KV(6, 2, 0) || k == KV(5, 14, 0))
        return 1;
    return k < KV(4, 15, 0);
#undef KV
}

uint64_t altmem__decode_aarch64(const struct altmem__aarch64_raw *raw, uint32_t *zero_block,
                                char *notes, size_t notes_len)
{
    uint64_t f = ALTMEM_FEAT_UAL;
    *zero_block = 0;
    if (!raw->have_hwcap) {
        note(notes, notes_len, "no AT_HWCAP: no ASIMD, SVE or MOPS", 0, 0);
    } else {
        note(notes, notes_len, "hwcap:", 0, 0);
        if (raw->hwcap & A64_HWCAP_ASIMD) {
            f |= ALTMEM_FEAT_SIMD128;
            put(notes, notes_len, " ASIMD (AT_HWCAP bit 1)");
        }
        if (raw->hwcap & A64_HWCAP_SVE)
            put(notes, notes_len, " SVE (AT_HWCAP bit 22)");
        if (raw->have_hwcap2 && (raw->hwcap2 & A64_HWCAP2_MOPS)) {
            f |= ALTMEM_FEAT_MOPS;
            put(notes, notes_len, " MOPS (AT_HWCAP2 bit 43)");
        }
        if (!raw->have_hwcap2)
            put(notes, notes_len, " (no AT_HWCAP2: no MOPS)");
    }
    if (raw->have_dczid) {
        if (raw->dczid & A64_DCZID_DZP)
            note(notes, notes_len, "dczva prohibited (DCZID_EL0.DZP)", 0, 0);
        else if ((raw->dczid & A64_DCZID_BS) > 9)
            note(notes, notes_len, "dczva block field ", raw->dczid & A64_DCZID_BS, " out of range: not used");
        else {
            *zero_block = 4u << (raw->dczid & A64_DCZID_BS);
            note(notes, notes_len, "dczva ", *zero_block, " B (DCZID_EL0)");
        }
    }
    if (raw->have_hwcap && (raw->hwcap & A64_HWCAP_SVE)) {
        unsigned v[3];
        int pref = altmem__aarch64_sve_preferred(raw->release, v);
        if (pref < 0) {
            note(notes, notes_len, "kernel release unreadable: SVE not preferred", 0, 0);
        } else {
            note(notes, notes_len, "kernel ", v[0], ".");
            struct altmem__text t = {notes, notes_len, altmem__strlen(notes)};
            altmem__text_putu(&t, v[1]);
            altmem__text_puts(&t, ".");
            altmem__text_putu(&t, v[2]);
            altmem__text_puts(&t, pref ? ": SVE preferred"
                                       : ": SVE not preferred (4.15-6.1 but 5.14.0 disable SVE at every syscall)");
            if (pref)
                f |= ALTMEM_FEAT_SVE;
        }
    }
    return f;
}
