/*
 * The pure decoder of loongarch64: the LoongArch feature rules (CPUCFG, AT_HWCAP) (decode.h).
 * No loongarch64 instruction here: compiled on every host.
 */
#include "altmem.h"
#include "cpu.h"
#include "decode.h"

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
        altmem__cpu_note(notes, notes_len, "no AT_HWCAP: UAL from CPUCFG alone, SIMD not used", 0, 0);
        return f;
    }
    int hw_ual = (hwcap >> 2) & 1;
    if (cfg_ual && hw_ual)
        f |= ALTMEM_FEAT_UAL;
    else if (cfg_ual != hw_ual)
        altmem__cpu_note(notes, notes_len, "CPUCFG.UAL and AT_HWCAP.UAL disagree (CPUCFG says ", (unsigned)cfg_ual,
             "): assuming no UAL");
    if (hwcap & (1ul << 4))
        f |= ALTMEM_FEAT_SIMD128;
    if (hwcap & (1ul << 5))
        f |= ALTMEM_FEAT_SIMD256;
    /* Which bits gave the vector features (what `altmem info` shows beside the
       lsx / lasx bindings). */
    if (f & ALTMEM_FEAT_SIMD128)
        altmem__cpu_note(notes, notes_len, f & ALTMEM_FEAT_SIMD256 ? "hwcap: LSX (AT_HWCAP bit 4), LASX (AT_HWCAP bit 5)"
                                                       : "hwcap: LSX (AT_HWCAP bit 4)", 0, 0);
    else if (f & ALTMEM_FEAT_SIMD256)
        altmem__cpu_note(notes, notes_len, "hwcap: LASX (AT_HWCAP bit 5) without LSX (bit 4)", 0, 0);
    return f;
}
