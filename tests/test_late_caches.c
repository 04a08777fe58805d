/*
 * The cache leaves are read late (issue 30): at start-up x86_64 detection reads
 * the identity and features only (under glibc >= 2.33: one CPUID, the vendor
 * leaf; glibc keeps the rest), and the first call that reaches a streaming
 * branch (ALTMEM__SETTLE_FROM bytes or more) reads the caches and installs the
 * final policy, equal to what detecting everything at start-up gives.  Every
 * x86_64 variant of every routine, and memmove's three streaming branches
 * (forward, backward, apart), are each the first such call in a child process
 * of their own.  Runs with ALTMEM_PROFILE=none (a profile names the caches, so
 * with one they are read at start-up).
 *
 * Then, in one more child, eight threads make their first large copies at once
 * through the public entries (one settles, the others go on: the generic
 * variant, or the final policy), every byte checked.
 *
 *   test_late_caches            the check
 *   test_late_caches --control  the children's calls stay below ALTMEM__SETTLE_FROM: must fail
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "altmem.h"
#include "arch/x86_64/decode.h"
#include "cpu.h"
#include "decide.h"
#include "os/os.h"
#include "policy.h"
#include "select.h"
#include "variant_table.h"

#define NEVER ((size_t)-1)
#define BIG ((size_t)96 << 10)

static int cache_leaf(unsigned leaf)
{
    return leaf == 2 || leaf == 4 || leaf == 11 || leaf >= 0x80000000u;
}

static int check_startup(void)
{
    unsigned r[4];
    int kept = altmem__os_x86_cpuid_kept(1, 0, r), bad = 0;
    printf("at start-up, %u CPUID instructions:", altmem__cpuid_log.count);
    for (unsigned i = 0; i < altmem__cpuid_log.count && i < 32; i++) {
        printf(" %#x.%u", altmem__cpuid_log.leaf[i], altmem__cpuid_log.sub[i]);
        bad |= cache_leaf(altmem__cpuid_log.leaf[i]);
    }
    printf("\n");
    if (bad)
        printf("FAIL: a cache leaf was read at start-up\n");
    if (kept && altmem__cpuid_log.count > 1) {
        printf("FAIL: more than the vendor leaf, under a C library that keeps the others\n");
        bad = 1;
    }
    if (altmem__settle_from != ALTMEM__SETTLE_FROM || altmem__nt_threshold > ALTMEM__SETTLE_FROM ||
        altmem__memset_nt_threshold > ALTMEM__SETTLE_FROM) {
        printf("FAIL: the early policy is not installed (settle from %zu, nt %zu, memset nt %zu)\n",
               altmem__settle_from, altmem__nt_threshold, altmem__memset_nt_threshold);
        bad = 1;
    }
    return bad;
}

static void warn_quiet(const char *line, size_t len, void *ctx) { (void)line, (void)len, (void)ctx; }

/* After the first large call: settled, and the policy equals the eager one. */
static int check_settled(const char *what)
{
    int bad = 0;
    if (altmem__settle_from != NEVER) {
        printf("FAIL: %s: the policy was not settled\n", what);
        return 1;
    }
    struct altmem__cpu full;
    altmem__cpu_detect(&full);
    static struct altmem__state eager;
    altmem__decide(&full, getenv("ALTMEM_TUNABLES"), 0, &eager, warn_quiet, 0);
    const struct altmem__state *now = &altmem__global;
    const struct altmem__policy *p = &eager.policy;
    if (now->cpu.l1d_bytes != full.l1d_bytes || now->cpu.l2_bytes != full.l2_bytes ||
        now->cpu.l3_bytes != full.l3_bytes || now->cpu.glibc_nt != full.glibc_nt) {
        printf("FAIL: %s: caches %zu/%zu/%zu (glibc nt %zu) read late, %zu/%zu/%zu (%zu) at once\n", what,
               now->cpu.l1d_bytes, now->cpu.l2_bytes, now->cpu.l3_bytes, now->cpu.glibc_nt, full.l1d_bytes,
               full.l2_bytes, full.l3_bytes, full.glibc_nt);
        bad = 1;
    }
    size_t nt16 = p->nt_copy16_never ? NEVER : p->nt_copy;
    size_t nt_fwd = p->nt_fwd_overlap > p->nt_copy ? p->nt_fwd_overlap : p->nt_copy;
    /* the 16-byte memset's rep stosb below the lesser of streaming and one past its stop */
    size_t stosb_direct16 = p->stosb_stop16 == NEVER || p->stosb_stop16 + 1 > p->nt_set ? p->nt_set : p->stosb_stop16 + 1;
    if (altmem__nt_threshold != p->nt_copy || altmem__nt_threshold_16 != nt16 ||
        altmem__nt_threshold_fwd_overlap != nt_fwd ||
        altmem__nt_threshold_coaligned != (p->nt_coaligned > p->nt_copy ? p->nt_coaligned : p->nt_copy) ||
        altmem__memset_lines_mask != (p->memset_no_lines ? 0 : 63) ||
        altmem__memset_nt_threshold != p->nt_set || altmem__rep_stosb_start[0] != p->stosb[0] ||
        altmem__rep_stosb_start[1] != p->stosb[1] || altmem__rep_stosb_start[2] != p->stosb[2] ||
        altmem__rep_movsb_start[2] != p->movsb[2] || altmem__copy_split_loads_above != p->split_loads_above ||
        altmem__copy_split_loads_streaming != (size_t)p->split_loads_streaming ||
        altmem__rep_stosb_direct_below_16 != stosb_direct16 || altmem__rep_movsb_stop_16 != p->movsb_stop16 ||
        altmem__rep_movsb_stop_16_apart != p->movsb_stop16_apart ||
        altmem__rep_movsb_stop_16_near != p->movsb_stop16_near ||
        altmem__rep_movsb_stop_16_min !=
            (p->movsb_stop16 < p->movsb_stop16_apart
                 ? (p->movsb_stop16 < p->movsb_stop16_near ? p->movsb_stop16 : p->movsb_stop16_near)
                 : (p->movsb_stop16_apart < p->movsb_stop16_near ? p->movsb_stop16_apart : p->movsb_stop16_near)) ||
        altmem__rep_movsb_start[0] != p->movsb[0] ||
        altmem__rep_movsb_start_32_apart != (p->movsb32_apart < p->movsb[1] ? p->movsb32_apart : p->movsb[1]) ||
        altmem__copy_loop_below_32_coaligned != (p->movsb[1] < p->nt_copy ? p->movsb[1] : p->nt_copy) ||
        altmem__rep_movsb_direct_below[1] != (p->short_distance || p->movsb_fwd_overlap[1] ? 0 : p->nt_copy) ||
        altmem__rep_movsb_start_fwd_overlap[0] != p->movsb_fwd_overlap[0] ||
        altmem__rep_movsb_start_fwd_overlap[1] != p->movsb_fwd_overlap[1] ||
        altmem__rep_movsb_start_fwd_overlap[2] != p->movsb_fwd_overlap[2] ||
        altmem__copy_loop_below_512 > p->nt_copy || altmem__copy_loop_below_512 > p->movsb[2] ||
        altmem__copy_loop_below_512 > p->movsb_coaligned ||
        now->policy.rules != p->rules) {
        printf("FAIL: %s: thresholds nt %zu/%zu/%zu, stosb %zu, rules %#x; at once: %zu/%zu/%zu, %zu, %#x\n", what,
               altmem__nt_threshold, altmem__nt_threshold_16, altmem__memset_nt_threshold, altmem__rep_stosb_start[2],
               now->policy.rules, p->nt_copy, nt16, p->nt_set, p->stosb[2], p->rules);
        bad = 1;
    }
    return bad;
}

/* The x86_64 vector variants have streaming branches; generic and ual none. */
static int streams(const struct altmem__variant *v)
{
    return altmem__runnable(v->requires, altmem__global.cpu.features) &&
           (v->requires & (ALTMEM_FEAT_SIMD128 | ALTMEM_FEAT_SIMD256 | ALTMEM_FEAT_SIMD512));
}

static unsigned char *buf;   /* 4 * BIG: two regions and room to overlap */

static void fill(void)
{
    for (size_t i = 0; i < 4 * BIG; i++)
        buf[i] = (unsigned char)(i * 7 + 3);
}

/* One call of variant v, n bytes, in the shape `how`; 0 if its bytes are right. */
static int call(const struct altmem__variant *v, const char *how, size_t n)
{
    fill();
    unsigned char *src = buf + BIG / 2, *dst = buf + 2 * BIG + 64;
    if (!strcmp(how, "back"))        /* dst inside the source, 4 KiB+ above it */
        dst = src + 8192;
    else if (!strcmp(how, "ahead"))  /* src 16 KiB+ ahead of dst, overlapping */
        dst = src - 20480;
    static unsigned char want[4 * BIG];
    memcpy(want, buf, 4 * BIG);
    switch (v->routine) {
    case ALTMEM_MEMCPY: v->fn.memcpy(dst, src, n); memcpy(want + (dst - buf), src, n); break;
    case ALTMEM_MEMMOVE: v->fn.memmove(dst, src, n); memmove(want + (dst - buf), want + (src - buf), n); break;
    case ALTMEM_MEMSET: v->fn.memset(dst, 0x5a, n); memset(want + (dst - buf), 0x5a, n); break;
    case ALTMEM_COPY_USER:
        if (v->fn.copy_user(dst, src, n) != 0)
            return 1;
        memcpy(want + (dst - buf), src, n);
        break;
    case ALTMEM_CLEAR_USER:
        if (v->fn.clear_user(dst, n) != 0)
            return 1;
        memset(want + (dst - buf), 0, n);
        break;
    default: return 1;
    }
    return memcmp(want, buf, 4 * BIG) != 0;
}

#define THREADS 8
static pthread_barrier_t start_line;
static int thread_bad[THREADS];

static void *first_large_call(void *arg)
{
    int t = (int)(intptr_t)arg;
    size_t n = BIG + (size_t)t * 4096;
    unsigned char *src = malloc(n), *dst = malloc(n + 64);
    if (!src || !dst) {
        thread_bad[t] = 1;
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        src[i] = (unsigned char)(i * 13 + (size_t)t);
    pthread_barrier_wait(&start_line);
    if (t % 3 == 0)
        altmem_memcpy(dst + t, src, n);
    else if (t % 3 == 1)
        altmem_memmove(dst + t, src, n);
    else {
        altmem_memset(dst + t, 0x33, n);
        for (size_t i = 0; i < n; i++)
            src[i] = 0x33;
    }
    thread_bad[t] = memcmp(dst + t, src, n) != 0;
    free(src);
    free(dst);
    return NULL;
}

/* In a child of its own: eight first large calls at once. */
static int threads_at_once(void)
{
    pthread_t th[THREADS];
    pthread_barrier_init(&start_line, NULL, THREADS);
    for (int t = 0; t < THREADS; t++)
        if (pthread_create(&th[t], NULL, first_large_call, (void *)(intptr_t)t) != 0)
            return 1;
    int bad = 0;
    for (int t = 0; t < THREADS; t++) {
        pthread_join(th[t], NULL);
        if (thread_bad[t])
            printf("FAIL: thread %d: wrong bytes\n", t);
        bad |= thread_bad[t];
    }
    return bad | check_settled("eight threads at once");
}

int main(int argc, char **argv)
{
    int control = argc == 2 && !strcmp(argv[1], "--control");
    buf = malloc(4 * BIG);
    if (!buf)
        return 2;
    if (!altmem__global.cpu.caches_late && altmem__settle_from == NEVER) {
        printf("FAIL: the caches were read at start-up (a profile? ALTMEM_PROFILE=none expected)\n");
        return 1;
    }
    int fail = check_startup();
    /* Calls below the size change nothing. */
    for (size_t i = 0; i < altmem__variant_total; i++) {
        const struct altmem__variant *v = &altmem__variants[i];
        if (altmem__runnable(v->requires, altmem__global.cpu.features) && call(v, "apart", ALTMEM__SETTLE_FROM - 1)) {
            printf("FAIL: %s %s: wrong bytes below the size\n", altmem_routine_name(v->routine), v->name);
            fail = 1;
        }
    }
    if (altmem__settle_from != ALTMEM__SETTLE_FROM) {
        printf("FAIL: a call below %zu bytes settled the policy\n", (size_t)ALTMEM__SETTLE_FROM);
        fail = 1;
    }
    unsigned checked = 0;
    for (size_t i = 0; i < altmem__variant_total; i++) {
        const struct altmem__variant *v = &altmem__variants[i];
        if (!streams(v))
            continue;
        static const char *const shapes[] = {"apart", "back", "ahead"};
        for (int k = 0; k < (v->routine == ALTMEM_MEMMOVE ? 3 : 1); k++) {
            char what[96];
            snprintf(what, sizeof what, "%s %s %s", altmem_routine_name(v->routine), v->name, shapes[k]);
            fflush(stdout);
            pid_t pid = fork();
            if (pid == 0) {
                int bad = call(v, shapes[k], control ? ALTMEM__SETTLE_FROM - 1 : BIG);
                if (checked == 0) {
                    printf("after %s, %u CPUID instructions in all:", what, altmem__cpuid_log.count);
                    for (unsigned j = 0; j < altmem__cpuid_log.count && j < 32; j++)
                        printf(" %#x.%u", altmem__cpuid_log.leaf[j], altmem__cpuid_log.sub[j]);
                    printf("\n");
                }
                if (bad)
                    printf("FAIL: %s: wrong bytes\n", what);
                bad |= check_settled(what);
                fflush(stdout);
                _exit(bad);
            }
            int status = 0;
            if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
                fail = 1;
            checked++;
        }
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0)
        _exit(threads_at_once());
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        printf("FAIL: eight threads' first large calls at once\n");
        fail = 1;
    }
    printf("%u first large calls checked, each in its own process, and eight threads at once\n", checked);
    printf("%s\n", fail ? "FAILED" : "ok: one CPUID at most at start-up, caches read by the first large call");
    return fail;
}
