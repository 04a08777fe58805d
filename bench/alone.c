/*
 * altmem-alone: two settings of one routine, each timed alone in processes of
 * its own, for the thresholds above the last-level cache (docs/performance.md,
 * "Large sizes: each setting alone").
 *
 * altmem bench interleaves the implementations call by call on one buffer.
 * Above the L3 a call's speed then depends on the call before it: a streaming
 * memset leaves the buffer out of every cache, a cached loop leaves the L3
 * full of its dirty lines, and the next call -- another implementation's --
 * inherits either.  On the Zen 4 guest of docs/perf/amd-family25-model17.md,
 * glibc's cached memset of 64 MiB ran at 37 GB/s after itself and 28-30 GB/s
 * after altmem's streaming one.  A rule that chooses between streaming and
 * not is therefore measured here: each setting (an ALTMEM_TUNABLES string) in
 * fresh processes that call only the public routine, in pairs ordered ABBA,
 * per size the median of each one's rate and the spread of the pair ratios.
 *
 *   altmem-alone --routine memset --sizes 32M,64M,256M --a memset_nt_threshold=never \
 *                --b memset_nt_threshold=24M [--layout d+3] [--pairs 4] [--calls 8] [--load]
 *
 * --load runs bench's memory load (memset then memcpy of twice the L3) on the
 * other CPUs for the whole measurement.
 */
#define _GNU_SOURCE
#include <altmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "benchlib.h"

#define MAX_SIZES 16
#define MAX_PAIRS 32

enum routine { COPY, MOVE, SET };
static const char *const routine_names[] = {"memcpy", "memmove", "memset"};

struct layout {
    const char *name;
    size_t src_off, dst_off;
};
static const struct layout layouts[] = {{"0/0", 0, 0}, {"s+1/d+3", 1, 3}, {"d+63", 0, 63}};

static int parse_routine(const char *s)
{
    for (int r = 0; r < 3; r++)
        if (strcmp(s, routine_names[r]) == 0)
            return r;
    return -1;
}

static int parse_layout(const char *s)
{
    for (int l = 0; l < 3; l++)
        if (strcmp(s, layouts[l].name) == 0)
            return l;
    return -1;
}

/* "64M", "1536K", "4096": bytes, or 0 when malformed. */
static size_t parse_size(const char *s)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s)
        return 0;
    if (*end == 'K')
        v <<= 10, end++;
    else if (*end == 'M')
        v <<= 20, end++;
    else if (*end == 'G')
        v <<= 30, end++;
    return *end || v == 0 || v > (4ull << 30) ? 0 : (size_t)v;
}

/* The child: `calls` calls of the public routine on one buffer written first;
   prints the mean time of all calls but the first, in ns. */
static int child(int r, size_t n, int l, int calls)
{
    const struct layout *lay = &layouts[l];
    size_t gap = 8192, len = 2 * n + 2 * gap;
    unsigned char *b = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (b == MAP_FAILED) {
        fprintf(stderr, "altmem-alone: cannot map %zu MiB\n", len >> 20);
        return 1;
    }
    madvise(b, len, MADV_HUGEPAGE);
    memset(b, 0x5a, len);
    unsigned char *src = b + lay->src_off, *dst = b + n + gap + lay->dst_off;
    double total = 0;
    for (int i = 0; i < calls; i++) {
        double t0 = bench_now_ns();
        if (r == COPY)
            altmem_memcpy(dst, src, n);
        else if (r == MOVE)
            altmem_memmove(dst, src, n);
        else
            altmem_memset(dst, 0xa5, n);
        double t = bench_now_ns() - t0;
        if (i)
            total += t;
    }
    printf("%.1f\n", total / (calls - 1));
    return 0;
}

/* One process with ALTMEM_TUNABLES=setting: its mean ns per call, or -1. */
static double run_one(const char *setting, int r, const char *size, int l, int calls)
{
    char env[512], calls_s[16];
    snprintf(env, sizeof env, "ALTMEM_TUNABLES=%s", setting);
    snprintf(calls_s, sizeof calls_s, "%d", calls);
    char *args[] = {"altmem-alone", "--child", (char *)routine_names[r], (char *)size,
                    (char *)layouts[l].name, calls_s, NULL};
    const char *envs[] = {env, NULL};
    FILE *out = NULL;
    pid_t pid = bench_child_start("/proc/self/exe", args, envs, BENCH_CHILD_PIPE, &out);
    if (pid < 0)
        return -1;
    double ns = -1;
    if (!out || fscanf(out, "%lf", &ns) != 1)
        ns = -1;
    if (out)
        fclose(out);
    return bench_child_wait(pid) == 0 ? ns : -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: altmem-alone --routine memcpy|memmove|memset --sizes LIST --a TUNABLES --b TUNABLES\n"
               "                    [--layout 0/0|s+1/d+3|d+63] [--pairs N] [--calls N] [--load]\n"
               "  each setting (an ALTMEM_TUNABLES string) timed alone in fresh processes, in ABBA\n"
               "  pairs (default 4 per size), each process calling the public routine N times\n"
               "  (default 8; the first is not timed); prints per size each setting's median rate\n"
               "  and the median and range of the pair ratios B/A (>1: B faster); memset uses only\n"
               "  the layout's dst offset\n");
}

int main(int argc, char **argv)
{
    if (argc == 6 && strcmp(argv[1], "--child") == 0)
        return child(parse_routine(argv[2]), parse_size(argv[3]), parse_layout(argv[4]), atoi(argv[5]));
    int r = -1, l = 0, pairs = 4, calls = 8, load = 0, nsizes = 0;
    const char *set_a = NULL, *set_b = NULL, *size_s[MAX_SIZES];
    char sizes_arg[512] = "";
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(o, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(o, "--load") == 0) {
            load = 1;
            continue;
        }
        if (!v) {
            fprintf(stderr, "altmem-alone: %s needs a value\n", o);
            return 2;
        }
        i++;
        if (strcmp(o, "--routine") == 0 && (r = parse_routine(v)) < 0) {
            fprintf(stderr, "altmem-alone: bad --routine '%s' (memcpy, memmove, memset)\n", v);
            return 2;
        } else if (strcmp(o, "--layout") == 0 && (l = parse_layout(v)) < 0) {
            fprintf(stderr, "altmem-alone: bad --layout '%s' (0/0, s+1/d+3, d+63)\n", v);
            return 2;
        } else if (strcmp(o, "--pairs") == 0 && ((pairs = atoi(v)) < 1 || pairs > MAX_PAIRS)) {
            fprintf(stderr, "altmem-alone: bad --pairs '%s' (1..%d)\n", v, MAX_PAIRS);
            return 2;
        } else if (strcmp(o, "--calls") == 0 && ((calls = atoi(v)) < 2 || calls > 1000)) {
            fprintf(stderr, "altmem-alone: bad --calls '%s' (2..1000)\n", v);
            return 2;
        } else if (strcmp(o, "--a") == 0)
            set_a = v;
        else if (strcmp(o, "--b") == 0)
            set_b = v;
        else if (strcmp(o, "--sizes") == 0 && strlen(v) >= sizeof sizes_arg) {
            fprintf(stderr, "altmem-alone: --sizes too long\n");
            return 2;
        } else if (strcmp(o, "--sizes") == 0)
            strcpy(sizes_arg, v);
        else if (strcmp(o, "--routine") && strcmp(o, "--layout") && strcmp(o, "--pairs") && strcmp(o, "--calls")) {
            fprintf(stderr, "altmem-alone: unknown option '%s' (--help)\n", o);
            return 2;
        }
    }
    if (r < 0 || !set_a || !set_b || !sizes_arg[0]) {
        fprintf(stderr, "altmem-alone: --routine, --sizes, --a and --b are required (--help)\n");
        return 2;
    }
    for (char *save = NULL, *t = strtok_r(sizes_arg, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (nsizes == MAX_SIZES || !parse_size(t)) {
            fprintf(stderr, "altmem-alone: bad size '%s' in --sizes (at most %d, e.g. 64M, 1536K, 4096)\n", t,
                    MAX_SIZES);
            return 2;
        }
        size_s[nsizes++] = t;
    }
    char msg[320] = "none";
    struct altmem_cpu_info info;
    altmem_cpu(&info);
    if (load && bench_load_start(-1, bench_load_bytes(info.l3_bytes), msg, sizeof msg) == 0)
        fprintf(stderr, "altmem-alone: no load: %s\n", msg);
    char pin[200];
    int cpu = bench_pin(-1, BENCH_PICK_HIGHEST, NULL, pin, sizeof pin);
    printf("altmem-alone: %s %s, %d ABBA pairs of processes per size, %d calls each (the first not timed)\n",
           routine_names[r], layouts[l].name, pairs, calls);
    printf("A: ALTMEM_TUNABLES=%s\nB: ALTMEM_TUNABLES=%s\n", set_a, set_b);
    printf("pinned: %s; load: %s\n", cpu >= 0 ? "the highest allowed CPU" : pin, msg);
    printf("%10s | %9s %9s | %8s %17s\n", "size", "A GB/s", "B GB/s", "B/A", "pair range");
    fflush(stdout);
    int failed = 0;
    for (int s = 0; s < nsizes && !failed; s++) {
        double a[MAX_PAIRS], b[MAX_PAIRS], ratio[MAX_PAIRS];
        for (int p = 0; p < pairs && !failed; p++) {
            int b_first = p % 2;
            double x = run_one(b_first ? set_b : set_a, r, size_s[s], l, calls);
            double y = run_one(b_first ? set_a : set_b, r, size_s[s], l, calls);
            a[p] = b_first ? y : x;
            b[p] = b_first ? x : y;
            failed = a[p] <= 0 || b[p] <= 0;
            ratio[p] = a[p] / b[p];
        }
        if (failed) {
            fprintf(stderr, "altmem-alone: a measuring process failed at %s\n", size_s[s]);
            break;
        }
        double n = (double)parse_size(size_s[s]);
        /* median() sorts: ratio[0] and ratio[pairs - 1] are then the range. */
        double ma = median(a, pairs), mb = median(b, pairs), mr = median(ratio, pairs);
        printf("%10s | %9.1f %9.1f | %8.3f %8.3f-%.3f\n", size_s[s], n / ma, n / mb, mr, ratio[0],
               ratio[pairs - 1]);
        fflush(stdout);
    }
    if (load)
        bench_load_stop();
    return failed;
}
