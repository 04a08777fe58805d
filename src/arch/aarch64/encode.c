/*
 * The patch site's branch of aarch64: encoder and decoder, pure functions
 * compiled on every host, so that tests/test_encode.c checks them against
 * aarch64's assembler wherever the tests run (src/arch/aarch64/patch.c uses them).
 */
#include "patch/encode.h"

/* aarch64: B imm26, word offset from the instruction, +-128 MiB. */
int altmem__branch_encode_aarch64(uintptr_t site, uintptr_t target, unsigned char *out)
{
    int64_t off = (int64_t)(target - site);
    if ((off & 3) || off < -(INT64_C(1) << 27) || off >= (INT64_C(1) << 27))
        return -1;
    altmem__put32(out, 0x14000000u | ((uint32_t)(off >> 2) & 0x03ffffffu));
    return 0;
}

uintptr_t altmem__branch_decode_aarch64(uintptr_t site, const unsigned char *code)
{
    uint32_t w = altmem__get32(code);
    if ((w & 0xfc000000u) != 0x14000000u)
        return 0;
    return site + (uintptr_t)(altmem__sext(w, 26) * 4);
}
