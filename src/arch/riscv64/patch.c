/*
 * riscv64 patch sites: `auipc t1, hi20; jalr zero, lo12(t1)`, reach +-2 GiB
 * (encode.c).  Two instructions are rewritten, so the site must not
 * run while it is written: patching happens in the constructor, before other
 * threads of ours exist.  fence.i makes the new code visible to this hart; the
 * riscv_flush_icache system call to the others (and to this one after a
 * migration).
 */
#include "os/os.h"
#include "patch/encode.h"
#include "patch/patch.h"

const size_t altmem__arch_site_len = 8;
const size_t altmem__arch_isolation = 4096;

int altmem__arch_encode(uintptr_t site, uintptr_t target, unsigned char *out)
{
    return altmem__branch_encode_riscv64(site, target, out);
}

uintptr_t altmem__arch_decode(uintptr_t site, const unsigned char *code)
{
    return altmem__branch_decode_riscv64(site, code);
}

void altmem__arch_sync_icache(uintptr_t start, size_t len)
{
    __asm__ volatile("fence.i" : : : "memory");
    altmem__os_riscv_flush_icache((void *)start, (void *)(start + len));
}
