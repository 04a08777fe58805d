/*
 * loongarch64 patch sites: `b offs26`, reach +-128 MiB (encode.c).
 * Linux on LoongArch uses 16 KiB pages by default, so the stubs are isolated in
 * 16 KiB.  `ibar 0` orders the store before later instruction fetch.
 */
#include "patch/encode.h"
#include "patch/patch.h"

const size_t altmem__arch_site_len = 4;
const size_t altmem__arch_isolation = 16384;

int altmem__arch_encode(uintptr_t site, uintptr_t target, unsigned char *out)
{
    return altmem__branch_encode_loongarch64(site, target, out);
}

uintptr_t altmem__arch_decode(uintptr_t site, const unsigned char *code)
{
    return altmem__branch_decode_loongarch64(site, code);
}

void altmem__arch_sync_icache(uintptr_t start, size_t len)
{
    (void)start;
    (void)len;
    __asm__ volatile("ibar 0" : : : "memory");
}
