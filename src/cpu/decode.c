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

/* RISC-V: only MISALIGNED_SCALAR_PERF == FAST (3) counts as UAL: EMULATED (1)
   traps into the kernel at every access (10-100x slower), SLOW (2) is slower than
   bytes, UNKNOWN (0) and UNSUPPORTED (4) promise nothing.  Kernels before 6.11
   answer through CPUPERF_0 (key 5) with the same values in bits 0-2. */
uint64_t altmem__decode_riscv(long hwprobe_rc, int64_t perf9, int64_t perf5,
                              char *notes, size_t notes_len)
{
    if (hwprobe_rc != 0) {
        note(notes, notes_len, "riscv_hwprobe failed (errno ", (unsigned long long)-hwprobe_rc,
             "): assuming no fast unaligned access");
        return 0;
    }
    int64_t perf = perf9 >= 0 ? perf9 : perf5 >= 0 ? (perf5 & 7) : -1;
    if (perf < 0) {
        note(notes, notes_len, "riscv_hwprobe knows no misaligned-access key: assuming no UAL", 0, 0);
        return 0;
    }
    if (perf != 3)
        note(notes, notes_len, "riscv_hwprobe misaligned scalar perf = ", (unsigned long long)perf,
             " (3 = fast): no UAL");
    return perf == 3 ? ALTMEM_FEAT_UAL : 0;
}

/* AArch64: unaligned access to normal memory is architectural (SCTLR_EL1.A is
   clear under Linux) and fast; ASIMD is AT_HWCAP bit 1. */
uint64_t altmem__decode_aarch64(int have_hwcap, unsigned long hwcap)
{
    uint64_t f = ALTMEM_FEAT_UAL;
    if (have_hwcap && (hwcap & (1ul << 1)))
        f |= ALTMEM_FEAT_SIMD128;
    return f;
}
