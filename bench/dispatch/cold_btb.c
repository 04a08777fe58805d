/*
 * What the entry costs when its jump is not predicted: each timed call comes
 * right after altmem_bench_btb_flush (32768 taken jumps at distinct addresses,
 * btb_flush_x86_64.S), so that none of the call's branches is in the branch
 * target buffer and none of its code in the L1i, as for a call from a rarely
 * run path of a large program.  A warm loop (altmem-dispatch) cannot tell the
 * patched stub's direct `jmp` from a stub that jumps through its pointer: both
 * are one predicted taken jump there (docs/dispatch.md).  Cold, a direct jump
 * is re-steered when it is decoded, an indirect one only when it executes.
 *
 *   altmem-dispatch-cold [--size S] [--samples N] [--routine memcpy|memset]
 *                        [--variant sse2|avx2|avx512]
 *
 * Per sample one of four calls, in a shuffled order: the entry (altmem_memcpy:
 * the stub, whose jump is patched, or under ALTMEM_TUNABLES=bind=pointer jumps
 * through its pointer), the variant called by name (`call rel32`), the variant
 * through a pointer (`call *reg`), and the variant by name again from another
 * call site (the control).  Each time is rdtsc-to-rdtscp around one call, in
 * TSC cycles; printed: the medians, and the medians of the paired differences
 * entry - direct, pointer - direct and control - direct, each with its
 * distribution-free 95% interval (the order statistics n/2 -+ 0.98 sqrt(n)),
 * and the TSC's rate.  Run it with ALTMEM_TUNABLES=R=V and R=V:bind=pointer
 * (docs/dispatch.md, "Cold calls").
 */
#include <altmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benchlib.h"

void altmem_bench_btb_flush(void);

static unsigned char src_buf[8192], dst_buf[8192];
static int routine_set;

#define VARIANT_DECL(v)                                                                                        \
    void *altmem_memcpy_##v(void *__restrict, const void *__restrict, size_t);                                \
    void *altmem_memset_##v(void *, int, size_t);
VARIANT_DECL(sse2)
VARIANT_DECL(avx2)
VARIANT_DECL(avx512)

static altmem_memcpy_fn *volatile pointer_memcpy;
static altmem_memset_fn *volatile pointer_memset;

static inline uint64_t tsc_begin(void)
{
    uint32_t lo, hi;
    __asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
    return (uint64_t)hi << 32 | lo;
}

static inline uint64_t tsc_end(void)
{
    uint32_t lo, hi, aux;
    __asm__ volatile("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
    return (uint64_t)hi << 32 | lo;
}

/* One sample: the flush, then one call timed, from straight-line code (no
   other branch inside the timed region, whose prediction would differ between
   the kinds); which sample function runs is chosen outside it, and what the
   call needs before it (setup: the pointer's load) comes before the flush.
   Each stores its own number after the timing, so that no two are identical
   and the control is never folded into the direct call (-fipa-icf, ld --icf). */
static volatile int last_sample;
#define SAMPLE(name, tag, setup, call)                                                                         \
    __attribute__((noinline)) static double name(size_t n)                                                    \
    {                                                                                                          \
        setup;                                                                                                 \
        altmem_bench_btb_flush();                                                                              \
        uint64_t t0 = tsc_begin();                                                                             \
        call;                                                                                                  \
        __asm__ volatile("" : : : "memory");                                                                   \
        double t = (double)(tsc_end() - t0);                                                                   \
        last_sample = tag;                                                                                     \
        return t;                                                                                              \
    }
#define SAMPLES_OF(v, k)                                                                                       \
    SAMPLE(memcpy_direct_##v, 4 * (k), (void)0, altmem_memcpy_##v(dst_buf, src_buf, n))                       \
    SAMPLE(memcpy_control_##v, 4 * (k) + 1, (void)0, altmem_memcpy_##v(dst_buf, src_buf, n))                  \
    SAMPLE(memset_direct_##v, 4 * (k) + 2, (void)0, altmem_memset_##v(dst_buf, 0x5a, n))                      \
    SAMPLE(memset_control_##v, 4 * (k) + 3, (void)0, altmem_memset_##v(dst_buf, 0x5a, n))
SAMPLES_OF(sse2, 0)
SAMPLES_OF(avx2, 1)
SAMPLES_OF(avx512, 2)
SAMPLE(memcpy_entry, 12, (void)0, altmem_memcpy(dst_buf, src_buf, n))
SAMPLE(memset_entry, 13, (void)0, altmem_memset(dst_buf, 0x5a, n))
SAMPLE(memcpy_pointer, 14, altmem_memcpy_fn *fn = pointer_memcpy, fn(dst_buf, src_buf, n))
SAMPLE(memset_pointer, 15, altmem_memset_fn *fn = pointer_memset, fn(dst_buf, 0x5a, n))

typedef double sample_fn(size_t);
/* [routine][variant]: the direct and control samples */
static sample_fn *const direct_samples[2][3] = {
    {memcpy_direct_sse2, memcpy_direct_avx2, memcpy_direct_avx512},
    {memset_direct_sse2, memset_direct_avx2, memset_direct_avx512}};
static sample_fn *const control_samples[2][3] = {
    {memcpy_control_sse2, memcpy_control_avx2, memcpy_control_avx512},
    {memset_control_sse2, memset_control_avx2, memset_control_avx512}};

/* The TSC's rate against CLOCK_MONOTONIC over 20 ms (the cycles above are TSC
   cycles, not core cycles). */
static double tsc_ghz(void)
{
    double n0 = bench_now_ns();
    uint64_t t0 = tsc_begin();
    while (bench_now_ns() - n0 < 20e6)
        ;
    return (double)(tsc_end() - t0) / (bench_now_ns() - n0);
}

/* The median of v (sorted in place) and the ranks n/2 -+ 0.98 sqrt(n) around
   it: its 95% interval, whatever the distribution. */
static double median_interval(double *v, long n, double *lo, double *hi)
{
    bench_sort(v, (int)n);
    long half = (long)(0.98 * __builtin_sqrt((double)n));
    long a = n / 2 - half, b = n / 2 + half;
    *lo = v[a < 0 ? 0 : a];
    *hi = v[b >= n ? n - 1 : b];
    return bench_quantile(v, (int)n, 0.5);
}

enum { KINDS = 4 };
static const char *const names[KINDS] = {"entry", "direct", "pointer", "control"};

int main(int argc, char **argv)
{
    size_t size = 8;
    long samples = 20000;
    const char *variant = "avx2";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc)
            size = strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--samples") && i + 1 < argc)
            samples = strtol(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--routine") && i + 1 < argc &&
                 (!strcmp(argv[i + 1], "memcpy") || !strcmp(argv[i + 1], "memset")))
            routine_set = !strcmp(argv[++i], "memset");
        else if (!strcmp(argv[i], "--variant") && i + 1 < argc)
            variant = argv[++i];
        else {
            fprintf(stderr, "usage: altmem-dispatch-cold [--size S] [--samples N] [--routine memcpy|memset] "
                            "[--variant sse2|avx2|avx512]\n");
            return 2;
        }
    }
    int which = !strcmp(variant, "sse2") ? 0 : !strcmp(variant, "avx2") ? 1 : !strcmp(variant, "avx512") ? 2 : -1;
    if (which < 0 || size > sizeof src_buf || samples < 100 || samples > 10000000) {
        fprintf(stderr, "altmem-dispatch-cold: variant sse2, avx2 or avx512; size at most %zu; samples 100..1e7\n",
                sizeof src_buf);
        return 2;
    }
    for (size_t i = 0; i < altmem_variant_count(); i++) {
        struct altmem_variant_info v;
        if (altmem_variant(i, &v) == 0 && !strcmp(v.name, variant)) {
            if (v.routine == ALTMEM_MEMCPY)
                pointer_memcpy = v.fn.memcpy;
            if (v.routine == ALTMEM_MEMSET)
                pointer_memset = v.fn.memset;
        }
    }
    struct altmem_binding_info b;
    altmem_binding(routine_set ? ALTMEM_MEMSET : ALTMEM_MEMCPY, &b);
    if (!(routine_set ? (void *)pointer_memset : (void *)pointer_memcpy) || strcmp(b.variant, variant)) {
        fprintf(stderr, "altmem-dispatch-cold: %s is bound to %s, not %s (ALTMEM_TUNABLES=%s=%s), or cannot run here\n",
                routine_set ? "memset" : "memcpy", b.variant, variant, routine_set ? "memset" : "memcpy", variant);
        return 2;
    }
    double *t[KINDS];
    for (int k = 0; k < KINDS; k++)
        if (!(t[k] = malloc(sizeof(double) * (size_t)samples)))
            return 1;
    uint64_t seed = (uint64_t)getpid() * 0x9e3779b97f4a7c15u;
    sample_fn *kinds[KINDS] = {routine_set ? memset_entry : memcpy_entry, direct_samples[routine_set][which],
                               routine_set ? memset_pointer : memcpy_pointer, control_samples[routine_set][which]};
    for (int k = 0; k < KINDS; k++) /* the data in the caches once */
        kinds[k](size);
    for (long s = 0; s < samples; s++) {
        int order[KINDS] = {0, 1, 2, 3};
        for (int k = KINDS - 1; k > 0; k--) {
            int j = (int)(bench_rng_next(&seed) % (uint64_t)(k + 1)), x = order[k];
            order[k] = order[j], order[j] = x;
        }
        for (int k = 0; k < KINDS; k++) {
            t[order[k]][s] = kinds[order[k]](size);
        }
    }
    double *diff = malloc(sizeof(double) * (size_t)samples);
    if (!diff)
        return 1;
    printf("bound_by=%s variant=%s routine=%s size=%zu samples=%ld", b.bound_by, b.variant,
           routine_set ? "memset" : "memcpy", size, samples);
    double med[KINDS];
    for (int k = 0; k < KINDS; k++) {
        memcpy(diff, t[k], sizeof(double) * (size_t)samples);
        med[k] = bench_median(diff, (int)samples);
        printf(" %s=%.1f", names[k], med[k]);
    }
    for (long s = 0; s < samples; s++)
        diff[s] = t[0][s] - t[1][s];
    double lo, hi, m = median_interval(diff, samples, &lo, &hi);
    printf(" entry-direct=%.1f [%.1f..%.1f]", m, lo, hi);
    for (long s = 0; s < samples; s++)
        diff[s] = t[2][s] - t[1][s];
    m = median_interval(diff, samples, &lo, &hi);
    printf(" pointer-direct=%.1f [%.1f..%.1f]", m, lo, hi);
    for (long s = 0; s < samples; s++)
        diff[s] = t[3][s] - t[1][s];
    m = median_interval(diff, samples, &lo, &hi);
    printf(" control-direct=%.1f [%.1f..%.1f] tsc_ghz=%.3f\n", m, lo, hi, tsc_ghz());
    free(diff);
    for (int k = 0; k < KINDS; k++)
        free(t[k]);
    return 0;
}
