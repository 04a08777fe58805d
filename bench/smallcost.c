/*
 * altmem-smallcost: the driver of scripts/small-cost.sh, which runs it under
 * callgrind to count the instructions one call of memcpy, memmove and memset
 * costs at sizes 0..64 -- altmem's entry points (the patched branch and the
 * variant bound under valgrind) against the C library's own routines.
 *
 * For every (routine, implementation, size) it zeroes callgrind's counters,
 * makes CALLS calls, and dumps the counts under the name "ROUTINE IMPL SIZE".
 * The calls are plain calls, as a program makes them (this file is built with
 * -fno-builtin, so memcpy(d, s, n) stays a call): the C library's go through
 * the PLT (one jmp), altmem's through its entry stub (one patched jmp), and
 * both are counted.  The same loop around a function that is one `ret` gives
 * the loop's own cost ("ROUTINE nop SIZE"), which the script subtracts.
 * Outside valgrind the client requests do nothing.
 */
#include <altmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/callgrind.h>

#define CALLS 1000
#define MAX_N 64

/* One instruction: what "the call itself" costs, so that (impl - nop) / CALLS + 1
   is the implementation's instructions including its own ret. */
__asm__(".text\n"
        ".type smallcost_nop, @function\n"
        "smallcost_nop:\n"
        "    ret\n"
        ".size smallcost_nop, .-smallcost_nop\n");
void *smallcost_nop(void *, const void *, size_t);
void *smallcost_nop_set(void *, int, size_t) __asm__("smallcost_nop");

static unsigned char src[4096], dst[4096];

/* The size comes from a volatile, so the compiler cannot specialise a call. */
#define RUN(routine, impl, call)                                                   \
    do {                                                                           \
        char tag[64];                                                              \
        snprintf(tag, sizeof tag, "%s %s %zu", routine, impl, n);                  \
        CALLGRIND_ZERO_STATS;                                                      \
        for (int i = 0; i < CALLS; i++) {                                          \
            size_t m = vn;                                                         \
            call;                                                                  \
        }                                                                          \
        CALLGRIND_DUMP_STATS_AT(tag);                                              \
    } while (0)

static volatile size_t vn;

int main(int argc, char **argv)
{
    const char *libc = argc > 1 ? argv[1] : "libc";
    struct altmem_binding_info b[3];
    for (int r = 0; r < 3; r++)
        altmem_binding((enum altmem_routine)r, &b[r]);
    printf("bound: memcpy=%s memmove=%s memset=%s (%s); calls per dump %d\n", b[0].variant, b[1].variant,
           b[2].variant, b[0].bound_by, CALLS);
    for (size_t n = 0; n <= MAX_N; n++) {
        /* Warm-up outside the counts: first calls resolve PLT entries. */
        memcpy(dst, src, n);
        memmove(dst, src, n);
        memset(dst, 1, n);
        altmem_memcpy(dst, src, n);
        altmem_memmove(dst, src, n);
        altmem_memset(dst, 1, n);
        vn = n;
        RUN("memcpy", "nop", smallcost_nop(dst + 64, src + 64, m));
        RUN("memcpy", libc, memcpy(dst + 64, src + 64, m));
        RUN("memcpy", "altmem", altmem_memcpy(dst + 64, src + 64, m));
        RUN("memmove", "nop", smallcost_nop(dst + 64, src + 64, m));
        RUN("memmove", libc, memmove(dst + 64, src + 64, m));
        RUN("memmove", "altmem", altmem_memmove(dst + 64, src + 64, m));
        RUN("memset", "nop", smallcost_nop_set(dst + 64, 0x5a, m));
        RUN("memset", libc, memset(dst + 64, 0x5a, m));
        RUN("memset", "altmem", altmem_memset(dst + 64, 0x5a, m));
    }
    return 0;
}
