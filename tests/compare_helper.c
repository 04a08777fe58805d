/*
 * The program `altmem compare` is tested on (tests/test_compare.sh): it says,
 * run by run, which arm of a comparison ran it, so that the test can check the
 * ABBA order and each arm's environment on the real runs.  How long it takes is
 * no part of any check but the real-clock smoke test's lower bound: the tests of
 * the statistics give compare their wall times through its testing hook
 * (ALTMEM_COMPARE_TEST_DURATIONS, tools/compare.c), because measured times on a
 * loaded machine can turn any verdict.
 *
 *   compare_helper MS         sleeps MS milliseconds
 * It reads its stdin to the end and prints "stdin N bytes" on stdout and
 * "helper stderr" on stderr.  Environment, all optional:
 *   HELPER_COUNTER=FILE   a run counter kept in FILE (created at 0), used by:
 *   HELPER_FAIL_AT=K      exit 3 on the K-th run (1-based)
 *   HELPER_PRINT_COUNT=1  also print the run number (every run's output differs)
 *   HELPER_ENV_LOG=FILE   append "LD_PRELOAD=... ALTMEM_TUNABLES=..." to FILE
 *   HELPER_RUN_LOG=FILE   append "NAME ARM" to FILE: NAME the last component of
 *                         argv[0] (the other program of `altmem compare --cmd-b`
 *                         is a link to this one named ..._b), ARM "altmem" when
 *                         LD_PRELOAD names libaltmem-preload, else "libc"
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

static long next_count(const char *path)
{
    int fd = open(path, O_RDWR | O_CREAT, 0600);
    if (fd < 0)
        return -1;
    flock(fd, LOCK_EX);
    char buf[32] = "";
    ssize_t n = read(fd, buf, sizeof buf - 1);
    long k = n > 0 ? strtol(buf, NULL, 10) : 0;
    int len = snprintf(buf, sizeof buf, "%ld\n", k + 1);
    if (lseek(fd, 0, SEEK_SET) != 0 || write(fd, buf, (size_t)len) != len)
        k = -1;
    close(fd);
    return k;
}

static void append(const char *path, const char *a, const char *b, const char *c, const char *d)
{
    FILE *f = fopen(path, "a");
    if (f) {
        fprintf(f, "%s%s%s%s\n", a, b, c, d);
        fclose(f);
    }
}

int main(int argc, char **argv)
{
    char *end;
    double ms = argc == 2 ? strtod(argv[1], &end) : -1;
    if (argc != 2 || end == argv[1] || *end || !(ms >= 0)) {
        fprintf(stderr, "usage: compare_helper MS\n");
        return 2;
    }
    const char *pre = getenv("LD_PRELOAD");
    const char *counter = getenv("HELPER_COUNTER");
    long k = counter ? next_count(counter) : -1;
    const char *log = getenv("HELPER_ENV_LOG");
    if (log) {
        const char *t = getenv("ALTMEM_TUNABLES");
        append(log, "LD_PRELOAD=", pre ? pre : "", " ALTMEM_TUNABLES=", t ? t : "");
    }
    const char *runs = getenv("HELPER_RUN_LOG");
    if (runs) {
        const char *slash = strrchr(argv[0], '/');
        append(runs, slash ? slash + 1 : argv[0], " ", pre && strstr(pre, "libaltmem-preload") ? "altmem" : "libc",
               "");
    }
    size_t in = 0;
    char buf[4096];
    for (ssize_t n; (n = read(0, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR);)
        in += n > 0 ? (size_t)n : 0;
    struct timespec ts = {(time_t)(ms / 1000), (long)((ms - 1000 * (double)(time_t)(ms / 1000)) * 1e6)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
    printf("stdin %zu bytes\n", in);
    if (getenv("HELPER_PRINT_COUNT"))
        printf("run %ld\n", k + 1);
    fprintf(stderr, "helper stderr\n");
    const char *fail = getenv("HELPER_FAIL_AT");
    if (fail && k + 1 == strtol(fail, NULL, 10))
        return 3;
    return 0;
}
