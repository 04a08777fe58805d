/*
 * The measuring kit every benchmark here shares (bench/benchlib.c): the clock,
 * calibration, pinning, interleaved rounds, statistics (bench/stats.h, included
 * here), progress on a terminal, and running this program again in a child with
 * a chosen environment.
 *
 * What is *timed* stays in each benchmark: the loops that call a routine are
 * its own, so their code is exactly what it measures.  Only what happens
 * between two clock readings' pairs comes from here, through callbacks that
 * are called outside the timed region.
 */
#ifndef ALTMEM_BENCHLIB_H
#define ALTMEM_BENCHLIB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "stats.h"

/* ---- Clock and random numbers -------------------------------------------- */

/* CLOCK_MONOTONIC in nanoseconds.  Inline: a timed region holds exactly what
   it held when each benchmark had its own copy of this. */
static inline double bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The same clock in seconds (`altmem index` and `altmem compare`). */
static inline double bench_now_s(void)
{
    return bench_now_ns() * 1e-9;
}

/* xorshift64*: reproducible placements, draws and orders from one seed. */
uint64_t bench_rng_next(uint64_t *state);

/* ---- Calibration ----------------------------------------------------------- */

/* Times `calls` calls of something; returns nanoseconds. */
typedef double bench_time_fn(void *ctx, uint64_t calls);

/* The smallest call count (at least 1) whose sample lasts target_ns; one
   untimed-for-the-result call first, so the first timed runs double as warm-up
   of caches, TLB and branch predictors (1 at once when that call alone lasted
   twice the target). */
uint64_t bench_calibrate(bench_time_fn *fn, void *ctx, double target_ns);

/* ---- Interleaved rounds ---------------------------------------------------- */

/* One sample of measurand `which`, in whatever unit the caller reports. */
typedef double bench_sample_fn(void *ctx, int which);

enum bench_order {
    BENCH_ORDER_FIXED,   /* A B C, A B C, ...                                     */
    BENCH_ORDER_ROTATE,  /* A B C, B C A, C A B, ...                              */
    BENCH_ORDER_SHUFFLE, /* a fresh random order each round (from *seed)          */
};

/* reps rounds of one sample of each of n measurands: a slow phase of a shared
   machine lands on all of them rather than on one, and the ratio of two
   medians comes from one run.  samples[which * reps + round]. */
void bench_interleave(int n, int reps, enum bench_order order, uint64_t *seed, bench_sample_fn *fn, void *ctx,
                      double *samples);

/* ---- Pinning --------------------------------------------------------------- */

enum bench_pick {
    BENCH_PICK_HIGHEST, /* the highest-numbered allowed CPU: away from CPU 0's housekeeping */
    BENCH_PICK_CURRENT, /* the CPU this thread runs on now (else the lowest allowed)        */
};

/* Pins this thread to CPU want, or (want < 0) to the one `pick` names.
   Returns the CPU (and *allowed, the size of the affinity mask), or -1 with
   msg saying why not: a CPU that was asked for and cannot be had; or -2 with
   msg saying why not when no CPU was asked for (then not pinning is fine). */
int bench_pin(int want, enum bench_pick pick, int *allowed, char *msg, size_t len);

/* ---- A memory load on the other CPUs ---------------------------------------- */

/* Starts a process on every allowed CPU but timed_cpu (< 0: the highest allowed,
   where bench_pin puts the measurement), each pinned there and copying `bytes`
   (memset, then memcpy into a second buffer) over and over: the memory traffic
   of a loaded machine.  Returns how many run; msg says what and where.  They die
   with the caller (PR_SET_PDEATHSIG) if bench_load_stop is never reached. */
int bench_load_start(int timed_cpu, size_t bytes, char *msg, size_t len);
/* The load's buffer for a last-level cache of l3 bytes (0: unknown): twice it,
   at least 64 MiB and at most 1 GiB. */
size_t bench_load_bytes(uint64_t l3);
void bench_load_stop(void);

/* ---- Progress -------------------------------------------------------------- */

/* One line on stderr, rewritten in place, only when stderr is a terminal (a
   CI log gets nothing).  bench_progress_clear() erases it, before stdout
   writes to the same terminal; bench_progress_end() leaves a last line. */
int bench_progress_on(void);
void bench_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void bench_progress_clear(void);
void bench_progress_end(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- Children -------------------------------------------------------------- */

/* A measurement the library must start up for (a setting it reads once, at
   start-up): this program again, with environment variables set.  env is
   "NAME=value" strings, NULL-terminated, set on top of the current
   environment.  bench_exec does not return unless exec failed.  With exe
   "/proc/self/exe", a program started through an explicit loader
   (LIB/ld-linux-x86-64.so.2 --library-path LIB PROG) starts its child the
   same way: args[0] is then replaced by the loader, its options and PROG. */
enum bench_child_stdout { BENCH_CHILD_INHERIT, BENCH_CHILD_NULL, BENCH_CHILD_PIPE };

void bench_exec(const char *exe, char *const *args, const char *const *env);
/* Returns the child's pid (and with BENCH_CHILD_PIPE, *out reads its stdout),
   or -1. */
pid_t bench_child_start(const char *exe, char *const *args, const char *const *env, enum bench_child_stdout mode,
                        FILE **out);
/* 0 when the child exited with status 0. */
int bench_child_wait(pid_t pid);

#endif
