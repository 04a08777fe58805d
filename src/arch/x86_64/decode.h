/* The pure decoder of x86_64: glibc 2.36's cache figures from the CPUID values
   cpu.c gathers. Compiled on every host (every src/arch/<arch>/decode.c), so
   tests/test_decode.c checks it anywhere; cpu.c gathers the raw values on x86_64
   itself. */
#ifndef ALTMEM_X86_64_DECODE_H
#define ALTMEM_X86_64_DECODE_H

#include <stddef.h>
#include <stdint.h>

/* What glibc 2.36's dl_init_cacheinfo (sysdeps/x86/dl-cacheinfo.h, as Debian 12
   ships it, with the release branch's non-temporal backport) reads from CPUID,
   gathered by src/arch/x86_64/cpu.c, so that altmem can compute the threshold
   glibc streams from on the same CPU (docs/tunables.md, "glibc's threshold"). */
struct altmem__x86_cache_raw {
    int vendor;                           /* ALTMEM__VENDOR_*; Hygon counts as AMD       */
    int zhaoxin;                          /* CentaurHauls / "  Shanghai  "                */
    unsigned family, model;               /* display family / model                       */
    unsigned max_leaf;                    /* CPUID.0:EAX                                  */
    uint32_t leaf1_ebx, leaf1_edx;        /* CPUID.1: logical processors, HTT             */
    int erms;
    unsigned n_leaf4;                     /* leaf 4 subleaves up to the first null one    */
    uint32_t leaf4[8][4];
    unsigned n_leaf11;                    /* leaf 11 subleaves up to the first empty one  */
    uint32_t leaf11[6][4];
    size_t intel_l2, intel_l3;            /* Intel / Zhaoxin: sizes from leaf 4            */
    uint32_t ext_max;                     /* CPUID.0x80000000:EAX                         */
    uint32_t e6_ecx, e6_edx;              /* AMD: CPUID.0x80000006 (L2, L3)               */
    uint32_t e8_ecx;                      /* AMD: CPUID.0x80000008:ECX (APIC ID width)    */
    uint32_t e1d3_eax;                    /* AMD: CPUID.0x8000001D subleaf 3:EAX (CCX)    */
};
struct altmem__glibc_cache {
    long shared, shared_per_thread, core;
    size_t nt;                            /* non_temporal_threshold                       */
    size_t movsb_stop;                    /* rep_movsb_stop_threshold                     */
};
void altmem__decode_glibc_cache(const struct altmem__x86_cache_raw *raw, struct altmem__glibc_cache *out);

/* AMD's legacy cache leaves, where leaf 0x8000001D is missing or empty (a guest
   with TOPOEXT clear, as glibc reads them there): L1d from CPUID 0x80000005:ECX
   [31:24] in KiB, L2 from 0x80000006:ECX[31:16] in KiB, L3 from
   0x80000006:EDX[31:18] in 512 KiB units.  Sizes in bytes, 0 where the field is. */
void altmem__decode_amd_legacy_caches(uint32_t e5_ecx, uint32_t e6_ecx, uint32_t e6_edx, size_t *l1d, size_t *l2,
                                      size_t *l3);

/* Intel's cache descriptors, CPUID leaf 2, read where leaf 4 is missing (a
   highest basic leaf below 4: an old CPU, or a BIOS's "limit CPUID maxval" or a
   hypervisor that lowers it), as glibc reads them (handle_intel): the registers
   in the order EAX (its low byte, the count, left out), EBX, ECX, EDX, one not
   read when its bit 31 is set; in each, its bytes from the lowest; the first
   descriptor of the wanted cache gives its size (0x49, an L2 elsewhere, is the
   L3 of family 15 model 6).  Sizes in bytes, 0 where no descriptor gives one, or
   where the count byte is not 1 or a 0xff descriptor says "see leaf 4". */
void altmem__decode_intel_leaf2(const uint32_t regs[4], unsigned family, unsigned model, size_t *l1d, size_t *l2,
                                size_t *l3);

/* The vendor as the leaves glibc keeps name it beyond doubt, so that a process
   under glibc >= 2.33 executes no CPUID at start-up (leaf 0, the vendor, is the
   one glibc does not keep; in a virtual machine each CPUID exits to the
   hypervisor, 3.5 us on the Zen 4 guest, 7 us on Intel 6/167): "AuthenticAMD"
   for the display families 0x17, 0x19 and 0x1A (Zen 1 to 5), "HygonGenuine" for
   0x18, each only with SSE4A (CPUID.0x80000001:ECX bit 6), which no Intel,
   Zhaoxin or VIA CPU has; "GenuineIntel" for family 6 with a display model of
   0x20 or more, without SSE4A: the other x86-64 vendors of family 6 are
   Centaur/VIA (models below 0x10) and Zhaoxin (0x0F and 0x19; its later CPUs
   are family 7), and AMD's x86-64 CPUs start at family 0xF.  NULL elsewhere,
   where leaf 0 is read: Intel's other families (15, and 18 and 19 since Nova
   Lake and Diamond Rapids) meet AMD's 0x12 (18), and a hypervisor may hide
   SSE4A.  ext1_ecx 0 where leaf 0x80000001 is unknown (no C library keeps it):
   then only family 6 is named. */
const char *altmem__x86_vendor_from_kept(uint32_t leaf1_eax, uint32_t ext1_ecx);

/* Detection's CPUID instructions (src/arch/x86_64/cpu.c), for the test that
   counts them (tests/test_cpuid_count.c): how many ran, and the first 32 as
   (leaf, subleaf).  altmem__cpuid_use_kept = 0 makes detection ignore the leaves
   the C library keeps (the test's negative control). */
struct altmem__cpuid_log {
    unsigned count;
    unsigned leaf[32], sub[32];
};
extern struct altmem__cpuid_log altmem__cpuid_log;
extern int altmem__cpuid_use_kept;

#endif
