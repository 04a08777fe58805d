/*
 * aarch64 patch sites: `b imm26`, reach +-128 MiB (encode.c).  The
 * stubs are isolated in 16 KiB (4 KiB and 16 KiB kernels patch; 64 KiB-page
 * kernels fall back to the pointer).  After writing, the new instruction is
 * cleaned to the point of unification and the stale one invalidated, by hand:
 * __builtin___clear_cache would call into libgcc, and the core calls nothing.
 */
#include "patch/encode.h"
#include "patch/patch.h"

const size_t altmem__arch_site_len = 4;
const size_t altmem__arch_isolation = 16384;

int altmem__arch_encode(uintptr_t site, uintptr_t target, unsigned char *out)
{
    return altmem__branch_encode_aarch64(site, target, out);
}

uintptr_t altmem__arch_decode(uintptr_t site, const unsigned char *code)
{
    return altmem__branch_decode_aarch64(site, code);
}

void altmem__arch_sync_icache(uintptr_t start, size_t len)
{
    uint64_t ctr;
    __asm__ volatile("mrs %0, ctr_el0" : "=r"(ctr));
    uintptr_t dline = (uintptr_t)4 << ((ctr >> 16) & 15);  /* DminLine, in words */
    uintptr_t iline = (uintptr_t)4 << (ctr & 15);          /* IminLine           */
    uintptr_t end = start + len;
    for (uintptr_t p = start & ~(dline - 1); p < end; p += dline)
        __asm__ volatile("dc cvau, %0" : : "r"(p) : "memory");
    __asm__ volatile("dsb ish" : : : "memory");
    for (uintptr_t p = start & ~(iline - 1); p < end; p += iline)
        __asm__ volatile("ic ivau, %0" : : "r"(p) : "memory");
    __asm__ volatile("dsb ish\n\tisb" : : : "memory");
}
