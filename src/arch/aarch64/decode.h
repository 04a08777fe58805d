/* The pure decoder of aarch64: the AArch64 feature rules (AT_HWCAP, AT_HWCAP2,
   DCZID_EL0) and glibc's SVE kernel rule. Compiled on every host (every
   src/arch/<arch>/decode.c), so tests/test_decode.c checks it anywhere; cpu.c
   gathers the raw values on aarch64 itself. */
#ifndef ALTMEM_AARCH64_DECODE_H
#define ALTMEM_AARCH64_DECODE_H

#include <stddef.h>
#include <stdint.h>

/* AArch64's raw inputs (src/arch/aarch64/cpu.c gathers them). */
struct altmem__aarch64_raw {
    int have_hwcap, have_hwcap2, have_dczid;
    unsigned long hwcap;
    uint64_t hwcap2;
    uint64_t dczid;                       /* DCZID_EL0                          */
    const char *release;                  /* uname's release, or NULL           */
};
/* Features; *zero_block = the DC ZVA block in bytes, or 0. */
uint64_t altmem__decode_aarch64(const struct altmem__aarch64_raw *raw, uint32_t *zero_block,
                                char *notes, size_t notes_len);
/* glibc's SVE kernel rule: 1 preferred, 0 not, -1 release unparsable; v gets
   the release's major, minor, patch. */
int altmem__aarch64_sve_preferred(const char *release, unsigned v[3]);

#endif
