/*
 * x86_64 detection: CPUID (and XGETBV for the OS's consent to AVX state).
 * Every x86_64 CPU handles unaligned scalar access in hardware: UAL always.
 */
#if defined(__x86_64__)
#include <cpuid.h>

#include "altmem.h"
#include "cpu.h"
#include "os/os.h"
#include "lib/text.h"
#include "decode.h"

/* Every CPUID instruction detection executes, in order (tests/test_cpuid_count.c
   reads them), and whether leaves the C library keeps are taken from it. */
struct altmem__cpuid_log altmem__cpuid_log;
int altmem__cpuid_use_kept = 1;

/* The C library's copy of the leaf, where it keeps one (and detection may use
   it): 1 and regs, else 0. */
static int cpuid_kept(unsigned leaf, unsigned sub, unsigned regs[4])
{
    return altmem__cpuid_use_kept && altmem__os_x86_cpuid_kept(leaf, sub, regs);
}

/* CPUID, or the C library's copy of the leaf where it keeps one: in a virtual
   machine each instruction exits to the hypervisor (os.h). */
static void cpuid(unsigned leaf, unsigned sub, unsigned *a, unsigned *b, unsigned *c, unsigned *d)
{
    unsigned r[4];
    if (cpuid_kept(leaf, sub, r)) {
        *a = r[0], *b = r[1], *c = r[2], *d = r[3];
        return;
    }
    if (altmem__cpuid_log.count < sizeof altmem__cpuid_log.leaf / sizeof altmem__cpuid_log.leaf[0]) {
        altmem__cpuid_log.leaf[altmem__cpuid_log.count] = leaf;
        altmem__cpuid_log.sub[altmem__cpuid_log.count] = sub;
    }
    altmem__cpuid_log.count++;
    __cpuid_count(leaf, sub, *a, *b, *c, *d);
}

static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

/* Deterministic cache parameters (Intel leaf 4, AMD leaf 0x8000001D); what
   glibc_cache() reads of them is kept in raw (leaf 4's rows; 0x8000001D
   subleaf 3's EAX): in a virtual machine every CPUID exits to the hypervisor
   (about 10 us each on the 2-vCPU KVM guests measured, docs/dropin.md,
   "Start-up cost"), so none is executed twice.  Returns one past the last
   subleaf it reached (above 3: subleaf 3 is read). */
static unsigned caches_from_leaf(unsigned leaf, struct altmem__cpu *out, struct altmem__x86_cache_raw *raw)
{
    unsigned sub, next[4] = {0, 0, 0, 0}, have_next = 0;
    for (sub = 0; sub < 16; sub++) {
        unsigned a, b, c, d;
        if (have_next && sub == 2) {
            a = next[0], b = next[1], c = next[2], d = next[3];
        } else if (leaf == 0x8000001du && sub == 1) {
            /* AMD lists L1d, L1i, L2, L3 in that order (as Linux's AMD cacheinfo
               numbers them): when subleaf 2 is the unified L2, the L1i, which
               nothing here uses, is not read. */
            cpuid(leaf, 2, &next[0], &next[1], &next[2], &next[3]);
            if ((next[0] & 0x1f) == 3 && ((next[0] >> 5) & 7) == 2) {
                sub = 2;
                a = next[0], b = next[1], c = next[2], d = next[3];
            } else {
                have_next = 1;
                cpuid(leaf, 1, &a, &b, &c, &d);
            }
        } else {
            cpuid(leaf, sub, &a, &b, &c, &d);
        }
        if (leaf == 4 && sub < 8) {
            raw->leaf4[sub][0] = a, raw->leaf4[sub][1] = b, raw->leaf4[sub][2] = c, raw->leaf4[sub][3] = d;
            raw->n_leaf4 = sub + 1;
        }
        if (leaf == 0x8000001du && sub == 3)
            raw->e1d3_eax = a;
        unsigned type = a & 0x1f, level = (a >> 5) & 7;
        if (type == 0)
            break;
        size_t size = (size_t)(((b >> 22) & 0x3ff) + 1) * (((b >> 12) & 0x3ff) + 1) *
                      ((b & 0xfff) + 1) * ((size_t)c + 1);
        if (level == 1 && type == 1)
            out->l1d_bytes = size;
        else if (level == 2 && type != 2)
            out->l2_bytes = size;
        else if (level == 3 && type != 2)
            out->l3_bytes = size;
        /* AMD lists no level beyond 3: the null subleaf after it need not be read. */
        if (leaf == 0x8000001du && level == 3) {
            sub++;
            break;
        }
    }
    return sub < 16 ? sub + 1 : 16;
}

/* What glibc 2.36 reads for its cache figures (decode.c), each leaf only
   where glibc's decoding for this vendor uses it.  The caller has put leaf 1's
   EBX/EDX in r, (Intel) leaf 4's rows up to and with the first null one (glibc
   reads that one too), (AMD) CPUID 0x80000006 and, when amd_subleaves shows it
   read subleaf 3 of 0x8000001D, that one's EAX; the rest of r is zero. */
static void glibc_cache(struct altmem__cpu *out, struct altmem__x86_cache_raw *r, unsigned max, unsigned maxext,
                        int amd, unsigned amd_subleaves, int zhaoxin)
{
    unsigned a, b, c, d;
    r->vendor = amd ? ALTMEM__VENDOR_AMD : out->vendor;
    r->zhaoxin = zhaoxin;
    r->family = out->family;
    r->model = out->model;
    r->max_leaf = max;
    r->erms = (out->features & ALTMEM_FEAT_ERMS) != 0;
    if (!amd) {                     /* leaf 4's sizes, or leaf 2's without it */
        r->intel_l2 = out->l2_bytes;
        r->intel_l3 = out->l3_bytes;
    }
    if (max >= 11 && !amd) {
        for (unsigned sub = 0; sub < 6; sub++) {
            cpuid(11, sub, &a, &b, &c, &d);
            r->leaf11[sub][0] = a, r->leaf11[sub][1] = b, r->leaf11[sub][2] = c, r->leaf11[sub][3] = d;
            r->n_leaf11 = sub + 1;
            if ((b & 0xff) == 0 || (c & 0xff00) == 0)
                break;
        }
    }
    r->ext_max = maxext;
    if (amd && maxext >= 0x80000008u) {
        cpuid(0x80000008u, 0, &a, &b, &c, &d);
        r->e8_ecx = c;
    }
    if (amd && maxext >= 0x8000001du && amd_subleaves <= 3) {
        cpuid(0x8000001du, 3, &a, &b, &c, &d);
        r->e1d3_eax = a;
    }
    struct altmem__glibc_cache g;
    altmem__decode_glibc_cache(r, &g);
    out->glibc_nt = g.nt;
    out->glibc_movsb_stop = g.movsb_stop;
}

/* What the first half keeps in arch_raw for the second. */
enum { RAW_MAX_LEAF, RAW_LEAF1_EBX, RAW_LEAF1_EDX, RAW_FLAGS };
#define RAW_AMD     1u   /* AuthenticAMD or HygonGenuine: AMD's cache leaves */
#define RAW_ZHAOXIN 2u   /* CentaurHauls or "  Shanghai  " (glibc's Zhaoxin decoding) */
#define RAW_MAX_UNREAD 4u /* leaf 0 not read at start-up: RAW_MAX_LEAF is the one below */
/* RAW_MAX_LEAF where leaf 1 named the vendor and leaf 0 was not read: as high
   as any read at start-up asks (leaf 7; every CPU so named has 0xA or more,
   and glibc's copy of a leaf above the CPU's highest is zeros, as CPUID's own
   answer would read here).  The cache leaves read leaf 0 first (Intel's
   leaves 4 and 11 depend on it; AMD's are extended leaves). */
#define MAX_LEAF_NOT_READ 7u

void altmem__cpu_detect_id(struct altmem__cpu *out)
{
    out->arch = "x86_64";
    out->features = ALTMEM_FEAT_UAL;
    out->l1d_bytes = out->l2_bytes = out->l3_bytes = 0;
    out->vector_bytes = out->zero_block = 0;
    out->glibc_nt = out->glibc_movsb_stop = 0;
    out->notes[0] = '\0';

    unsigned max, a, b, c, d, kept_e1[4], leaf1[4];
    char vendor[13];
    const char *named = NULL;
    if (cpuid_kept(1, 0, leaf1) && cpuid_kept(0x80000001u, 0, kept_e1)) {
        named = altmem__x86_vendor_from_kept(leaf1[0], kept_e1[2]);
    } else {
        /* No leaves kept (musl, static without them): leaf 1 first, which
           names Intel's family-6 cores (decode.h) and is read anyway. */
        cpuid(1, 0, &leaf1[0], &leaf1[1], &leaf1[2], &leaf1[3]);
        named = altmem__x86_vendor_from_kept(leaf1[0], 0);
    }
    if (named) {
        /* No leaf 0: the start-up reads only leaves 1 and 7 (kept or not) and
           extended ones, none above MAX_LEAF_NOT_READ. */
        __builtin_memcpy(vendor, named, 13);
        max = MAX_LEAF_NOT_READ;
    } else {
        cpuid(0, 0, &max, &b, &c, &d);
        __builtin_memcpy(vendor, &b, 4);
        __builtin_memcpy(vendor + 4, &d, 4);
        __builtin_memcpy(vendor + 8, &c, 4);
        vendor[12] = '\0';
    }

    unsigned family = 0, model = 0;
    out->vendor = altmem__eq_nocase(vendor, 12, "GenuineIntel")   ? ALTMEM__VENDOR_INTEL
                  : altmem__eq_nocase(vendor, 12, "AuthenticAMD") ? ALTMEM__VENDOR_AMD
                                                                  : ALTMEM__VENDOR_OTHER;
    out->idflags = 0;
    out->stepping = 0;
    out->arch_raw[RAW_MAX_LEAF] = max;
    out->arch_raw[RAW_LEAF1_EBX] = out->arch_raw[RAW_LEAF1_EDX] = 0;
    out->arch_raw[RAW_FLAGS] =
        (altmem__eq_nocase(vendor, 12, "AuthenticAMD") || altmem__eq_nocase(vendor, 12, "HygonGenuine") ? RAW_AMD
                                                                                                         : 0) |
        (altmem__eq_nocase(vendor, 12, "CentaurHauls") || altmem__eq_nocase(vendor, 12, "  Shanghai  ") ? RAW_ZHAOXIN
                                                                                                         : 0) |
        (named ? RAW_MAX_UNREAD : 0);
    if (max >= 1) {
        a = leaf1[0], b = leaf1[1], c = leaf1[2], d = leaf1[3];   /* read above, kept or not */
        out->arch_raw[RAW_LEAF1_EBX] = b;
        out->arch_raw[RAW_LEAF1_EDX] = d;
        family = (a >> 8) & 0xf;
        model = (a >> 4) & 0xf;
        out->stepping = a & 0xf;
        if (family == 0xf)
            family += (a >> 20) & 0xff;
        if (family >= 6)
            model |= ((a >> 16) & 0xf) << 4;
        if (c & (1u << 31))
            out->idflags |= ALTMEM__ID_HYPERVISOR;
        if (d & (1u << 26))
            out->features |= ALTMEM_FEAT_SIMD128;           /* SSE2 */
        int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
        uint64_t xcr0 = osxsave ? xgetbv0() : 0;
        int ymm_ok = avx && (xcr0 & 0x6) == 0x6;             /* XMM + YMM state */
        int zmm_ok = ymm_ok && (xcr0 & 0xe0) == 0xe0;        /* opmask + ZMM    */
        if (max >= 7) {
            cpuid(7, 0, &a, &b, &c, &d);
            if (ymm_ok && (b & (1u << 5)))
                out->features |= ALTMEM_FEAT_SIMD256;       /* AVX2     */
            /* AVX-512 F, BW and VL: every AVX-512 core since Skylake-SP and
               Zen 4 (only Xeon Phi lacks BW/VL).  VL lets the variants keep
               even 16- and 32-byte moves in xmm/ymm16-31 (no vzeroupper). */
            if (zmm_ok && (b & (1u << 16)) && (b & (1u << 30)) && (b & (1u << 31)))
                out->features |= ALTMEM_FEAT_SIMD512;
            if (b & (1u << 9))
                out->features |= ALTMEM_FEAT_ERMS;
            /* RTM that can commit (glibc's RTM usable: not RTM_ALWAYS_ABORT,
               where microcode has turned TSX off): the rule intel-rtm. */
            if ((b & (1u << 11)) && !(d & (1u << 11)))
                out->idflags |= ALTMEM__ID_RTM;
            if (d & (1u << 4))
                out->features |= ALTMEM_FEAT_FSRM;
            /* a: leaf 7's highest subleaf.  AVX-VNNI only tells Intel AVX-512
               cores apart (the rule intel-avx512-no-vnni): elsewhere the leaf
               is not read (a CPUID where the C library keeps none, musl). */
            if (a >= 1 && out->vendor == ALTMEM__VENDOR_INTEL && (out->features & ALTMEM_FEAT_SIMD512)) {
                /* Where the C library keeps no leaf 7.1 (musl, freestanding),
                   AVX512-FP16 (leaf 7.0 EDX bit 23) stands for AVX-VNNI: every
                   Intel core with it has both (Sapphire Rapids and later,
                   Alder Lake's P-cores), the cores the rule is about (Skylake-SP
                   to Ice Lake, Tiger and Rocket Lake) neither, and a CPUID costs
                   6.2-7.5 us in the Intel 6/167 guest: a static musl program's
                   fourth (docs/dropin.md, "On Intel family 6 model 167"). */
                unsigned r1[4];
                if (!cpuid_kept(7, 1, r1)) {
                    if (d & (1u << 23))
                        r1[0] = 1u << 4;
                    else
                        cpuid(7, 1, &r1[0], &r1[1], &r1[2], &r1[3]);
                }
                if (ymm_ok && (r1[0] & (1u << 4)))
                    out->idflags |= ALTMEM__ID_AVX_VNNI;
            }
        }
    }
    out->family = family;
    out->model = model;
    out->caches_late = 1;
    struct altmem__text t = {out->notes, sizeof out->notes, 0};
    altmem__text_puts(&t, vendor);
    altmem__text_puts(&t, " family ");
    altmem__text_putu(&t, family);
    altmem__text_puts(&t, " model ");
    altmem__text_putu(&t, model);
}

/* The cache leaves, each once: only the streaming and (Zen 5) rep stosb
   thresholds, the profile's cpu line and `altmem info` use what they give. */
void altmem__cpu_detect_caches(struct altmem__cpu *out)
{
    if (!out->caches_late)
        return;
    unsigned a, b, c, d, max = out->arch_raw[RAW_MAX_LEAF];
    struct altmem__x86_cache_raw raw;
    /* Zeroed byte by byte through a volatile pointer: clang makes
       __builtin_memset of a struct this size a call of memset, which the core
       may not make (tests/check_nolibc.sh; its native clang build failed it). */
    for (size_t i = 0; i < sizeof raw; i++)
        ((volatile unsigned char *)&raw)[i] = 0;
    raw.leaf1_ebx = out->arch_raw[RAW_LEAF1_EBX];
    raw.leaf1_edx = out->arch_raw[RAW_LEAF1_EDX];

    int amd = (out->arch_raw[RAW_FLAGS] & RAW_AMD) != 0;
    if (!amd && (out->arch_raw[RAW_FLAGS] & RAW_MAX_UNREAD))
        cpuid(0, 0, &max, &b, &c, &d);           /* Intel named by leaf 1: its highest leaf now */
    unsigned maxext = 0, e1, e2, e3, kept[4];
    /* The extended leaves are read only for AMD's caches (and glibc's).  TOPOEXT
       (0x80000001 ECX bit 22, kept by glibc) promises 0x8000001D, so the highest
       extended leaf is at least that, all this code asks of it. */
    if (amd) {
        if (max >= 1 && cpuid_kept(0x80000001u, 0, kept) &&
            (kept[2] & (1u << 22)))
            maxext = 0x8000001du;
        else
            cpuid(0x80000000u, 0, &maxext, &e1, &e2, &e3);
    }
    unsigned amd_subleaves = 0;
    if (amd && maxext >= 0x80000006u)      /* glibc's L2 / L3 (and ours below) */
        cpuid(0x80000006u, 0, &a, &b, &raw.e6_ecx, &raw.e6_edx);
    if (!amd && max >= 4) {
        caches_from_leaf(4, out, &raw);
    } else if (out->vendor == ALTMEM__VENDOR_INTEL && max >= 2) {
        /* No leaf 4: the descriptors of leaf 2, as glibc reads them there. */
        uint32_t l2regs[4];
        cpuid(2, 0, &l2regs[0], &l2regs[1], &l2regs[2], &l2regs[3]);
        altmem__decode_intel_leaf2(l2regs, out->family, out->model, &out->l1d_bytes, &out->l2_bytes,
                                   &out->l3_bytes);
    } else if (amd && maxext >= 0x8000001du) {
        amd_subleaves = caches_from_leaf(0x8000001du, out, &raw);
    }
    /* No 0x8000001D, or an empty one (a guest that hides TOPOEXT: its subleaf
       0 has type 0): the legacy leaves, as glibc 2.36 and 2.41 read them. */
    if (amd && maxext >= 0x80000006u && !out->l1d_bytes && !out->l2_bytes && !out->l3_bytes) {
        cpuid(0x80000005u, 0, &a, &b, &c, &d);
        altmem__decode_amd_legacy_caches(c, raw.e6_ecx, raw.e6_edx, &out->l1d_bytes, &out->l2_bytes,
                                         &out->l3_bytes);
    }
    glibc_cache(out, &raw, max, maxext, amd, amd_subleaves, (out->arch_raw[RAW_FLAGS] & RAW_ZHAOXIN) != 0);
    out->caches_late = 0;
}
#endif
