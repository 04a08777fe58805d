/*
 * x86_64 patch sites: `jmp rel32` (E9 + 32-bit displacement from the next
 * instruction), reach +-2 GiB.  No instruction-cache maintenance: x86 keeps
 * fetch coherent with stores, and patching happens before any other thread of
 * ours can run the site (the mprotect calls around it serialise anyway).
 */
#if defined(__x86_64__)
#include "../../patch/patch.h"

const size_t altmem__arch_site_len = 5;
const size_t altmem__arch_isolation = 4096;

int altmem__arch_encode(uintptr_t site, uintptr_t target, unsigned char *out)
{
    int64_t rel = (int64_t)(target - (site + 5));
    if (rel != (int32_t)rel)
        return -1;
    uint32_t u = (uint32_t)(int32_t)rel;
    out[0] = 0xe9;
    for (int i = 0; i < 4; i++)
        out[1 + i] = (unsigned char)(u >> (8 * i));
    return 0;
}

uintptr_t altmem__arch_decode(uintptr_t site, const unsigned char *code)
{
    if (code[0] != 0xe9)
        return 0;
    uint32_t u = 0;
    for (int i = 0; i < 4; i++)
        u |= (uint32_t)code[1 + i] << (8 * i);
    return site + 5 + (intptr_t)(int32_t)u;
}

void altmem__arch_sync_icache(uintptr_t start, size_t len)
{
    (void)start;
    (void)len;
}
#endif
