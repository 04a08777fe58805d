/*
 * What it costs to reach a variant: N calls of altmem_memcpy(dst, src, size)
 * through this build's entry point, against N direct calls to the variant
 * itself, and against N direct calls again from a second loop (the control:
 * the same code under a second name), in rounds of a shuffled order; the ratio
 * is the 20%-trimmed mean of the per-round ratios (docs/performance.md,
 * "Method").  One process measures one binding; scripts/dispatch-cost.sh runs
 * every binding (and several processes of each) and callgrind over them and
 * writes the table in docs/dispatch.md.
 *
 *   altmem-dispatch [--size S] [--calls N] [--reps R] [--only entry|direct]
 *                   [--routine memcpy|memset] [--variant ual|sse2|avx2|avx512]
 *                   [--direct pointer|libc]
 *
 * Linked with libaltmem.a (altmem-dispatch) the direct loop calls the variant by
 * name; linked with libaltmem.so (altmem-dispatch-shared, -noplt) through a
 * pointer from altmem_variant().
 *
 * Linked -static with glibc (altmem-dispatch-static), --direct libc: the direct
 * loops call the C library's memcpy or memset by name, as a static program does
 * (glibc: through the IRELATIVE slot its resolver filled, `jmp *slot`), and the
 * line names the glibc variant bound there (libc=...).
 *
 * --variant names the variant the direct loop calls (ual by default); run it with
 * ALTMEM_TUNABLES=memcpy=V (or memset=V) so that the entry reaches the same one
 * (scripts/dispatch-cost.sh --widths does).
 *
 * --only runs one loop once (for callgrind's --toggle-collect=loop_entry or
 * loop_direct): its instruction count divided by N is the cost per call.
 */
#include <altmem.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benchlib.h"

static unsigned char src_buf[8192], dst_buf[8192];
static int routine_set; /* --routine memset: the loops call memset, not memcpy */

/* Every loop comes in LOOP_COPIES copies at other addresses, and each process
   picks its own (entry, direct, control: the control never the direct's copy):
   on AMD Zen 4 where a loop sits moved these 2 ns calls by up to 17% (the
   control, docs/perf/amd-family25-model17.md), so a figure over several
   processes samples placements instead of keeping one.  The copy number goes
   into a volatile, so that no two copies are identical and none is folded. */
#define LOOP_COPIES 4
static volatile int which_copy;

/* The loops are out of line and take the size from memory, so each call site
   is exactly one call with its three argument moves.  SET and COPY name the
   memset and memcpy a loop calls. */
#define TIMED_LOOP(name, K, SET, COPY)                                                                        \
    __attribute__((noinline)) static void name(long calls, size_t size)                                      \
    {                                                                                                         \
        if (routine_set)                                                                                      \
            for (long i = 0; i < calls; i++) {                                                                \
                SET(dst_buf, 0x5a, size);                                                                     \
                __asm__ volatile("" : : : "memory");                                                          \
            }                                                                                                 \
        else                                                                                                  \
            for (long i = 0; i < calls; i++) {                                                                \
                COPY(dst_buf, src_buf, size);                                                                 \
                __asm__ volatile("" : : : "memory");                                                          \
            }                                                                                                 \
        which_copy = K;                                                                                       \
    }
#define ENTRY_LOOP(K) TIMED_LOOP(entry_##K, K, altmem_memset, altmem_memcpy)
ENTRY_LOOP(0)
ENTRY_LOOP(1)
ENTRY_LOOP(2)
ENTRY_LOOP(3)
static void (*const entry_copies[LOOP_COPIES])(long, size_t) = {entry_0, entry_1, entry_2, entry_3};
static void (*entry_loop)(long, size_t) = entry_0;

__attribute__((noinline)) void loop_entry(long calls, size_t size)
{
    entry_loop(calls, size);
}

#ifdef ALTMEM_DISPATCH_DIRECT
/* The variants themselves, called directly (a `call` to the symbol, as the
   entry's patched `jmp` reaches it); linkable because this program is linked
   with libaltmem.a.  --variant picks one; ual by default. */
#define DIRECT_LOOP(v, name, K) TIMED_LOOP(name, K, altmem_memset_##v, altmem_memcpy_##v)
#define DIRECT(v)                                                                                             \
    void *altmem_memcpy_##v(void *__restrict, const void *__restrict, size_t);                               \
    void *altmem_memset_##v(void *, int, size_t);                                                             \
    DIRECT_LOOP(v, direct_##v##_0, 10)                                                                        \
    DIRECT_LOOP(v, direct_##v##_1, 11)                                                                        \
    DIRECT_LOOP(v, direct_##v##_2, 12)                                                                        \
    DIRECT_LOOP(v, direct_##v##_3, 13)
DIRECT(ual)
#if defined(__x86_64__)
DIRECT(sse2)
DIRECT(avx2)
DIRECT(avx512)
#endif
#define COPIES_OF(v) {direct_##v##_0, direct_##v##_1, direct_##v##_2, direct_##v##_3}
static const struct {
    const char *name;
    void (*copy[LOOP_COPIES])(long, size_t);
} directs[] = {
    {"ual", COPIES_OF(ual)},
#if defined(__x86_64__)
    {"sse2", COPIES_OF(sse2)},
    {"avx2", COPIES_OF(avx2)},
    {"avx512", COPIES_OF(avx512)},
#endif
};
#endif
#ifdef ALTMEM_DISPATCH_LIBC
/* The C library's own, called by name: in a static glibc program a `call` to its
   IRELATIVE PLT entry, `jmp *slot` to the variant its resolver chose. */
#define LIBC_LOOP(name, K) TIMED_LOOP(name, K, memset, memcpy)
LIBC_LOOP(libc_0, 20)
LIBC_LOOP(libc_1, 21)
LIBC_LOOP(libc_2, 22)
LIBC_LOOP(libc_3, 23)
static void (*const libc_copies[LOOP_COPIES])(long, size_t) = {libc_0, libc_1, libc_2, libc_3};

/* glibc's list of its variants (sysdeps/x86_64/multiarch/ifunc-impl-list.c). */
struct libc_ifunc_impl {
    const char *name;
    void (*fn)(void);
    _Bool usable;
};
size_t __libc_ifunc_impl_list(const char *name, struct libc_ifunc_impl *array, size_t max);

/* The variant a static program's call of `routine` reaches.  Its address, as
   this code takes it (from an IRELATIVE GOT slot), is the variant itself; where
   a linker gives the PLT entry instead, that is `jmp *disp32(%rip)` (ff 25) to
   the slot the resolver filled. */
static const char *libc_variant(const char *routine, void *fn)
{
    static struct libc_ifunc_impl impl[64];
    size_t n = __libc_ifunc_impl_list(routine, impl, 64);
    const unsigned char *p = fn;
    void *target = fn;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < n && i < 64; i++)
            if ((void *)impl[i].fn == target)
                return impl[i].name;
        if (p[0] == 0xf3 && p[1] == 0x0f && p[2] == 0x1e && p[3] == 0xfa)
            p += 4; /* endbr64 */
        if (p[0] != 0xff || p[1] != 0x25)
            break;
        int32_t disp;
        memcpy(&disp, p + 2, 4);
        target = *(void *const *)(p + 6 + disp);
    }
    return "unknown";
}
#endif

/* Linked with libaltmem.so, which exports no variant by name (and with
   --direct pointer in the static build): the direct loops call the variant
   through a pointer from altmem_variant() (`call *reg`, the call an
   IFUNC-resolved GOT gives a program built with -fno-plt). */
static altmem_memcpy_fn *volatile direct_memcpy;
static altmem_memset_fn *volatile direct_memset;
#define POINTER_LOOP(name, K)                                                                                  \
    __attribute__((noinline)) static void name(long calls, size_t size)                                      \
    {                                                                                                         \
        if (routine_set) {                                                                                    \
            altmem_memset_fn *fn = direct_memset;                                                            \
            for (long i = 0; i < calls; i++) {                                                                \
                fn(dst_buf, 0x5a, size);                                                                      \
                __asm__ volatile("" : : : "memory");                                                          \
            }                                                                                                 \
        } else {                                                                                              \
            altmem_memcpy_fn *fn = direct_memcpy;                                                            \
            for (long i = 0; i < calls; i++) {                                                                \
                fn(dst_buf, src_buf, size);                                                                   \
                __asm__ volatile("" : : : "memory");                                                          \
            }                                                                                                 \
        }                                                                                                     \
        which_copy = K;                                                                                       \
    }
POINTER_LOOP(direct_ptr_0, 10)
POINTER_LOOP(direct_ptr_1, 11)
POINTER_LOOP(direct_ptr_2, 12)
POINTER_LOOP(direct_ptr_3, 13)
static void (*const direct_ptr_copies[LOOP_COPIES])(long, size_t) = {direct_ptr_0, direct_ptr_1, direct_ptr_2,
                                                                      direct_ptr_3};
static void (*direct_loop)(long, size_t), (*again_loop)(long, size_t);

__attribute__((noinline)) void loop_direct(long calls, size_t size)
{
    if (direct_loop)
        direct_loop(calls, size);
}

__attribute__((noinline)) void loop_again(long calls, size_t size)
{
    if (again_loop)
        again_loop(calls, size);
}

struct loops {
    long calls;
    size_t size;
};

/* ns per call of loop 0 (entry), 1 (direct) or 2 (direct again: the control). */
static double sample(void *p, int which)
{
    const struct loops *l = p;
    double t0 = bench_now_ns();
    if (which == 0)
        loop_entry(l->calls, l->size);
    else if (which == 1)
        loop_direct(l->calls, l->size);
    else
        loop_again(l->calls, l->size);
    return (bench_now_ns() - t0) / (double)l->calls;
}

/* exp(20%-trimmed mean of log(a[k] / b[k])): the per-round ratio. */
static double paired_ratio(const double *a, const double *b, int n)
{
    double d[1001];
    for (int k = 0; k < n; k++)
        d[k] = log(a[k] / b[k]);
    return exp(bench_trimmed_mean(d, n, 0.2));
}

int main(int argc, char **argv)
{
    size_t size = 8;
    long calls = 2000000;
    int reps = 21;
    const char *only = NULL, *variant = "ual";
    int direct_by_pointer = 0, direct_libc = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc)
            size = strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--calls") && i + 1 < argc)
            calls = strtol(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--routine") && i + 1 < argc && (!strcmp(argv[i + 1], "memcpy") ||
                                                                    !strcmp(argv[i + 1], "memset")))
            routine_set = !strcmp(argv[++i], "memset");
        else if (!strcmp(argv[i], "--variant") && i + 1 < argc)
            variant = argv[++i];
        else if (!strcmp(argv[i], "--direct") && i + 1 < argc && !strcmp(argv[i + 1], "pointer"))
            direct_by_pointer = 1, i++;
#ifdef ALTMEM_DISPATCH_LIBC
        else if (!strcmp(argv[i], "--direct") && i + 1 < argc && !strcmp(argv[i + 1], "libc"))
            direct_libc = 1, i++;
#endif
        else {
            fprintf(stderr, "usage: altmem-dispatch [--size S] [--calls N] [--reps R] [--only entry|direct] "
                            "[--routine memcpy|memset] [--variant ual|sse2|avx2|avx512] [--direct pointer|libc]\n");
            return 2;
        }
    }
    /* This process's copies: entry, direct, and the control's, never the direct's. */
    uint64_t pick = (uint64_t)getpid() * 0x9e3779b97f4a7c15u ^ (uint64_t)bench_now_ns();
    int ce = (int)(bench_rng_next(&pick) % LOOP_COPIES), cd = (int)(bench_rng_next(&pick) % LOOP_COPIES);
    int cc = (cd + 1 + (int)(bench_rng_next(&pick) % (LOOP_COPIES - 1))) % LOOP_COPIES;
    entry_loop = entry_copies[ce];
    const char *libc_name = "";
    (void)direct_libc;
#ifdef ALTMEM_DISPATCH_LIBC
    if (direct_libc) {
        direct_loop = libc_copies[cd];
        again_loop = libc_copies[cc];
        libc_name = routine_set ? libc_variant("memset", (void *)memset) : libc_variant("memcpy", (void *)memcpy);
    }
#endif
#ifdef ALTMEM_DISPATCH_DIRECT
    for (size_t k = 0; k < sizeof directs / sizeof directs[0] && !direct_by_pointer && !direct_libc; k++)
        if (!strcmp(directs[k].name, variant)) {
            direct_loop = directs[k].copy[cd];
            again_loop = directs[k].copy[cc];
        }
    if (!direct_loop && !direct_by_pointer && !direct_libc) {
        fprintf(stderr, "altmem-dispatch: no direct loop for variant '%s'\n", variant);
        return 2;
    }
#else
    direct_by_pointer = 1;
#endif
    for (size_t i = 0; direct_by_pointer && i < altmem_variant_count(); i++) {
        struct altmem_variant_info v;
        if (altmem_variant(i, &v) == 0 && !strcmp(v.name, variant) &&
            v.routine == (routine_set ? ALTMEM_MEMSET : ALTMEM_MEMCPY)) {
            direct_memcpy = v.fn.memcpy;
            direct_memset = v.fn.memset;
        }
    }
    if (direct_by_pointer) {
        if (!direct_memcpy && !direct_memset) {
            fprintf(stderr, "altmem-dispatch: no variant '%s'\n", variant);
            return 2;
        }
        direct_loop = direct_ptr_copies[cd];
        again_loop = direct_ptr_copies[cc];
    }
    if (size > sizeof src_buf || calls <= 0 || reps <= 0 || reps > 1001) {
        fprintf(stderr, "altmem-dispatch: size at most %zu, calls and reps positive\n", sizeof src_buf);
        return 2;
    }
    struct altmem_binding_info b;
    altmem_binding(routine_set ? ALTMEM_MEMSET : ALTMEM_MEMCPY, &b);
    if (only) {
        if (!strcmp(only, "entry"))
            loop_entry(calls, size);
        else
            loop_direct(calls, size);
        return 0;
    }
    int nloops = 3;
    double *t = malloc((size_t)nloops * sizeof(double) * (size_t)reps);
    double *w = malloc(sizeof(double) * (size_t)reps);
    if (!t || !w)
        return 1;
    loop_entry(calls / 10, size);           /* warm up */
    loop_direct(calls / 10, size);
    loop_again(calls / 10, size);
    struct loops l = {calls, size};
    uint64_t seed = 0x243f6a8885a308d3u;
    bench_interleave(nloops, reps, BENCH_ORDER_SHUFFLE, &seed, sample, &l, t);
    memcpy(w, t, sizeof(double) * (size_t)reps);
    double te = bench_median(w, reps);
    memcpy(w, t + reps, sizeof(double) * (size_t)reps);
    double td = bench_median(w, reps);
    printf("bound_by=%s variant=%s size=%zu entry_ns=%.3f direct_ns=%.3f ratio=%.4f control=%.4f copies=%d/%d/%d%s%s\n",
           b.bound_by, b.variant, size, te, td, paired_ratio(t, t + reps, reps),
           paired_ratio(t + 2 * reps, t + reps, reps), ce, cd, cc, libc_name[0] ? " libc=" : "", libc_name);
    free(w);
    free(t);
    return 0;
}
