/*
 * The patch site's branch of x86_64: encoder and decoder, pure functions
 * compiled on every host, so that tests/test_encode.c checks them against
 * x86_64's assembler wherever the tests run (src/arch/x86_64/patch.c uses them).
 */
#include "patch/encode.h"

/* x86_64: jmp rel32 (E9), displacement from the end of the 5-byte instruction. */
int altmem__branch_encode_x86_64(uintptr_t site, uintptr_t target, unsigned char *out)
{
    int64_t rel = (int64_t)(target - (site + 5));
    if (rel != (int32_t)rel)
        return -1;
    out[0] = 0xe9;
    altmem__put32(out + 1, (uint32_t)(int32_t)rel);
    return 0;
}

uintptr_t altmem__branch_decode_x86_64(uintptr_t site, const unsigned char *code)
{
    if (code[0] != 0xe9)
        return 0;
    return site + 5 + (uintptr_t)altmem__sext(altmem__get32(code + 1), 32);
}
