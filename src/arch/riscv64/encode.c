/*
 * The patch site's branch of riscv64: encoder and decoder, pure functions
 * compiled on every host, so that tests/test_encode.c checks them against
 * riscv64's assembler wherever the tests run (src/arch/riscv64/patch.c uses them).
 */
#include "patch/encode.h"

/* riscv64: auipc t1, hi20 ; jalr zero, lo12(t1) — +-2 GiB from the auipc.
   lo12 is sign-extended by jalr, so hi20 is rounded to compensate. */
#define RV_AUIPC_T1 0x00000317u        /* opcode AUIPC, rd = x6 (t1)            */
#define RV_JALR_X0_T1 0x00030067u      /* opcode JALR, rd = x0, funct3 0, rs1 = x6 */

int altmem__branch_encode_riscv64(uintptr_t site, uintptr_t target, unsigned char *out)
{
    int64_t off = (int64_t)(target - site);
    /* The reach first, so that the rounding below cannot overflow: hi20 in
       [-2^19, 2^19) and lo12 in [-2048, 2047] reach [-2^31 - 2048, 2^31 - 2049]. */
    if ((off & 1) || off < -(INT64_C(1) << 31) - 2048 || off > (INT64_C(1) << 31) - 2049)
        return -1;
    int64_t hi = (off + 0x800) >> 12;
    int64_t lo = off - hi * 4096;
    altmem__put32(out, RV_AUIPC_T1 | ((uint32_t)hi & 0xfffffu) << 12);
    altmem__put32(out + 4, RV_JALR_X0_T1 | ((uint32_t)lo & 0xfffu) << 20);
    return 0;
}

uintptr_t altmem__branch_decode_riscv64(uintptr_t site, const unsigned char *code)
{
    uint32_t a = altmem__get32(code), j = altmem__get32(code + 4);
    if ((a & 0xfffu) != RV_AUIPC_T1 || (j & 0xfffffu) != RV_JALR_X0_T1)
        return 0;
    int64_t hi = altmem__sext(a >> 12, 20), lo = altmem__sext(j >> 20, 12);
    /* jalr clears bit 0 of the address it computes: that is where it goes. */
    return (site + (uintptr_t)(hi * 4096 + lo)) & ~(uintptr_t)1;
}
