/* The pure decoder of riscv64: the RISC-V feature rules (riscv_hwprobe keys,
   AT_HWCAP). Compiled on every host (every src/arch/<arch>/decode.c), so
   tests/test_decode.c checks it anywhere; cpu.c gathers the raw values on riscv64
   itself. */
#ifndef ALTMEM_RISCV64_DECODE_H
#define ALTMEM_RISCV64_DECODE_H

#include <stddef.h>
#include <stdint.h>

/* What riscv64 detection gathers (src/arch/riscv64/cpu.c).  hwprobe_rc: the
   syscall's result (0 or -errno); perf9/perf5: the values of keys 9
   (MISALIGNED_SCALAR_PERF) and 5 (CPUPERF_0), or -1 when the kernel did not
   know the key; key 4 (IMA_EXT_0) and key 6 (ZICBOZ_BLOCK_SIZE) with whether
   the kernel knew them; AT_HWCAP, for V where hwprobe is absent. */
struct altmem__riscv_raw {
    long hwprobe_rc;
    int64_t perf9, perf5;
    int have_ima0, have_block, have_hwcap;
    uint64_t ima0, block;
    unsigned long hwcap;
};
/* Features (UAL, RVV, ZICBOZ); *zero_block = the Zicboz block size when ZICBOZ
   is set, else 0.  Notes say which key and bit gave each. */
uint64_t altmem__decode_riscv(const struct altmem__riscv_raw *raw, uint32_t *zero_block,
                              char *notes, size_t notes_len);

#endif
