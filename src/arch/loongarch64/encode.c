/*
 * The patch site's branch of loongarch64: encoder and decoder, pure functions
 * compiled on every host, so that tests/test_encode.c checks them against
 * loongarch64's assembler wherever the tests run (src/arch/loongarch64/patch.c uses them).
 */
#include "patch/encode.h"

/* loongarch64: B offs26, word offset split as offs[15:0] in bits 25..10 and
   offs[25:16] in bits 9..0, +-128 MiB. */
int altmem__branch_encode_loongarch64(uintptr_t site, uintptr_t target, unsigned char *out)
{
    int64_t off = (int64_t)(target - site);
    if ((off & 3) || off < -(INT64_C(1) << 27) || off >= (INT64_C(1) << 27))
        return -1;
    uint32_t imm = (uint32_t)(off >> 2) & 0x03ffffffu;
    altmem__put32(out, 0x50000000u | (imm & 0xffffu) << 10 | imm >> 16);
    return 0;
}

uintptr_t altmem__branch_decode_loongarch64(uintptr_t site, const unsigned char *code)
{
    uint32_t w = altmem__get32(code);
    if ((w & 0xfc000000u) != 0x50000000u)
        return 0;
    uint32_t imm = ((w >> 10) & 0xffffu) | (w & 0x3ffu) << 16;
    return site + (uintptr_t)(altmem__sext(imm, 26) * 4);
}
