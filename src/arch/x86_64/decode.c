/*
 * The pure decoder of x86_64: glibc 2.36's cache figures from the CPUID values cpu.c gathers, AMD's
 * legacy cache leaves and Intel's leaf 2 descriptors (decode.h).
 * No x86_64 instruction here: compiled on every host.
 */
#include "cpu.h"
#include "decode.h"

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

void altmem__decode_amd_legacy_caches(uint32_t e5_ecx, uint32_t e6_ecx, uint32_t e6_edx, size_t *l1d, size_t *l2,
                                      size_t *l3)
{
    *l1d = (size_t)(e5_ecx >> 24) << 10;
    *l2 = (size_t)(e6_ecx >> 16) << 10;
    *l3 = (size_t)(e6_edx >> 18) << 19;
}

/* ---- Intel's leaf 2 cache descriptors ------------------------------------------------
   The data and unified caches glibc knows (sysdeps/x86/dl-cacheinfo.h,
   intel_02_known; Intel SDM vol. 2A, CPUID, "Encoding of Cache and TLB
   Descriptors"), sorted by descriptor, size in KiB.  Where the two differ
   (0xdc-0xde: the SDM's 1.5, 3 and 6 MiB), glibc's figure, which is what
   altmem must agree with. */
static const struct {
    uint8_t descriptor, level;
    uint16_t kib;
} intel_descriptors[] = {
    {0x0a, 1, 8},     {0x0c, 1, 16},    {0x0d, 1, 16},    {0x0e, 1, 24},    {0x21, 2, 256},   {0x22, 3, 512},
    {0x23, 3, 1024},  {0x25, 3, 2048},  {0x29, 3, 4096},  {0x2c, 1, 32},    {0x39, 2, 128},   {0x3a, 2, 192},
    {0x3b, 2, 128},   {0x3c, 2, 256},   {0x3d, 2, 384},   {0x3e, 2, 512},   {0x3f, 2, 256},   {0x41, 2, 128},
    {0x42, 2, 256},   {0x43, 2, 512},   {0x44, 2, 1024},  {0x45, 2, 2048},  {0x46, 3, 4096},  {0x47, 3, 8192},
    {0x48, 2, 3072},  {0x49, 2, 4096},  {0x4a, 3, 6144},  {0x4b, 3, 8192},  {0x4c, 3, 12288}, {0x4d, 3, 16384},
    {0x4e, 2, 6144},  {0x60, 1, 16},    {0x66, 1, 8},     {0x67, 1, 16},    {0x68, 1, 32},    {0x78, 2, 1024},
    {0x79, 2, 128},   {0x7a, 2, 256},   {0x7b, 2, 512},   {0x7c, 2, 1024},  {0x7d, 2, 2048},  {0x7f, 2, 512},
    {0x80, 2, 512},   {0x82, 2, 256},   {0x83, 2, 512},   {0x84, 2, 1024},  {0x85, 2, 2048},  {0x86, 2, 512},
    {0x87, 2, 1024},  {0xd0, 3, 512},   {0xd1, 3, 1024},  {0xd2, 3, 2048},  {0xd6, 3, 1024},  {0xd7, 3, 2048},
    {0xd8, 3, 4096},  {0xdc, 3, 2048},  {0xdd, 3, 4096},  {0xde, 3, 8192},  {0xe2, 3, 2048},  {0xe3, 3, 4096},
    {0xe4, 3, 8192},  {0xea, 3, 12288}, {0xeb, 3, 18432}, {0xec, 3, 24576},
};

/* The size of the first descriptor of a level-`level` data or unified cache in
   regs; 0 if none, or if leaf 4 is where to look (0xff). */
static size_t intel_leaf2_cache(const uint32_t regs[4], unsigned level, int l3_is_0x49)
{
    for (int r = 0; r < 4; r++) {
        uint32_t v = r == 0 ? regs[0] & 0xffffff00u : regs[r];
        if (v & 0x80000000u)
            continue;                       /* reserved */
        for (; v; v >>= 8) {
            unsigned byte = v & 0xff;
            if (byte == 0x40 && level == 3)
                break;                      /* "no L2 or L3": glibc looks no further in this register */
            if (byte == 0xff)
                return 0;                   /* the sizes are in leaf 4 */
            unsigned want = byte == 0x49 && level == 3 && l3_is_0x49 ? 2 : level;
            for (size_t i = 0; i < sizeof intel_descriptors / sizeof intel_descriptors[0]; i++)
                if (intel_descriptors[i].descriptor == byte) {
                    if (intel_descriptors[i].level == want)
                        return (size_t)intel_descriptors[i].kib << 10;
                    break;
                }
        }
    }
    return 0;
}

void altmem__decode_intel_leaf2(const uint32_t regs[4], unsigned family, unsigned model, size_t *l1d, size_t *l2,
                                size_t *l3)
{
    *l1d = *l2 = *l3 = 0;
    if ((regs[0] & 0xff) != 1)
        return;                             /* glibc then reads leaf 4 */
    int l3_is_0x49 = family == 15 && model == 6;
    *l1d = intel_leaf2_cache(regs, 1, 0);
    *l2 = intel_leaf2_cache(regs, 2, 0);
    *l3 = intel_leaf2_cache(regs, 3, l3_is_0x49);
}

const char *altmem__x86_vendor_from_kept(uint32_t leaf1_eax, uint32_t ext1_ecx)
{
    unsigned family = (leaf1_eax >> 8) & 0xf, model = (leaf1_eax >> 4) & 0xf;
    if (family == 0xf)
        family += (leaf1_eax >> 20) & 0xff;
    if (family == 6)
        model |= ((leaf1_eax >> 16) & 0xf) << 4;
    if (family == 6 && model >= 0x20 && !(ext1_ecx & (1u << 6)))
        return "GenuineIntel";
    if (!(ext1_ecx & (1u << 6)))
        return NULL;                        /* no SSE4A: not named */
    if (family == 0x17 || family == 0x19 || family == 0x1a)
        return "AuthenticAMD";
    if (family == 0x18)
        return "HygonGenuine";
    return NULL;
}
