/*
 * `altmem bench`, the measuring part: buffers, cells, the timed loops, the
 * check of every implementation's result, and the interleaved rounds of a
 * cell (docs/performance.md, "Method").  The clock, calibration, rounds and
 * statistics are benchlib's; the loops that call the routines are here, so
 * their code is what the numbers are of.
 */
#define _GNU_SOURCE
#include "bench_run.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "benchlib.h"
#include "routines.h"

const char *const layout_name[LAY_COUNT] = {"0/0", "s+1/d+3", "d+63", "ovl d>s", "ovl d<s", "d=s+64", "s=d+64"};
/* A routine that reads no source names a layout by its destination alone. */
static const char *const layout_name_dst[LAY_COUNT] = {"0", "d+3", "d+63", "-", "-", "-", "-"};
const char *const layout_csv[LAY_COUNT] = {"aligned",     "misaligned",    "dst63",        "overlap_bwd",
                                           "overlap_fwd", "overlap64_bwd", "overlap64_fwd"};
const char *const kind_csv[] = {"altmem", "byteloop", "libc", "control"};

const char *layout_label(int r, enum layout l)
{
    return bench_routine_reads_src(r) ? layout_name[l] : layout_name_dst[l];
}

int routine_has_layout(int r, enum layout l)
{
    return l <= LAY_D63 || r == ALTMEM_MEMMOVE;
}

/* Every call's result ends up here, so no call is dead. */
static volatile uintptr_t bench_sink;

/* ---- Buffers ------------------------------------------------------------- */

/* The byte expected at offset i of the source, i*131 + (i>>8)*29 + (i>>16)*7 + 1
   mod 256: not periodic below 2^24, so a copy from the wrong offset does not
   pass the check by accident.  Within an aligned run of 256 bytes it is a
   fixed table plus one constant, so filling and checking go by runs, in loops
   the compiler vectorises: a 64 MiB cell is checked in milliseconds. */
static unsigned char pattern_low[256];

static unsigned char pattern_add(size_t at)
{
    return (unsigned char)((at >> 8) * 29 + (at >> 16) * 7 + 1);
}

static void pattern_init(void)
{
    for (size_t j = 0; j < 256; j++)
        pattern_low[j] = (unsigned char)(j * 131);
}

static void fill_pattern(unsigned char *p, size_t from, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t at = from + i, lo = at & 255, run = 256 - lo < n - i ? 256 - lo : n - i;
        unsigned char add = pattern_add(at);
        for (size_t k = 0; k < run; k++)
            p[i + k] = (unsigned char)(pattern_low[lo + k] + add);
        i += run;
    }
}

/* 0 when p[0..n) holds the pattern from offset `from`. */
static int check_pattern(const unsigned char *p, size_t from, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t at = from + i, lo = at & 255, run = 256 - lo < n - i ? 256 - lo : n - i;
        unsigned char add = pattern_add(at), diff = 0;
        for (size_t k = 0; k < run; k++)
            diff |= (unsigned char)(p[i + k] ^ (unsigned char)(pattern_low[lo + k] + add));
        if (diff)
            return -1;
        i += run;
    }
    return 0;
}

/* 0 when p[0..n) is all `byte`. */
static int check_byte(const unsigned char *p, unsigned char byte, size_t n)
{
    for (size_t i = 0; i < n; i += 4096) {
        size_t run = n - i < 4096 ? n - i : 4096;
        unsigned char diff = 0;
        for (size_t k = 0; k < run; k++)
            diff |= (unsigned char)(p[i + k] ^ byte);
        if (diff)
            return -1;
    }
    return 0;
}

/* The buffers are written in full before anything is timed: fault their pages
   in with the mapping (one kernel call instead of a fault a page, each an exit
   to the hypervisor in a guest). */
#ifdef MAP_POPULATE
#define BUFFER_MAP_FLAGS (MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE)
#else
#define BUFFER_MAP_FLAGS (MAP_PRIVATE | MAP_ANONYMOUS)
#endif

static size_t page_size(void)
{
    long page = sysconf(_SC_PAGESIZE);
    return page > 0 ? (size_t)page : 4096;
}

void buffers_plan(struct buffers *b, uint64_t max_size)
{
    size_t pg = page_size();
    /* src, then dst right after it: one mapping, so the memmove overlap cases
       (which need about 1.5 * size) can run inside src's span and dst's. */
    b->span = ((size_t)max_size + PAD + pg - 1) / pg * pg;
    b->map_len = 2 * b->span + pg;
}

int buffers_init(struct buffers *b, uint64_t max_size)
{
    buffers_plan(b, max_size);
    void *m = mmap(NULL, b->map_len, PROT_READ | PROT_WRITE, BUFFER_MAP_FLAGS, -1, 0);
    if (m == MAP_FAILED)
        return -1;
    b->map = m;
    b->src = b->map;
    b->dst = b->map + b->span;
    /* Touch every page now, so no sample pays for page faults. */
    pattern_init();
    fill_pattern(b->map, 0, b->map_len);
    return 0;
}

int buffers_remap(struct buffers *b)
{
    void *m = mmap(NULL, b->map_len, PROT_READ | PROT_WRITE, BUFFER_MAP_FLAGS, -1, 0);
    if (m == MAP_FAILED) {
        fprintf(stderr, "altmem bench: cannot map the buffers again (%zu bytes)\n", b->map_len);
        return -1;
    }
    fill_pattern(m, 0, b->map_len);
    munmap(b->map, b->map_len);
    b->map = m;
    b->src = b->map;
    b->dst = b->map + b->span;
    return 0;
}

int cold_init(struct buffers *b, size_t len)
{
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, BUFFER_MAP_FLAGS, -1, 0);
    if (m == MAP_FAILED)
        return -1;
    b->cold = m;
    b->cold_len = len;
    memset(b->cold, 0x3c, len);
    return 0;
}

/* ---- Timing -------------------------------------------------------------- */


/* Time `calls` calls (DIST: passes over the call list); returns nanoseconds.
   The function pointer is re-read through a volatile each call and every
   result is folded into `acc`, which a barrier then consumes, so no call can
   be hoisted, merged or dropped. */
#define TIMED_LOOP(FN_T, FN, CALL)                                                                         \
    do {                                                                                                   \
        FN_T *volatile f = FN;                                                                             \
        t0 = bench_now_ns();                                                                                     \
        for (uint64_t i = 0; i < calls; i++) {                                                             \
            CALL;                                                                                          \
            __asm__ volatile("" : "+r"(acc) : : "memory");                                                 \
        }                                                                                                  \
        t1 = bench_now_ns();                                                                                     \
    } while (0)

/* --caller discard: the caller most memset calls have, which neither reads
   the routine's address from memory before each call nor waits for its
   result.  The address is read once (the barrier keeps it in a register and
   the calls indirect); the calls stay ordered by the memory barrier.  Which
   caller a routine is timed from moved single cells by 0.1-0.3 ns (Intel
   6/167, docs/perf/intel-family6-model167.md, "Two callers"). */
#define TIMED_LOOP_DISCARD(FN_T, FN, CALL)                                                                 \
    do {                                                                                                   \
        FN_T *f = FN;                                                                                      \
        __asm__("" : "+r"(f));                                                                             \
        t0 = bench_now_ns();                                                                               \
        for (uint64_t i = 0; i < calls; i++) {                                                             \
            CALL;                                                                                          \
            __asm__ volatile("" : : : "memory");                                                           \
        }                                                                                                  \
        t1 = bench_now_ns();                                                                               \
    } while (0)

static inline __attribute__((always_inline)) double sample_body(const struct impl *im, struct cell *c, uint64_t calls,
                                                                 unsigned loop_slot)
{
    uintptr_t acc = 0;
    double t0 = 0, t1 = 0;
    unsigned char *d = c->dst;
    const unsigned char *s = c->src;
    size_t n = c->n;
    if (c->mode == MODE_FIXED && c->discard) {
        switch (c->routine) {
        case ALTMEM_MEMCPY: TIMED_LOOP_DISCARD(altmem_memcpy_fn, im->fn.memcpy, f(d, s, n)); break;
        case ALTMEM_MEMMOVE: TIMED_LOOP_DISCARD(altmem_memmove_fn, im->fn.memmove, f(d, s, n)); break;
        default: TIMED_LOOP_DISCARD(altmem_memset_fn, im->fn.memset, f(d, MEMSET_BYTE, n)); break;
        }
        bench_sink = (n ? d[n - 1] : 0) + loop_slot;
    } else if (c->mode == MODE_FIXED) {
        switch (c->routine) {
        case ALTMEM_MEMCPY: TIMED_LOOP(altmem_memcpy_fn, im->fn.memcpy, acc += (uintptr_t)f(d, s, n)); break;
        case ALTMEM_MEMMOVE: TIMED_LOOP(altmem_memmove_fn, im->fn.memmove, acc += (uintptr_t)f(d, s, n)); break;
        default: TIMED_LOOP(altmem_memset_fn, im->fn.memset, acc += (uintptr_t)f(d, MEMSET_BYTE, n)); break;
        }
        bench_sink = acc + (n ? d[n - 1] : 0) + loop_slot;
    } else if (c->mode == MODE_COLD) {
        const uint32_t *slot = c->slot;
        size_t k = c->next, doff = c->dst_off, soff = c->src_off;
#define COLD_PTRS                                                                                          \
    size_t o = (size_t)slot[k++ & (COLD_SLOTS - 1)] << 12;                                                \
    unsigned char *dd = d + o + doff;                                                                      \
    const unsigned char *ss = s + o + soff
        switch (c->routine) {
        case ALTMEM_MEMCPY:
            TIMED_LOOP(altmem_memcpy_fn, im->fn.memcpy, COLD_PTRS; acc += (uintptr_t)f(dd, ss, n));
            break;
        case ALTMEM_MEMMOVE:
            TIMED_LOOP(altmem_memmove_fn, im->fn.memmove, COLD_PTRS; acc += (uintptr_t)f(dd, ss, n));
            break;
        default:
            TIMED_LOOP(altmem_memset_fn, im->fn.memset, COLD_PTRS; (void)ss; acc += (uintptr_t)f(dd, MEMSET_BYTE, n));
            break;
        }
#undef COLD_PTRS
        c->next = k;
        bench_sink = acc + loop_slot;
    } else {
        const struct dcall *cl = c->calls;
        size_t m = c->ncalls;
        switch (c->routine) {
        case ALTMEM_MEMCPY:
            TIMED_LOOP(altmem_memcpy_fn, im->fn.memcpy, for (size_t j = 0; j < m; j++) acc += (uintptr_t)f(d + cl[j].dst, s + cl[j].src, cl[j].n));
            break;
        case ALTMEM_MEMMOVE:
            TIMED_LOOP(altmem_memmove_fn, im->fn.memmove, for (size_t j = 0; j < m; j++) acc += (uintptr_t)f(d + cl[j].dst, s + cl[j].src, cl[j].n));
            break;
        default:
            TIMED_LOOP(altmem_memset_fn, im->fn.memset, for (size_t j = 0; j < m; j++) acc += (uintptr_t)f(d + cl[j].dst, MEMSET_BYTE, cl[j].n));
            break;
        }
        bench_sink = acc + loop_slot;
    }
    return t1 - t0;
}

/* One copy of the timed loops per implementation slot (SAMPLE_SLOT(k)):
   each implementation is called from call sites of its own.  On AMD Zen 4,
   implementations sharing one indirect call site run at most one of them at
   full speed, for seconds at a time (docs/performance.md, "Why one timing
   loop per implementation").  The slot number goes into the sink, so no two
   copies are identical and no compiler or linker folds them into one. */
#define SAMPLE_SLOT(K)                                                                                     \
    __attribute__((noinline, aligned(64))) static double sample_##K(const struct impl *im, struct cell *c, \
                                                                     uint64_t calls)                       \
    {                                                                                                      \
        return sample_body(im, c, calls, K);                                                               \
    }

SAMPLE_SLOT(0) SAMPLE_SLOT(1) SAMPLE_SLOT(2) SAMPLE_SLOT(3) SAMPLE_SLOT(4) SAMPLE_SLOT(5) SAMPLE_SLOT(6)
SAMPLE_SLOT(7) SAMPLE_SLOT(8) SAMPLE_SLOT(9) SAMPLE_SLOT(10) SAMPLE_SLOT(11) SAMPLE_SLOT(12) SAMPLE_SLOT(13)
SAMPLE_SLOT(14) SAMPLE_SLOT(15)

typedef double sample_fn(const struct impl *im, struct cell *c, uint64_t calls);
static sample_fn *const sample_slot[BENCH_LOOP_SLOTS] = {
    sample_0, sample_1, sample_2,  sample_3,  sample_4,  sample_5,  sample_6,  sample_7,
    sample_8, sample_9, sample_10, sample_11, sample_12, sample_13, sample_14, sample_15,
};

/* One call on freshly patterned buffers, then compare: a broken routine would
   otherwise show up only as a suspiciously good number.  The source is
   re-patterned every time because the memmove overlap cells scribble on it.
   (FIXED cells only; the routines are the same in the other modes.) */
static int check_result(const struct impl *im, const struct cell *c, const struct buffers *b)
{
    size_t n = c->n;
    if (c->routine == ALTMEM_MEMSET) {
        memset(c->dst, 0, n);
        (im->fn.memset)(c->dst, MEMSET_BYTE, n); /* parenthesised: the C library may define memset as a macro */
        return check_byte(c->dst, MEMSET_BYTE, n);
    }
    size_t src_off = (size_t)(c->src - b->map);
    int overlap = LAY_IS_OVERLAP(c->layout);
    if (overlap) {
        size_t lo = c->dst < c->src ? (size_t)(c->dst - b->map) : src_off;
        fill_pattern(b->map + lo, lo, n + (size_t)(c->dst > c->src ? c->dst - c->src : c->src - c->dst));
    } else {
        fill_pattern(b->map + src_off, src_off, n);
        memset(c->dst, 0, n);
    }
    if (c->routine == ALTMEM_MEMCPY)
        (im->fn.memcpy)(c->dst, c->src, n);
    else
        (im->fn.memmove)(c->dst, c->src, n);
    return check_pattern(c->dst, src_off, n);
}


/* ---- Results ------------------------------------------------------------- */

static struct result *add_result(struct run *run)
{
    if (run->n == run->cap) {
        run->cap = run->cap ? 2 * run->cap : 1024;
        run->r = realloc(run->r, run->cap * sizeof *run->r);
        if (!run->r) {
            fprintf(stderr, "altmem bench: out of memory\n");
            exit(1);
        }
    }
    memset(&run->r[run->n], 0, sizeof run->r[0]);
    return &run->r[run->n++];
}

const struct result *same_cell(const struct run *run, const struct result *x, int impl)
{
    for (size_t k = 0; k < run->n; k++) {
        const struct result *y = &run->r[k];
        if (y->impl == impl && y->kind == x->kind && y->routine == x->routine && y->layout == x->layout &&
            y->cold == x->cold && y->size == x->size && y->param == x->param)
            return y;
    }
    return NULL;
}

double vs_libc(const struct run *run, const struct result *x)
{
    (void)run;
    return x->ratio;
}

const struct result *control_of(const struct run *run, const struct result *x)
{
    for (int i = 0; i < run->nimpl[x->routine]; i++)
        if (run->impls[x->routine][i].kind == IMPL_CONTROL)
            return same_cell(run, x, i);
    return NULL;
}

double gbps(const struct result *x)
{
    return x->st.med > 0 ? x->bytes / x->st.med : 0;
}

/* ---- Running cells --------------------------------------------------------- */

/* What benchlib's calibration and rounds call back: one implementation, or
   implementation i with its calibrated count, on the cell. */
struct cell_job {
    const struct impl *impls;
    struct cell *c;
    const struct stat5 *st;
    int one;
    int shared_loops;
    const unsigned char *slot_of; /* implementation -> loop copy, this process's */
};

/* Implementation i's loops: a copy of its own, or copy 0 for all (--loops
   shared).  Each process of a run deals the copies out in its own random
   order, so that whatever one copy's placement costs, or two copies' places
   relative to each other, is spread over the implementations instead of
   staying with one (docs/performance.md, "Method"). */
static sample_fn *loop_of(const struct cell_job *j, int i)
{
    return sample_slot[j->shared_loops ? 0 : j->slot_of[i]];
}

static const unsigned char *deal_slots(int process)
{
    static unsigned char slot_of[BENCH_LOOP_SLOTS];
    static int dealt;
    if (!dealt) {
        uint64_t seed = 0x6a09e667f3bcc909ull + (uint64_t)process * 0x9e3779b97f4a7c15ull;
        for (int i = 0; i < BENCH_LOOP_SLOTS; i++)
            slot_of[i] = (unsigned char)i;
        for (int i = BENCH_LOOP_SLOTS - 1; i > 0; i--) {
            int k = (int)(bench_rng_next(&seed) % (uint64_t)(i + 1));
            unsigned char t = slot_of[i];
            slot_of[i] = slot_of[k];
            slot_of[k] = t;
        }
        dealt = 1;
    }
    return slot_of;
}

static double job_time(void *p, uint64_t calls)
{
    const struct cell_job *j = p;
    return loop_of(j, j->one)(&j->impls[j->one], j->c, calls);
}

static double job_sample(void *p, int i)
{
    const struct cell_job *j = p;
    return loop_of(j, i)(&j->impls[i], j->c, j->st[i].calls) / (double)j->st[i].calls;
}

int cell_rounds(const struct options *o, const struct cell *c)
{
    if (c->n <= SHORT_CELL_BYTES || c->mode == MODE_DIST)
        return SHORT_CELL_FACTOR * o->reps;
    if (c->n >= LONG_CELL_BYTES) {
        int r = o->reps * LONG_CELL_SHARE / 100;
        return r > o->sweeps ? r : o->sweeps;
    }
    return o->reps;
}

/* Rounds in sweep q of `rounds` spread over `sweeps` sweeps. */
static int rounds_in(int rounds, int sweeps, int q)
{
    return rounds / sweeps + (q < rounds % sweeps);
}

void run_cell(struct run *run, struct cell *c, enum rkind kind, int layout, int cold, uint64_t size, int param,
              double bytes, const struct buffers *b)
{
    const struct options *o = run->o;
    int r = c->routine;
    int nimpl = run->nimpl[r];
    int total = cell_rounds(o, c), rounds = rounds_in(total, o->sweeps, run->sweep);
    double *samples = run->samples;
    /* DIST: per call, not per pass over the call list */
    double per = c->mode == MODE_DIST ? (double)c->ncalls : 1;
    struct stat5 st[MAX_IMPLS];
    memset(st, 0, sizeof st);
    struct cell_job job = {run->impls[r], c, st, 0, o->shared_loops, deal_slots(o->pass)};
    struct result *x0 = NULL;
    if (run->sweep == 0) {
        /* First sweep: check every result, calibrate (which warms up), and add the results. */
        double target_ns = o->min_sample_ms * 1e6 * o->reps / total;
        for (int i = 0; i < nimpl; i++) {
            if (c->mode == MODE_FIXED) {
                st[i].wrong = check_result(&run->impls[r][i], c, b) != 0;
                run->wrong |= st[i].wrong;
            }
            job.one = i;
            st[i].calls = bench_calibrate(job_time, &job, target_ns);
        }
        for (int i = 0; i < nimpl; i++) {
            struct result *x = add_result(run);
            x->kind = kind;
            x->routine = r;
            x->layout = layout;
            x->cold = cold;
            x->size = size;
            x->param = param;
            x->impl = i;
            x->bytes = bytes;
            x->st = st[i];
            x->st.min = 1e300;
            x->samples[0] = malloc(sizeof(double) * (size_t)total);
            if (!x->samples[0]) {
                fprintf(stderr, "altmem bench: out of memory\n");
                exit(1);
            }
        }
        x0 = &run->r[run->n - nimpl];
    } else {
        /* A later sweep: the same cells in the same order; the counts of the
           first, and one call each to warm up again. */
        x0 = &run->r[run->cursor];
        run->cursor += (size_t)nimpl;
        for (int i = 0; i < nimpl; i++) {
            st[i].calls = x0[i].st.calls;
            job.one = i;
            job_time(&job, 1);
        }
    }
    /* Rounds in a fresh random order each; round k of every implementation
       stays sample k of each. */
    bench_interleave(nimpl, rounds, BENCH_ORDER_SHUFFLE, &run->order_seed, job_sample, &job, samples);
    for (int i = 0; i < nimpl; i++) {
        struct result *x = &x0[i];
        for (int k = 0; k < rounds; k++) {
            double v = samples[i * rounds + k] / per;
            x->samples[0][x->nsamp++] = v;
            if (v < x->st.min)
                x->st.min = v;
            if (v > x->st.max)
                x->st.max = v;
        }
        /* this process's median so far (processes.c replaces it with the trimmed mean) */
        double w[x->nsamp];
        memcpy(w, x->samples[0], sizeof w);
        x->st.med = bench_median(w, x->nsamp);
    }
}

void fixed_pointers(struct cell *c, enum layout l, const struct buffers *b)
{
    size_t d = c->n / 2 + 2 < c->n ? c->n / 2 + 2 : c->n / 2;
    switch (l) {
    case LAY_ALIGNED:
        c->src = b->src;
        c->dst = b->dst;
        break;
    case LAY_MIS:
        c->src = b->src + 1;
        c->dst = b->dst + 3;
        break;
    case LAY_D63:
        c->src = b->src;
        c->dst = b->dst + 63;
        break;
    case LAY_OVL_BWD:
        /* dst above src inside [src, src + n): memmove must copy backward.
           n/2 + 2 keeps about half the range overlapping and makes dst - src
           not a multiple of 8 for power-of-two n. */
        c->src = b->src + 1;
        c->dst = b->src + 1 + d;
        break;
    case LAY_OVL64_BWD:
        /* A 64-byte shift of a page-aligned array, as in making room at its
           front (issue 29: 0.74-0.90x glibc 2.36 on Zen 5): backward. */
        c->src = b->src;
        c->dst = b->src + 64;
        break;
    case LAY_OVL64_FWD:
        c->dst = b->src;
        c->src = b->src + 64;
        break;
    default: /* LAY_OVL_FWD: dst below src inside its range: forward */
        c->dst = b->src + 1;
        c->src = b->src + 1 + d;
        break;
    }
}

/* src and dst offsets of a layout within a cold slot (no overlap layouts). */
void layout_offsets(enum layout l, size_t *soff, size_t *doff)
{
    *soff = l == LAY_MIS ? 1 : 0;
    *doff = l == LAY_MIS ? 3 : l == LAY_D63 ? 63 : 0;
}

static uint32_t cold_slots[COLD_SLOTS];

const uint32_t *make_cold_slots(const struct buffers *b, size_t n, uint64_t seed)
{
    size_t half = b->cold_len / 2;
    size_t room = (half - n - PAD) >> 12;
    if (room == 0)
        room = 1;
    for (size_t k = 0; k < COLD_SLOTS; k++)
        cold_slots[k] = (uint32_t)(bench_rng_next(&seed) % room);
    return cold_slots;
}

