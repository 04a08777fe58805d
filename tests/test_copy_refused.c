/*
 * A variant whose linked code is not the code its copy was planned from keeps
 * the branch, and altmem_binding() says why (x86_64, static link).
 *
 * The build plans each copy from the compiled objects (copy_plans_tool.c) and
 * the engine copies only where a digest of the linked bytes matches the plan:
 * a linker's relaxation or a post-link optimiser changes them.  This program
 * changes one byte of altmem_memcpy_sse2 before altmem's constructor runs
 * (a constructor of a higher priority), pinned by ALTMEM_TUNABLES=memcpy=sse2,
 * and puts it back in main, before any call of it.
 *
 *   test_copy_refused       the byte changed: memcpy must be bound by
 *                           "patched branch" with a note naming the digest,
 *                           and copy correctly through the branch
 *   TEST_COPY_REFUSED_MODE=control test_copy_refused
 *                           the byte left alone: "copied" and no note (the
 *                           same checks, so this exits 1: the negative control
 *                           of the first; an environment variable, because
 *                           the constructor that changes the byte sees no argv)
 * 77 where the environment lacks the pin or mprotect refuses.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <altmem.h>

void *altmem_memcpy_sse2(void *, const void *, size_t);

static int changed;   /* the byte was changed and must be put back */
static int unusable;  /* mprotect refused: 77 */

static int flip_first_byte(void)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    unsigned char *code = (unsigned char *)(uintptr_t)altmem_memcpy_sse2;
    void *p = (void *)((uintptr_t)code & ~(page - 1));
    if (mprotect(p, page, PROT_READ | PROT_WRITE) != 0)
        return -1;
    *(volatile unsigned char *)code ^= 1;
    return mprotect(p, page, PROT_READ | PROT_EXEC);
}

static const char *mode;

/* Before altmem's constructor, which has no priority. */
__attribute__((constructor(101))) static void change_the_variant(void)
{
    mode = getenv("TEST_COPY_REFUSED_MODE");
    if (mode && !strcmp(mode, "control"))
        return;
    if (flip_first_byte() != 0)
        unusable = 1;
    else
        changed = 1;
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    if (changed && flip_first_byte() != 0) {
        printf("mprotect refused putting the byte back\n");
        return 1;
    }
    if (unusable) {
        printf("mprotect refused on the variant's page: skipped\n");
        return 77;
    }
    struct altmem_binding_info b;
    altmem_binding(ALTMEM_MEMCPY, &b);
    printf("memcpy bound to %s by %s%s%s\n", b.variant, b.bound_by, b.bound_note[0] ? "; " : "", b.bound_note);
    if (strcmp(b.variant, "sse2")) {
        printf("memcpy is not pinned to sse2 (ALTMEM_TUNABLES=memcpy=sse2): skipped\n");
        return 77;
    }
    int bad = 0;
    if (strcmp(b.bound_by, "patched branch") || !strstr(b.bound_note, "not copied: ") ||
        !strstr(b.bound_note, "digest")) {
        printf("FAIL: expected the patched branch and a note naming the digest\n");
        bad = 1;
    }
    /* The branch still reaches the (restored) variant: every size to 300 B. */
    static unsigned char src[512], dst[512], ref[512];
    for (size_t i = 0; i < sizeof src; i++)
        src[i] = (unsigned char)(i * 131 + 7);
    for (size_t n = 0; n <= 300; n++) {
        memset(dst, 0x5a, sizeof dst);
        memset(ref, 0x5a, sizeof ref);
        for (size_t i = 0; i < n; i++)
            ref[3 + i] = src[5 + i];
        if (altmem_memcpy(dst + 3, src + 5, n) != dst + 3 || memcmp(dst, ref, sizeof dst)) {
            printf("FAIL: altmem_memcpy wrong at %zu bytes\n", n);
            bad = 1;
            break;
        }
    }
    printf("%s\n", bad ? "FAIL" : "ok");
    return bad;
}
