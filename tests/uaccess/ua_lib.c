/*
 * Shared machinery of the copy_user / clear_user tests; see ua_lib.h for the
 * checking scheme.
 */
#define _GNU_SOURCE
#include "ua_lib.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

size_t ua_page;
int ua_quick;
int ua_verbose;

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UA_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define UA_ASAN 1
#endif

int ua_sanitized(void)
{
#ifdef UA_ASAN
    return 1;
#else
    return 0;
#endif
}

void ua_skip(const char *why)
{
    fflush(stderr);
    printf("SKIPPED: %s\n", why);
    fflush(stdout);
    exit(77);
}

double ua_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void ua_die(const char *what)
{
    perror(what);
    exit(2);
}

void ua_init(void)
{
    /* A buffer of our own: one the C library allocated at the first printf,
       after the arenas exist, could be a mapping placed in an unmapped hole. */
    static char out_buf[BUFSIZ];
    setvbuf(stdout, out_buf, _IOLBF, sizeof out_buf);
    ua_page = (size_t)sysconf(_SC_PAGESIZE);
}

/* ---- The case in flight, and the reporter ----------------------------------------- */

/* Per thread: the reporter runs in the thread that faulted. */
static __thread struct {
    const struct ua_ctx *c;
    const void *d, *s;
    size_t n;
    volatile int active;
} cur;

void ua_cur_begin(const struct ua_ctx *c, const void *d, const void *s, size_t n)
{
    cur.c = c;
    cur.d = d;
    cur.s = s;
    cur.n = n;
    /* The reporter reads cur from a signal handler in this thread. */
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    cur.active = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

void ua_cur_end(void)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    cur.active = 0;
}

/* stdio is not async-signal-safe. */
static void sig_puts(const char *s)
{
    size_t n = strlen(s);
    while (n) {
        ssize_t w = write(2, s, n);
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

static void sig_putu(uintmax_t u)
{
    char buf[32];
    size_t i = sizeof buf;
    buf[--i] = '\0';
    do {
        buf[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    sig_puts(&buf[i]);
}

static void sig_putd(intmax_t v)
{
    char buf[32];
    size_t i = sizeof buf;
    uintmax_t u = v < 0 ? (uintmax_t)0 - (uintmax_t)v : (uintmax_t)v;
    buf[--i] = '\0';
    do {
        buf[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    buf[--i] = v < 0 ? '-' : '+';
    sig_puts(&buf[i]);
}

static void on_fault(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    uintptr_t a = (uintptr_t)si->si_addr;
    sig_puts(sig == SIGBUS ? "\nFAULT (SIGBUS) not handled by altmem" : "\nFAULT (SIGSEGV) not handled by altmem");
    if (cur.active && cur.c) {
        sig_puts(" in ");
        sig_puts(cur.c->im ? cur.c->im->name : "?");
        sig_puts(" [");
        sig_puts(cur.c->part ? cur.c->part : "?");
        sig_puts("] n=");
        sig_putu(cur.n);
        sig_puts(": access at dst");
        sig_putd((intmax_t)(a - (uintptr_t)cur.d));
        if (cur.s) {
            sig_puts(" = src");
            sig_putd((intmax_t)(a - (uintptr_t)cur.s));
        }
        sig_puts("\n");
    } else {
        sig_puts(" outside the routine under test\n");
    }
}

void ua_install_reporter(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    /* One shot: returning re-executes the access, which then gets the default
       action, so the process still dies of the signal. */
    sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSEGV, &sa, NULL) || sigaction(SIGBUS, &sa, NULL))
        ua_die("sigaction");
}

/* ---- Implementations ------------------------------------------------------------ */

size_t ua_impls(enum altmem_routine r, const char *only, struct ua_impl *out, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i < altmem_variant_count() && k < cap; i++) {
        struct altmem_variant_info vi;
        if (altmem_variant(i, &vi) != 0 || vi.routine != r)
            continue;
        if (only && strcmp(only, vi.name) != 0)
            continue;
        if (!vi.runnable) {
            printf("%-10s %-18s skipped: this CPU cannot run it\n", altmem_routine_name(r), vi.name);
            continue;
        }
        out[k].name = vi.name;
        out[k].r = r;
        out[k].copy = r == ALTMEM_COPY_USER ? vi.fn.copy_user : NULL;
        out[k].clear = r == ALTMEM_CLEAR_USER ? vi.fn.clear_user : NULL;
        k++;
    }
    const char *pub = r == ALTMEM_COPY_USER ? "altmem_copy_user" : "altmem_clear_user";
    if (k < cap && (!only || strcmp(only, pub) == 0)) {
        out[k].name = pub;
        out[k].r = r;
        out[k].copy = r == ALTMEM_COPY_USER ? altmem_copy_user : NULL;
        out[k].clear = r == ALTMEM_CLEAR_USER ? altmem_clear_user : NULL;
        k++;
    }
    return k;
}

/* ---- Arenas ------------------------------------------------------------------------- */

const char *ua_kind_name(enum ua_kind k)
{
    switch (k) {
    case UA_OPEN: return "no hole";
    case UA_PROT_NONE: return "PROT_NONE";
    case UA_UNMAPPED: return "unmapped";
    case UA_READONLY: return "read-only";
    }
    return "?";
}

/* Every arena made, for ua_sweep and for remaking one whose hole was refilled. */
static struct ua_arena *arenas[UA_MAX_ARENAS];
static size_t n_arenas;
static unsigned long refills;
int ua_trust_holes;

unsigned long ua_refills(void)
{
    return __atomic_load_n(&refills, __ATOMIC_RELAXED);
}

/* splitmix64; bytes never UA_BG (see ua_lib.h). */
static void fill_random(unsigned char *p, size_t n, uint64_t seed)
{
    uint64_t x = seed;
    for (size_t i = 0; i < n; i += 8) {
        uint64_t z = (x += UINT64_C(0x9e3779b97f4a7c15));
        z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
        z ^= z >> 31;
        for (size_t k = 0; k < 8 && i + k < n; k++, z >>= 8) {
            unsigned char b = (unsigned char)z;
            p[i + k] = b == UA_BG ? (unsigned char)(b ^ 0x5a) : b;
        }
    }
}

/* Maps a->kind, a->is_src, a->seed as an arena of lo_pages + hole + hi_pages. */
static void arena_map(struct ua_arena *a, size_t lo_pages, size_t hi_pages)
{
    size_t P = ua_page;
    size_t total = (lo_pages + hi_pages + 3) * P;
    unsigned char *m = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        ua_die("mmap");
    a->lo = m + P;
    a->hole = a->lo + lo_pages * P;
    a->end = a->hole + P + hi_pages * P;
    if (a->is_src)
        fill_random(a->lo, (size_t)(a->end - a->lo), a->seed);
    else
        memset(a->lo, UA_BG, (size_t)(a->end - a->lo));
    if (mprotect(m, P, PROT_NONE) || mprotect(a->end, P, PROT_NONE))
        ua_die("mprotect");
    if (a->is_src && mprotect(a->lo, (size_t)(a->end - a->lo), PROT_READ))
        ua_die("mprotect");
    switch (a->kind) {
    case UA_OPEN: break;
    case UA_PROT_NONE:
        if (mprotect(a->hole, P, PROT_NONE))
            ua_die("mprotect");
        break;
    case UA_UNMAPPED:
        if (munmap(a->hole, P))
            ua_die("munmap");
        break;
    case UA_READONLY:
        if (mprotect(a->hole, P, PROT_READ))
            ua_die("mprotect");
        break;
    }
}

void ua_arena_make(struct ua_arena *a, enum ua_kind kind, int is_src, size_t lo_pages, size_t hi_pages,
                   uint64_t seed)
{
    if (n_arenas == UA_MAX_ARENAS) {
        printf("ua_arena_make: more than %d arenas: set-up error\n", UA_MAX_ARENAS);
        exit(2);
    }
    a->kind = kind;
    a->is_src = is_src;
    a->seed = seed;
    arena_map(a, lo_pages, hi_pages);
    arenas[n_arenas++] = a;
}

void ua_arena_remake(struct ua_arena *a)
{
    size_t P = ua_page;
    size_t lo_pages = (size_t)(a->hole - a->lo) / P, hi_pages = (size_t)(a->end - a->hole) / P - 1;
    unsigned char *m = a->lo - P, *m_end = a->end + P;
    /* Everything but the hole, which is not ours when it was unmapped. */
    if (munmap(m, (size_t)(a->hole - m)) || munmap(a->hole + P, (size_t)(m_end - (a->hole + P))))
        ua_die("munmap");
    if (a->kind != UA_UNMAPPED && munmap(a->hole, P))
        ua_die("munmap");
    arena_map(a, lo_pages, hi_pages);
    __atomic_add_fetch(&refills, 1, __ATOMIC_RELAXED);
}

size_t ua_sweep(void)
{
    size_t stray = 0;
    for (size_t i = 0; i < n_arenas; i++) {
        const struct ua_arena *a = arenas[i];
        if (a->is_src)
            continue;
        struct seg {
            unsigned char *b, *e;
        } seg[3] = {{a->lo, a->hole}, {a->hole, a->hole + ua_page}, {a->hole + ua_page, a->end}};
        for (int k = 0; k < 3; k++) {
            if (k == 1 && a->kind != UA_OPEN)
                continue; /* the hole: unreadable, or read-only (cannot change) */
            for (unsigned char *p = seg[k].b; p < seg[k].e; p++)
                if (*p != UA_BG) {
                    stray++;
                    *p = UA_BG;
                }
        }
    }
    return stray;
}

int ua_arena_intact(const struct ua_arena *a)
{
    if (a->kind != UA_UNMAPPED)
        return 1;
    unsigned char vec;
    /* mincore fails with ENOMEM exactly when part of the range is unmapped. */
    return mincore(a->hole, ua_page, &vec) != 0 && errno == ENOMEM;
}

/* The hole page is inaccessible to this kind of access. */
static int hole_bad(const struct ua_arena *a, int write)
{
    return a->kind == UA_PROT_NONE || a->kind == UA_UNMAPPED || (write && (a->kind == UA_READONLY || a->is_src));
}

size_t ua_first_bad(const struct ua_arena *a, const unsigned char *p, size_t n, int write)
{
    /* In lengths, not end addresses: n may be anything up to SIZE_MAX, and
       p + n may wrap around the address space. */
    uintptr_t b = (uintptr_t)p;
    uintptr_t lo = (uintptr_t)a->lo, end = (uintptr_t)a->end;
    uintptr_t h0 = (uintptr_t)a->hole, h1 = h0 + ua_page;
    if (n == 0)
        return 0;
    if (b < lo || b >= end || (write && a->is_src))
        return 0;
    size_t first = n;
    if (hole_bad(a, write) && b < h1 && (b >= h0 || n > h0 - b))
        first = b >= h0 ? 0 : (size_t)(h0 - b);
    if (n > end - b && (size_t)(end - b) < first)
        first = (size_t)(end - b);
    return first;
}

/* ---- Checking ------------------------------------------------------------------------ */

void ua_fail(struct ua_ctx *c)
{
    c->failures++;
    if (c->stop_on_failure)
        c->stop = 1;
}

/* Where p lies relative to the arena's hole, for reports: "hole-45", "hole+4096+3". */
static void describe(char *buf, size_t len, const struct ua_arena *a, const void *p)
{
    const char *side = a->is_src ? "src" : "dst";
    if (a->kind == UA_OPEN)
        snprintf(buf, len, "%s=arena%+ld (no hole; addr%%%zu=%zu)", side,
                 (long)(intptr_t)((uintptr_t)p - (uintptr_t)a->lo), ua_page, (size_t)((uintptr_t)p % ua_page));
    else
        snprintf(buf, len, "%s=hole%+ld (%s hole; addr%%%zu=%zu)", side,
                 (long)(intptr_t)((uintptr_t)p - (uintptr_t)a->hole), ua_kind_name(a->kind), ua_page,
                 (size_t)((uintptr_t)p % ua_page));
}

/* Readable, and writable, stretches of a destination arena. */
struct seg {
    uintptr_t b, e;
    int writable;
};

static size_t dst_segments(const struct ua_arena *a, struct seg *s)
{
    uintptr_t h0 = (uintptr_t)a->hole, h1 = h0 + ua_page;
    size_t k = 0;
    s[k++] = (struct seg){(uintptr_t)a->lo, h0, 1};
    if (a->kind == UA_OPEN || a->kind == UA_READONLY)
        s[k++] = (struct seg){h0, h1, a->kind == UA_OPEN};
    s[k++] = (struct seg){h1, (uintptr_t)a->end, 1};
    return k;
}

/* The check behind ua_check_dst and ua_case; sa and s (may be NULL) describe the
   source in a report, else src_desc does. */
static int check_dst(struct ua_ctx *c, unsigned char *d, const struct ua_arena *da, const unsigned char *ref,
                     size_t n, size_t done, size_t r, const struct ua_arena *sa, const void *s, const char *src_desc)
{
    size_t r_exp = n - done;
    struct seg seg[3];
    size_t nseg = dst_segments(da, seg);
    /* The window to check, clipped to the address space (n may be huge). */
    uintptr_t w0 = (uintptr_t)d - UA_MARGIN;
    uintptr_t w1 = n > UINTPTR_MAX - UA_MARGIN - (uintptr_t)d ? UINTPTR_MAX : (uintptr_t)d + n + UA_MARGIN;
    uintptr_t pd = (uintptr_t)d, pdone = pd + done;
    size_t wrong = 0;
    intptr_t first_wrong = 0;
    unsigned char got_b = 0, exp_b = 0;

    for (size_t i = 0; i < nseg; i++) {
        uintptr_t b = seg[i].b > w0 ? seg[i].b : w0, e = seg[i].e < w1 ? seg[i].e : w1;
        for (uintptr_t a = b; a < e; a++) {
            unsigned char want = UA_BG;
            if (a >= pd && a < pdone)
                want = ref ? ref[a - pd] : 0;
            unsigned char got = *(const unsigned char *)a;
            if (got != want) {
                if (!wrong++) {
                    first_wrong = (intptr_t)(a - pd);
                    got_b = got;
                    exp_b = want;
                }
                if (seg[i].writable)
                    *(unsigned char *)a = UA_BG;
            }
        }
        /* The prefix legitimately changed: put it back. */
        uintptr_t pb = b > pd ? b : pd, pe = e < pdone ? e : pdone;
        if (seg[i].writable && pb < pe)
            memset((void *)pb, UA_BG, pe - pb);
    }
    if (r == r_exp && !wrong)
        return 1;
    ua_fail(c);
    if (!c->quiet && c->failures <= c->max_print) {
        char dd[96], sd[96];
        describe(dd, sizeof dd, da, d);
        if (sa)
            describe(sd, sizeof sd, sa, s);
        printf("FAIL %s/%s [%s] n=%zu %s %s: expected r=%zu (first %zu bytes done), got r=%zu",
               altmem_routine_name(c->im->r), c->im->name, c->part, n, sa ? sd : src_desc, dd, r_exp, done, r);
        if (wrong)
            printf("; %zu dst bytes wrong, first dst[%ld] = 0x%02x, expected 0x%02x%s", wrong, (long)first_wrong,
                   got_b, exp_b, first_wrong >= (intptr_t)done ? " (past the done prefix)" : " (in the done prefix)");
        printf("\n");
    }
    return 0;
}

int ua_check_dst(struct ua_ctx *c, unsigned char *d, const struct ua_arena *da, const unsigned char *ref,
                 size_t n, size_t done, size_t r, const char *src_desc)
{
    return check_dst(c, d, da, ref, n, done, r, NULL, NULL, src_desc);
}

/* The registered arena a is, to remake it (ua_case gets const pointers). */
static struct ua_arena *registered(const struct ua_arena *a)
{
    for (size_t i = 0; i < n_arenas; i++)
        if (arenas[i] == a)
            return arenas[i];
    printf("ua_case: an arena that ua_arena_make did not make: set-up error\n");
    exit(2);
}

static int hole_lost(const struct ua_arena *a)
{
    return a && !ua_trust_holes && !ua_arena_intact(a);
}

/* Makes a again and moves *p to the same offset in it. */
static void remake_at(const struct ua_arena *a, const unsigned char **p)
{
    struct ua_arena *w = registered(a);
    uintptr_t off = (uintptr_t)*p - (uintptr_t)w->lo;
    ua_arena_remake(w);
    *p = (const unsigned char *)((uintptr_t)w->lo + off);
}

int ua_case(struct ua_ctx *c, unsigned char *d, const struct ua_arena *da, const unsigned char *s,
            const struct ua_arena *sa, size_t n)
{
    if (c->stop)
        return 1;
    if (!s)
        sa = NULL;
    for (int tries = 0;; tries++) {
        if (tries > UA_MAX_REFILLS) {
            printf("ua_case: an unmapped hole was refilled %d times in a row [%s]: set-up error\n", UA_MAX_REFILLS,
                   c->part ? c->part : "?");
            exit(2);
        }
        int lost_d = hole_lost(da), lost_s = hole_lost(sa);
        if (!lost_d && !lost_s) {
            size_t kd = ua_first_bad(da, d, n, 1);
            size_t ks = s ? ua_first_bad(sa, s, n, 0) : n;
            size_t done = kd < ks ? kd : ks;
            ua_cur_begin(c, d, s, n);
            size_t r = s ? c->im->copy(d, s, n) : c->im->clear(d, n);
            ua_cur_end();
            lost_d = hole_lost(da);
            lost_s = hole_lost(sa);
            if (!lost_d && !lost_s) {
                c->cases++;
                return check_dst(c, d, da, s, n, done, r, sa, s, "(clear)");
            }
            /* Not judged: put the destination window back (the hole page is not
               touched; the rest of the arena is still ours). */
            struct ua_ctx scratch = *c;
            scratch.quiet = 1;
            scratch.stop_on_failure = 0;
            check_dst(&scratch, d, da, s, n, done, r, sa, s, "(clear)");
        }
        const unsigned char *dc = d;
        if (lost_d)
            remake_at(da, &dc);
        if (lost_s)
            remake_at(sa, &s);
        d = (unsigned char *)(uintptr_t)dc;
    }
}

/* ---- Children --------------------------------------------------------------------------- */

int ua_run_child(int (*fn)(void *), void *arg)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        ua_die("fork");
    if (pid == 0) {
        int rc = fn(arg);
        fflush(stdout);
        fflush(stderr);
        _exit(rc);
    }
    int st;
    while (waitpid(pid, &st, 0) != pid)
        if (errno != EINTR)
            ua_die("waitpid");
    return st;
}

const char *ua_signame(int sig)
{
    /* Not sigabbrev_np(): musl has none. */
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGABRT: return "SIGABRT";
    case SIGKILL: return "SIGKILL";
    case SIGILL: return "SIGILL";
    case SIGALRM: return "SIGALRM";
    case SIGUSR1: return "SIGUSR1";
    case SIGTRAP: return "SIGTRAP";
    case SIGFPE: return "SIGFPE";
    }
    return "another signal";
}

const char *ua_status_str(int st, char *buf, size_t len)
{
    if (WIFEXITED(st))
        snprintf(buf, len, "exit status %d", WEXITSTATUS(st));
    else if (WIFSIGNALED(st))
        snprintf(buf, len, "killed by %s%s", ua_signame(WTERMSIG(st)), WCOREDUMP(st) ? " (core dumped)" : "");
    else
        snprintf(buf, len, "status 0x%x", st);
    return buf;
}
