/*
 * The pure decoder of aarch64: the AArch64 feature rules (AT_HWCAP, AT_HWCAP2, DCZID_EL0) and glibc's SVE kernel rule (decode.h).
 * No aarch64 instruction here: compiled on every host.
 */
#include "altmem.h"
#include "cpu.h"
#include "lib/text.h"
#include "decode.h"

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
        altmem__cpu_note(notes, notes_len, "no AT_HWCAP: no ASIMD, SVE or MOPS", 0, 0);
    } else {
        altmem__cpu_note(notes, notes_len, "hwcap:", 0, 0);
        if (raw->hwcap & A64_HWCAP_ASIMD) {
            f |= ALTMEM_FEAT_SIMD128;
            altmem__cpu_note_more(notes, notes_len, " ASIMD (AT_HWCAP bit 1)");
        }
        if (raw->hwcap & A64_HWCAP_SVE)
            altmem__cpu_note_more(notes, notes_len, " SVE (AT_HWCAP bit 22)");
        if (raw->have_hwcap2 && (raw->hwcap2 & A64_HWCAP2_MOPS)) {
            f |= ALTMEM_FEAT_MOPS;
            altmem__cpu_note_more(notes, notes_len, " MOPS (AT_HWCAP2 bit 43)");
        }
        if (!raw->have_hwcap2)
            altmem__cpu_note_more(notes, notes_len, " (no AT_HWCAP2: no MOPS)");
    }
    if (raw->have_dczid) {
        if (raw->dczid & A64_DCZID_DZP)
            altmem__cpu_note(notes, notes_len, "dczva prohibited (DCZID_EL0.DZP)", 0, 0);
        else if ((raw->dczid & A64_DCZID_BS) > 9)
            altmem__cpu_note(notes, notes_len, "dczva block field ", raw->dczid & A64_DCZID_BS, " out of range: not used");
        else {
            *zero_block = 4u << (raw->dczid & A64_DCZID_BS);
            altmem__cpu_note(notes, notes_len, "dczva ", *zero_block, " B (DCZID_EL0)");
        }
    }
    if (raw->have_hwcap && (raw->hwcap & A64_HWCAP_SVE)) {
        unsigned v[3];
        int pref = altmem__aarch64_sve_preferred(raw->release, v);
        if (pref < 0) {
            altmem__cpu_note(notes, notes_len, "kernel release unreadable: SVE not preferred", 0, 0);
        } else {
            altmem__cpu_note(notes, notes_len, "kernel ", v[0], ".");
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
