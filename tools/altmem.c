/*
 * altmem — the command-line tool.
 *   altmem info            what was detected, masked, and bound, and why
 *   altmem bench [opts]    throughput of every variant vs a byte loop and libc
 *   altmem run [--] CMD    CMD with altmem as its memcpy/memmove/memset (LD_PRELOAD)
 *   altmem version
 */
#include <altmem.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "run.h"

/* "UAL SIMD256", or "none". */
static const char *feature_list(uint64_t mask, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (unsigned b = 0; b < 64 && n < len; b++) {
        if (!(mask >> b & 1))
            continue;
        const char *name = altmem_feature_name(b);
        int w = name ? snprintf(buf + n, len - n, "%s%s", n ? " " : "", name)
                     : snprintf(buf + n, len - n, "%sbit%u", n ? " " : "", b);
        n += w > 0 ? (size_t)w : 0;
    }
    return n ? buf : "none";
}

static void print_features(uint64_t mask)
{
    char buf[128];
    printf("%s\n", feature_list(mask, buf, sizeof buf));
}

static void print_size(const char *label, size_t bytes)
{
    if (!bytes)
        printf("  %-5s unknown\n", label);
    else if (bytes >= (1u << 20) && bytes % (1u << 20) == 0)
        printf("  %-5s %zu MiB\n", label, bytes >> 20);
    else
        printf("  %-5s %zu KiB\n", label, bytes >> 10);
}

static const char *reason_word(enum altmem_bind_reason r)
{
    switch (r) {
    case ALTMEM_BOUND_DETECTED: return "detected";
    case ALTMEM_BOUND_OVERRIDDEN: return "overridden";
    case ALTMEM_BOUND_REFUSED: return "refused";
    default: return "default";
    }
}

static int cmd_info(void)
{
    struct altmem_cpu_info cpu;
    altmem_cpu(&cpu);
    printf("altmem %s\n", ALTMEM_VERSION_STRING);
    printf("architecture:       %s\n", cpu.arch);
    if (cpu.notes && cpu.notes[0])
        printf("cpu:                %s\n", cpu.notes);
    printf("features detected:  ");
    print_features(cpu.detected);
    printf("features masked:    ");
    print_features(cpu.masked);
    if (cpu.forced) {
        printf("features forced:    ");
        print_features(cpu.forced);
    }
    printf("features in use:    ");
    print_features(cpu.active);
    if (cpu.secure)
        printf("ALTMEM_TUNABLES:    ignored (AT_SECURE process)\n");
    printf("caches:\n");
    print_size("L1d", cpu.l1d_bytes);
    print_size("L2", cpu.l2_bytes);
    print_size("L3", cpu.l3_bytes);
    size_t nt = altmem_nt_threshold();
    printf("non-temporal stores from ");
    if (nt >= (1u << 20) && nt % (1u << 20) == 0)
        printf("%zu MiB", nt >> 20);
    else if (nt >= 1024 && nt % 1024 == 0)
        printf("%zu KiB", nt >> 10);
    else
        printf("%zu B", nt);
    printf(" (SIMD variants; ALTMEM_TUNABLES nt_threshold=BYTES)\n");

    printf("\n%-10s %-11s %-11s %-15s %s\n", "routine", "bound to", "reason", "bound by", "why");
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
        struct altmem_binding_info b;
        altmem_binding((enum altmem_routine)r, &b);
        printf("%-10s %-11s %-11s %-15s %s\n", altmem_routine_name((enum altmem_routine)r), b.variant,
               reason_word(b.reason), b.bound_by, b.why);
        if (r == ALTMEM_ROUTINE_COUNT - 1 && b.bound_note && b.bound_note[0])
            printf("not patched: %s\n", b.bound_note);
    }

    printf("\nvariants (preference order):\n");
    for (size_t i = 0; i < altmem_variant_count(); i++) {
        struct altmem_variant_info v;
        altmem_variant(i, &v);
        char buf[128];
        printf("  %-10s %-11s needs %-16s %-12s %s\n", altmem_routine_name(v.routine), v.name,
               v.requires ? feature_list(v.requires, buf, sizeof buf) : "nothing",
               v.runnable ? "runnable" : "not runnable", v.summary);
    }
    return 0;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: altmem info\n"
               "       altmem bench [--help | options]\n"
               "       altmem run [--] CMD [ARGS...]\n"
               "       altmem version\n"
               "Environment: ALTMEM_TUNABLES (see docs/tunables.md)\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "info"))
        return cmd_info();
    if (!strcmp(argv[1], "bench"))
        return altmem_bench_main(argc - 1, argv + 1);
    if (!strcmp(argv[1], "run"))
        return altmem_run_main(argv[0], argc - 1, argv + 1);
    if (!strcmp(argv[1], "version") || !strcmp(argv[1], "--version")) {
        printf("altmem %s\n", ALTMEM_VERSION_STRING);
        return 0;
    }
    if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "altmem: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return 2;
}
