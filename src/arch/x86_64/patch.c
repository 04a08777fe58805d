/*
 * x86_64 patch sites: `jmp rel32`, reach +-2 GiB (encode.c).  No
 * instruction-cache maintenance: x86 keeps fetch coherent with stores, and
 * patching happens before any other thread of ours can run the site (the
 * mprotect system calls around the write serialise anyway).  The stubs that
 * own a room get the bound variant's code itself where copy.h can move it.
 */
#include "copy.h"
#include "patch/encode.h"
#include "patch/patch.h"

const size_t altmem__arch_site_len = 5;
const size_t altmem__arch_isolation = 4096;

int altmem__arch_encode(uintptr_t site, uintptr_t target, unsigned char *out)
{
    return altmem__branch_encode_x86_64(site, target, out);
}

uintptr_t altmem__arch_decode(uintptr_t site, const unsigned char *code)
{
    return altmem__branch_decode_x86_64(site, code);
}

void altmem__arch_sync_icache(uintptr_t start, size_t len)
{
    (void)start;
    (void)len;
}

size_t altmem__arch_copy_plan(uintptr_t site, uintptr_t target, size_t room, int *tail)
{
    return altmem__x86_copy_plan(site, (const unsigned char *)target, room, tail);
}

int altmem__arch_copy_apply(uintptr_t site, uintptr_t target, size_t len, int tail, int check)
{
    return altmem__x86_copy_apply((volatile unsigned char *)site, site, (const unsigned char *)target, len, tail,
                                  check);
}
