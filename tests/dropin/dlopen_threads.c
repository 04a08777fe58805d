/*
 * dlopen_threads LIBALTMEM [BOUND_BY]
 *
 * libaltmem.so loaded into a process whose threads are already running and
 * copying: its constructor detects, selects and rewrites its entry stubs while
 * they run.  The threads cannot be inside altmem's stubs yet (nothing has the
 * addresses before dlopen returns), which is the guarantee the engine relies
 * on; what this checks is that loading and patching under load is harmless to
 * them, and that the moment dlopen returns every thread can use the routines.
 *
 *   phase 0  4 threads copy, move and fill with the C library's routines and
 *            check every result; the main thread waits until each has done
 *            some rounds, then dlopen()s the library;
 *   phase 1  the main thread publishes altmem_memcpy/memmove/memset (dlsym);
 *            each thread switches to them at once and checks every result for
 *            a fixed number of rounds, sizes 0..~9 KiB at shifting offsets.
 * Finally altmem_binding() must report BOUND_BY when given.
 */
#define _GNU_SOURCE
#include <altmem.h>   /* types only: the library is dlopen()ed, not linked */
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4
#define ROUNDS_AFTER 3000
#define BUF (9 * 1024 + 64)

/* The exact types of the routines: UBSan's -fsanitize=function checks calls
   through pointers against the callee's real type. */
typedef altmem_memmove_fn cpy_fn;
typedef altmem_memset_fn set_fn;

struct routines {
    cpy_fn *cpy, *mov;
    set_fn *set;
};

static struct routines *volatile published;   /* set once, with release order */
static int rounds_before[THREADS];
static int errors[THREADS];

static struct routines libc_routines = {memcpy, memmove, memset};

/* Checked with plain loops; -fno-builtin keeps them loops (tests/dropin.cmake). */
static int one_round(const struct routines *r, unsigned char *a, unsigned char *b, unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    size_t n = (*seed >> 8) % (BUF - 64), so = (*seed >> 3) % 17, dof = (*seed >> 5) % 13;
    for (size_t i = 0; i < n + 32; i++)
        a[i] = (unsigned char)(i * 31 + *seed);
    if (r->cpy(b + dof, a + so, n) != b + dof)
        return 1;
    for (size_t i = 0; i < n; i++)
        if (b[dof + i] != a[so + i])
            return 1;
    /* Overlapping move forward by 5: b[dof+5..] = old b[dof..]. */
    if (n > 5) {
        r->mov(b + dof + 5, b + dof, n - 5);
        for (size_t i = 0; i < n - 5; i++)
            if (b[dof + 5 + i] != a[so + i])
                return 1;
    }
    int c = (int)(*seed & 0xff);
    r->set(b, c, n);
    for (size_t i = 0; i < n; i++)
        if (b[i] != (unsigned char)c)
            return 1;
    return 0;
}

static void *worker(void *arg)
{
    int id = (int)(size_t)arg;
    unsigned char *a = malloc(BUF), *b = malloc(BUF);
    unsigned seed = 1u + (unsigned)id * 7777u;
    if (!a || !b) {
        errors[id] = 1;
        return NULL;
    }
    const struct routines *r;
    while (!(r = __atomic_load_n(&published, __ATOMIC_ACQUIRE))) {
        errors[id] += one_round(&libc_routines, a, b, &seed);
        __atomic_store_n(&rounds_before[id], rounds_before[id] + 1, __ATOMIC_RELAXED);
    }
    for (int k = 0; k < ROUNDS_AFTER; k++)
        errors[id] += one_round(r, a, b, &seed);
    free(a);
    free(b);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: dlopen_threads LIBALTMEM [BOUND_BY]\n");
        return 2;
    }
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        if (pthread_create(&t[i], NULL, worker, (void *)(size_t)i) != 0) {
            printf("FAIL: pthread_create\n");
            return 1;
        }
    /* Every thread is running and copying before the library arrives. */
    for (int i = 0; i < THREADS; i++)
        while (__atomic_load_n(&rounds_before[i], __ATOMIC_RELAXED) < 50)
            sched_yield();

    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        printf("FAIL: dlopen: %s\n", dlerror());
        return 1;
    }
    static struct routines alt;
    alt.cpy = (cpy_fn *)dlsym(h, "altmem_memcpy");
    alt.mov = (cpy_fn *)dlsym(h, "altmem_memmove");
    alt.set = (set_fn *)dlsym(h, "altmem_memset");
    if (!alt.cpy || !alt.mov || !alt.set) {
        printf("FAIL: dlsym: %s\n", dlerror());
        return 1;
    }
    __atomic_store_n(&published, &alt, __ATOMIC_RELEASE);

    int total_errors = 0, before = 0;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        total_errors += errors[i];
        before += rounds_before[i];
    }
    printf("%d threads: %d rounds with the C library's routines while loading, then %d rounds each with "
           "altmem's: %d errors\n", THREADS, before, ROUNDS_AFTER, total_errors);

    struct altmem_binding_info b;
    __typeof__(altmem_binding) *binding = (__typeof__(altmem_binding) *)dlsym(h, "altmem_binding");
    int bad = total_errors != 0;
    for (int r = 0; r < 3 && binding; r++) {
        binding((enum altmem_routine)r, &b);
        printf("routine %d: %s, bound by %s%s%s\n", r, b.variant, b.bound_by, b.bound_note[0] ? "; " : "",
               b.bound_note);
        if (argc > 2 && strcmp(b.bound_by, argv[2])) {
            printf("FAIL: expected bound by %s\n", argv[2]);
            bad = 1;
        }
    }
    if (!binding) {
        printf("FAIL: no altmem_binding\n");
        bad = 1;
    }
    printf("dlopen_threads: %s\n", bad ? "FAILED" : "passed");
    return bad;
}
