/*
 * altmem-qemucost: the driver of scripts/qemu-cost.sh, which runs it under
 * qemu-user and counts the guest instructions executed between two calls of a
 * marker function, either with a TCG plugin (tests/qemu-plugin/insncount.c,
 * the dynamic qemu 7.2) or from qemu's one-instruction-per-TB exec log (any
 * qemu, the static qemu 10 too).  Under an emulator time means nothing; the
 * number of instructions a call executes is exact and repeatable.
 *
 * For every runnable variant of every routine in the registry (and on hosted
 * builds the C library's memcpy, memmove, memset), for every size asked, it
 * prints one line (memset stores 0x5a; ROUTINE "memset0" is memset storing 0,
 * the zeroing paths)
 *
 *     seg INDEX ROUTINE IMPL SIZE CALLS
 *
 * and then runs that segment: altmem_cost_mark(), CALLS calls of the function
 * through a pointer, altmem_cost_mark().  Segment INDEX lies between the
 * marker's hits 2*INDEX and 2*INDEX+1 in program order.  Before each routine's
 * rows at a size, the same loop calls a function that is one return
 * instruction through the same kind of pointer (IMPL "nop"): its count is the
 * loop's own, which the script subtracts, so one call's instructions are
 * (impl - nop) / CALLS + 1, the routine's own return included.
 *
 * IMPL "plant" (ROUTINE "plant", sizes up to 4096) is a known loop, 2*SIZE + 2
 * instructions per call on every architecture here: the check that the counts
 * are the instructions executed, exactly.  --extra N also runs that loop with N
 * iterations after every measured call (not in the nop loop), so every count
 * must grow: the negative control.
 *
 * CALLS is 4 (2 above 4 KiB) unless --calls says otherwise: the counts are
 * exact, so more calls change nothing but the run time.
 * Buffers: src and dst 4096-aligned plus the offsets given (default 0 and 0),
 * distinct (memmove copies forward, no overlap), warmed by one call before
 * each segment.  The hosted flavour (bench/, glibc) and the freestanding one
 * (tests/freestanding runtime, loongarch64 has no C library) share this file.
 *
 *   altmem-qemucost [--sizes LIST] [--calls K] [--routine R] [--impl NAME]
 *                   [--offsets D,S] [--extra N] [--no-libc]
 *   LIST: comma-separated sizes and ranges (0-64,256,4096,65536: the default)
 */
#include <altmem.h>
#include <stddef.h>
#include <stdint.h>

#include "registry.h"
#include "routines.h"

#ifdef QEMUCOST_FREESTANDING
#include "fs_rt.h"
#define OUT fs_printf
#define ERR fs_eprintf
#define STREQ(a, b) (fs_strcmp((a), (b)) == 0)
#else
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define OUT printf
#define ERR(...) fprintf(stderr, __VA_ARGS__)
#define STREQ(a, b) (strcmp((a), (b)) == 0)
#endif

/* The marker, the nop and the planted loop are written in assembly: their
   instruction counts must not depend on the compiler. */
#if defined(__aarch64__)
__asm__(".text\n"
        ".p2align 4\n"
        ".global altmem_cost_mark\n.type altmem_cost_mark, %function\n"
        "altmem_cost_mark:\n  ret\n.size altmem_cost_mark, .-altmem_cost_mark\n"
        ".p2align 4\n"
        ".global altmem_cost_nop\n.type altmem_cost_nop, %function\n"
        "altmem_cost_nop:\n  ret\n.size altmem_cost_nop, .-altmem_cost_nop\n"
        ".p2align 4\n"
        ".global altmem_cost_plant\n.type altmem_cost_plant, %function\n"
        "altmem_cost_plant:\n"
        "  cbz x2, 2f\n"
        "1: subs x2, x2, #1\n"
        "  b.ne 1b\n"
        "2: ret\n"
        ".size altmem_cost_plant, .-altmem_cost_plant\n");
#elif defined(__riscv) && __riscv_xlen == 64
__asm__(".text\n"
        ".p2align 4\n"
        ".global altmem_cost_mark\n.type altmem_cost_mark, @function\n"
        "altmem_cost_mark:\n  ret\n.size altmem_cost_mark, .-altmem_cost_mark\n"
        ".p2align 4\n"
        ".global altmem_cost_nop\n.type altmem_cost_nop, @function\n"
        "altmem_cost_nop:\n  ret\n.size altmem_cost_nop, .-altmem_cost_nop\n"
        ".p2align 4\n"
        ".global altmem_cost_plant\n.type altmem_cost_plant, @function\n"
        "altmem_cost_plant:\n"
        "  beqz a2, 2f\n"
        "1: addi a2, a2, -1\n"
        "  bnez a2, 1b\n"
        "2: ret\n"
        ".size altmem_cost_plant, .-altmem_cost_plant\n");
#elif defined(__loongarch__) && __loongarch_grlen == 64
__asm__(".text\n"
        ".p2align 4\n"
        ".global altmem_cost_mark\n.type altmem_cost_mark, @function\n"
        "altmem_cost_mark:\n  jr $ra\n.size altmem_cost_mark, .-altmem_cost_mark\n"
        ".p2align 4\n"
        ".global altmem_cost_nop\n.type altmem_cost_nop, @function\n"
        "altmem_cost_nop:\n  jr $ra\n.size altmem_cost_nop, .-altmem_cost_nop\n"
        ".p2align 4\n"
        ".global altmem_cost_plant\n.type altmem_cost_plant, @function\n"
        "altmem_cost_plant:\n"
        "  beqz $a2, 2f\n"
        "1: addi.d $a2, $a2, -1\n"
        "  bnez $a2, 1b\n"
        "2: jr $ra\n"
        ".size altmem_cost_plant, .-altmem_cost_plant\n");
#else
#error "altmem-qemucost: the marker is written for aarch64, riscv64 and loongarch64 (the emulated targets)"
#endif

void altmem_cost_mark(void);
void *altmem_cost_nop(void *, const void *, size_t);
void *altmem_cost_plant(void *, const void *, size_t);

typedef void *copy_fn(void *, const void *, size_t);
typedef void *set_fn(void *, int, size_t);
typedef size_t ucopy_fn(void *, const void *, size_t);
typedef size_t uclear_fn(void *, size_t);

enum sig { SIG_COPY, SIG_SET, SIG_SET0, SIG_UCOPY, SIG_UCLEAR };

#define MAX_N 65536
static unsigned char src_buf[MAX_N + 8192] __attribute__((aligned(4096)));
static unsigned char dst_buf[MAX_N + 8192] __attribute__((aligned(4096)));

static size_t extra; /* --extra: planted iterations after each measured call */

/* One loop per signature; the measured and the nop segments run the same
   code, so the subtraction leaves the calls alone.  The pointers are opaque
   (volatile loads), so nothing is specialised for a size or a callee. */
#define LOOP(name, fnty, callexpr)                                                             \
    __attribute__((noinline)) static void name(fnty *volatile *pf, void *d, const void *s,       \
                                               size_t n, unsigned k, size_t x)                 \
    {                                                                                          \
        fnty *f = *pf;                                                                         \
        (void)s;                                                                               \
        altmem_cost_mark();                                                                    \
        for (unsigned i = 0; i < k; i++) {                                                     \
            callexpr;                                                                          \
            if (x)                                                                             \
                altmem_cost_plant(d, s, x);                                                    \
        }                                                                                      \
        altmem_cost_mark();                                                                    \
    }
LOOP(loop_copy, copy_fn, f(d, s, n))
LOOP(loop_set, set_fn, f(d, 0x5a, n))
LOOP(loop_set0, set_fn, f(d, 0, n))
LOOP(loop_ucopy, ucopy_fn, f(d, s, n))
LOOP(loop_uclear, uclear_fn, f(d, n))

static unsigned seg_index;

static void run(enum sig sg, const char *routine, const char *impl, void *fn, size_t n, unsigned k,
                size_t x, size_t doff, size_t soff)
{
    void *d = dst_buf + doff;
    const void *s = src_buf + soff;
    /* Warm: the pages are touched and the code translated before the count. */
    copy_fn *volatile pc = (copy_fn *)fn;
    set_fn *volatile ps = (set_fn *)fn;
    ucopy_fn *volatile pu = (ucopy_fn *)fn;
    uclear_fn *volatile pz = (uclear_fn *)fn;
    /* The warm-up call is a segment of its own (its marks count), unreported. */
    seg_index++;
    switch (sg) {
    case SIG_COPY:
        loop_copy(&pc, d, s, n, 1, 0);
        break;
    case SIG_SET:
        loop_set(&ps, d, s, n, 1, 0);
        break;
    case SIG_SET0:
        loop_set0(&ps, d, s, n, 1, 0);
        break;
    case SIG_UCOPY:
        loop_ucopy(&pu, d, s, n, 1, 0);
        break;
    case SIG_UCLEAR:
        loop_uclear(&pz, d, s, n, 1, 0);
        break;
    }
    OUT("seg %u %s %s %u %u\n", seg_index++, routine, impl, (unsigned)n, k);
    switch (sg) {
    case SIG_COPY:
        loop_copy(&pc, d, s, n, k, x);
        break;
    case SIG_SET:
        loop_set(&ps, d, s, n, k, x);
        break;
    case SIG_SET0:
        loop_set0(&ps, d, s, n, k, x);
        break;
    case SIG_UCOPY:
        loop_ucopy(&pu, d, s, n, k, x);
        break;
    case SIG_UCLEAR:
        loop_uclear(&pz, d, s, n, k, x);
        break;
    }
}

/* Each routine's signature, from its registry entry's access and reads fields. */
#define SIG_plain_src SIG_COPY
#define SIG_plain_nosrc SIG_SET
#define SIG_fault_src SIG_UCOPY
#define SIG_fault_nosrc SIG_UCLEAR
static const enum sig routine_sig[ALTMEM_ROUTINE_COUNT] = {
#define ROUTINE(routine, libc_name, access, reads) [ALTMEM__ID_##routine] = SIG_##access##_##reads,
#include "registry.def"
#undef ROUTINE
};

static int parse_num(const char *p, const char **end, size_t *out)
{
    size_t v = 0;
    if (*p < '0' || *p > '9')
        return -1;
    while (*p >= '0' && *p <= '9') {
        v = v * 10 + (size_t)(*p - '0');
        if (v > MAX_N * 16)
            return -1;
        p++;
    }
    *end = p;
    *out = v;
    return 0;
}

#define MAX_SIZES 512
static size_t sizes[MAX_SIZES];
static int nsizes;

static int parse_sizes(const char *p)
{
    nsizes = 0;
    while (*p) {
        size_t a, b;
        if (parse_num(p, &p, &a) != 0)
            return -1;
        b = a;
        if (*p == '-' && parse_num(p + 1, &p, &b) != 0)
            return -1;
        if (b < a || b > MAX_N)
            return -1;
        for (size_t v = a; v <= b; v++) {
            if (nsizes == MAX_SIZES)
                return -1;
            sizes[nsizes++] = v;
        }
        if (*p == ',')
            p++;
        else if (*p)
            return -1;
    }
    return nsizes ? 0 : -1;
}

static int usage(void)
{
    ERR("usage: altmem-qemucost [--sizes LIST] [--calls K] [--routine R] [--impl NAME] [--offsets D,S]\n"
        "                       [--extra N] [--no-libc]   (LIST e.g. 0-64,256,4096,65536; sizes <= %u)\n",
        (unsigned)MAX_N);
    return 2;
}

static int body(int argc, char **argv)
{
    const char *only_routine = 0, *only_impl = 0;
    unsigned calls = 0;
    size_t doff = 0, soff = 0;
    int libc = 1;
    if (parse_sizes("0-64,256,4096,65536") != 0)
        return 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : 0, *e;
        size_t num;
        if (STREQ(a, "--no-libc")) {
            libc = 0;
            continue;
        }
        if (!v)
            return usage();
        i++;
        if (STREQ(a, "--sizes")) {
            if (parse_sizes(v) != 0) {
                ERR("altmem-qemucost: bad --sizes '%s'\n", v);
                return 2;
            }
        } else if (STREQ(a, "--calls")) {
            if (parse_num(v, &e, &num) != 0 || *e || num == 0 || num > 1000) {
                ERR("altmem-qemucost: bad --calls '%s' (1..1000)\n", v);
                return 2;
            }
            calls = (unsigned)num;
        } else if (STREQ(a, "--extra")) {
            if (parse_num(v, &e, &num) != 0 || *e || num > 100000) {
                ERR("altmem-qemucost: bad --extra '%s' (0..100000)\n", v);
                return 2;
            }
            extra = num;
        } else if (STREQ(a, "--routine")) {
            only_routine = v;
        } else if (STREQ(a, "--impl")) {
            only_impl = v;
        } else if (STREQ(a, "--offsets")) {
            if (parse_num(v, &e, &doff) != 0 || *e != ',' || parse_num(e + 1, &e, &soff) != 0 || *e ||
                doff > 4095 || soff > 4095) {
                ERR("altmem-qemucost: bad --offsets '%s' (D,S each 0..4095)\n", v);
                return 2;
            }
        } else {
            return usage();
        }
    }
    OUT("qemucost: mark %p calls %u offsets %u,%u extra %u\n", (void *)altmem_cost_mark, calls,
        (unsigned)doff, (unsigned)soff, (unsigned)extra);
    /* The source stays zero: no routine here takes a different path for
       different bytes, and filling 72 KiB would be most of a short run's log. */

    size_t nv = altmem_variant_count();
    for (int si = 0; si < nsizes; si++) {
        size_t n = sizes[si];
        /* The counts are exact, so a few calls do; fewer where they are long. */
        unsigned k = calls ? calls : n > 4096 ? 2 : 4;
        /* The planted loop is the counter's check, not a result: up to 4 KiB. */
        if ((!only_routine || STREQ(only_routine, "plant")) && n <= 4096) {
            run(SIG_COPY, "plant", "nop", (void *)altmem_cost_nop, n, k, 0, doff, soff);
            run(SIG_COPY, "plant", "loop", (void *)altmem_cost_plant, n, k, extra, doff, soff);
        }
        /* Each routine, and memset once more with 0 ("memset0": the zeroing
           paths, DC ZVA or cbo.zero, where a variant has them). */
        for (int row = 0; row <= ALTMEM_ROUTINE_COUNT; row++) {
            int r = row == ALTMEM_ROUTINE_COUNT ? ALTMEM_MEMSET : row;
            enum sig sg = row == ALTMEM_ROUTINE_COUNT ? SIG_SET0 : routine_sig[r];
            const char *rname = row == ALTMEM_ROUTINE_COUNT ? "memset0" : altmem_routine_name((enum altmem_routine)r);
            if (only_routine && !STREQ(only_routine, rname))
                continue;
            run(sg, rname, "nop", (void *)altmem_cost_nop, n, k, 0, doff, soff);
            for (size_t i = 0; i < nv; i++) {
                struct altmem_variant_info vi;
                if (altmem_variant(i, &vi) != 0 || (int)vi.routine != r)
                    continue;
                if (only_impl && !STREQ(only_impl, vi.name))
                    continue;
                if (!vi.runnable) {
                    if (si == 0)
                        OUT("skip %s %s not runnable on this CPU\n", rname, vi.name);
                    continue;
                }
                run(sg, rname, vi.name, bench_fn_address(vi.fn), n, k, extra, doff, soff);
            }
#ifndef QEMUCOST_FREESTANDING
            /* The C library's own (on glibc its IFUNC picks by the emulated CPU). */
            if (libc && (!only_impl || STREQ(only_impl, "libc")) && bench_routine_in_libc(r))
                run(sg, rname, "libc", bench_fn_address(bench_routine_libc(r)), n, k, extra, doff, soff);
#else
            (void)libc;
#endif
        }
    }
    OUT("segments %u\n", seg_index);
    return 0;
}

#ifdef QEMUCOST_FREESTANDING
int fs_main(int argc, char **argv, char **envp, unsigned long *auxv)
{
    altmem_init_freestanding(envp, auxv);
    return body(argc, argv);
}
#else
int main(int argc, char **argv)
{
    int rc = body(argc, argv);
    fflush(stdout);
    return rc;
}
#endif
