/*
 * The program `altmem compare` is tested on (tests/test_compare.sh): its run
 * time is known, and depends on what only one arm of a comparison has.
 *
 *   compare_helper MS PCT     sleeps MS milliseconds, MS x (1 + PCT/100) when
 *                             LD_PRELOAD names libaltmem-preload (the altmem arm),
 *                             or when it is run by a name ending in "_b" (a link:
 *                             the other program of `altmem compare --cmd-b`)
 * It reads its stdin to the end and prints "stdin N bytes" on stdout and
 * "helper stderr" on stderr.  Environment, all optional:
 *   HELPER_COUNTER=FILE   a run counter kept in FILE (created at 0), used by:
 *   HELPER_FAIL_AT=K      exit 3 on the K-th run (1-based)
 *   HELPER_PATTERN=J      A/A control: run k (0-based) sleeps J% x (k/2 + 1)
 *                         longer when k is even, as much shorter when k is odd.
 *                         In compare's ABBA order the pairs' differences then
 *                         alternate in sign with growing size: a sample as
 *                         balanced as two identical arms can give, whose
 *                         signs real jitter of less than J% cannot flip
 *   HELPER_PRINT_COUNT=1  also print the run number (every run's output differs)
 *   HELPER_ENV_LOG=FILE   append "LD_PRELOAD=... ALTMEM_TUNABLES=..." to FILE
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

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: compare_helper MS PCT\n");
        return 2;
    }
    double ms = strtod(argv[1], NULL), pct = strtod(argv[2], NULL);
    const char *pre = getenv("LD_PRELOAD");
    size_t n0 = strlen(argv[0]);
    if ((pre && strstr(pre, "libaltmem-preload")) || (n0 >= 2 && !strcmp(argv[0] + n0 - 2, "_b")))
        ms *= 1 + pct / 100;
    const char *counter = getenv("HELPER_COUNTER");
    long k = counter ? next_count(counter) : -1;
    const char *pattern = getenv("HELPER_PATTERN");
    if (pattern && k >= 0) {
        double j = strtod(pattern, NULL) / 100 * (double)(k / 2 + 1);
        ms *= k % 2 ? 1 - j : 1 + j;
    }
    const char *log = getenv("HELPER_ENV_LOG");
    if (log) {
        FILE *f = fopen(log, "a");
        const char *t = getenv("ALTMEM_TUNABLES");
        if (f) {
            fprintf(f, "LD_PRELOAD=%s ALTMEM_TUNABLES=%s\n", pre ? pre : "", t ? t : "");
            fclose(f);
        }
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
