/*
 * The fix-up after a store that faulted part-way through (src/uaccess/uaccess_bytes.c),
 * deterministically: uaccess.shrink_race finds the case only by racing another
 * thread's mprotect against a vector store, so here the state such a race leaves
 * is made by hand.  The destination page is read-only; bytes [p, p + k) already
 * hold what the store was storing (the part it wrote before write access went);
 * the fault address the handler would have kept is dst + p + k.  The fix-up,
 * entered with progress p, must return n - (p + k): the prefix holds the source
 * (or zeros) and nothing past it was written.  And it must claim no more than
 * that: not past the kept address, not past a byte that differs, not outside the
 * fault's 4 KiB block, nothing without a kept address, nothing from a stale one,
 * and no crash where the destination cannot even be read.
 *
 *   test_uaccess_partial               the cases; exit 0 if all pass
 *   test_uaccess_partial --self-test   the same cases with no fault address kept
 *                                      (the fix-up before this one): the three
 *                                      cases that need it must fail
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "altmem.h"
#include "os/os.h"
#include "uaccess/extable.h"

static int no_keep; /* --self-test: the fix-up is not told the fault address */
static int failures, cases;

static void keep(uintptr_t addr)
{
    if (no_keep)
        return;
    siginfo_t si;
    memset(&si, 0, sizeof si);
    si.si_addr = (void *)addr;
    altmem__os_fault_keep(&si);
}

static void expect(const char *what, size_t got, size_t want)
{
    cases++;
    if (got == want) {
        printf("ok   %-58s r = %zu\n", what, got);
    } else {
        failures++;
        printf("FAIL %-58s r = %zu, expected %zu\n", what, got, want);
    }
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--self-test") == 0)
        no_keep = 1;
    else if (argc > 1) {
        fprintf(stderr, "usage: %s [--self-test]\n", argv[0]);
        return 2;
    }
    if (altmem_uaccess_install()) {
        fprintf(stderr, "test_uaccess_partial: altmem_uaccess_install failed\n");
        return 2;
    }
    const size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    /* dst: two read-only pages (the second for the "next block" case) and a
       PROT_NONE one; src: readable. */
    unsigned char *dst = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    unsigned char *src = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (dst == MAP_FAILED || src == MAP_FAILED) {
        perror("mmap");
        return 2;
    }
    for (size_t i = 0; i < 2 * pg; i++)
        src[i] = (unsigned char)(i * 7 + 1);
    memset(dst, 0xee, 2 * pg);
    const size_t p = 64, n = 256;
    memcpy(dst + p, src + p, 16); /* a 16-byte store's bytes, as if written */
    memset(dst + pg + p, 0, 16); /* zeros for the clear cases */
    /* [pg - 8, pg): the first 8 bytes of a store that would go on into page 2. */
    memcpy(dst + pg - 8, src + pg - 8, 8);
    if (mprotect(dst, 2 * pg, PROT_READ) || mprotect(dst + 2 * pg, pg, PROT_NONE)) {
        perror("mprotect");
        return 2;
    }
    const uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src, dz = d + pg;

    keep(d + p + 8);
    expect("copy: 8 bytes of the store written, fault at p+8", altmem__uaccess_bytes(d, s, n, p, 0), n - (p + 8));
    keep(d + p + 16);
    expect("copy: 16 bytes written, fault at p+16", altmem__uaccess_bytes(d, s, n, p, 0), n - (p + 16));
    keep(dz + p + 16);
    expect("clear: 16 zeros written, fault at p+16", altmem__uaccess_bytes(dz, 0, n, p, 1), n - (p + 16));
    /* Claim no more than that. */
    keep(d + p + 32);
    expect("copy: fault at p+32, only 16 bytes hold the source", altmem__uaccess_bytes(d, s, n, p, 0),
           no_keep ? n - p : n - (p + 16));
    keep(d + p - 8);
    expect("copy: fault address below the progress", altmem__uaccess_bytes(d, s, n, p, 0), n - p);
    keep(0);
    expect("copy: no fault address", altmem__uaccess_bytes(d, s, n, p, 0), n - p);
    keep(d + p + 8);
    (void)altmem__uaccess_bytes(d, s, n, p, 0);
    expect("copy: the kept address is used once (a stale one is not)", altmem__uaccess_bytes(d, s, n, p, 0),
           n - p);
    /* The store at pg - 8 wrote its first 8 bytes; the fault address is in the
       next 4 KiB block (and page): nothing past pg - 8 may be claimed, though
       those bytes hold the source. */
    keep(d + pg + 8);
    expect("copy: fault address in the next 4 KiB block", altmem__uaccess_bytes(d + pg - 64, s + pg - 64, n, 56, 0),
           n - 56);
    /* A destination that cannot be read: no claim, no crash. */
    keep(d + 2 * pg + p + 8);
    expect("copy: PROT_NONE destination", altmem__uaccess_bytes(d + 2 * pg, s, n, p, 0), n - p);

    const int need = 3; /* the cases only the kept address can pass */
    if (no_keep) {
        printf("test_uaccess_partial --self-test: %d of %d cases failed without the fault address (%d must)\n",
               failures, cases, need);
        return failures == need ? 0 : 1;
    }
    printf("test_uaccess_partial: %d cases, %d failures\n", cases, failures);
    return failures ? 1 : 0;
}
