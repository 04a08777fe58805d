/*
 * libaltmem.so's IFUNC entries asked too early (src/select.c,
 * altmem__ifunc_resolve): tests/entry_early_lib.c calls altmem_memcpy without
 * naming libaltmem.so, and this program is linked with both and with -z now,
 * libaltmem.so first, so glibc relocates that library first and resolves its
 * reference while libaltmem.so is not relocated (glibc also prints "Relink ...
 * for IFUNC symbol" then).  The resolver must hand it the stub, which is right
 * (the patched branch), and say so in altmem_binding()'s note; this program's
 * own calls, resolved after, reach the variant.
 */
#include <altmem.h>
#include <stdio.h>
#include <string.h>

#include "entry_bound.h"

void *entry_early_copy(void *dst, const void *src, size_t n);


int main(void)
{
    unsigned char src[300], dst[300], ref[300];
    int fail = 0;
    for (size_t i = 0; i < sizeof src; i++)
        src[i] = (unsigned char)(i * 37 + 1);
    for (size_t n = 0; n <= 256; n++) {
        memset(dst, 0xee, sizeof dst);
        memcpy(ref, dst, sizeof ref);
        memcpy(ref + 3, src + 1, n);
        fail |= entry_early_copy(dst + 3, src + 1, n) != dst + 3 || memcmp(dst, ref, sizeof dst);
    }
    struct altmem_binding_info b;
    altmem_binding(ALTMEM_MEMCPY, &b);
    int noted = strstr(b.bound_note, "relocated before") != NULL;
    int direct = entry_is_bound_variant(ALTMEM_MEMCPY, (const void *)altmem_memcpy);
    printf("early library's copies: %s; memcpy bound by %s, note \"%s\"; this program's address is the variant: %s\n",
           fail ? "WRONG" : "ok", b.bound_by, b.bound_note, direct ? "yes" : "no");
    return fail || !noted || !direct;
}
