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

/* ---- glibc 2.36's cache figures on x86 ---------------------------------------------
   The threshold from which glibc 2.36 (Debian 12's, with the release branch's
   backport of "non_temporal_threshold = shared / 4, at least 3/4 of the per-thread
   share") streams, computed from the same CPUID values it reads, step for step as
   sysdeps/x86/dl-cacheinfo.h (get_common_cache_info, dl_init_cacheinfo) does it,
   so that altmem's default never streams where glibc does not.  Its quirks are
   kept on purpose: on AMD it reads the L3 from CPUID 0x80000006 (a KVM guest on
   Zen 3 reports 256 MiB there, against 32 MiB in leaf 0x8000001D), and on other
   vendors it knows no cache at all (then the floor, 0x4040). */

/* Index of the highest set bit (x > 0), as bsr. */
static int high_bit(unsigned x)
{
    int b = 0;
    while (x >>= 1)
        b++;
    return b;
}

/* get_common_cache_info: the number of threads sharing the highest cache, the
   per-thread share, and the L2 added where the caches are not inclusive. */
static void common_cache(const struct altmem__x86_cache_raw *r, long *shared, long *per_thread, long core)
{
    int threads_l2 = 0, threads_l3 = 0, level = 3, inclusive = 1;
    unsigned threads = 0;
    if (*shared <= 0) {
        level = 2;
        *shared = *per_thread = core;
        threads_l3 = -1;
    }
    if (r->leaf1_edx & (1u << 28)) { /* HTT: more than one logical processor */
        int leaf4_ok = r->max_leaf >= 4;
        if (leaf4_ok) {
            int want_l2 = 1, want_l3 = threads_l3 == 0;
            for (unsigned i = 0; i < r->n_leaf4 && (want_l2 || want_l3); i++) {
                uint32_t a = r->leaf4[i][0];
                if (r->vendor == ALTMEM__VENDOR_INTEL && (a & 0x1f) == 0) {
                    leaf4_ok = 0; /* glibc: "a bug in at least some Pentium Ds" */
                    break;
                }
                unsigned lvl = (a >> 5) & 7;
                if (lvl == 2 && want_l2) {
                    threads_l2 = (int)((a >> 14) & 0x3ff);
                    want_l2 = 0;
                } else if (lvl == 3 && want_l3) {
                    threads_l3 = (int)((a >> 14) & 0x3ff);
                    inclusive = (r->leaf4[i][3] & 2) != 0;
                    want_l3 = 0;
                }
            }
        }
        if (leaf4_ok) {
            /* With leaf 11 the counts above are ID widths: mask them by the
               processors each topology level ships. */
            if (r->max_leaf >= 11 && !(r->zhaoxin && r->family == 6)) {
                int count_smt = threads_l2 > 0 && level == 3;
                int count_core = threads_l3 > 0 || (threads_l2 > 0 && level == 2);
                for (unsigned i = 0; i < r->n_leaf11 && (count_smt || count_core); i++) {
                    int shipped = (int)(r->leaf11[i][1] & 0xff);
                    unsigned type = r->leaf11[i][2] & 0xff00;
                    if (shipped == 0 || type == 0)
                        break;
                    if (type == 0x100 && count_smt) {
                        int mask = (int)((2u << high_bit((unsigned)threads_l2)) - 1);
                        threads_l2 = (shipped - 1) & mask;
                        count_smt = 0;
                    } else if (type == 0x200 && count_core) {
                        int *t = level == 2 ? &threads_l2 : &threads_l3;
                        int mask = (int)((2u << high_bit((unsigned)*t)) - 1);
                        *t = (shipped - 1) & mask;
                        count_core = 0;
                    }
                }
            }
            if (threads_l2 > 0)
                threads_l2++;
            if (threads_l3 > 0)
                threads_l3++;
            if (level == 2) {
                if (threads_l2) {
                    threads = (unsigned)threads_l2;
                    /* Silvermont's L2 is shared by 2 cores. */
                    if (r->vendor == ALTMEM__VENDOR_INTEL && threads > 2 && r->family == 6 &&
                        (r->model == 0x37 || r->model == 0x4a || r->model == 0x4d || r->model == 0x5a ||
                         r->model == 0x5d))
                        threads = 2;
                }
            } else if (threads_l3) {
                threads = (unsigned)threads_l3;
            }
        } else {
            threads = (r->leaf1_ebx >> 16) & 0xff;
        }
        if (*per_thread > 0 && threads > 0)
            *per_thread /= (long)threads;
    }
    if (!inclusive) {
        *per_thread += threads_l2 > 0 ? core / threads_l2 : core;
        *shared += core;
    }
}

void altmem__decode_glibc_cache(const struct altmem__x86_cache_raw *r, struct altmem__glibc_cache *out)
{
    long shared = -1, per_thread = -1, core = -1;
    if (r->vendor == ALTMEM__VENDOR_INTEL || r->zhaoxin) {
        core = (long)r->intel_l2;
        shared = per_thread = (long)r->intel_l3;
        common_cache(r, &shared, &per_thread, core);
    } else if (r->vendor == ALTMEM__VENDOR_AMD) {
        /* handle_amd: 0x80000006, L2 in ECX[31:16] KiB, L3 in EDX[29:18] x 512 KiB. */
        core = r->ext_max >= 0x80000006u && (r->e6_ecx & 0xf000) ? (long)((r->e6_ecx >> 6) & 0x3fffc00) : 0;
        shared = r->ext_max >= 0x80000006u && (r->e6_edx & 0xf000) ? (long)(r->e6_edx & 0x3ffc0000) << 1 : 0;
        per_thread = shared;
        if (shared <= 0) {
            shared = per_thread = core;
        } else {
            unsigned threads = 0;
            if (r->ext_max >= 0x80000008u)
                threads = 1u << ((r->e8_ecx >> 12) & 0xf);
            if ((threads == 0 || r->family >= 0x17) && (r->leaf1_edx & (1u << 28)))
                threads = (r->leaf1_ebx >> 16) & 0xff;
            if (threads > 0)
                per_thread /= (long)threads;
            if (r->family >= 0x17) /* the share of a CCX */
                per_thread *= (long)(((r->e1d3_eax >> 14) & 0xfff) + 1);
            else {
                shared += core;
                per_thread += core;
            }
        }
    }
    /* shared / 4 in signed arithmetic (an unknown cache is -1, giving 0),
       at least 3/4 of the per-thread share (3/4 of it alone without ERMS),
       within [0x4040, SIZE_MAX >> 4]. */
    long quarter = shared / 4, low = per_thread * 3 / 4;
    unsigned long nt = (unsigned long)quarter;
    if (nt < (unsigned long)low)
        nt = (unsigned long)low;
    if (!r->erms)
        nt = (unsigned long)low;
    if (nt < 0x4040)
        nt = 0x4040;
    else if (nt > SIZE_MAX >> 4)
        nt = SIZE_MAX >> 4;
    out->shared = shared;
    out->shared_per_thread = per_thread;
    out->core = core;
    out->nt = nt;
    out->movsb_stop = r->vendor == ALTMEM__VENDOR_AMD ? (size_t)core : nt;
}
