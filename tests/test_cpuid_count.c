/*
 * How many CPUID instructions x86_64 detection executes (issue 30: in a virtual
 * machine each exits to the hypervisor, 3.6-7.1 us).  Under glibc >= 2.33 the
 * leaves glibc keeps (1, 7.0, 7.1, 0x80000001, 0x80000007, 0x80000008) must come
 * from glibc, and on AMD with TOPOEXT 0x80000000 is not needed either, nor the
 * L1i's subleaf of 0x8000001D; the CPU description must be the same as with
 * every leaf read by CPUID.  Start-up itself (the identity) executes at most leaf
 * 0, and none where glibc's leaves 1 and 0x80000001 name the vendor.
 *
 *   test_cpuid_count            the check (exit 77 where the C library keeps no leaf)
 *   test_cpuid_count --control  detection told to ignore glibc's leaves: must fail
 *   test_cpuid_count --static   linked -static (check_cpuid_count_static.sh): glibc's
 *                               leaves must be there, not a skip
 */
#include <cpuid.h>
#include <stdio.h>
#include <string.h>

#include "altmem.h"
#include "arch/x86_64/decode.h"
#include "cpu.h"
#include "os/os.h"

static int kept_leaf(unsigned leaf, unsigned sub)
{
    return (sub == 0 && (leaf == 1 || leaf == 7 || leaf == 0x80000001u || leaf == 0x80000007u ||
                         leaf == 0x80000008u)) ||
           (leaf == 7 && sub == 1);
}

static int run(const char *what, struct altmem__cpu *c)
{
    memset(&altmem__cpuid_log, 0, sizeof altmem__cpuid_log);
    altmem__cpu_detect(c);
    int bad = 0;
    printf("%s: %u CPUID instructions:", what, altmem__cpuid_log.count);
    for (unsigned i = 0; i < altmem__cpuid_log.count && i < 32; i++) {
        printf(" %#x.%u", altmem__cpuid_log.leaf[i], altmem__cpuid_log.sub[i]);
        bad |= kept_leaf(altmem__cpuid_log.leaf[i], altmem__cpuid_log.sub[i]);
    }
    printf("\n");
    return bad;
}

int main(int argc, char **argv)
{
    int control = 0, must_keep = 0;
    for (int i = 1; i < argc; i++) {
        control |= !strcmp(argv[i], "--control");
        must_keep |= !strcmp(argv[i], "--static");
    }
    /* Where the C library keeps no leaf (musl, freestanding; here glibc's are
       ignored): on an Intel AVX-512 core with AVX512-FP16, start-up reads no
       leaf 7.1 and takes AVX-VNNI as there (src/arch/x86_64/cpu.c). */
    {
        struct altmem__cpu nk;
        altmem__cpuid_use_kept = 0;
        memset(&altmem__cpuid_log, 0, sizeof altmem__cpuid_log);
        altmem__cpu_detect_id(&nk);
        altmem__cpuid_use_kept = 1;
        unsigned n = altmem__cpuid_log.count, read71 = 0, fp16 = 0, a, b, c, d;
        for (unsigned i = 0; i < n && i < 32; i++)
            read71 |= altmem__cpuid_log.leaf[i] == 7 && altmem__cpuid_log.sub[i] == 1;
        __cpuid(0, a, b, c, d);
        if (a >= 7) {
            __cpuid_count(7, 0, a, b, c, d);
            fp16 = (d >> 23) & 1;
        }
        int applies = nk.vendor == ALTMEM__VENDOR_INTEL && (nk.features & ALTMEM_FEAT_SIMD512) && fp16;
        printf("no kept leaf: start-up %u CPUID instructions; leaf 7.1 %s%s\n", n, read71 ? "read" : "not read",
               applies ? " (AVX512-FP16: AVX-VNNI taken from it)" : " (no Intel AVX512-FP16 here: not applicable)");
        if (applies && (read71 || !(nk.idflags & ALTMEM__ID_AVX_VNNI))) {
            printf("FAIL: with AVX512-FP16 and no kept leaf, start-up %s\n",
                   read71 ? "read leaf 7.1" : "did not set AVX-VNNI");
            return 1;
        }
    }
    unsigned r[4];
    if (!altmem__os_x86_cpuid_kept(1, 0, r)) {
        if (must_keep) {
            printf("FAIL: a static glibc program, and glibc's kept leaves are not linked in "
                   "(__x86_get_cpuid_feature_leaf: src/os/os_libc.c)\n");
            return 1;
        }
        printf("this C library keeps no CPUID leaf (not glibc >= 2.33): nothing to count\n");
        return 77;
    }
    struct altmem__cpu with, without;
    altmem__cpuid_use_kept = 0;
    run("every leaf by CPUID", &without);
    altmem__cpuid_use_kept = !control;
    int fail = run(control ? "control, glibc's leaves ignored" : "glibc's leaves used", &with);
    if (fail)
        printf("FAIL: a leaf glibc keeps was read with CPUID\n");
    /* Start-up alone (the identity: the cache leaves wait for the first large
       call): at most leaf 0, and not even that where glibc's leaves 1 and
       0x80000001 name the vendor (decode.h). */
    unsigned k1[4], ke1[4];
    const char *named = !control && altmem__os_x86_cpuid_kept(0x80000001u, 0, ke1) && altmem__os_x86_cpuid_kept(1, 0, k1)
                            ? altmem__x86_vendor_from_kept(k1[0], ke1[2])
                            : NULL;
    struct altmem__cpu id;
    memset(&altmem__cpuid_log, 0, sizeof altmem__cpuid_log);
    altmem__cpu_detect_id(&id);
    printf("start-up (identity) alone: %u CPUID instructions; the vendor %s\n", altmem__cpuid_log.count,
           named ? "named by glibc's leaves" : "from leaf 0");
    if (!control && altmem__cpuid_log.count > (named ? 0u : 1u)) {
        printf("FAIL: start-up executed %u CPUID instructions, at most %u expected\n", altmem__cpuid_log.count,
               named ? 0u : 1u);
        fail = 1;
    }
    if (named && strncmp(id.notes, without.notes, 12) != 0) {
        printf("FAIL: glibc's leaves name the vendor %s, leaf 0 says %.12s\n", named, without.notes);
        fail = 1;
    }
    unsigned topoext = 0;
    if (altmem__os_x86_cpuid_kept(0x80000001u, 0, r))
        topoext = (r[2] >> 22) & 1;
    for (unsigned i = 0; i < altmem__cpuid_log.count && i < 32; i++)
        if (with.vendor == ALTMEM__VENDOR_AMD && topoext && altmem__cpuid_log.leaf[i] == 0x80000000u) {
            printf("FAIL: 0x80000000 read although TOPOEXT says 0x8000001D exists\n");
            fail = 1;
        }
    /* The L1i (0x8000001D subleaf 1) is not needed when subleaf 2 is the L2. */
    unsigned l2_at_2 = 0;
    if (with.vendor == ALTMEM__VENDOR_AMD && topoext) {
        unsigned a, b, c, d;
        __asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0x8000001du), "c"(2u));
        l2_at_2 = (a & 0x1f) == 3 && ((a >> 5) & 7) == 2;
    }
    for (unsigned i = 0; l2_at_2 && i < altmem__cpuid_log.count && i < 32; i++)
        if (altmem__cpuid_log.leaf[i] == 0x8000001du && altmem__cpuid_log.sub[i] == 1) {
            printf("FAIL: 0x8000001D subleaf 1 (the L1i) read, although subleaf 2 is the L2\n");
            fail = 1;
        }
    if (with.features != without.features || with.l1d_bytes != without.l1d_bytes ||
        with.l2_bytes != without.l2_bytes || with.l3_bytes != without.l3_bytes || with.family != without.family ||
        with.model != without.model || with.idflags != without.idflags || with.glibc_nt != without.glibc_nt ||
        with.glibc_movsb_stop != without.glibc_movsb_stop || strcmp(with.notes, without.notes)) {
        printf("FAIL: the CPU described differently with glibc's leaves\n");
        fail = 1;
    }
    printf("%s\n", fail ? "FAILED" : "ok: the same CPU, no leaf glibc keeps read again");
    return fail;
}
