/*
 * copy_user / clear_user from many threads at once, from signal handlers and on
 * alternate signal stacks (docs/uaccess.md, "Async-signal-safety").
 *
 *   first_use  fresh processes whose threads all make their first copy_user or
 *              clear_user call, a faulting one, at the same moment: the lazy
 *              installation races with itself and with the faults
 *   threads    threads copying and clearing with faults at once, every variant
 *              and the public entry points, random sizes and hole positions:
 *              exact results (the checker of test_uaccess)
 *   signal     the main thread loops over faulting copy_user calls (a long
 *              fix-up included) while SIGUSR1 (sent by a thread whenever the
 *              main thread is inside copy_user) and SIGALRM (sent by another
 *              whenever a handler runs; SA_NODEFER) interrupt it; their handlers
 *              make faulting copy_user / clear_user calls of their own, nested in
 *              each other too, and check them; every fourth outermost handler
 *              also raises SIGALRM itself, so handlers nest on one CPU too.
 *              Paced by events, ended by counts (no clock).  A handler that finds SIGSEGV blocked has
 *              interrupted altmem's own fault handler: it counts that and skips
 *              the copy (see signal_nodefer)
 *   altstack   with sigaltstack: altmem's handler runs on the alternate stack
 *              (the stack's contents change under a faulting copy_user from plain
 *              code), and a handler running on the alternate stack (SA_ONSTACK)
 *              gets exact results from faulting calls; in the main thread and in
 *              another thread with its own stack
 *   signal_nodefer  as `signal`, but the handlers copy even when they
 *              interrupted altmem's fault handler: its SIGSEGV must not be blocked
 *              there (altmem installs with SA_NODEFER; found by this part).
 *   shrink_race  while another thread flips a page of the source between PROT_NONE
 *              and readable (of the destination between read-only and writable),
 *              faulting copy_user (clear_user) calls of every variant must not
 *              write past the prefix they report.  Was a known bug: the fix-up
 *              restarted at byte 0 and could stop earlier than the fast path got;
 *              now it resumes from the fast path's progress.  --self-test feeds it
 *              a stand-in that restarts at byte 0 (it must be caught).  Ended by
 *              counts: 200 calls per variant that met the flipped page
 *
 *   test_uaccess_threads [--quick] [--part NAME] [--add-nodefer] | --self-test
 *
 * --add-nodefer re-installs altmem's handler, as it is, with SA_NODEFER added
 * (the proposed fix of the signal_nodefer bug): with it that part passes.
 *
 * Exit status 0 pass, 1 failure, 2 usage or set-up error.
 */
#define _GNU_SOURCE
#include "uaccess/ua_lib.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

static int broken;          /* --self-test: the implementations return 0 */
static int failures;

#define CHECK(cond, ...)                                                                                     \
    do {                                                                                                     \
        int ok_ = (cond);                                                                                    \
        printf("  %s ", ok_ ? "ok  " : "FAIL");                                                            \
        printf(__VA_ARGS__);                                                                                 \
        printf("\n");                                                                                        \
        failures += !ok_;                                                                                    \
    } while (0)

/* ---- Implementations, and their broken stand-ins ------------------------------------ */

static struct ua_impl impls[32];
static size_t nimpls;
static altmem_copy_user_fn *real_copy;
static altmem_clear_user_fn *real_clear;

static size_t bk_copy(void *d, const void *s, size_t n)
{
    real_copy(d, s, n);
    return 0;
}

static size_t bk_clear(void *d, size_t n)
{
    real_clear(d, n);
    return 0;
}

static size_t do_copy(void *d, const void *s, size_t n)
{
    return broken ? bk_copy(d, s, n) : altmem_copy_user(d, s, n);
}

static size_t do_clear(void *d, size_t n)
{
    return broken ? bk_clear(d, n) : altmem_clear_user(d, n);
}

static void collect_impls(void)
{
    nimpls = ua_impls(ALTMEM_COPY_USER, NULL, impls, 16);
    nimpls += ua_impls(ALTMEM_CLEAR_USER, NULL, impls + nimpls, 16);
    for (size_t i = 0; i < nimpls; i++) {
        if (impls[i].copy && strcmp(impls[i].name, "generic") == 0)
            real_copy = impls[i].copy;
        if (impls[i].clear && strcmp(impls[i].name, "generic") == 0)
            real_clear = impls[i].clear;
        if (broken) {
            impls[i].name = "broken:ret0";
            if (impls[i].copy)
                impls[i].copy = bk_copy;
            else
                impls[i].clear = bk_clear;
        }
    }
}

/* A small exact check that is async-signal-safe (no stdio, no allocation):
   copy n bytes from k bytes before a source hole, or clear k bytes before a
   destination hole; 1 if r and the bytes are exact. */
struct pair {
    struct ua_arena src;   /* PROT_NONE hole */
    struct ua_arena dst;   /* open */
    struct ua_arena dsth;  /* PROT_NONE hole */
};

static void pair_make(struct pair *p, uint64_t seed)
{
    ua_arena_make(&p->src, UA_PROT_NONE, 1, 3, 1, seed);
    ua_arena_make(&p->dst, UA_OPEN, 0, 2, 2, 0);
    ua_arena_make(&p->dsth, UA_PROT_NONE, 0, 2, 1, 0);
}

static int small_copy_ok(struct pair *p, size_t n, size_t k)
{
    unsigned char *d = p->dst.lo + 8 + k % 16;
    const unsigned char *s = p->src.hole - k;
    size_t r = do_copy(d, s, n);
    size_t done = k < n ? k : n;
    int ok = r == n - done && memcmp(d, s, done) == 0;
    for (size_t i = done; i < n + 8; i++)
        ok &= d[i] == UA_BG;
    ok &= d[-1] == UA_BG;
    memset(d, UA_BG, n + 8);
    return ok;
}

static int small_clear_ok(struct pair *p, size_t n, size_t k)
{
    unsigned char *d = p->dsth.hole - k;
    size_t r = do_clear(d, n);
    size_t done = k < n ? k : n;
    int ok = r == n - done && d[-1] == UA_BG;
    for (size_t i = 0; i < done; i++)
        ok &= d[i] == 0;
    for (size_t i = done; i < k; i++)
        ok &= d[i] == UA_BG;
    memset(d, UA_BG, done);
    return ok;
}

/* ---- first_use -------------------------------------------------------------------------------- */

#define FIRST_THREADS 4
static pthread_barrier_t first_barrier;
static struct pair first_pairs[FIRST_THREADS + 1];

static void *first_thread(void *arg)
{
    size_t i = (size_t)(uintptr_t)arg;
    pthread_barrier_wait(&first_barrier);
    int ok = i % 2 ? small_clear_ok(&first_pairs[i], 40, 13) : small_copy_ok(&first_pairs[i], 40, 13);
    ok &= small_copy_ok(&first_pairs[i], 100, 77) & small_clear_ok(&first_pairs[i], 9, 2);
    return (void *)(uintptr_t)ok;
}

static int first_child(void *arg)
{
    (void)arg;
    pthread_t t[FIRST_THREADS];
    pthread_barrier_init(&first_barrier, NULL, FIRST_THREADS + 1);
    for (size_t i = 0; i < FIRST_THREADS; i++)
        if (pthread_create(&t[i], NULL, first_thread, (void *)(uintptr_t)i))
            return 2;
    void *mine = first_thread((void *)(uintptr_t)FIRST_THREADS);
    int ok = mine != NULL;
    for (size_t i = 0; i < FIRST_THREADS; i++) {
        void *rv;
        pthread_join(t[i], &rv);
        ok &= rv != NULL;
    }
    return ok ? 0 : 1;
}

static void part_first_use(void)
{
    for (size_t i = 0; i <= FIRST_THREADS; i++)
        pair_make(&first_pairs[i], 0x5eed0200 + i);
    int rounds = ua_quick ? 4 : 40, bad = 0;
    char buf[64] = "";
    for (int i = 0; i < rounds; i++) {
        int st = ua_run_child(first_child, NULL);
        if (!(WIFEXITED(st) && WEXITSTATUS(st) == 0) && !bad++)
            ua_status_str(st, buf, sizeof buf);
    }
    CHECK(!bad, "%d fresh processes, %d threads each making their first (faulting) call at once: %d wrong%s%s",
          rounds, FIRST_THREADS + 1, bad, bad ? "; first: " : "", buf);
}

/* ---- threads ------------------------------------------------------------------------------------ */

struct worker {
    pthread_t t;
    unsigned id;
    struct ua_arena src_h[2], dst_h[3], src_o, dst_o;
    unsigned long iters, cases, fails;
};

/* No thread starts or ends while a hole exists: the workers wait at the first
   barrier until main has made the arenas (their holes are punched after every
   thread, and what the runtime maps for it, exists), and at the second until
   every worker is done (a thread's exit maps and unmaps a page under ASan, which
   would land in a hole another worker is still using). */
static pthread_barrier_t workers_ready, workers_done;

static unsigned long xorshift(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return (unsigned long)*x;
}

static void *worker_run(void *arg)
{
    struct worker *w = arg;
    uint64_t x = 0x9e3779b97f4a7c15u * (w->id + 1);
    pthread_barrier_wait(&workers_ready);
    for (unsigned long it = 0; it < w->iters; it++) {
        const struct ua_impl *im = &impls[xorshift(&x) % nimpls];
        struct ua_ctx c = {.im = im, .part = "threads", .max_print = 3, .quiet = w->fails >= 3};
        size_t n = xorshift(&x) % 4 ? xorshift(&x) % 300 : xorshift(&x) % (2 * ua_page);
        size_t k = n ? xorshift(&x) % (n + 1) : 0;
        int side = im->copy ? (int)(xorshift(&x) % 2) : 1; /* 0: source hole, 1: destination hole */
        if (side == 0) {
            struct ua_arena *sa = &w->src_h[xorshift(&x) % 2];
            ua_case(&c, w->dst_o.lo + ua_page + xorshift(&x) % 16, &w->dst_o, sa->hole - k, sa, n);
        } else {
            struct ua_arena *da = &w->dst_h[xorshift(&x) % 3];
            if (im->copy)
                ua_case(&c, da->hole - k, da, w->src_o.lo + ua_page + xorshift(&x) % 16, &w->src_o, n);
            else
                ua_case(&c, da->hole - k, da, NULL, NULL, n);
        }
        w->cases += c.cases;
        w->fails += c.failures;
    }
    pthread_barrier_wait(&workers_done);
    return NULL;
}

static void part_threads(void)
{
    enum { MAXT = 8 };
    static struct worker ws[MAXT];
    unsigned nt = ua_quick ? 2 : 4;
    unsigned long iters = ua_quick ? 10000 : 40000;
    static const enum ua_kind sk[2] = {UA_PROT_NONE, UA_UNMAPPED};
    static const enum ua_kind dk[3] = {UA_PROT_NONE, UA_UNMAPPED, UA_READONLY};
    static int made;
    unsigned long refills0 = ua_refills();
    if (pthread_barrier_init(&workers_ready, NULL, nt + 1) || pthread_barrier_init(&workers_done, NULL, nt))
        ua_die("pthread_barrier_init");
    double t = ua_now();
    for (unsigned i = 0; i < nt; i++) {
        ws[i].id = i;
        ws[i].iters = iters;
        ws[i].cases = ws[i].fails = 0;
        if (pthread_create(&ws[i].t, NULL, worker_run, &ws[i]))
            ua_die("pthread_create");
    }
    for (unsigned i = 0; i < nt && !made; i++) {
        for (int j = 0; j < 2; j++)
            ua_arena_make(&ws[i].src_h[j], sk[j], 1, 3, 3, 0x5eed0300 + i * 8 + (unsigned)j);
        for (int j = 0; j < 3; j++)
            ua_arena_make(&ws[i].dst_h[j], dk[j], 0, 3, 3, 0);
        ua_arena_make(&ws[i].src_o, UA_OPEN, 1, 3, 3, 0x5eed0310 + i);
        ua_arena_make(&ws[i].dst_o, UA_OPEN, 0, 3, 3, 0);
    }
    made = 1;
    pthread_barrier_wait(&workers_ready);
    unsigned long cases = 0, fails = 0;
    for (unsigned i = 0; i < nt; i++) {
        pthread_join(ws[i].t, NULL);
        cases += ws[i].cases;
        fails += ws[i].fails;
    }
    pthread_barrier_destroy(&workers_ready);
    pthread_barrier_destroy(&workers_done);
    size_t stray = ua_sweep();
    CHECK(!fails && !stray,
          "%u threads, %lu cases with faults at once (%zu impls): %lu failures, %zu stray bytes, %lu unmapped holes "
          "found refilled (arena made again, case repeated), %.2f s",
          nt, cases, nimpls, fails, stray, ua_refills() - refills0, ua_now() - t);
}

/* ---- signal -------------------------------------------------------------------------------------- */

#define MAX_DEPTH 8
static struct pair main_pair, usr1_pair, nest_pairs[MAX_DEPTH];
static volatile sig_atomic_t in_copy;      /* the main thread is inside copy_user       */
static volatile sig_atomic_t depth;        /* handlers running in the main thread       */
static volatile unsigned long h_runs, h_inside, h_nested, h_window, h_bad, h_deep, h_maxdepth, h_raised;
static volatile sig_atomic_t raise_to;     /* depth the handlers' own raise(SIGALRM) nests to */
static volatile int always_copy;           /* signal_nodefer: copy even inside altmem's handler */
static volatile int stop_signals;

static int segv_blocked(void)
{
    sigset_t m;
    pthread_sigmask(SIG_SETMASK, NULL, &m);
    return sigismember(&m, SIGSEGV) == 1;
}

/* Each nesting level has buffers of its own: a handler that interrupts another
   must not rewrite the buffers that one is checking. */
static void signal_work(unsigned long salt)
{
    int saved = errno;
    /* One instruction (lock xadd): a handler nested between a load and a store
       of depth++ would take the same level, and the two would check each
       other's buffers. */
    int level = __atomic_fetch_add(&depth, 1, __ATOMIC_SEQ_CST);
    h_runs++;
    if (in_copy)
        h_inside++;
    if (level > 0)
        h_nested++;
    if ((unsigned long)level + 1 > h_maxdepth)
        h_maxdepth = (unsigned long)level + 1;
    if (level >= MAX_DEPTH) {
        h_deep++;
    } else if (!always_copy && segv_blocked()) {
        /* We interrupted altmem's own fault handler (SIGSEGV blocked there): a
           fault now would be fatal (signal_nodefer). */
        h_window++;
    } else {
        size_t n = 5 + salt % 60, k = salt % (n + 1);
        int ok = small_copy_ok(&nest_pairs[level], n, k);
        /* Nesting that needs no second CPU: the senders nest a handler in another
           only when they get a CPU while one runs, which on a loaded machine (or
           one CPU) is never (exit status 4 in CI). Every fourth outermost handler
           raises SIGALRM between its copy and its clear, and the nested ones go on
           to 2..MAX_DEPTH-1 levels; each level's buffers are in use meanwhile. */
        if (level == 0)
            raise_to = h_runs % 4 == 0 ? 2 + (int)((h_runs / 4) % (MAX_DEPTH - 2)) : 0;
        if (level + 1 < raise_to) {
            h_raised++;
            raise(SIGALRM);
        }
        if (!ok || !small_clear_ok(&nest_pairs[level], n, k))
            h_bad++;
    }
    __atomic_fetch_sub(&depth, 1, __ATOMIC_SEQ_CST);
    errno = saved;
}

static void on_alrm(int sig)
{
    (void)sig;
    signal_work(h_runs * 7);
}

static void on_usr1(int sig)
{
    (void)sig;
    signal_work(h_runs * 13 + 3);
}

static pthread_t main_thread;

/* The signals are paced by what happens, not by a clock: each sender sends its
   next signal only once the handler of the last has started (h_runs moved on),
   so the handlers can never outrun the main thread (a timer did, on a throttled
   vCPU and under qemu: the nesting overflowed the stack, or starved the main
   thread), and the part ends when enough has happened, not after a time in
   which it may or may not have.
     SIGUSR1  sent while the main thread is inside copy_user (in_copy set)
     SIGALRM  sent while a handler runs (depth >= 1); SA_NODEFER, so it nests in
              SIGALRM's handler too */
static void wait_for_handler(unsigned long runs_before)
{
    while (h_runs == runs_before && !stop_signals)
        sched_yield();
}

static void *usr1_sender(void *arg)
{
    (void)arg;
    while (!stop_signals) {
        if (!in_copy) {
            sched_yield();
            continue;
        }
        unsigned long before = h_runs;
        pthread_kill(main_thread, SIGUSR1);
        wait_for_handler(before);
    }
    return NULL;
}

static void *alrm_sender(void *arg)
{
    (void)arg;
    while (!stop_signals) {
        if (!depth) {
            sched_yield();
            continue;
        }
        unsigned long before = h_runs;
        pthread_kill(main_thread, SIGALRM);
        wait_for_handler(before);
    }
    return NULL;
}

/* What the part must have seen before it ends; and a bound on the copies, a
   liveness guard only (the senders make each goal reachable whatever the speed). */
#define SIGNAL_INSIDE_GOAL 200   /* handlers that interrupted a copy_user */
#define SIGNAL_NESTED_GOAL 50    /* handlers that interrupted another handler */
#define SIGNAL_CALLS_GOAL 2000   /* the main thread's own faulting copies */
#define SIGNAL_CALLS_MAX 5000000

static int signal_child(void *arg)
{
    (void)arg;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART | SA_NODEFER;
    sa.sa_handler = on_alrm;
    sigaction(SIGALRM, &sa, NULL);
    sa.sa_handler = on_usr1;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGUSR1, &sa, NULL);
    main_thread = pthread_self();
    /* A sanitizer runtime gives each thread a small alternate signal stack (52 KiB
       seen with clang-19's ASan on Debian 12) and installs its SIGSEGV handler with
       SA_ONSTACK, so altmem's chaining handler runs there too, and a SIGALRM or
       SIGUSR1 that arrives meanwhile is delivered on that stack; with the nesting
       this part makes, that overflowed it once ("overflowed sigaltstack").  The
       stack size is the runtime's choice, not altmem's: give the thread 1 MiB. */
    stack_t cur;
    if (sigaltstack(NULL, &cur) == 0 && !(cur.ss_flags & SS_DISABLE) && cur.ss_size < (1u << 20)) {
        stack_t big = {.ss_size = 1u << 20, .ss_flags = 0};
        big.ss_sp = mmap(NULL, big.ss_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (big.ss_sp != MAP_FAILED && sigaltstack(&big, NULL) == 0)
            printf("  this thread's alternate signal stack (%zu KiB, from the runtime) replaced by one of 1 MiB\n",
                   cur.ss_size / 1024);
    }
    /* Only the main thread may take the signals (the handlers share per-depth
       buffers): the senders start with both blocked. */
    sigset_t both, old;
    sigemptyset(&both);
    sigaddset(&both, SIGALRM);
    sigaddset(&both, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &both, &old);
    pthread_t senders[2];
    if (pthread_create(&senders[0], NULL, usr1_sender, NULL) || pthread_create(&senders[1], NULL, alrm_sender, NULL))
        return 2;
    pthread_sigmask(SIG_SETMASK, &old, NULL);

    unsigned long calls = 0, bad = 0;
    while (calls < SIGNAL_CALLS_MAX &&
           (calls < SIGNAL_CALLS_GOAL || h_inside < SIGNAL_INSIDE_GOAL || h_nested < SIGNAL_NESTED_GOAL)) {
        /* Mostly short copies (the fault and its handling dominate), now and
           then a long one whose byte fix-up takes a while. */
        size_t n = calls % 64 == 0 ? 3 * ua_page : 5 + calls % 200;
        size_t k = calls % 64 == 0 ? 2 * ua_page + 7 : n / 2;
        unsigned char *d = main_pair.dst.lo + 8;
        const unsigned char *s = main_pair.src.hole - k;
        in_copy = 1;
        size_t r = do_copy(d, s, n);
        in_copy = 0;
        int ok = r == n - k && memcmp(d, s, k) == 0 && d[k] == UA_BG;
        memset(d, UA_BG, n);
        bad += !ok;
        calls++;
    }
    stop_signals = 1;
    pthread_join(senders[0], NULL);
    pthread_join(senders[1], NULL);
    printf("  main: %lu faulting copies, %lu wrong; handlers: %lu runs, %lu while main was inside copy_user, "
           "%lu nested in another handler (%lu of them raised by a handler; deepest: %lu levels), "
           "%lu inside altmem's fault handler%s, %lu wrong\n",
           calls, bad, h_runs, h_inside, h_nested, h_raised, h_maxdepth, h_window,
           always_copy ? "" : " (copy skipped)", h_bad);
    /* 4: the goals were not reached within SIGNAL_CALLS_MAX copies, so the part
       did not test what it is for. */
    return bad || h_bad ? 1 : calls >= SIGNAL_CALLS_MAX ? 4 : 0;
}

static void signal_part(int copy_always)
{
    pair_make(&main_pair, 0x5eed0401);
    for (int i = 0; i < MAX_DEPTH; i++)
        pair_make(&nest_pairs[i], 0x5eed0410 + (uint64_t)i);
    always_copy = copy_always;
    int st = ua_run_child(signal_child, NULL);
    char buf[64];
    if (copy_always && WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV)
        printf("  KNOWN BUG: the process died of SIGSEGV: a signal handler's copy_user faulted while the interrupted "
               "thread was inside altmem's fault handler, where SIGSEGV is blocked (no SA_NODEFER), so the kernel "
               "forced the default action\n");
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0,
          "faulting copy_user in SIGALRM/SIGUSR1 handlers interrupting a faulting copy_user%s: %s",
          copy_always ? " (also inside altmem's handler)" : "", ua_status_str(st, buf, sizeof buf));
}

static void part_signal(void)
{
    signal_part(0);
}

static void part_signal_nodefer(void)
{
    signal_part(1);
}

/* ---- altstack --------------------------------------------------------------------------------- */

#define ALT_SIZE (64 * 1024)
#define ALT_FILL 0xA5

static int no_onstack;   /* self-test: the handler is installed without SA_ONSTACK */
static int no_fault;     /* self-test: the "faulting" copy does not fault */

static volatile int on_alt, usr1_exact;
static __thread unsigned char *alt_base;

static void on_usr1_alt(int sig)
{
    (void)sig;
    uintptr_t f = (uintptr_t)__builtin_frame_address(0);
    on_alt = f >= (uintptr_t)alt_base && f < (uintptr_t)alt_base + ALT_SIZE;
    struct pair *p = &usr1_pair;
    usr1_exact = small_copy_ok(p, 40, 17) && small_clear_ok(p, 40, 17) && small_copy_ok(p, 3000, 2000);
}

/* How much of the alternate stack was written: it grows down from its top, so
   from the lowest changed byte to the top (the kernel's signal frame, with the
   vector state, included). */
static size_t alt_used(void)
{
    for (size_t i = 0; i < ALT_SIZE; i++)
        if (alt_base[i] != ALT_FILL)
            return ALT_SIZE - i;
    return 0;
}

/* One thread's checks; returns the number of failures. */
static int altstack_checks(const char *who)
{
    alt_base = mmap(NULL, ALT_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (alt_base == MAP_FAILED)
        ua_die("mmap");
    stack_t ss = {.ss_sp = alt_base, .ss_size = ALT_SIZE, .ss_flags = 0};
    if (sigaltstack(&ss, NULL))
        ua_die("sigaltstack");
    int before = failures;
    memset(alt_base, ALT_FILL, ALT_SIZE);
    int ok = small_copy_ok(&main_pair, 40, no_fault ? 40 : 17);
    size_t used = alt_used();
    CHECK(ok && used > 0, "%s: a faulting copy_user from plain code: exact, and altmem's handler ran on the "
          "alternate stack (its frame changed the stack's contents: %zu bytes, the kernel's frame included)", who,
          used);
    memset(alt_base, ALT_FILL, ALT_SIZE);
    on_alt = usr1_exact = 0;
    pthread_kill(pthread_self(), SIGUSR1);
    used = alt_used();
    CHECK(on_alt && usr1_exact, "%s: a SIGUSR1 handler on the alternate stack (SA_ONSTACK): frame %s it, faulting "
          "copy_user/clear_user exact (%zu bytes of it used, nested fault included)", who,
          on_alt ? "inside" : "NOT inside", used);
    stack_t off = {.ss_flags = SS_DISABLE};
    sigaltstack(&off, NULL);
    munmap(alt_base, ALT_SIZE);
    return failures - before;
}

static void *alt_thread(void *arg)
{
    (void)arg;
    altstack_checks("second thread");
    return NULL;
}

static void part_altstack(void)
{
    pair_make(&main_pair, 0x5eed0501);
    pair_make(&usr1_pair, 0x5eed0502);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_usr1_alt;
    sa.sa_flags = no_onstack ? 0 : SA_ONSTACK;
    sigaction(SIGUSR1, &sa, NULL);
    altstack_checks("main thread");
    pthread_t t;
    if (pthread_create(&t, NULL, alt_thread, NULL))
        ua_die("pthread_create");
    pthread_join(t, NULL);
}

/* ---- shrink_race ---------------------------------------------------------------------- */

/* Formerly a known bug: the fix-up redid the copy from byte 0 rather than from
   where the fast path stopped.  When the source shrinks during the call (another
   thread mprotects a page, another process truncates the file) such a fix-up can
   stop earlier than the fast path got and return a count whose prefix is shorter
   than what was written: bytes at and past dst + n - r were written.  Here a
   thread flips page 8 of the source between PROT_NONE and PROT_READ while the
   main thread copies 64 pages whose last page is PROT_NONE (so every call takes
   the fix-up); for clear_user, page 8 of the destination between PROT_READ and
   writable, the last page read-only.  Every variant and the public entry points. */
static volatile int race_stop;
static unsigned char *race_page;
static int race_prot_off, race_prot_on;
static unsigned long race_flips;   /* mprotect calls the toggler has made */

static void *race_toggler(void *arg)
{
    (void)arg;
    while (!race_stop) {
        struct timespec ts = {0, 20000};
        mprotect(race_page, ua_page, race_prot_off);
        __atomic_add_fetch(&race_flips, 1, __ATOMIC_RELEASE);
        nanosleep(&ts, NULL);
        mprotect(race_page, ua_page, race_prot_on);
        __atomic_add_fetch(&race_flips, 1, __ATOMIC_RELEASE);
        nanosleep(&ts, NULL);
    }
    return NULL;
}

/* The self-test's stand-in: the old fix-up, as a wrapper — after a faulting call
   it redoes the copy from byte 0 a byte at a time. */
static size_t restart0_copy(void *d, const void *s, size_t n)
{
    size_t r = real_copy(d, s, n);
    if (!r)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (real_copy((unsigned char *)d + i, (const unsigned char *)s + i, 1))
            return n - i;
    return 0;
}

static size_t restart0_clear(void *d, size_t n)
{
    size_t r = real_clear(d, n);
    if (!r)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (real_clear((unsigned char *)d + i, 1))
            return n - i;
    return 0;
}

static int shrink_restart0; /* --self-test: test restart0_copy / restart0_clear only */

/* Each call is judged on its own bytes; what the loop counts decides only when
   enough has happened: SHRINK_SHORT_GOAL calls that met the flipped page (the
   race this part is about), or, for the self-test's stand-in, SHRINK_BAD_GOAL
   wrong calls.  SHRINK_CALLS_MAX is a liveness guard on the calls during which
   the toggler flipped the page at least once (the race had a chance): on a
   loaded machine the toggler can go unscheduled for long stretches, and calls
   made meanwhile (the main thread yields the CPU after each) say nothing about
   the library (CI's sanitizer run once met the page in 126 of 100 000 calls).
   SHRINK_CALLS_HARD bounds all calls.  Reaching either fails the part (it
   would have tested nothing), whatever the clock says. */
#define SHRINK_SHORT_GOAL 200
#define SHRINK_BAD_GOAL 10
#define SHRINK_CALLS_MAX 100000
#define SHRINK_CALLS_HARD (4 * SHRINK_CALLS_MAX)

static void shrink_one(const struct ua_impl *im, int want_bad)
{
    size_t n = 64 * ua_page;
    int is_copy = im->copy != NULL;
    unsigned char *src = mmap(NULL, n + ua_page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    unsigned char *dst = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (src == MAP_FAILED || dst == MAP_FAILED)
        ua_die("mmap");
    static unsigned char *bg;
    if (!bg && !(bg = malloc(n)))
        ua_die("malloc");
    memset(bg, UA_BG, n);
    memset(src, 1, n);
    memset(dst, UA_BG, n);
    if (is_copy) {
        mprotect(src + n - ua_page, 2 * ua_page, PROT_NONE);
        mprotect(src, n - ua_page, PROT_READ);
        race_page = src + 8 * ua_page;
        race_prot_off = PROT_NONE;
        race_prot_on = PROT_READ;
    } else {
        mprotect(dst + n - ua_page, ua_page, PROT_READ);
        race_page = dst + 8 * ua_page;
        race_prot_off = PROT_READ;
        race_prot_on = PROT_READ | PROT_WRITE;
    }
    race_stop = 0;
    pthread_t t;
    if (pthread_create(&t, NULL, race_toggler, NULL))
        ua_die("pthread_create");
    unsigned long calls = 0, chances = 0, bad_calls = 0, short_calls = 0;
    size_t first_r = 0, first_bad = 0;
    double t0 = ua_now();
    while (chances < SHRINK_CALLS_MAX && calls < SHRINK_CALLS_HARD &&
           (want_bad ? bad_calls < SHRINK_BAD_GOAL
                     : short_calls < SHRINK_SHORT_GOAL && bad_calls < SHRINK_BAD_GOAL)) {
        const unsigned long flips = __atomic_load_n(&race_flips, __ATOMIC_ACQUIRE);
        size_t r = is_copy ? im->copy(dst, src, n) : im->clear(dst, n);
        if (__atomic_load_n(&race_flips, __ATOMIC_ACQUIRE) != flips)
            chances++;
        else
            sched_yield();      /* the toggler did not run: let it */
        /* Every byte of the destination we can read: the prefix must be done,
           nothing past it written.  The flipped page may be read-only now, never
           unreadable; the last page is read-only for clear. */
        size_t bad = 0, done = n - r;
        for (size_t i = 0; i < n; i++)
            bad += i < done ? dst[i] != (is_copy ? 1 : 0) : dst[i] != UA_BG;
        if (bad && !bad_calls++) {
            first_r = r;
            first_bad = bad;
        }
        short_calls += done < n - ua_page;
        calls++;
        /* Back to the resting byte.  For clear_user page 8 of dst may be
           read-only at any moment: copy the resting bytes there with
           altmem_copy_user until it gets through (the last page was never
           writable). */
        if (is_copy)
            memset(dst, UA_BG, n);
        else
            while (altmem_copy_user(dst, bg, n - ua_page))
                ;
    }
    race_stop = 1;
    pthread_join(t, NULL);
    int raced = want_bad ? bad_calls >= SHRINK_BAD_GOAL : short_calls >= SHRINK_SHORT_GOAL || bad_calls;
    CHECK(!bad_calls && raced,
          "%-10s %-18s %zu bytes while another thread flips a %s page: %lu calls (%lu with a flip), %lu stopped "
          "at the flipped page, %lu wrong (first: r=%zu, %zu bytes wrong), %.2f s%s",
          altmem_routine_name(im->r), im->name, n, is_copy ? "source" : "destination", calls, chances, short_calls,
          bad_calls, first_r, first_bad, ua_now() - t0,
          raced ? "" : "; the race was not met often enough in " "the guard's count of calls: nothing tested");
    munmap(src, n + ua_page);
    munmap(dst, n);
}

static void part_shrink_race(void)
{
    if (shrink_restart0) {
        struct ua_impl c = {"restart0", ALTMEM_COPY_USER, restart0_copy, NULL};
        struct ua_impl z = {"restart0", ALTMEM_CLEAR_USER, NULL, restart0_clear};
        shrink_one(&c, 1);
        shrink_one(&z, 1);
        return;
    }
    for (size_t i = 0; i < nimpls; i++)
        shrink_one(&impls[i], 0);
}

/* ---- Driver ---------------------------------------------------------------------------------- */

static const struct {
    const char *name;
    void (*fn)(void);
    int known_bug;
} parts[] = {
    {"first_use", part_first_use, 0},
    {"threads", part_threads, 0},
    {"signal", part_signal, 0},
    {"altstack", part_altstack, 0},
    {"signal_nodefer", part_signal_nodefer, 0},
    {"shrink_race", part_shrink_race, 0},
};
#define NPARTS (sizeof parts / sizeof parts[0])

static int run_parts(const char *only)
{
    int matched = 0;
    for (size_t i = 0; i < NPARTS; i++) {
        if (only ? strcmp(only, parts[i].name) != 0 : parts[i].known_bug)
            continue;
        matched = 1;
        int before = failures;
        double t = ua_now();
        printf("part %s:\n", parts[i].name);
        parts[i].fn();
        printf("part %s: %d failures, %.2f s\n", parts[i].name, failures - before, ua_now() - t);
    }
    if (!matched) {
        printf("no part '%s'\n", only ? only : "");
        return 2;
    }
    return failures ? 1 : 0;
}

static int selftest_child(void *arg)
{
    const char *what = arg;
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    /* The broken routines call a variant directly, which needs the handler. */
    if (altmem_uaccess_install() != 0)
        ua_die("altmem_uaccess_install");
    if (strcmp(what, "threads") == 0 || strcmp(what, "signal") == 0 || strcmp(what, "first_use") == 0) {
        broken = 1;
        collect_impls();
        return run_parts(what);
    }
    if (strcmp(what, "shrink_race:restart0") == 0) {
        collect_impls();
        shrink_restart0 = 1;
        return run_parts("shrink_race");
    }
    if (strcmp(what, "altstack:no-onstack") == 0)
        no_onstack = 1;
    else
        no_fault = 1;
    return run_parts("altstack");
}

/* ---- The refill control: a hole refilled on purpose ------------------------------------------
   Another mapping placed in an unmapped hole, before a case or while its call runs,
   must be found by ua_case's check (counted as a refill, the case repeated in a new
   arena, and passed), and, with the check switched off, be what makes the same
   case fail: so the check is what keeps a refill from being reported as a bug. */

static struct ua_arena refill_src, refill_dst, refill_open;
static unsigned char *refill_during; /* a hole to map over inside the next call */

/* Maps a page of 0xff over the hole (this child is single-threaded and the hole was
   just found unmapped, so MAP_FIXED replaces nothing). */
static void refill(unsigned char *hole)
{
    if (mmap(hole, ua_page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != hole)
        ua_die("mmap (refill)");
    memset(hole, 0xff, ua_page);
}

static size_t refill_copy(void *d, const void *s, size_t n)
{
    if (refill_during)
        refill(refill_during);
    refill_during = NULL;
    return real_copy(d, s, n);
}

static size_t refill_clear(void *d, size_t n)
{
    if (refill_during)
        refill(refill_during);
    refill_during = NULL;
    return real_clear(d, n);
}

/* One case with a hole of `a` refilled before (`during` 0) or during the call;
   `trust` switches the check off.  1 if the outcome is the expected one. */
static int refill_case(const char *what, struct ua_arena *a, int during, int trust)
{
    const size_t n = 150, k = 85;
    struct ua_impl im = {.name = "generic (refill control)",
                         .r = a->is_src ? ALTMEM_COPY_USER : ALTMEM_CLEAR_USER,
                         .copy = refill_copy,
                         .clear = refill_clear};
    struct ua_ctx c = {.im = &im, .part = "refill", .max_print = 1, .quiet = trust};
    unsigned char *hole = a->hole;
    unsigned long r0 = ua_refills();
    if (!ua_arena_intact(a)) {
        printf("refill control: the hole is not unmapped to begin with: set-up error\n");
        exit(2);
    }
    if (during)
        refill_during = hole;
    else
        refill(hole);
    ua_trust_holes = trust;
    if (a->is_src)
        ua_case(&c, refill_open.lo + 3, &refill_open, a->hole - k, a, n);
    else
        ua_case(&c, a->hole - k, a, NULL, NULL, n);
    ua_trust_holes = 0;
    unsigned long refilled = ua_refills() - r0;
    int ok = trust ? c.failures == 1 && refilled == 0
                   : c.failures == 0 && c.cases == 1 && refilled == 1 && a->hole != hole && ua_arena_intact(a);
    printf("  %s %-44s %s: %lu cases, %lu failures, %lu refills%s\n", ok ? "ok  " : "FAIL", what,
           trust ? "check off" : "check on ", c.cases, c.failures, refilled,
           trust ? " (must fail: the refill is what fails it)" : " (must pass, refill counted)");
    if (trust && a->kind == UA_UNMAPPED) /* the hole is mapped now: make a fresh arena for the next case */
        ua_arena_remake(a);
    return ok;
}

static int refill_child(void *arg)
{
    (void)arg;
    if (altmem_uaccess_install() != 0)
        ua_die("altmem_uaccess_install");
    collect_impls();
    ua_arena_make(&refill_src, UA_UNMAPPED, 1, 1, 1, 0x5eed0400);
    ua_arena_make(&refill_dst, UA_UNMAPPED, 0, 1, 1, 0);
    ua_arena_make(&refill_open, UA_OPEN, 0, 1, 1, 0);
    int ok = 1;
    ok &= refill_case("source hole refilled before the call", &refill_src, 0, 0);
    ok &= refill_case("source hole refilled during the call", &refill_src, 1, 0);
    ok &= refill_case("destination hole refilled before the call", &refill_dst, 0, 0);
    ok &= refill_case("destination hole refilled during the call", &refill_dst, 1, 0);
    ok &= refill_case("source hole refilled before the call", &refill_src, 0, 1);
    ok &= refill_case("destination hole refilled during the call", &refill_dst, 1, 1);
    size_t stray = ua_sweep();
    printf("  %s refill control: %zu stray bytes\n", stray ? "FAIL" : "ok  ", stray);
    return ok && !stray ? 0 : 1;
}

static int self_test(void)
{
    static const char *const cases[] = {"first_use",          "threads",           "signal",
                                        "altstack:no-onstack", "altstack:no-fault", "shrink_race:restart0"};
    int bad = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int st = ua_run_child(selftest_child, (void *)cases[i]);
        int caught = WIFEXITED(st) && WEXITSTATUS(st) == 1;
        char buf[64];
        printf("selftest %-22s -> %s: %s\n", cases[i], ua_status_str(st, buf, sizeof buf),
               caught ? "failures reported: ok" : "NOT DETECTED");
        bad += !caught;
    }
    int st = ua_run_child(refill_child, NULL);
    int right = WIFEXITED(st) && WEXITSTATUS(st) == 0;
    char buf[64];
    printf("selftest %-22s -> %s: %s\n", "refill", ua_status_str(st, buf, sizeof buf),
           right ? "refills told from failures: ok" : "NOT TOLD APART");
    bad += !right;
    printf("uaccess threads self-test: %s\n", bad ? "FAILED" : "passed");
    return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
    ua_init();
    const char *only = NULL;
    int selftest = 0, add_nodefer = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0)
            ua_quick = 1;
        else if (strcmp(argv[i], "--self-test") == 0)
            selftest = 1;
        else if (strcmp(argv[i], "--part") == 0 && i + 1 < argc)
            only = argv[++i];
        else if (strcmp(argv[i], "--add-nodefer") == 0)
            add_nodefer = 1;
        else {
            printf("usage: %s [--quick] [--part first_use|threads|signal|altstack|signal_nodefer|shrink_race] | "
                   "--self-test\n",
                   argv[0]);
            return 2;
        }
    }
    ua_install_reporter();
    if (selftest) {
        ua_quick = 1;
        return self_test();
    }
    collect_impls();
    /* first_use needs processes in which nothing has installed altmem's handler
       yet; it forks them before this process installs it. */
    if (!only || strcmp(only, "first_use") == 0) {
        int rc = run_parts("first_use");
        if (only)
            return rc;
    }
    if (altmem_uaccess_install() != 0)
        ua_die("altmem_uaccess_install");
    if (add_nodefer) {
        struct sigaction sa;
        for (int sig = SIGBUS; sig; sig = sig == SIGBUS ? SIGSEGV : 0) {
            sigaction(sig, NULL, &sa);
            sa.sa_flags |= SA_NODEFER;
            sigaction(sig, &sa, NULL);
        }
        printf("altmem's handler re-installed with SA_NODEFER added\n");
    }
    if (only)
        return run_parts(only);
    for (size_t i = 0; i < NPARTS; i++)
        if (!parts[i].known_bug && strcmp(parts[i].name, "first_use") != 0)
            run_parts(parts[i].name);
    printf("uaccess threads: %d failures: %s\n", failures, failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
