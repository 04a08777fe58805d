/*
 * `altmem index`'s workloads (tools/index.c's opening comment says what each
 * does, and why) and the worker processes that run them.
 */
#define _GNU_SOURCE
#include "index_workload.h"

#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "benchlib.h"
#include "dist.h"
#include "routines.h"

/* ---- Implementations ---------------------------------------------------- */


static int find_variant(enum altmem_routine r, const char *name, struct altmem_variant_info *out)
{
    for (size_t i = 0; altmem_variant(i, out) == 0; i++)
        if (out->routine == r && !strcmp(out->name, name))
            return out->runnable ? 0 : -1;
    return -1;
}

int index_set_variants(struct impl *im, const char *label, int bound)
{
    struct altmem_variant_info v[ALTMEM_ROUTINE_COUNT];
    size_t used = 0;
    im->label = label;
    im->variants[0] = '\0';
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
        struct altmem_binding_info b;
        const char *name = "generic";
        if (bound && altmem_binding((enum altmem_routine)r, &b) == 0)
            name = b.variant;
        if (find_variant((enum altmem_routine)r, name, &v[r]) != 0) {
            fprintf(stderr, "altmem index: no runnable %s variant '%s'\n", altmem_routine_name((enum altmem_routine)r),
                    name);
            return -1;
        }
        used += (size_t)snprintf(im->variants + used, sizeof im->variants - used, "%s%s=%s", r ? " " : "",
                                 altmem_routine_name((enum altmem_routine)r), name);
        if (used >= sizeof im->variants)
            used = sizeof im->variants - 1;
    }
    im->memcpy = v[ALTMEM_MEMCPY].fn.memcpy;
    im->memmove = v[ALTMEM_MEMMOVE].fn.memmove;
    im->memset = v[ALTMEM_MEMSET].fn.memset;
    im->copy_user = v[ALTMEM_COPY_USER].fn.copy_user;
    im->clear_user = v[ALTMEM_CLEAR_USER].fn.clear_user;
    return 0;
}

void index_set_libc(struct impl *im, const char *label, int control)
{
    memset(im, 0, sizeof *im);
    im->label = control ? "control" : label;
    snprintf(im->variants, sizeof im->variants, "%s%s's memcpy, memmove, memset (and for copy_user, clear_user)",
             control ? "again, under a second name: " : "", label);
    /* Unseen by the compiler (routines.h), an indirect call like the variants'. */
    im->memcpy = bench_routine_libc(ALTMEM_MEMCPY).memcpy;
    im->memmove = bench_routine_libc(ALTMEM_MEMMOVE).memmove;
    im->memset = bench_routine_libc(ALTMEM_MEMSET).memset;
}

/* ---- Workloads ---------------------------------------------------------- */

#define RING_BYTES (64u << 10)
#define MIX_CALLS 4096
#define MIX_REGION (256u << 10)

struct mix_call {
    uint8_t op;            /* 0 memcpy, 1 memmove, 2 memset */
    uint32_t dst, src, n;
};

static int mix_prepare(struct mix_call *calls)
{
    static struct bench_dist cpy, set;
    char err[160];
    if (bench_dist_load("spec2017", 0, &cpy, err, sizeof err) != 0 ||
        bench_dist_load("spec2017", 1, &set, err, sizeof err) != 0) {
        fprintf(stderr, "altmem index: spec2017: %s\n", err);
        return -1;
    }
    uint64_t s = 0x9e3779b97f4a7c15u;
    for (int i = 0; i < MIX_CALLS; i++) {
        /* memcpy half the calls, memmove and memset a quarter each: the spec2017
           tables give sizes within each routine, not the mix between them */
        unsigned op = (unsigned)(rng_next(&s) % 4);
        op = op < 2 ? 0 : op - 1;
        const struct bench_dist *d = op == 2 ? &set : &cpy;
        uint32_t n = bench_dist_draw(&d->sizes, rng_next(&s), 16);
        uint32_t da = bench_dist_draw(&d->dst_align, rng_next(&s), 1);
        uint32_t sa = bench_dist_draw(&d->src_align, rng_next(&s), 1);
        uint32_t room = MIX_REGION - 8192;
        calls[i].op = (uint8_t)op;
        calls[i].n = n;
        calls[i].dst = (uint32_t)(rng_next(&s) % room) & ~(da ? da - 1 : 0);
        calls[i].src = (uint32_t)(rng_next(&s) % room) & ~(sa ? sa - 1 : 0);
        /* memcpy's regions must not overlap: its source in the other half */
        if (op == 0)
            calls[i].src = (calls[i].src % (room / 2)) + (calls[i].dst < room / 2 ? room / 2 : 0);
    }
    return 0;
}

static void *map_memfd(size_t len)
{
    int fd = memfd_create("altmem-index", MFD_CLOEXEC);
    if (fd < 0)
        return NULL;
    void *p = NULL;
    if (ftruncate(fd, (off_t)len) == 0)
        p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED)
        return NULL;
    memset(p, 0x5a, len);   /* every page present before timing */
    return p;
}

/* Each workload below runs test t with implementation im for `seconds`: the
   rate in the test's unit, or -1 when its memory could not be had.  The memory
   is set up by the first call (seconds = 0 does only that) and kept: a worker
   runs one test, and faulting in 64 MiB costs more than a sample here (40 us a
   page in a KVM guest), so it must not be in every sample.  Their static
   objects are one set, whichever copy (run_workload_K) runs them; they are
   inlined into each copy, so that each copy's calls are call sites of its own. */

static inline __attribute__((always_inline)) double file_copy(const struct test *t, const struct impl *im,
                                                              double seconds)
{
    altmem_copy_user_fn *cu = t->user ? im->copy_user : NULL;
    size_t len = t->buf * t->blocks, fail = 0;
    uint64_t units = 0;
    static unsigned char *src, *dst, *buf;
    if (!src && (!(src = map_memfd(len)) || !(dst = map_memfd(len)) || !(buf = malloc(t->buf))))
        return -1;
    double t0, now;
    t0 = now = bench_now_s();
    while (now - t0 < seconds) {
        for (size_t off = 0; off < len; off += t->buf) {
            if (cu) {
                fail |= cu(buf, src + off, t->buf);
                fail |= cu(dst + off, buf, t->buf);
            } else {
                im->memcpy(buf, src + off, t->buf);
                im->memcpy(dst + off, buf, t->buf);
            }
        }
        units += len;
        now = bench_now_s();
    }
    return fail ? -1 : units ? (double)units / 1024 / (now - t0) : 0;
}

static inline __attribute__((always_inline)) double pipe_throughput(const struct impl *im, double seconds)
{
    static unsigned char *ring;
    unsigned char msg[512], out[512];
    if (!ring && !(ring = calloc(1, RING_BYTES)))
        return -1;
    memset(msg, 'p', sizeof msg);
    size_t head = 0, tail = 0;
    uint64_t units = 0;
    double t0, now;
    t0 = now = bench_now_s();
    while (now - t0 < seconds) {
        for (int i = 0; i < 1024; i++) {
            im->memcpy(ring + head, msg, sizeof msg);   /* write() */
            head = (head + sizeof msg) % RING_BYTES;
            im->memcpy(out, ring + tail, sizeof out);   /* read() */
            tail = (tail + sizeof out) % RING_BYTES;
            msg[0] = out[1];
        }
        units += 1024;
        now = bench_now_s();
    }
    return units ? (double)units / (now - t0) : 0;
}

static inline __attribute__((always_inline)) double clear_fresh_pages(const struct test *t, const struct impl *im,
                                                                      double seconds)
{
    altmem_clear_user_fn *clr = t->user ? im->clear_user : NULL;
    size_t fail = 0;
    uint64_t units = 0;
    double t0, now;
    t0 = now = bench_now_s();
    while (now - t0 < seconds) {
        void *p = mmap(NULL, t->buf, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return -1;
        if (clr)
            fail |= clr(p, t->buf);
        else
            im->memset(p, 0, t->buf);
        munmap(p, t->buf);
        units += t->buf;
        now = bench_now_s();
    }
    return fail ? -1 : units ? (double)units / 1024 / (now - t0) : 0;
}

static inline __attribute__((always_inline)) double call_mix(const struct impl *im, double seconds)
{
    static struct mix_call calls[MIX_CALLS];
    static unsigned char *region;
    if (!region && (mix_prepare(calls) != 0 || !(region = malloc(MIX_REGION))))
        return -1;
    memset(region, 0x33, MIX_REGION);
    uint64_t units = 0;
    double t0, now;
    t0 = now = bench_now_s();
    while (now - t0 < seconds) {
        for (int i = 0; i < MIX_CALLS; i++) {
            const struct mix_call *c = &calls[i];
            if (c->op == 0)
                im->memcpy(region + c->dst, region + c->src, c->n);
            else if (c->op == 1)
                im->memmove(region + c->dst, region + c->src, c->n);
            else
                im->memset(region + c->dst, 0xa5, c->n);
        }
        units += MIX_CALLS;
        now = bench_now_s();
    }
    return units ? (double)units / (now - t0) : 0;
}

static inline __attribute__((always_inline)) double workload(const struct test *t, const struct impl *im,
                                                             double seconds)
{
    switch (t->kind) {
    case FILE_COPY:
        return file_copy(t, im, seconds);
    case PIPE:
        return pipe_throughput(im, seconds);
    case CLEAR:
        return clear_fresh_pages(t, im, seconds);
    case MIX:
        return call_mix(im, seconds);
    }
    return -1;
}

/* One copy of the workload code per implementation, so that each is called
   from call sites of its own: on AMD Zen 4 an indirect call site with several
   targets runs one of them at full speed and the others about three cycles a
   call slower (docs/performance.md, "Why a small cell moved by whole cycles"). */
#define WORKLOAD_COPY(K)                                                                                     \
    __attribute__((noinline)) static double run_workload_##K(const struct test *t, const struct impl *im, \
                                                             double seconds)                             \
    {                                                                                                    \
        return workload(t, im, seconds);                                                                 \
    }
WORKLOAD_COPY(0)
WORKLOAD_COPY(1)
WORKLOAD_COPY(2)
WORKLOAD_COPY(3)
static double (*const run_workload[IMPL_COUNT])(const struct test *, const struct impl *, double) = {
    run_workload_0, run_workload_1, run_workload_2, run_workload_3};

/* ---- Worker processes --------------------------------------------------- */

static int allowed_cpus(int *cpu, int max)
{
    cpu_set_t set;
    int n = 0;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return 0;
    for (int c = 0; c < CPU_SETSIZE && n < max; c++)
        if (CPU_ISSET(c, &set))
            cpu[n++] = c;
    return n;
}

#define QUIT 255

void index_workers_stop(struct index_workers *w)
{
    unsigned char q = QUIT;
    for (int c = 0; c < w->n; c++) {
        if (write(w->cmd[c], &q, 1) != 1)
            kill(w->pid[c], SIGKILL);
        close(w->cmd[c]);
    }
    for (int c = 0; c < w->n; c++)
        waitpid(w->pid[c], NULL, 0);
    close(w->res);
    w->n = 0;
}

int index_workers_start(struct index_workers *w, const struct test *t, const struct impl *im, int copies, int pin,
                        double sample_s)
{
    int cpus[CPU_SETSIZE], ncpu = pin ? allowed_cpus(cpus, CPU_SETSIZE) : 0;
    int res[2];
    w->n = 0;
    if (pipe(res) != 0)
        return -1;
    w->res = res[0];
    for (int c = 0; c < copies; c++) {
        int cmd[2];
        if (pipe(cmd) != 0)
            break;
        pid_t pid = fork();
        if (pid < 0) {
            close(cmd[0]);
            close(cmd[1]);
            break;
        }
        if (pid == 0) {
            close(cmd[1]);
            close(res[0]);
            if (ncpu) {
                /* one copy: the highest-numbered CPU, away from CPU 0's
                   housekeeping; N copies: one each */
                cpu_set_t one;
                CPU_ZERO(&one);
                CPU_SET(cpus[copies == 1 ? ncpu - 1 : c % ncpu], &one);
                sched_setaffinity(0, sizeof one, &one);
            }
            double rate = run_workload[0](t, &im[0], 0);
            unsigned char m;
            while (rate >= 0 && write(res[1], &rate, sizeof rate) == (ssize_t)sizeof rate &&
                   read(cmd[0], &m, 1) == 1 && m < IMPL_COUNT)
                rate = run_workload[m](t, &im[m], sample_s);
            _exit(rate < 0);
        }
        close(cmd[0]);
        w->pid[w->n] = pid;
        w->cmd[w->n++] = cmd[1];
    }
    close(res[1]);
    double ready;
    int got = 0;
    while (got < w->n && read(w->res, &ready, sizeof ready) == (ssize_t)sizeof ready)
        got++;
    if (w->n == copies && got == copies)
        return 0;
    index_workers_stop(w);
    return -1;
}

double index_workers_sample(struct index_workers *w, int m)
{
    unsigned char b = (unsigned char)m;
    for (int c = 0; c < w->n; c++)
        if (write(w->cmd[c], &b, 1) != 1)
            return -1;
    double total = 0, rate;
    for (int c = 0; c < w->n; c++) {
        if (read(w->res, &rate, sizeof rate) != (ssize_t)sizeof rate || !(rate > 0))
            return -1;
        total += rate;
    }
    return total;
}
