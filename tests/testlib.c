/*
 * Shared machinery of the routine tests; see testlib.h for the checking scheme.
 *
 * This file is built with -fno-builtin (and, under GCC,
 * -fno-tree-loop-distribute-patterns; see tests/variants.cmake) so that the
 * reference loops stay byte loops instead of becoming calls to the C library's
 * memcpy: the reference must not share code with anything it judges.
 */
#define _GNU_SOURCE
#include "testlib.h"
#include "altmem.h"
#include "policy.h"
#include "policy_set.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct tl_env tl_env;
struct tl_limits tl_lim = {TL_OFFSETS, TL_LARGE_MAX, 300, 700, 0};

/* ---- Sizes, offsets and distances (testlib.h) -------------------------------- */

size_t tl_sizes[TL_SWEEP_MAX + TL_REDUCED_MAX + 1];
size_t tl_nsizes;

static void make_sizes(void)
{
    size_t k = 0;
    if (!tl_lim.reduced) {
        for (size_t n = 0; n <= TL_SWEEP_MAX; n++)
            tl_sizes[k++] = n;
        tl_nsizes = k;
        return;
    }
    for (size_t n = 0; n <= 33; n++)
        tl_sizes[k++] = n;
    for (size_t m = 48; m + 1 <= TL_REDUCED_MAX; m += m < TL_SWEEP_MAX ? 16 : 128)
        for (size_t d = 0; d < 3; d++)
            tl_sizes[k++] = m + d - 1;
    tl_nsizes = k;
}

size_t tl_sizes_upto(size_t max)
{
    size_t k = 0;
    while (k < tl_nsizes && tl_sizes[k] <= max)
        k++;
    return k;
}

/* src residues i, dst residues 7i + 5 (mod 16): both run through every residue,
   at every odd distance; then even distances, equal offsets, line ends. */
const struct tl_pair tl_reduced_pairs[] = {
    {0, 5},   {1, 12},  {2, 3},   {3, 10},  {4, 1},   {5, 8},   {6, 15},  {7, 6},
    {8, 13},  {9, 4},   {10, 11}, {11, 2},  {12, 9},  {13, 0},  {14, 7},  {15, 14},
    {0, 0},   {1, 1},   {8, 8},   {15, 15}, {2, 6},   {12, 4},  {0, 32},  {33, 0},
    {63, 63}, {48, 17}, {61, 2},  {3, 62},
};
const size_t tl_reduced_pair_count = sizeof tl_reduced_pairs / sizeof tl_reduced_pairs[0];

size_t tl_dists(long *out, size_t cap)
{
    size_t k = 0;
    if (!tl_lim.reduced) {
        for (long d = -tl_lim.overlap_dist; d <= tl_lim.overlap_dist && k < cap; d++)
            out[k++] = d;
        return k;
    }
    long pos[64];
    size_t np = 0;
    for (long d = 1; d <= 5; d++)
        pos[np++] = d;
    for (long b = 8; b <= 1024; b *= 2)
        for (long d = -1; d <= 1; d++)
            pos[np++] = b + d;
    for (size_t i = np; i > 0 && k < cap; i--)
        if (pos[i - 1] <= tl_lim.overlap_dist)
            out[k++] = -pos[i - 1];
    if (k < cap)
        out[k++] = 0;
    for (size_t i = 0; i < np && k < cap; i++)
        if (pos[i] <= tl_lim.overlap_dist)
            out[k++] = pos[i];
    return k;
}

/* The guard part's offsets for size n: 0..offsets-1, or with --reduced four that
   rotate with n (each residue mod 16 comes up across the sizes) and a line end. */
static size_t guard_offsets(size_t n, size_t *out)
{
    if (!tl_lim.reduced) {
        for (size_t o = 0; o < tl_lim.offsets; o++)
            out[o] = o;
        return tl_lim.offsets;
    }
    out[0] = n * 3 % 16;
    out[1] = (n * 3 + 5) % 16;
    out[2] = (n * 3 + 10) % 16;
    out[3] = 63 - n % 16;
    return 4;
}

/* ---- References ------------------------------------------------------------ */

/* The references run on buffers the tests own, so sanitizer checks in them
   would find nothing; they would also keep the loops from being vectorized and
   make the sanitizer build of the suite several times slower. */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 8)
#define TL_NO_SAN __attribute__((no_sanitize("address", "undefined")))
#else
#define TL_NO_SAN
#endif

TL_NO_SAN void *tl_ref_memcpy(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    for (size_t i = 0; i < n; i++)
        d[i] = s[i];
    return dst;
}

/* Overlap is handled the obvious way: through a temporary copy. */
TL_NO_SAN void *tl_ref_memmove(void *dst, const void *src, size_t n)
{
    if ((uintptr_t)dst - (uintptr_t)src >= n && (uintptr_t)src - (uintptr_t)dst >= n)
        return tl_ref_memcpy(dst, src, n); /* disjoint: no need for the detour */
    static unsigned char *tmp;
    static size_t tmp_size;
    if (n > tmp_size) {
        free(tmp);
        tmp = malloc(n);
        if (!tmp) {
            fprintf(stderr, "out of memory (%zu bytes)\n", n);
            exit(2);
        }
        tmp_size = n;
    }
    tl_ref_memcpy(tmp, src, n);
    tl_ref_memcpy(dst, tmp, n);
    return dst;
}

TL_NO_SAN void *tl_ref_memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    for (size_t i = 0; i < n; i++)
        d[i] = (unsigned char)c;
    return dst;
}

/* ---- Buffers ------------------------------------------------------------------ */

static void die(const char *what)
{
    perror(what);
    exit(2);
}

static void *map(size_t size)
{
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        die("mmap");
    return p;
}

/* splitmix64: a fixed seed gives the same data on every run, so a failure
   reproduces; bytes are never TL_BG (see testlib.h). */
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
            p[i + k] = b == TL_BG ? (unsigned char)(b ^ 0x5a) : b;
        }
    }
}

void tl_buf_make(struct tl_buf *b, size_t min_size, enum tl_buf_kind kind, uint64_t seed)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t size = (min_size + page - 1) / page * page;
    unsigned char *base = map(size + 2 * page);
    if (mprotect(base, page, PROT_NONE) || mprotect(base + page + size, page, PROT_NONE))
        die("mprotect");
    b->mem = base + page;
    b->size = size;
    b->kind = kind;
    b->bg = TL_BG;
    b->exp = NULL;
    b->init = NULL;
    switch (kind) {
    case TL_BUF_SOURCE:
        fill_random(b->mem, size, seed);
        if (mprotect(b->mem, size, PROT_READ))
            die("mprotect");
        break;
    case TL_BUF_BACKGROUND:
        b->exp = map(size);
        memset(b->mem, b->bg, size);
        memset(b->exp, b->bg, size);
        break;
    case TL_BUF_RANDOM:
        b->exp = map(size);
        b->init = map(size);
        fill_random(b->init, size, seed);
        memcpy(b->mem, b->init, size);
        memcpy(b->exp, b->init, size);
        break;
    }
}

void tl_buf_set_bg(struct tl_buf *b, unsigned char bg)
{
    if (b->kind != TL_BUF_BACKGROUND || b->bg == bg)
        return;
    b->bg = bg;
    memset(b->mem, bg, b->size);
    memset(b->exp, bg, b->size);
}

unsigned char *tl_buf_end(const struct tl_buf *b, size_t n)
{
    return b->mem + b->size - n;
}

/* Puts [off, off + len) of mem and exp back to the resting contents. */
static void buf_rest(struct tl_buf *b, size_t off, size_t len)
{
    if (b->kind == TL_BUF_RANDOM) {
        memcpy(b->mem + off, b->init + off, len);
        memcpy(b->exp + off, b->init + off, len);
    } else {
        memset(b->mem + off, b->bg, len);
        memset(b->exp + off, b->bg, len);
    }
}

/* p in [mem, mem + size]: the one-past-the-end pointer counts, since a window of
   n == 0 may sit there. */
static int buf_has(const struct tl_buf *b, const void *p)
{
    return (uintptr_t)p - (uintptr_t)b->mem <= b->size;
}

/* ---- The case in flight (for the fault handler) --------------------------------- */

static struct {
    struct tl_ctx *c;
    const void *d, *s; /* s is NULL for memset */
    size_t n;
    int v;
    int active;
} cur;

static void cur_begin(struct tl_ctx *c, const void *d, const void *s, int v, size_t n)
{
    cur.c = c;
    cur.d = d;
    cur.s = s;
    cur.v = v;
    cur.n = n;
    cur.active = 1;
    /* The handler reads cur: the stores must be done before the call. */
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static void cur_end(void)
{
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    cur.active = 0;
}

/* Async-signal-safe output: the handler may not use stdio. */
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

static void sig_putu(uintmax_t v, unsigned base)
{
    char buf[32];
    size_t i = sizeof buf;
    buf[--i] = '\0';
    do {
        buf[--i] = "0123456789abcdef"[v % base];
        v /= base;
    } while (v);
    if (base == 16) {
        buf[--i] = 'x';
        buf[--i] = '0';
    }
    sig_puts(&buf[i]);
}

static void sig_putd(intmax_t v)
{
    if (v < 0) {
        sig_puts("-");
        sig_putu((uintmax_t)0 - (uintmax_t)v, 10);
    } else {
        sig_puts("+");
        sig_putu((uintmax_t)v, 10);
    }
}

/* Names the case that faulted, then lets the fault happen again with the
   default action (SA_RESETHAND), so the process still dies of the signal and
   CTest, or the self-test's parent, sees that. */
static void on_fault(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    uintptr_t a = (uintptr_t)si->si_addr;
    sig_puts(sig == SIGBUS ? "\nFAULT (SIGBUS)" : "\nFAULT (SIGSEGV)");
    if (cur.active) {
        sig_puts(" in ");
        sig_puts(altmem_routine_name(cur.c->routine));
        sig_puts("/");
        sig_puts(cur.c->name);
        sig_puts(" [");
        sig_puts(cur.c->part ? cur.c->part : "?");
        sig_puts("] n=");
        sig_putu(cur.n, 10);
        sig_puts(" dst%4096=");
        sig_putu((uintptr_t)cur.d % 4096, 10);
        if (cur.s) {
            sig_puts(" src%4096=");
            sig_putu((uintptr_t)cur.s % 4096, 10);
        } else {
            sig_puts(" c=");
            sig_putd(cur.v);
        }
        sig_puts(": access at dst");
        sig_putd((intmax_t)(a - (uintptr_t)cur.d));
        if (cur.s) {
            sig_puts(" = src");
            sig_putd((intmax_t)(a - (uintptr_t)cur.s));
        }
        sig_puts(" (a guard page: the routine read or wrote outside [ptr, ptr + n))\n");
    } else {
        sig_puts(" outside the routine under test, at ");
        sig_putu(a, 16);
        sig_puts("\n");
    }
}

static void install_fault_handler(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
}

/* ---- Checking one case ------------------------------------------------------------ */

static void count_failure(struct tl_ctx *c)
{
    c->failures++;
    if (c->stop_after && c->failures >= c->stop_after)
        c->stop = 1;
}

/* The full report of one failed case: where, which byte first, how many. */
static void report(struct tl_ctx *c, const struct tl_buf *b, const unsigned char *d, const void *s, int v,
                   size_t n, const void *ret, size_t lo, size_t hi)
{
    if (c->failures > c->max_print) {
        if (c->failures == c->max_print + 1 && c->max_print)
            printf("  ... %s/%s: further failures are counted, not shown\n", altmem_routine_name(c->routine),
                   c->name);
        return;
    }
    char what[160];
    if (s) {
        int len = snprintf(what, sizeof what, "src%%4096=%zu", (size_t)((uintptr_t)s % 4096));
        if (b && buf_has(b, s))
            snprintf(what + len, sizeof what - (size_t)len, " dst-src=%td",
                     (ptrdiff_t)((uintptr_t)d - (uintptr_t)s));
    } else if (c->routine == ALTMEM_MEMSET) {
        snprintf(what, sizeof what, "c=%d (0x%x)", v, (unsigned)v);
    } else {
        snprintf(what, sizeof what, "src=NULL");
    }
    printf("FAIL %s/%s [%s] n=%zu dst%%4096=%zu %s:", altmem_routine_name(c->routine), c->name, c->part, n,
           (size_t)((uintptr_t)d % 4096), what);
    if (ret != d) {
        if (!ret)
            printf(" returned NULL, not dst;");
        else
            printf(" returned dst%+td, not dst;", (ptrdiff_t)((uintptr_t)ret - (uintptr_t)d));
    }
    if (b && hi > lo) {
        size_t first = hi, ndiff = 0;
        for (size_t i = lo; i < hi; i++) {
            if (b->mem[i] != b->exp[i]) {
                if (first == hi)
                    first = i;
                ndiff++;
            }
        }
        if (ndiff) {
            ptrdiff_t at = (ptrdiff_t)(first - (size_t)(d - b->mem));
            printf(" dst[%td] expected 0x%02x got 0x%02x (%s); %zu byte%s in [dst%+td, dst+n%+td)",
                   at, b->exp[first], b->mem[first],
                   at < 0 ? "before dst" : (size_t)at >= n ? "past dst + n" : "inside the window", ndiff,
                   ndiff == 1 ? " differs" : "s differ", (ptrdiff_t)(lo - (size_t)(d - b->mem)),
                   (ptrdiff_t)(hi - (size_t)(d - b->mem) - n));
        }
    }
    printf("\n");
}

/* Compares [lo, hi) widened by TL_MARGIN, then rests the buffer: on success only
   dst's n bytes differ from the resting contents, on failure anything in the
   compared range may. */
static int finish(struct tl_ctx *c, struct tl_buf *b, unsigned char *d, const void *s, int v, size_t n,
                  const void *ret, size_t lo, size_t hi)
{
    lo = lo > TL_MARGIN ? lo - TL_MARGIN : 0;
    hi = hi + TL_MARGIN < b->size ? hi + TL_MARGIN : b->size;
    size_t doff = (size_t)(d - b->mem);
    if (ret == d && memcmp(b->mem + lo, b->exp + lo, hi - lo) == 0) {
        buf_rest(b, doff, n);
        return 1;
    }
    count_failure(c);
    report(c, b, d, s, v, n, ret, lo, hi);
    buf_rest(b, lo, hi - lo);
    return 0;
}

static void *call(struct tl_ctx *c, void *d, const void *s, int v, size_t n)
{
    void *ret;
    cur_begin(c, d, s, v, n);
    switch (c->routine) {
    case ALTMEM_MEMCPY:
        ret = c->fn.memcpy(d, s, n);
        break;
    case ALTMEM_MEMMOVE:
        ret = c->fn.memmove(d, s, n);
        break;
    default:
        ret = c->fn.memset(d, v, n);
        break;
    }
    cur_end();
    return ret;
}

int tl_copy(struct tl_ctx *c, struct tl_buf *b, unsigned char *d, const unsigned char *s, size_t n)
{
    if (c->stop)
        return 0;
    c->cases++;
    size_t doff = (size_t)(d - b->mem);
    size_t lo = doff, hi = doff + n;
    const unsigned char *es = s;
    if (buf_has(b, s)) {
        size_t soff = (size_t)(s - b->mem);
        es = b->exp + soff;
        lo = soff < lo ? soff : lo;
        hi = soff + n > hi ? soff + n : hi;
    }
    if (c->routine == ALTMEM_MEMCPY)
        tl_ref_memcpy(b->exp + doff, es, n);
    else
        tl_ref_memmove(b->exp + doff, es, n);
    void *ret = call(c, d, s, 0, n);
    return finish(c, b, d, s, 0, n, ret, lo, hi);
}

int tl_set(struct tl_ctx *c, struct tl_buf *b, unsigned char *d, int v, size_t n)
{
    if (c->stop)
        return 0;
    c->cases++;
    size_t doff = (size_t)(d - b->mem);
    tl_ref_memset(b->exp + doff, v, n);
    void *ret = call(c, d, NULL, v, n);
    return finish(c, b, d, NULL, v, n, ret, doff, doff + n);
}

void tl_zero(struct tl_ctx *c, struct tl_buf *b, void *d, const void *s, int v)
{
    if (c->stop)
        return;
    c->cases++;
    void *ret = call(c, d, s, v, 0);
    /* Nothing was written: the pages at both ends (where the edge pointers
       point) must still be at rest. */
    size_t edge = 2 * tl_env.page < b->size ? 2 * tl_env.page : b->size;
    int ok = ret == d && memcmp(b->mem, b->exp, edge) == 0 &&
             memcmp(b->mem + b->size - edge, b->exp + b->size - edge, edge) == 0;
    if (ok)
        return;
    count_failure(c);
    if (c->failures <= c->max_print)
        printf("FAIL %s/%s [%s] n=0 dst=%p src=%p: %s\n", altmem_routine_name(c->routine), c->name, c->part, d,
               s, ret != d ? "did not return dst" : "wrote next to dst");
    buf_rest(b, 0, edge);
    buf_rest(b, b->size - edge, edge);
}

/* ---- Sizes ---------------------------------------------------------------------- */

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

size_t tl_large_sizes(size_t *out, size_t cap)
{
    static const long nb[] = {-63, -7, -1, 0, 1, 7, 63};
    /* Odd sizes between the powers, one just above L3 (32 MiB here). */
    static const size_t odd[] = {3000, 12345, 100003, 1000001, 3 * TL_MIB + 5, 10 * TL_MIB + 17,
                                 33 * TL_MIB - 3, 48 * TL_MIB + 9};
    size_t k = 0;
    for (size_t p = 2 * TL_KIB; p <= tl_lim.large_max; p *= 2)
        for (size_t i = 0; i < sizeof nb / sizeof nb[0] && k < cap; i++)
            if ((size_t)((long)p + nb[i]) <= tl_lim.large_max)
                out[k++] = (size_t)((long)p + nb[i]);
    for (size_t i = 0; i < sizeof odd / sizeof odd[0] && k < cap; i++)
        if (odd[i] <= tl_lim.large_max)
            out[k++] = odd[i];
    qsort(out, k, sizeof out[0], cmp_size);
    return k;
}

/* ---- Parts shared by memcpy and memmove ---------------------------------------------- */

void tl_part_copy_zero(struct tl_ctx *c)
{
    struct tl_buf *db = &tl_env.dst, *sb = &tl_env.src;
    size_t pg = tl_env.page;
    /* Ordinary pointers at every alignment: the window and its margins stay. */
    for (size_t o = 0; o < tl_lim.offsets; o++) {
        tl_copy(c, db, db->mem + pg + o, sb->mem + pg + (o * 7) % tl_lim.offsets, 0);
        tl_copy(c, db, db->mem + pg + (o * 5) % tl_lim.offsets, sb->mem + pg + o, 0);
    }
    /* Right after a guard page, and exactly at one (any access faults). */
    tl_copy(c, db, db->mem, sb->mem, 0);
    tl_copy(c, db, tl_buf_end(db, 0), tl_buf_end(sb, 0), 0);
    tl_copy(c, db, db->mem, tl_buf_end(sb, 0), 0);
    tl_zero(c, db, db->mem - 1, sb->mem - 1, 0);
    tl_zero(c, db, db->mem - 1, tl_buf_end(sb, 0), 0);
    /* NULL, and pointers no object can have. */
    tl_zero(c, db, NULL, NULL, 0);
    tl_zero(c, db, NULL, sb->mem, 0);
    tl_zero(c, db, db->mem, NULL, 0);
    tl_zero(c, db, (void *)(uintptr_t)1, (const void *)(uintptr_t)3, 0);
    tl_zero(c, db, (void *)(UINTPTR_MAX - 6), (const void *)(UINTPTR_MAX - 62), 0);
    /* Overlapping and identical pointers in one buffer. */
    struct tl_buf *ob = &tl_env.ovl;
    for (size_t o = 0; o < 16; o++) {
        tl_copy(c, ob, ob->mem + pg + o, ob->mem + pg + 1, 0);
        tl_copy(c, ob, ob->mem + pg + 1, ob->mem + pg + o, 0);
    }
}

void tl_part_copy_same(struct tl_ctx *c)
{
    struct tl_buf *ob = &tl_env.ovl;
    unsigned char *base = ob->mem + tl_env.page;
    static const size_t big[] = {511, 1024, 4095, 4097, 65536, 65536 + 9, TL_MIB};
    static const size_t offs[] = {0, 1, 3, 7, 8, 31, 63};
    size_t ns = tl_sizes_upto(300);
    for (size_t i = 0; i < sizeof offs / sizeof offs[0]; i++) {
        for (size_t j = 0; j < ns; j++)
            tl_copy(c, ob, base + offs[i], base + offs[i], tl_sizes[j]);
        for (size_t k = 0; k < sizeof big / sizeof big[0]; k++)
            if (big[k] <= tl_lim.large_max)
                tl_copy(c, ob, base + offs[i], base + offs[i], big[k]);
    }
    /* Flush against both guard pages of the buffer. */
    for (size_t j = 0; j < ns; j++) {
        size_t n = tl_sizes[j];
        tl_copy(c, ob, ob->mem, ob->mem, n);
        tl_copy(c, ob, tl_buf_end(ob, n), tl_buf_end(ob, n), n);
    }
}

void tl_part_copy_guard(struct tl_ctx *c)
{
    struct tl_buf *db = &tl_env.dst, *sb = &tl_env.src;
    unsigned char *dmid = db->mem + tl_env.page;
    const unsigned char *smid = sb->mem + tl_env.page;
    for (size_t i = 0; i < tl_nsizes; i++) {
        size_t n = tl_sizes[i], offs[TL_OFFSETS];
        size_t noffs = guard_offsets(n, offs);
        for (size_t k = 0; k < noffs; k++) {
            size_t o = offs[k];
            tl_copy(c, db, dmid + o, tl_buf_end(sb, n), n);  /* over-read faults  */
            tl_copy(c, db, dmid + o, sb->mem, n);            /* under-read faults */
            tl_copy(c, db, tl_buf_end(db, n), smid + o, n);  /* over-write faults */
            tl_copy(c, db, db->mem, smid + o, n);            /* under-write faults */
        }
        tl_copy(c, db, tl_buf_end(db, n), tl_buf_end(sb, n), n);
        tl_copy(c, db, db->mem, sb->mem, n);
        tl_copy(c, db, db->mem, tl_buf_end(sb, n), n);
        tl_copy(c, db, tl_buf_end(db, n), sb->mem, n);
    }
}

void tl_part_copy_sweep(struct tl_ctx *c)
{
    struct tl_buf *db = &tl_env.dst;
    unsigned char *dbase = db->mem + tl_env.page;
    const unsigned char *sbase = tl_env.src.mem + tl_env.page;
    for (size_t i = 0; i < tl_nsizes && !c->stop; i++) {
        size_t n = tl_sizes[i];
        if (tl_lim.reduced) {
            for (size_t p = 0; p < tl_reduced_pair_count; p++)
                tl_copy(c, db, dbase + tl_reduced_pairs[p].dst, sbase + tl_reduced_pairs[p].src, n);
            continue;
        }
        for (size_t so = 0; so < tl_lim.offsets; so++)
            for (size_t dof = 0; dof < tl_lim.offsets; dof++)
                tl_copy(c, db, dbase + dof, sbase + so, n);
    }
}

void tl_part_copy_large(struct tl_ctx *c)
{
    /* (src, dst) offsets.  Above 1 MiB only the first two, to keep the run short:
       same alignment, and a different misalignment on each side (the
       shift-and-merge path of a strict-alignment copy). */
    static const size_t pairs[][2] = {{0, 0}, {1, 3}, {63, 0}, {7, 13}, {0, 63}};
    struct tl_buf *db = &tl_env.dst, *sb = &tl_env.src;
    size_t sizes[160];
    size_t count = tl_large_sizes(sizes, sizeof sizes / sizeof sizes[0]);
    for (size_t i = 0; i < count && !c->stop; i++) {
        size_t n = sizes[i];
        size_t npairs = n <= TL_MIB ? sizeof pairs / sizeof pairs[0] : 2;
        for (size_t p = 0; p < npairs; p++)
            tl_copy(c, db, db->mem + tl_env.page + pairs[p][1], sb->mem + tl_env.page + pairs[p][0], n);
        /* Both ends flush against guard pages: a loop that reads or writes past
           its last block faults. */
        tl_copy(c, db, tl_buf_end(db, n), tl_buf_end(sb, n), n);
    }
}

/* Copies whose first or last bytes lie just across a 4 KiB boundary: dst
   starting 1..64 bytes before one, or ending 1..256 bytes after one (every
   offset to 64, then every 7th), where the x86_64 loops store their first or
   last vectors as a piece so that no store splits a page; sizes from one loop
   block of the widest vector to two pages, three source alignments. */
void tl_part_copy_page_ends(struct tl_ctx *c)
{
    static const size_t sizes[] = {520, 777, 1029, 4096, 4099, 8192 + 61};
    static const size_t src_offs[] = {0, 1, 33};
    struct tl_buf *db = &tl_env.dst, *sb = &tl_env.src;
    unsigned char *page2 = db->mem + 4 * tl_env.page;  /* a page boundary with room on both sides */
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0] && !c->stop; i++)
        for (size_t so = 0; so < sizeof src_offs / sizeof src_offs[0]; so++) {
            size_t n = sizes[i];
            const unsigned char *s = sb->mem + tl_env.page + src_offs[so];
            for (size_t e = 1; e <= 256; e += e < 64 ? 1 : 7)
                tl_copy(c, db, page2 + e - n, s, n);       /* ends e bytes past the boundary */
            for (size_t h = 1; h <= 64; h++)
                tl_copy(c, db, page2 - h, s, n);           /* starts h bytes before it */
        }
}

/* ---- Non-temporal thresholds -------------------------------------------------------- */

/* 0: every size that reaches a loop streams; the others sit inside the loop
   range of every vector width, at odd and page-sized values. */
const size_t tl_nt_thresholds[] = {0, 600, 4096, 65536 + 3};
const size_t tl_nt_threshold_count = sizeof tl_nt_thresholds / sizeof tl_nt_thresholds[0];

void tl_policy_set(const char *value)
{
    test_policy_set(value, "testlib");
}

void tl_nt_set(size_t threshold)
{
    char v[64];
    if (threshold == (size_t)-1) {
        tl_policy_set(NULL);
        return;
    }
    snprintf(v, sizeof v, "nt_threshold=%zu", threshold);
    tl_policy_set(v);
}

/* rep movsb / rep stosb from each of these (every width), streaming never, with
   the short-distance rule off and at its widest. */
const size_t tl_string_thresholds[] = {600, 4096 + 3, 65536 + 3};
const size_t tl_string_threshold_count = sizeof tl_string_thresholds / sizeof tl_string_thresholds[0];

void tl_string_set(size_t threshold, size_t short_distance)
{
    char v[160];
    snprintf(v, sizeof v, "rep_movsb_threshold=%zu:rep_stosb_threshold=%zu:nt_threshold=never:rep_movsb_short_distance=%zu",
             threshold, threshold, short_distance);
    tl_policy_set(v);
}

/* The sizes around threshold t (tl_nt_sizes) at eight (src, dst) offset pairs
   ((dst - src) mod 4096: 0, 2, -63, 6, 63, -16, 32, 0, and 4096 apart), flush
   against the guard page after, and (low) against the one before. */
static void copy_sizes_around(struct tl_ctx *c, size_t t, int low)
{
    static const size_t pairs[][2] = {{0, 0}, {1, 3}, {63, 0}, {7, 13}, {0, 63}, {33, 17}, {16, 48}, {5, 5}};
    struct tl_buf *db = &tl_env.dst, *sb = &tl_env.src;
    size_t sizes[16];
    size_t count = tl_nt_sizes(t, sizes, 16);
    for (size_t i = 0; i < count; i++) {
        size_t n = sizes[i];
        for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++)
            tl_copy(c, db, db->mem + tl_env.page + pairs[p][1], sb->mem + tl_env.page + pairs[p][0], n);
        tl_copy(c, db, tl_buf_end(db, n), tl_buf_end(sb, n), n);
        if (low)
            tl_copy(c, db, db->mem, sb->mem, n);
    }
}

void tl_part_copy_string(struct tl_ctx *c)
{
    static const size_t shorts[] = {0, 4095};
    for (size_t ti = 0; ti < tl_string_threshold_count && !c->stop; ti++)
        for (size_t si = 0; si < 2 && !c->stop; si++) {
            tl_string_set(tl_string_thresholds[ti], shorts[si]);
            copy_sizes_around(c, tl_string_thresholds[ti], 0);
        }
    tl_policy_set(NULL);
}

size_t tl_nt_sizes(size_t t, size_t *out, size_t cap)
{
    static const long around[] = {-65, -64, -1, 0, 1, 63, 64, 65};
    static const size_t low[] = {129, 130, 255, 256, 257, 511, 512, 513, 1000, 4097};
    size_t k = 0;
    if (t == 0) {
        for (size_t i = 0; i < sizeof low / sizeof low[0] && k < cap; i++)
            out[k++] = low[i];
        return k;
    }
    for (size_t i = 0; i < sizeof around / sizeof around[0] && k < cap; i++)
        if ((long)t + around[i] > 0)
            out[k++] = (size_t)((long)t + around[i]);
    if (k < cap)
        out[k++] = 2 * t + 17;
    return k;
}

void tl_part_copy_nt(struct tl_ctx *c)
{
    /* Both shapes of the x86_64 streaming copy, whichever this CPU's rules
       chose: straight through, and four pages at a time (src/policy.h); then
       with the pairs equally aligned mod 64 kept out of streaming (amd-zen5),
       where the others stream; then the 64-byte copies handing their streaming
       to the 32-byte variant where src and dst are apart mod 64 (amd-zen5). */
    for (size_t pass = 0; pass < 4 && !c->stop; pass++)
        for (size_t ti = 0; ti < tl_nt_threshold_count && !c->stop; ti++) {
            tl_nt_set(tl_nt_thresholds[ti]);
            __atomic_store_n(&altmem__copy_nt_four_pages, pass == 1, __ATOMIC_RELEASE);
            if (pass == 2)
                __atomic_store_n(&altmem__nt_threshold_coaligned, (size_t)-1, __ATOMIC_RELEASE);
            __atomic_store_n(&altmem__copy_split_loads_streaming, (size_t)(pass == 3), __ATOMIC_RELEASE);
            copy_sizes_around(c, tl_nt_thresholds[ti], 1);
        }
    tl_nt_set((size_t)-1);
}

/* ---- Broken copies ------------------------------------------------------------------- */

/* Each is a byte loop with exactly one bug, named after it. */

static void *bk_overwrite(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    for (size_t i = 0; i < n; i++)
        d[i] = s[i];
    if (n % 8 == 5) /* a tail rounded up */
        d[n] = 0;
    return dst;
}

static void *bk_underwrite(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (n % 16 == 3) /* a head rounded down */
        d[-1] = 0;
    for (size_t i = 0; i < n; i++)
        d[i] = s[i];
    return dst;
}

static void *bk_drop_last(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    for (size_t i = 0; i < n - (n == 777); i++)
        d[i] = s[i];
    return dst;
}

static void *bk_wrong_byte(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    for (size_t i = 0; i < n; i++)
        d[i] = s[i];
    if (n > 300)
        d[300] ^= 0x20;
    return dst;
}

static void *bk_src_misalign(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    for (size_t i = 0; i < n; i++)
        d[i] = s[i];
    if ((uintptr_t)s % 8 == 5 && n >= 4) /* a shift amount off by one byte */
        d[n / 2] = s[n / 2 + 1];
    return dst;
}

static void *bk_ret_end(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    for (size_t i = 0; i < n; i++)
        d[i] = s[i];
    return d + n; /* mempcpy's return value */
}

static void *bk_ret_null0(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if (n == 0)
        return NULL;
    for (size_t i = 0; i < n; i++)
        d[i] = s[i];
    return dst;
}

static void *bk_touch0(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    d[0] = s[0]; /* a do-while where a while was needed */
    for (size_t i = 1; i < n; i++)
        d[i] = s[i];
    return dst;
}

static void *bk_overread(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const volatile unsigned char *s = src;
    for (size_t i = 0; i < n; i++)
        d[i] = s[i];
    if (n)
        (void)s[n]; /* a whole-word load past the last byte */
    return dst;
}

static void *bk_underread(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const volatile unsigned char *s = src;
    if (n)
        (void)s[-1]; /* an aligned-down first load */
    for (size_t i = 0; i < n; i++)
        d[i] = s[i];
    return dst;
}

static void *bk_large_tail(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    size_t m = n >= 4 * TL_MIB ? n - n % 64 : n; /* no tail after the block loop */
    for (size_t i = 0; i < m; i++)
        d[i] = s[i];
    return dst;
}

static void *bk_huge_block(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    for (size_t i = 0; i < n; i++)
        if (n <= 32 * TL_MIB || i / 64 != n / 128) /* a lost block, past L3 only */
            d[i] = s[i];
    return dst;
}

static void *bk_clear_first(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    for (size_t i = 0; i < n; i++)
        d[i] = 0;
    for (size_t i = 0; i < n; i++)
        d[i] |= s[i]; /* with dst == src, reads the zeros it just stored */
    return dst;
}

/* Planted at the boundaries --reduced claims (testlib.h: tl_sizes, tl_reduced_pairs). */
static void *bk_edge513(void *dst, const void *src, size_t n)
{
    return tl_ref_memcpy(dst, src, n - (n == 513)); /* a class edge: 512 + 1 */
}

static void *bk_strip2047(void *dst, const void *src, size_t n)
{
    tl_ref_memcpy(dst, src, n);
    if (n == 2047) /* 8 x a 256-byte vector, - 1 */
        ((unsigned char *)dst)[n - 1] ^= 1;
    return dst;
}

static void *bk_strip_tail1(void *dst, const void *src, size_t n)
{
    return tl_ref_memcpy(dst, src, n - (n > 128 && n % 128 == 1)); /* a one-byte strip tail lost */
}

static void *bk_line_end(void *dst, const void *src, size_t n)
{
    return tl_ref_memcpy(dst, src, n - ((uintptr_t)dst % 64 == 63 && n >= 2));
}

static void *bk_src11(void *dst, const void *src, size_t n)
{
    tl_ref_memcpy(dst, src, n);
    if ((uintptr_t)src % 16 == 11 && n > 32)
        ((unsigned char *)dst)[n - 2] ^= 0x40;
    return dst;
}

#define BK(f) {.memmove = f}
const struct tl_broken tl_broken_copy[] = {
    {"edge-513", "drops the last byte when n == 513", BK(bk_edge513), "sweep", TL_EXPECT_FAIL, NULL, 1},
    {"strip-2047", "flips dst[n-1] when n == 2047", BK(bk_strip2047), "sweep", TL_EXPECT_FAIL, NULL, 1},
    {"strip-tail1", "drops the last byte when n % 128 == 1", BK(bk_strip_tail1), "sweep", TL_EXPECT_FAIL, NULL,
     1},
    {"line-end", "drops the last byte when dst % 64 == 63", BK(bk_line_end), "sweep", TL_EXPECT_FAIL, NULL, 1},
    {"src-11", "flips dst[n-2] when src % 16 == 11", BK(bk_src11), "sweep", TL_EXPECT_FAIL, NULL, 1},
    {"overwrite", "writes dst[n] when n % 8 == 5", BK(bk_overwrite), "sweep", TL_EXPECT_FAIL, NULL, 0},
    {"overwrite", "writes dst[n] when n % 8 == 5", BK(bk_overwrite), "guard", TL_EXPECT_FAULT, NULL, 0},
    {"underwrite", "writes dst[-1] when n % 16 == 3", BK(bk_underwrite), "sweep", TL_EXPECT_FAIL, NULL, 0},
    {"underwrite", "writes dst[-1] when n % 16 == 3", BK(bk_underwrite), "guard", TL_EXPECT_FAULT, NULL, 0},
    {"drop-last", "leaves the last byte when n == 777", BK(bk_drop_last), "sweep", TL_EXPECT_FAIL,
     "777 is no boundary", 0},
    {"wrong-byte", "flips a bit of dst[300] when n > 300", BK(bk_wrong_byte), "sweep", TL_EXPECT_FAIL, NULL, 0},
    {"src-misalign", "copies src[n/2+1] to dst[n/2] when src % 8 == 5", BK(bk_src_misalign), "sweep",
     TL_EXPECT_FAIL, NULL, 0},
    {"return-end", "returns dst + n", BK(bk_ret_end), "sweep", TL_EXPECT_FAIL, NULL, 0},
    {"return-null0", "returns NULL when n == 0", BK(bk_ret_null0), "zero", TL_EXPECT_FAIL, NULL, 0},
    {"touch0", "copies one byte when n == 0", BK(bk_touch0), "zero", TL_EXPECT_FAIL, NULL, 0},
    {"overread", "reads src[n]", BK(bk_overread), "guard", TL_EXPECT_FAULT, NULL, 0},
    {"underread", "reads src[-1]", BK(bk_underread), "guard", TL_EXPECT_FAULT, NULL, 0},
    {"large-tail", "drops the last n % 64 bytes when n >= 4 MiB", BK(bk_large_tail), "large", TL_EXPECT_FAIL,
     "past --reduced's largest size", 0},
    {"huge-block", "skips a 64-byte block when n > 32 MiB", BK(bk_huge_block), "large", TL_EXPECT_FAIL,
     "past --reduced's largest size", 0},
    {"clear-first", "zeroes dst before or-ing src in (wrong for dst == src)", BK(bk_clear_first), "same",
     TL_EXPECT_FAIL, NULL, 0},
};
#undef BK
const size_t tl_broken_copy_count = sizeof tl_broken_copy / sizeof tl_broken_copy[0];

/* ---- Driver ------------------------------------------------------------------------- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int verbose;

static void run_parts(struct tl_ctx *c, const struct tl_part *parts, size_t nparts, const char *only_part)
{
    for (size_t p = 0; p < nparts && !c->stop; p++) {
        if (only_part && strcmp(only_part, parts[p].name) != 0)
            continue;
        unsigned long cases = c->cases, fails = c->failures;
        double t = now();
        c->part = parts[p].name;
        parts[p].run(c);
        if (verbose)
            printf("    %-8s %-16s %-13s %10lu cases %6lu failures %7.2f s\n", altmem_routine_name(c->routine),
                   c->name, parts[p].name, c->cases - cases, c->failures - fails, now() - t);
    }
}

static const struct tl_part *find_part(const struct tl_part *parts, size_t nparts, const char *name)
{
    for (size_t p = 0; p < nparts; p++)
        if (strcmp(parts[p].name, name) == 0)
            return &parts[p];
    return NULL;
}

/* Runs one broken implementation in a child; 1 if the outcome was the expected one,
   -1 if it is not run at these ranges. */
static int self_test_one(enum altmem_routine r, const struct tl_broken *bk, const struct tl_part *parts,
                         size_t nparts)
{
    const char *rname = altmem_routine_name(r);
    if (tl_lim.reduced && bk->not_reduced) {
        printf("selftest %-7s %-13s [%-13s] %-52s skipped under --reduced: %s\n", rname, bk->name,
               bk->part ? bk->part : "all", bk->what, bk->not_reduced);
        return -1;
    }
    if (!tl_lim.reduced && bk->boundary)
        return -1; /* the full ranges hold that case by construction */
    if (bk->part && !find_part(parts, nparts, bk->part)) {
        printf("selftest %s %s: no part named '%s'\n", rname, bk->name, bk->part);
        return 0;
    }
    double t = now();
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        die("fork");
    if (pid == 0) {
        /* The expected faults need no core files. */
        struct rlimit no_core = {0, 0};
        setrlimit(RLIMIT_CORE, &no_core);
        char name[64];
        snprintf(name, sizeof name, "broken:%s", bk->name);
        struct tl_ctx c = {.routine = r, .name = name, .fn = bk->fn};
        /* A bug that must fault may be reported on the way (an over-write lands
           on a sentinel before the window reaches the guard page): go on. */
        c.stop_after = bk->expect == TL_EXPECT_FAIL;
        c.max_print = bk->expect == TL_EXPECT_FAIL;
        run_parts(&c, parts, nparts, bk->part);
        fflush(stdout);
        _exit(c.failures ? 0 : 3);
    }
    int st;
    if (waitpid(pid, &st, 0) != pid)
        die("waitpid");
    const char *got;
    char buf[64];
    int ok;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        got = "failures reported";
        ok = bk->expect == TL_EXPECT_FAIL;
    } else if (WIFEXITED(st) && WEXITSTATUS(st) == 3) {
        got = "NOT DETECTED";
        ok = 0;
    } else if (WIFSIGNALED(st) && (WTERMSIG(st) == SIGSEGV || WTERMSIG(st) == SIGBUS)) {
        got = WTERMSIG(st) == SIGSEGV ? "died of SIGSEGV" : "died of SIGBUS";
        ok = bk->expect == TL_EXPECT_FAULT;
    } else {
        if (WIFSIGNALED(st))
            snprintf(buf, sizeof buf, "died of signal %d", WTERMSIG(st));
        else
            snprintf(buf, sizeof buf, "exit status %d", WEXITSTATUS(st));
        got = buf;
        ok = 0;
    }
    printf("selftest %-7s %-13s [%-13s] %-52s expected %-6s -> %-17s %s (%.2f s)\n", rname, bk->name,
           bk->part ? bk->part : "all", bk->what, bk->expect == TL_EXPECT_FAIL ? "FAIL" : "FAULT", got,
           ok ? "ok" : "WRONG", now() - t);
    return ok;
}

static int self_test(enum altmem_routine r, const struct tl_part *parts, size_t nparts, const struct tl_broken *broken,
                     size_t nbroken)
{
    size_t total = 0, bad = 0, skipped = 0;
    for (size_t i = 0; i < (r != ALTMEM_MEMSET ? tl_broken_copy_count : 0) + nbroken; i++) {
        const struct tl_broken *bk = r != ALTMEM_MEMSET && i < tl_broken_copy_count ? &tl_broken_copy[i]
                                     : &broken[i - (r != ALTMEM_MEMSET ? tl_broken_copy_count : 0)];
        int ok = self_test_one(r, bk, parts, nparts);
        if (ok < 0) {
            skipped += bk->not_reduced != NULL;
            continue;
        }
        total++;
        bad += !ok;
    }
    printf("%s self-test%s: %zu broken implementations, %zu caught as expected, %zu not, %zu skipped\n",
           altmem_routine_name(r), tl_lim.reduced ? " (--reduced)" : "", total, total - bad, bad, skipped);
    return bad ? 1 : 0;
}

static void usage(const char *prog, const struct tl_part *parts, size_t nparts)
{
    printf("usage: %s [--self-test] [--quick | --reduced] [--only VARIANT] [--part PART] [-v]\n"
           "  --self-test    run the checker against broken implementations; each must be caught\n"
           "  --quick        narrower offsets, sizes and overlaps (for emulators; see testlib.h)\n"
           "  --reduced      sizes at boundaries, a list of offset pairs (the CPU-model matrix; testlib.h)\n"
           "  --only NAME    test only this variant (or the public entry, altmem_<routine>)\n"
           "  --part NAME    run only this part:",
           prog);
    for (size_t p = 0; p < nparts; p++)
        printf(" %s", parts[p].name);
    printf("\n  -v             time each part\n");
}

/* Prints the header; 0 when ALTMEM_TEST_BOUND_BY names another binding than
   the public entry's (tests/variants.cmake, entry_copied.*). */
static int print_header(enum altmem_routine r)
{
    struct altmem_cpu_info cpu;
    altmem_cpu(&cpu);
    struct altmem_binding_info bi;
    altmem_binding(r, &bi);
    printf("%s: arch %s, features", altmem_routine_name(r), cpu.arch);
    for (unsigned b = 0; b < ALTMEM_FEAT_COUNT; b++)
        if (cpu.detected >> b & 1)
            printf(" %s", altmem_feature_name(b));
    printf("; altmem_%s bound to %s by %s (%s)\n", altmem_routine_name(r), bi.variant, bi.bound_by, bi.why);
    const char *want = getenv("ALTMEM_TEST_BOUND_BY");
    if (want && strcmp(want, bi.bound_by)) {
        printf("FAIL: altmem_%s bound by %s, ALTMEM_TEST_BOUND_BY says %s\n", altmem_routine_name(r), bi.bound_by,
               want);
        return 0;
    }
    return 1;
}

int tl_main(int argc, char **argv, enum altmem_routine r, const struct tl_part *parts, size_t nparts,
            const struct tl_broken *broken, size_t nbroken)
{
    /* Line-buffered, so that a child's report is out before it dies. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    int selftest = 0, quick = 0;
    const char *only = NULL, *only_part = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--self-test") == 0) {
            selftest = 1;
        } else if (strcmp(argv[i], "--quick") == 0) {
            quick = 1;
        } else if (strcmp(argv[i], "--reduced") == 0) {
            tl_lim.reduced = 1;
        } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
            only = argv[++i];
        } else if (strcmp(argv[i], "--part") == 0 && i + 1 < argc) {
            only_part = argv[++i];
            if (!find_part(parts, nparts, only_part)) {
                fprintf(stderr, "%s: no part '%s'\n", argv[0], only_part);
                return 2;
            }
        } else if (strcmp(argv[i], "-v") == 0) {
            verbose = 1;
        } else {
            usage(argv[0], parts, nparts);
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        }
    }

    if (tl_lim.reduced) {
        /* Offsets 0..15 where a part still loops over them (zero, memset's sweep). */
        tl_lim.offsets = 16;
        tl_lim.large_max = 256 * TL_KIB;
        tl_lim.overlap_dist = 1025;
        tl_lim.overlap_max = 2 * TL_KIB + 64;
        printf("--reduced: sizes at boundaries up to %zu, offset pairs from a list of %zu, large sizes up to "
               "256 KiB, memmove overlaps at distances around each class up to +-1025 at n <= %zu\n",
               (size_t)TL_REDUCED_MAX, tl_reduced_pair_count, tl_lim.overlap_max);
    } else if (quick && !selftest) {
        tl_lim.offsets = 16;
        tl_lim.large_max = 4 * TL_MIB;
        tl_lim.overlap_dist = 100;
        tl_lim.overlap_max = 300;
        printf("--quick: offsets 0..15, sizes up to 4 MiB, memmove overlaps within +-100 at n <= 300\n");
    }
    make_sizes();
    install_fault_handler();
    tl_env.page = (size_t)sysconf(_SC_PAGESIZE);
    /* Room for the largest size at the largest offset after a page of lead-in. */
    size_t big = tl_lim.large_max + 2 * TL_OFFSETS + tl_env.page;
    if (r != ALTMEM_MEMSET) {
        tl_buf_make(&tl_env.src, big, TL_BUF_SOURCE, 0x5eed0001);
        tl_buf_make(&tl_env.ovl, 2 * TL_MIB + 3 * tl_env.page, TL_BUF_RANDOM, 0x5eed0002);
    }
    tl_buf_make(&tl_env.dst, big, TL_BUF_BACKGROUND, 0);

    if (!print_header(r))
        return 1;
    if (selftest)
        return self_test(r, parts, nparts, broken, nbroken);

    unsigned long cases = 0, failures = 0;
    size_t tested = 0;
    double t0 = now();
    /* Every runnable variant straight from the table, then the public entry. */
    for (size_t i = 0; i <= altmem_variant_count(); i++) {
        struct tl_ctx c = {.routine = r, .max_print = 10};
        char pub[64];
        if (i < altmem_variant_count()) {
            struct altmem_variant_info vi;
            if (altmem_variant(i, &vi) != 0 || vi.routine != r)
                continue;
            if (only && strcmp(only, vi.name) != 0)
                continue;
            if (!vi.runnable) {
                printf("%-8s %-22s skipped: this CPU cannot run it\n", altmem_routine_name(r), vi.name);
                continue;
            }
            c.name = vi.name;
            c.fn.memcpy = vi.fn.memcpy;
        } else {
            snprintf(pub, sizeof pub, "altmem_%s", altmem_routine_name(r));
            if (only && strcmp(only, pub) != 0)
                continue;
            c.name = pub;
            if (r == ALTMEM_MEMCPY)
                c.fn.memcpy = altmem_memcpy;
            else if (r == ALTMEM_MEMMOVE)
                c.fn.memmove = altmem_memmove;
            else
                c.fn.memset = altmem_memset;
        }
        double t = now();
        run_parts(&c, parts, nparts, only_part);
        printf("%-8s %-22s %10lu cases %6lu failures %7.2f s\n", altmem_routine_name(r), c.name, c.cases,
               c.failures, now() - t);
        cases += c.cases;
        failures += c.failures;
        tested++;
    }
    if (!tested) {
        printf("%s: nothing matched --only %s\n", altmem_routine_name(r), only ? only : "");
        return 2;
    }
    printf("%s: %zu implementation%s, %lu cases, %lu failures, %.2f s: %s\n", altmem_routine_name(r), tested,
           tested == 1 ? "" : "s", cases, failures, now() - t0, failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
