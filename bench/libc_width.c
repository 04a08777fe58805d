/*
 * altmem bench --libc-width W: altmem's variant of one vector width against the C
 * library's variant of the same width (docs/performance.md, "Width against width").
 *
 * glibc picks its memcpy / memmove / memset variant once, from the CPU's features,
 * and GLIBC_TUNABLES=glibc.cpu.hwcaps=... masks features at process start.  So for
 * each width this re-executes the bench with a mask under which glibc resolves its
 * variant of that width, found by trying candidate masks in a probe process each
 * and reading which variant glibc bound: the address dlsym gives for the routine,
 * looked up in glibc's own list of its variants (__libc_ifunc_impl_list, exported
 * GLIBC_PRIVATE for glibc's tests).  Nothing is assumed from the CPU's name: the
 * mask that works here is found here, and the child's header names the variant
 * that ran and how that was established.
 *
 *   width   altmem's variant   glibc 2.36's variant (the _erms form where ERMS)
 *   sse2    sse2               __mem*_sse2_unaligned
 *   avx2    avx2               __memmove_avx_unaligned, __memset_avx2_unaligned (not _rtm)
 *   evex    evex (memset),     __mem*_evex_unaligned: 32-byte vectors in ymm16-31, which
 *           avx2 (the copies)  glibc binds on AVX-512 CPUs that prefer no 512-bit code
 *                              (Skylake-SP .. Ice Lake-SP), where altmem binds the same
 *   avx512  avx512             __mem*_avx512_unaligned
 */
#define _GNU_SOURCE
#include "bench_run.h"
#include "benchlib.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct width {
    const char *name;        /* --libc-width W                                    */
    const char *variant;     /* altmem's variant of that width (every routine)     */
    const char *glibc[3];    /* glibc's name prefix per routine                    */
    const char *masks[4];    /* candidate glibc.cpu.hwcaps values, tried in order  */
};

static const struct width widths[] = {
    {"sse2", "sse2", {"__memcpy_sse2_unaligned", "__memmove_sse2_unaligned", "__memset_sse2_unaligned"},
     {"-AVX512F,-AVX512VL,-AVX2,-AVX_Fast_Unaligned_Load,-RTM", "-AVX2,-AVX_Fast_Unaligned_Load",
      "-AVX512F,-AVX512VL,-AVX2,-AVX_Fast_Unaligned_Load,-RTM,-SSSE3", NULL}},
    {"avx2", "avx2", {"__memcpy_avx_unaligned", "__memmove_avx_unaligned", "__memset_avx2_unaligned"},
     {"", "-AVX512F,-AVX512VL,-RTM,-Prefer_No_VZEROUPPER", "-AVX512F,-AVX512VL", NULL}},
    {"evex", "evex", {"__memcpy_evex_unaligned", "__memmove_evex_unaligned", "__memset_evex_unaligned"},
     {"", "-AVX512F", "Prefer_No_AVX512", NULL}},
    {"avx512", "avx512", {"__memcpy_avx512_unaligned", "__memmove_avx512_unaligned", "__memset_avx512_unaligned"},
     {"", "-Prefer_No_AVX512", NULL, NULL}},
};
#define NWIDTHS (sizeof widths / sizeof widths[0])

static const char *const routine_names[3] = {"memcpy", "memmove", "memset"};

/* ---- In the probe and in each child: which glibc variant did this process bind? ---- */

struct libc_ifunc_impl { /* glibc's include/ifunc-impl-list.h */
    const char *name;
    void (*fn)(void);
    bool usable;
};

int bench_libc_variant(int r, char *out, size_t len)
{
    /* The C library's own symbol: RTLD_DEFAULT would find a sanitizer's
       interceptor of memcpy first. */
    void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
    if (!libc)
        libc = RTLD_DEFAULT;
    size_t (*list)(const char *, struct libc_ifunc_impl *, size_t) =
        (size_t(*)(const char *, struct libc_ifunc_impl *, size_t))dlsym(libc, "__libc_ifunc_impl_list");
    void *bound = dlsym(libc, routine_names[r]);
    snprintf(out, len, "?");
    if (!list || !bound)
        return -1;
    struct libc_ifunc_impl impls[64];
    size_t n = list(routine_names[r], impls, 64);
    for (size_t i = 0; i < n && i < 64; i++)
        if ((void *)impls[i].fn == bound) {
            snprintf(out, len, "%s", impls[i].name);
            return 0;
        }
    return -1;
}

/* --libc-probe, the probe process: one line per routine, "memcpy NAME". */
int bench_mode_libc_probe_run(struct bench_job *job)
{
    (void)job;
    for (int r = 0; r < 3; r++) {
        char name[96];
        bench_libc_variant(r, name, sizeof name);
        printf("%s %s\n", routine_names[r], name);
    }
    return 0;
}

void bench_libc_width_child_header(const struct options *o)
{
    printf("glibc's variants in this process (the address glibc bound, found in its __libc_ifunc_impl_list):");
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
        if (!o->routines[r])
            continue;
        char name[96];
        bench_libc_variant(r, name, sizeof name); /* "?" when unknown */
        printf(" %s %s", altmem_routine_name((enum altmem_routine)r), name);
    }
    const char *t = getenv("GLIBC_TUNABLES");
    printf("; GLIBC_TUNABLES=%s\n", t ? t : "(unset)");
}

const char *bench_width_variant(const char *width)
{
    for (size_t w = 0; w < NWIDTHS; w++)
        if (!strcmp(widths[w].name, width))
            return widths[w].variant;
    return NULL;
}

/* altmem's variant `name` of the routine into *v: 1, or 0 where it has none. */
static int find_variant(int routine, const char *name, struct altmem_variant_info *v)
{
    for (size_t i = 0; i < altmem_variant_count(); i++)
        if (altmem_variant(i, v) == 0 && (int)v->routine == routine && !strcmp(v->name, name))
            return 1;
    return 0;
}

/* ---- In the parent: find the masks, run the children -------------------------- */

/* Runs `self bench` with argv and GLIBC_TUNABLES=glibc.cpu.hwcaps=mask (mask ""
   leaves GLIBC_TUNABLES out); with out != NULL, its stdout is read into out. */
static int run_self(const char *mask, char *const *args, char *out, size_t len)
{
    int fd[2];
    if (out && pipe(fd) != 0)
        return -1;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        if (out) {
            dup2(fd[1], 1);
            close(fd[0]);
            close(fd[1]);
        }
        /* The caller's own glibc tunables stay (a forced
           x86_non_temporal_threshold, say); the mask comes after them. */
        const char *user = getenv("GLIBC_TUNABLES");
        char env[1024];
        if (*mask)
            snprintf(env, sizeof env, "%s%sglibc.cpu.hwcaps=%s", user && *user ? user : "", user && *user ? ":" : "",
                     mask);
        else
            snprintf(env, sizeof env, "%s", user ? user : "");
        if (env[0])
            setenv("GLIBC_TUNABLES", env, 1);
        else
            unsetenv("GLIBC_TUNABLES");
        bench_exec("/proc/self/exe", args, NULL);
        _exit(127);
    }
    size_t got = 0;
    if (out) {
        close(fd[1]);
        ssize_t k;
        while ((k = read(fd[0], out + got, len - 1 - got)) > 0 || (k < 0 && errno == EINTR))
            if (k > 0)
                got += (size_t)k;
        out[got] = '\0';
        close(fd[0]);
    }
    int st;
    while (waitpid(pid, &st, 0) != pid)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

/* The variant glibc binds for routine r under mask, from a probe process. */
static void probe(const char *mask, char names[3][96])
{
    char *args[] = {"altmem", "bench", "--libc-probe", NULL};
    char out[1024];
    for (int r = 0; r < 3; r++)
        snprintf(names[r], 96, "?");
    if (run_self(mask, args, out, sizeof out) != 0)
        return;
    for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n"))
        for (int r = 0; r < 3; r++) {
            size_t k = strlen(routine_names[r]);
            if (!strncmp(line, routine_names[r], k) && line[k] == ' ')
                snprintf(names[r], 96, "%s", line + k + 1);
        }
}

static int is_width(const struct width *w, int r, const char *name)
{
    size_t k = strlen(w->glibc[r]);
    return !strncmp(name, w->glibc[r], k) && !strstr(name + k, "_rtm");
}

/* The mask under which glibc binds width W's variant of each routine, in
   found[r] ("" when none does; " " when glibc's default does), and in tried
   what each candidate bound, for the message when none does. */
static void find_masks(const struct width *W, char found[3][160], char *tried, size_t len)
{
    for (int r = 0; r < 3; r++)
        found[r][0] = '\0';
    tried[0] = '\0';
    for (int m = 0; m < 4 && W->masks[m]; m++) {
        char names[3][96];
        probe(W->masks[m], names);
        snprintf(tried + strlen(tried), len - strlen(tried), "%s  '%s': %s %s %s\n", tried[0] ? "" : "",
                 W->masks[m], names[0], names[1], names[2]);
        for (int r = 0; r < 3; r++)
            if (!found[r][0] && is_width(W, r, names[r]))
                snprintf(found[r], sizeof found[r], "%s%s", W->masks[m], W->masks[m][0] ? "" : " ");
    }
}

/* One child: the bench on the routines of rlist, under mask; its exit status. */
static int run_child(const struct width *W, const char *mask_found, const char *rlist, char *const *args)
{
    char mask[160];
    size_t ml = strnlen(mask_found, sizeof mask - 1);
    memcpy(mask, mask_found, ml);
    mask[ml] = '\0';
    if (!strcmp(mask, " "))
        mask[0] = '\0';
    printf("\n==== width %s: altmem %s against glibc's %s variant%s (%s; GLIBC_TUNABLES=%s%s) ====\n", W->name,
           W->variant, W->name, strchr(rlist, ',') ? "s" : "", rlist,
           mask[0] ? "glibc.cpu.hwcaps=" : "(none: glibc's default here)", mask);
    char *child[128];
    int k = 0;
    child[k++] = "altmem";
    for (int i = 0; args[i] && k < 120; i++)
        child[k++] = args[i];
    child[k++] = "--libc-width-child";
    child[k++] = (char *)W->name;
    child[k++] = "--routine";
    child[k++] = (char *)rlist;
    child[k] = NULL;
    return run_self(mask, child, NULL, 0);
}

/* Width W: a child for each group of the routines asked for that one mask
   selects (run together); the last non-zero exit status, or 0. */
static int run_width(const struct width *W, const int *routines, char *const *args)
{
    char found[3][160], tried[512];
    find_masks(W, found, tried, sizeof tried);
    int done[3] = {0, 0, 0}, rc = 0;
    for (int r = 0; r < 3; r++) {
        if (!routines[r] || done[r])
            continue;
        if (!found[r][0]) {
            printf("\n==== width %s, %s: glibc binds no %s* variant under any candidate mask here ====\n%s", W->name,
                   routine_names[r], W->glibc[r], tried);
            done[r] = 1;
            continue;
        }
        char rlist[64] = "";
        for (int q = r; q < 3; q++)
            if (routines[q] && !done[q] && !strcmp(found[q], found[r])) {
                snprintf(rlist + strlen(rlist), sizeof rlist - strlen(rlist), "%s%s", rlist[0] ? "," : "",
                         routine_names[q]);
                done[q] = 1;
            }
        int st = run_child(W, found[r], rlist, args);
        if (st != 0)
            rc = st;
    }
    return rc;
}

/* The width's variant (memset's, which every width has) runs on this CPU. */
static int variant_runnable(const char *name)
{
    struct altmem_variant_info v;
    return find_variant(ALTMEM_MEMSET, name, &v) && v.runnable;
}

/* What the parse leaves for the run: the widths asked for. */
struct width_job {
    int want[NWIDTHS];
};

int bench_mode_libc_width_parse(struct bench_job *job)
{
    static struct width_job wj;
    const char *list = job->o.libc_width;
    int any = 0;
    for (size_t w = 0; w < NWIDTHS; w++) {
        char item[16];
        snprintf(item, sizeof item, ",%s,", widths[w].name);
        char l[128];
        snprintf(l, sizeof l, ",%s,", list);
        wj.want[w] = !strcmp(list, "all") || strstr(l, item) != NULL;
        any |= wj.want[w];
    }
    if (!any) {
        fprintf(stderr, "altmem bench: bad --libc-width '%s' (sse2, avx2, evex, avx512, all; comma list)\n", list);
        return 2;
    }
    if (!dlsym(RTLD_DEFAULT, "__libc_ifunc_impl_list")) {
        fprintf(stderr, "altmem bench: --libc-width needs glibc (its __libc_ifunc_impl_list names the variant that "
                        "ran); this C library has none\n");
        return 2;
    }
    job->mode_data = &wj;
    return BENCH_GO_ON;
}

/* A child of each width runs the bench with the parent's arguments but these
   two: each gets its own width and routines. */
static void child_args(const struct bench_job *job, char **args, int max)
{
    int k = 0;
    for (int i = 0; i < job->argc && k < max - 1; i++) {
        const char *a = job->argv[i];
        if (!strcmp(a, "--libc-width") || !strcmp(a, "--routine")) {
            i++;
            continue;
        }
        if (!strncmp(a, "--libc-width=", 13) || !strncmp(a, "--routine=", 10))
            continue;
        args[k++] = job->argv[i];
    }
    args[k] = NULL;
}

int bench_mode_libc_width_run(struct bench_job *job)
{
    const struct width_job *wj = job->mode_data;
    char *args[251];
    child_args(job, args, 251);
    printf("altmem bench --libc-width: each vector width of altmem against glibc's variant of the same width.\n"
           "glibc's variant is chosen by GLIBC_TUNABLES=glibc.cpu.hwcaps=MASK (a mask found by trying candidates in a\n"
           "probe process each) and identified by the address glibc bound, looked up in __libc_ifunc_impl_list.\n");
    int rc = 0;
    for (size_t w = 0; w < NWIDTHS; w++) {
        if (!wj->want[w])
            continue;
        if (!variant_runnable(widths[w].variant)) {
            printf("\n==== width %s: skipped: this CPU cannot run altmem's %s variant ====\n", widths[w].name,
                   widths[w].variant);
            continue;
        }
        int st = run_width(&widths[w], job->o.routines, args);
        if (st != 0)
            rc = st;
    }
    return rc;
}
