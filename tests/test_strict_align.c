/*
 * Strict-alignment proof for the `generic` variants, on x86_64.
 *
 * With EFLAGS.AC set (Linux keeps CR0.AM on), every misaligned scalar load or
 * store made in user mode raises SIGBUS with si_code BUS_ADRALN.  Each
 * `generic` variant in the table is run over a matrix of sizes x source offset
 * x destination offset (memmove also overlapping, both directions) with AC
 * set; a single trap is a failure.  Every `ual` variant must trap at least
 * once over the same matrix (1 case in 17, all offset pairs, unless run with
 * --full: each trap is a signal), which shows the matrix reaches misaligned
 * accesses at all; a deliberate misaligned load in this file must trap too.
 * Other variants (x86_64 SIMD and rep movsb rows, which require UAL) are
 * skipped and listed as such.
 *
 * Scope: CPUs differ in whether AC applies to SSE/AVX unaligned moves (the test
 * probes and reports it).  Where it does not, this proof covers scalar
 * accesses; vector code in the generic variants is excluded separately by
 * check_novector.sh.  Results are also compared byte for byte, so a variant
 * that avoided traps by not copying would fail.
 *
 * While AC is set nothing but the variant runs: libc's own string functions
 * (and anything the compiler turns into calls to them) make misaligned
 * accesses by design.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include "altmem.h"

#ifndef __has_feature
#define __has_feature(x) 0
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || __has_feature(address_sanitizer) || \
    __has_feature(undefined_behavior_sanitizer) || __has_feature(memory_sanitizer) ||                  \
    __has_feature(thread_sanitizer) || defined(ALTMEM_TEST_SANITIZED)
/* Sanitizer runtimes run inside the variants (checks, reports, interceptors)
   and make misaligned accesses of their own. */
#define SKIP_REASON "built with sanitizers, whose runtime makes misaligned accesses of its own"
#elif !defined(__x86_64__)
#define SKIP_REASON "EFLAGS.AC alignment checking exists only on x86; this proof runs on x86_64 hosts"
#endif

#ifdef SKIP_REASON
int main(void)
{
    printf("strict_align: SKIPPED: %s\n", SKIP_REASON);
    return 77;
}
#else

/* ---- Alignment checking ------------------------------------------------- */

/* pushf/popf go through the stack: step below the red zone first, since the
   compiler may keep live locals there in a leaf function. */
static inline __attribute__((always_inline)) void ac_on(void)
{
    __asm__ volatile("sub $128, %%rsp\n\t"
                     "pushfq\n\t"
                     "orq $0x40000, (%%rsp)\n\t"
                     "popfq\n\t"
                     "add $128, %%rsp" ::: "memory", "cc");
}

static inline __attribute__((always_inline)) void ac_off(void)
{
    __asm__ volatile("sub $128, %%rsp\n\t"
                     "pushfq\n\t"
                     "andq $~0x40000, (%%rsp)\n\t"
                     "popfq\n\t"
                     "add $128, %%rsp" ::: "memory", "cc");
}

static inline __attribute__((always_inline)) uint64_t read_flags(void)
{
    uint64_t f;
    __asm__ volatile("sub $128, %%rsp\n\t"
                     "pushfq\n\t"
                     "popq %0\n\t"
                     "add $128, %%rsp" : "=r"(f) :: "memory");
    return f;
}

static sigjmp_buf trap_jump;
static volatile sig_atomic_t armed;        /* a trap is expected to be ours        */
static volatile sig_atomic_t other_code;   /* a SIGBUS that was not BUS_ADRALN     */
static volatile uintptr_t trap_pc;

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
    /* The kernel does not clear AC for the handler: do it before anything else,
       or the handler's own code could trap again. */
    __asm__ volatile("pushfq\n\t"
                     "andq $~0x40000, (%%rsp)\n\t"
                     "popfq" ::: "memory", "cc");
    if (!armed) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    if (si->si_code != BUS_ADRALN)
        other_code = si->si_code;
    /* #AC reports no data address (si_addr is not it): the instruction is
       what locates the access. */
    trap_pc = ((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
    /* Back to the sweep with AC clear (longjmp does not restore flags) and the
       signal mask as it was at sigsetjmp, so SIGBUS is deliverable again. */
    siglongjmp(trap_jump, 1);
}

/* ---- Buffers and the matrix --------------------------------------------- */

enum mode {
    M_COPY,        /* memcpy, separate buffers                          */
    M_MOVE_APART,  /* memmove, separate buffers                         */
    M_MOVE_NEAR,   /* memmove in one buffer, dst - src in (-64, 64)     */
    M_MOVE_UP,     /* memmove in one buffer, dst - src in (64, 192)     */
    M_MOVE_DOWN,   /* memmove in one buffer, dst - src in (-192, -64)   */
    M_SET,         /* memset                                            */
    M_COPY_USER,   /* copy_user, separate buffers (no fault: the copy)  */
    M_CLEAR_USER,  /* clear_user                                        */
    M_COUNT
};
#define IS_SET(m) ((m) == M_SET || (m) == M_CLEAR_USER)
#define IS_APART(m) ((m) == M_COPY || (m) == M_COPY_USER || (m) == M_MOVE_APART || IS_SET(m))
static const char *const mode_name[M_COUNT] = {
    "memcpy", "memmove apart", "memmove overlap |d-s|<64", "memmove overlap d>s+64",
    "memmove overlap d<s-64", "memset", "copy_user", "clear_user",
};

static const size_t big_sizes[] = {511, 512, 1000, 4096 + 13};
#define N_SMALL 301                                  /* sizes 0..300 */
#define N_SIZES (N_SMALL + sizeof big_sizes / sizeof big_sizes[0])
#define N_OFF 64
#define MAX_N (4096 + 13)

static size_t size_at(size_t i)
{
    return i < N_SMALL ? i : big_sizes[i - N_SMALL];
}

/* Separate source and destination; one shared buffer for overlapping moves.
   Pages around each keep a stray access inside mapped memory. */
#define BUF_LEN (MAX_N + 4096)
static unsigned char src_buf[BUF_LEN] __attribute__((aligned(4096)));
static unsigned char dst_buf[BUF_LEN] __attribute__((aligned(4096)));
#define SHARED_LEN (MAX_N + 8192)
#define SHARED_BASE 2048
static unsigned char shared_buf[SHARED_LEN] __attribute__((aligned(4096)));

/* Distinct values at nearby positions and across 256-byte periods, so a copy
   shifted by any small amount is caught. */
static unsigned char pattern(size_t i)
{
    return (unsigned char)(i * 7 + (i >> 8) * 13 + 1);
}

struct sweep_result {
    long cases, traps, wrong;
    char first_trap[160];
    char first_wrong[160];
};

static void describe(char *out, size_t len, enum mode m, size_t n, size_t so, size_t dof)
{
    if (IS_SET(m))
        snprintf(out, len, "%s n=%zu dst+%zu", mode_name[m], n, dof);
    else
        snprintf(out, len, "%s n=%zu src+%zu dst+%zu", mode_name[m], n, so, dof);
}

static long mode_cases(enum mode m)
{
    return (long)N_SIZES * N_OFF * (IS_SET(m) ? 1 : N_OFF);
}

/* Expected contents, precomputed so that preparing and checking a case is a
   few libc calls (made with AC clear) rather than a byte loop per case. */
static unsigned char pat[SHARED_LEN], inv[SHARED_LEN], set_ref[BUF_LEN], zero_ref[BUF_LEN];

/* Sets up case idx and returns the pointers; all before AC is set. */
static void prepare(enum mode m, long idx, size_t *n, size_t *so, size_t *dof,
                    unsigned char **d, unsigned char **s)
{
    *dof = (size_t)(idx % N_OFF);
    idx /= N_OFF;
    if (IS_SET(m)) {
        *so = 0;
    } else {
        *so = (size_t)(idx % N_OFF);
        idx /= N_OFF;
    }
    *n = size_at((size_t)idx);
    if (IS_APART(m)) {
        *s = src_buf + 64 + *so;
        *d = dst_buf + 64 + *dof;
        memcpy(dst_buf, inv, 64 + *dof + *n + 64);
        return;
    }
    long delta = m == M_MOVE_UP ? 128 : m == M_MOVE_DOWN ? -128 : 0;
    *s = shared_buf + SHARED_BASE + *so;
    *d = shared_buf + SHARED_BASE + delta + (long)*dof;
    memcpy(shared_buf + SHARED_BASE - 256, pat + SHARED_BASE - 256, 512 + *n);
}

/* 1 if the case's result is right, including untouched bytes around it. */
static int verify(enum mode m, size_t n, size_t so, size_t dof, const unsigned char *d)
{
    if (IS_APART(m)) {
        size_t at = 64 + dof, end = 64 + dof + n + 64;
        const unsigned char *want = m == M_SET ? set_ref : m == M_CLEAR_USER ? zero_ref : pat + 64 + so;
        return !memcmp(dst_buf, inv, at) && !memcmp(dst_buf + at, want, n) &&
               !memcmp(dst_buf + at + n, inv + at + n, end - at - n);
    }
    size_t lo = SHARED_BASE - 256, hi = SHARED_BASE + 256 + n;
    size_t s_at = SHARED_BASE + so, d_at = (size_t)(d - shared_buf);
    return !memcmp(shared_buf + lo, pat + lo, d_at - lo) && !memcmp(shared_buf + d_at, pat + s_at, n) &&
           !memcmp(shared_buf + d_at + n, pat + d_at + n, hi - d_at - n);
}

/* Runs every stride-th case of one mode with AC set around each call. */
static void sweep(enum mode m, const struct altmem_variant_info *v, long stride, struct sweep_result *r)
{
    const int c = 0x1a5;   /* memset must store (unsigned char)c: set_ref */
    volatile long idx = 0;
    volatile long traps = 0, wrong = 0;
    size_t n, so, dof;
    unsigned char *d, *s;

    memset(r, 0, sizeof *r);
    /* One sigsetjmp per mode: every trap comes back here and moves on to the
       next case, so a variant that traps everywhere still finishes quickly. */
    if (sigsetjmp(trap_jump, 1)) {
        armed = 0;
        if (traps++ == 0) {
            prepare(m, idx, &n, &so, &dof, &d, &s);
            describe(r->first_trap, sizeof r->first_trap, m, n, so, dof);
            size_t l = strlen(r->first_trap);
            snprintf(r->first_trap + l, sizeof r->first_trap - l, ", instruction at entry%+ld",
                     (long)(trap_pc - (uintptr_t)v->fn.memcpy));
        }
        idx += stride;
    }
    long total = mode_cases(m);
    for (; idx < total; idx += stride) {
        prepare(m, idx, &n, &so, &dof, &d, &s);
        armed = 1;
        ac_on();
        switch (v->routine) {
        case ALTMEM_MEMCPY: v->fn.memcpy(d, s, n); break;
        case ALTMEM_MEMMOVE: v->fn.memmove(d, s, n); break;
        case ALTMEM_COPY_USER: v->fn.copy_user(d, s, n); break;
        case ALTMEM_CLEAR_USER: v->fn.clear_user(d, n); break;
        default: v->fn.memset(d, c, n); break;
        }
        ac_off();
        armed = 0;
        if (!verify(m, n, so, dof, d) && wrong++ == 0)
            describe(r->first_wrong, sizeof r->first_wrong, m, n, so, dof);
    }
    r->cases = (total + stride - 1) / stride;
    r->traps = traps;
    r->wrong = wrong;
}

/* ---- Controls ----------------------------------------------------------- */

static unsigned char probe_buf[64] __attribute__((aligned(64)));

/* Returns 1 if the access trapped. */
static int probe_scalar_load(void)
{
    volatile int trapped = 0;
    if (sigsetjmp(trap_jump, 1)) {
        armed = 0;
        trapped = 1;
        return trapped;
    }
    uint64_t v;
    armed = 1;
    ac_on();
    __asm__ volatile("movq (%1), %0" : "=r"(v) : "r"(probe_buf + 1) : "memory");
    ac_off();
    armed = 0;
    (void)v;
    return trapped;
}

static int probe_vector_load(void)
{
    volatile int trapped = 0;
    if (sigsetjmp(trap_jump, 1)) {
        armed = 0;
        trapped = 1;
        return trapped;
    }
    armed = 1;
    ac_on();
    __asm__ volatile("movdqu (%0), %%xmm0" :: "r"(probe_buf + 1) : "xmm0", "memory");
    ac_off();
    armed = 0;
    return trapped;
}

static int probe_aligned_load(void)
{
    volatile int trapped = 0;
    if (sigsetjmp(trap_jump, 1)) {
        armed = 0;
        trapped = 1;
        return trapped;
    }
    uint64_t v;
    armed = 1;
    ac_on();
    __asm__ volatile("movq (%1), %0" : "=r"(v) : "r"(probe_buf + 8) : "memory");
    ac_off();
    armed = 0;
    (void)v;
    return trapped;
}

int main(int argc, char **argv)
{
    int failures = 0;
    /* Each trap costs a signal delivery (several microseconds in a VM), and a
       ual variant traps in most cases: sample those unless asked not to. */
    long control_stride = argc > 1 && !strcmp(argv[1], "--full") ? 1 : 17;
    /* The copy_user/clear_user variants install altmem's fault handler on their
       first call: do it now, before AC is ever set (sigaction is libc code), and
       before our SIGBUS handler, which then replaces it for SIGBUS and sees the
       ual variants' alignment traps (altmem's would resume them at the fix-up). */
    if (altmem_uaccess_install() != 0) {
        printf("FAIL: altmem_uaccess_install\n");
        return 1;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGBUS, &sa, NULL) != 0) {
        perror("sigaction");
        return 1;
    }
    for (size_t i = 0; i < SHARED_LEN; i++) {
        pat[i] = pattern(i);
        inv[i] = (unsigned char)~pat[i];
    }
    memcpy(src_buf, pat, BUF_LEN);
    memset(set_ref, 0x1a5 & 0xff, BUF_LEN);

    /* The flag must really be set, and an aligned access must not trap. */
    ac_on();
    uint64_t flags = read_flags();
    ac_off();
    int ac_set = (flags >> 18) & 1, ac_clear = !((read_flags() >> 18) & 1);
    printf("control: EFLAGS.AC set by pushf/or/popf: %s; cleared again: %s\n", ac_set ? "yes" : "NO",
           ac_clear ? "yes" : "NO");
    failures += !ac_set + !ac_clear;

    int t_aligned = probe_aligned_load();
    printf("control: aligned 8-byte load with AC set: %s\n", t_aligned ? "TRAPPED (unexpected)" : "no trap");
    failures += t_aligned;

    int t_scalar = probe_scalar_load();
    printf("negative control: misaligned 8-byte load at +1 with AC set: %s\n",
           t_scalar ? "trapped (SIGBUS BUS_ADRALN)" : "NO TRAP: alignment checking does not work here");
    if (!t_scalar) {
        printf("FAIL: cannot prove strict alignment without a working AC flag\n");
        return 1;
    }

    int t_vector = probe_vector_load();
    printf("info: misaligned SSE movdqu at +1 with AC set: %s\n",
           t_vector ? "trapped: this proof covers vector accesses too"
                    : "no trap on this CPU: this proof covers scalar accesses; vector instructions in "
                      "the generic variants are excluded by the novector check");

    struct altmem_cpu_info cpu;
    altmem_cpu(&cpu);
    printf("matrix: sizes 0..%d and", N_SMALL - 1);
    for (size_t i = 0; i < sizeof big_sizes / sizeof big_sizes[0]; i++)
        printf(" %zu", big_sizes[i]);
    printf(" x src offset 0..%d x dst offset 0..%d (memset: x dst offset)\n", N_OFF - 1, N_OFF - 1);

    int generic_seen[ALTMEM_ROUTINE_COUNT] = {0};
    int ual_count = 0;
    for (size_t i = 0; i < altmem_variant_count(); i++) {
        struct altmem_variant_info v;
        if (altmem_variant(i, &v) != 0) {
            printf("FAIL: altmem_variant(%zu) failed\n", i);
            failures++;
            continue;
        }
        const char *rname = altmem_routine_name(v.routine);
        int is_generic = !strcmp(v.name, "generic"), is_ual = !strcmp(v.name, "ual");
        if (!v.runnable) {
            printf("%s %s: not runnable on this CPU, not run\n", rname, v.name);
            continue;
        }
        /* The proof is about generic; ual is its negative control.  Every other
           row (the x86_64 SIMD and string variants) needs UAL and makes unaligned
           accesses by design, so alignment traps say nothing about it. */
        if (!is_generic && !is_ual) {
            printf("%s %s: skipped: needs UAL (unaligned by design), neither the proof's subject nor its "
                   "control\n", rname, v.name);
            continue;
        }
        enum mode modes[5];
        int nm = 0;
        if (v.routine == ALTMEM_MEMCPY) {
            modes[nm++] = M_COPY;
        } else if (v.routine == ALTMEM_MEMMOVE) {
            modes[nm++] = M_MOVE_APART;
            modes[nm++] = M_MOVE_NEAR;
            modes[nm++] = M_MOVE_UP;
            modes[nm++] = M_MOVE_DOWN;
        } else if (v.routine == ALTMEM_COPY_USER) {
            modes[nm++] = M_COPY_USER;
        } else if (v.routine == ALTMEM_CLEAR_USER) {
            modes[nm++] = M_CLEAR_USER;
        } else {
            modes[nm++] = M_SET;
        }
        long var_traps = 0;
        long stride = is_generic ? 1 : control_stride;
        for (int k = 0; k < nm; k++) {
            struct sweep_result r;
            other_code = 0;
            sweep(modes[k], &v, stride, &r);
            var_traps += r.traps;
            char sampled[48] = "";
            if (stride > 1)
                snprintf(sampled, sizeof sampled, " (1 in %ld; --full for all)", stride);
            printf("%s %s: %-26s %8ld cases%s, %7ld alignment traps, %ld wrong results\n", rname, v.name,
                   mode_name[modes[k]], r.cases, sampled, r.traps, r.wrong);
            if (r.traps)
                printf("    first trap: %s\n", r.first_trap);
            if (other_code) {
                printf("FAIL: SIGBUS with si_code %d, not BUS_ADRALN\n", (int)other_code);
                failures++;
            }
            if (r.wrong) {
                printf("FAIL: %s %s: %ld wrong results, first: %s\n", rname, v.name, r.wrong, r.first_wrong);
                failures++;
            }
            if (is_generic && r.traps) {
                printf("FAIL: %s generic made a misaligned access: %s\n", rname, r.first_trap);
                failures++;
            }
        }
        if (is_generic)
            generic_seen[v.routine] = 1;
        if (is_ual) {
            ual_count++;
            if (var_traps == 0) {
                printf("FAIL (negative control): %s ual never trapped: the matrix does not reach "
                       "misaligned accesses\n", rname);
                failures++;
            } else {
                printf("negative control: %s ual trapped %ld times, as it should\n", rname, var_traps);
            }
        }
    }
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
        if (!generic_seen[r]) {
            printf("FAIL: no runnable generic variant for %s\n", altmem_routine_name((enum altmem_routine)r));
            failures++;
        }
    }
    if (ual_count == 0)
        printf("note: no runnable ual variant on this CPU: negative control (b) not run\n");
    printf("strict_align: %s (%d failures)\n", failures ? "FAILED" : "passed", failures);
    return failures ? 1 : 0;
}
#endif
