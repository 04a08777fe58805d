/*
 * altmem-movsb-prefix: what the instructions before a rep movsb cost it
 * (docs/perf/intel-family6-model207.md, "rep movsb with one compare").
 *
 *   altmem-movsb-prefix SIZE [SRC_OFFSET DST_OFFSET]
 *
 * Times rep movsb of SIZE bytes (src at SRC_OFFSET in a page, dst 64 MiB +
 * 8 KiB + DST_OFFSET above it, as the bench's grid lays them out) reached
 * through exact instruction sequences: none, 4 or 12 compare-and-branch pairs
 * (never taken), 12 compare-setb-or triples (no branch), 4 taken jumps to
 * 64-byte-aligned targets; then altmem's sse2 and avx2 memcpy variants and the
 * C library's memcpy (run it under another glibc's loader, or with
 * GLIBC_TUNABLES=glibc.cpu.hwcaps=..., to compare that one).  All take turns,
 * round by round; per sequence the median over 301 rounds of 200 calls, in
 * nanoseconds per call, and its difference from the bare rep movsb.
 */
#define _GNU_SOURCE
#include <altmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "benchlib.h"

typedef void *copy_fn(void *, const void *, size_t);

/* Exact sequences: C cannot say them.  System V: rdi dst, rsi src, rdx n.
   COMPARES(name, k): k compare-and-branch pairs, never taken, before it. */
#define COMPARES(name, k)                                                                                         \
    ".p2align 6\n" #name ":\n"                                                                                  \
    "  mov %rdi, %rax\n"                                                                                          \
    "  .rept " #k "\n"                                                                                           \
    "  cmp $0x80, %rdx\n"                                                                                         \
    "  jb 9f\n"                                                                                                   \
    "  .endr\n"                                                                                                   \
    "  mov %rdx, %rcx\n"                                                                                          \
    "  rep movsb\n"                                                                                               \
    "  ret\n"
__asm__(".text\n"
        ".p2align 6\n"
        "prefix_none:\n"
        "  mov %rdi, %rax\n"
        "  mov %rdx, %rcx\n"
        "  rep movsb\n"
        "  ret\n" COMPARES(prefix_cmp4, 4) COMPARES(prefix_cmp12, 12) "9: ud2\n"
        ".p2align 6\n"
        "prefix_setb12:\n"
        "  mov %rdi, %rax\n"
        "  xor %r10d, %r10d\n"
        "  .rept 12\n"
        "  cmp $0x80, %rdx\n"
        "  setb %r11b\n"
        "  or %r11d, %r10d\n"
        "  .endr\n"
        "  mov %rdx, %rcx\n"
        "  rep movsb\n"
        "  ret\n"
        ".p2align 6\n"
        "prefix_jmp4:\n"
        "  mov %rdi, %rax\n"
        "  jmp 1f\n"
        ".p2align 6\n"
        "1: jmp 2f\n"
        ".p2align 6\n"
        "2: jmp 3f\n"
        ".p2align 6\n"
        "3: jmp 4f\n"
        ".p2align 6\n"
        "4: mov %rdx, %rcx\n"
        "  rep movsb\n"
        "  ret\n");
copy_fn prefix_none, prefix_cmp4, prefix_cmp12, prefix_setb12, prefix_jmp4;

static copy_fn *variant(const char *name)
{
    struct altmem_variant_info vi;
    for (size_t i = 0; i < altmem_variant_count(); i++)
        if (!altmem_variant(i, &vi) && vi.routine == ALTMEM_MEMCPY && vi.runnable && !strcmp(vi.name, name))
            return vi.fn.memcpy;
    return NULL;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

enum { ROUNDS = 301, CALLS = 200, MAX_FN = 8 };

int main(int argc, char **argv)
{
    if (argc != 2 && argc != 4) {
        fprintf(stderr, "usage: altmem-movsb-prefix SIZE [SRC_OFFSET DST_OFFSET]\n");
        return 2;
    }
    char *end;
    size_t n = strtoul(argv[1], &end, 0);
    size_t so = argc == 4 ? strtoul(argv[2], NULL, 0) : 0, dof = argc == 4 ? strtoul(argv[3], NULL, 0) : 0;
    if (*end || n == 0 || n > (16u << 20) || so > 4095 || dof > 4095) {
        fprintf(stderr, "altmem-movsb-prefix: SIZE in 1..16 MiB, offsets in 0..4095\n");
        return 2;
    }
    altmem_init();
    const size_t dist = (64u << 20) + 8192, len = dist + (20u << 20);
    unsigned char *buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (buf == MAP_FAILED) {
        perror("altmem-movsb-prefix: mmap");
        return 1;
    }
    memset(buf, 0x5a, len);
    unsigned char *s = buf + so, *d = buf + dist + dof;
    copy_fn *volatile libc = memcpy;
    struct {
        const char *name;
        copy_fn *fn;
    } fns[MAX_FN] = {{"rep movsb alone", prefix_none},
                     {"4 compares+branches", prefix_cmp4},
                     {"12 compares+branches", prefix_cmp12},
                     {"12 compares+setb+or", prefix_setb12},
                     {"4 taken jumps", prefix_jmp4},
                     {"altmem sse2 memcpy", variant("sse2")},
                     {"altmem avx2 memcpy", variant("avx2")},
                     {"C library memcpy", libc}};
    static double t[MAX_FN][ROUNDS];
    for (int r = 0; r < ROUNDS; r++)
        for (int k0 = 0; k0 < MAX_FN; k0++) {
            int k = (k0 + r) % MAX_FN; /* a different order each round */
            copy_fn *f = fns[k].fn;
            if (!f)
                continue;
            for (int i = 0; i < 20; i++)
                f(d, s, n);
            double t0 = bench_now_ns();
            for (int i = 0; i < CALLS; i++)
                f(d, s, n);
            t[k][r] = (bench_now_ns() - t0) / CALLS;
        }
    printf("rep movsb of %zu bytes, src page offset %zu, dst %zu (64 MiB + 8 KiB above): median ns per call over "
           "%d rounds of %d calls\n",
           n, so, dof, ROUNDS, CALLS);
    double base = 0;
    for (int k = 0; k < MAX_FN; k++) {
        if (!fns[k].fn) {
            printf("  %-22s (not runnable here)\n", fns[k].name);
            continue;
        }
        qsort(t[k], ROUNDS, sizeof t[k][0], by_value);
        double med = t[k][ROUNDS / 2];
        if (k == 0)
            base = med;
        printf("  %-22s %8.2f ns  %+6.2f\n", fns[k].name, med, med - base);
    }
    return 0;
}
