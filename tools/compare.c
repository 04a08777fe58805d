/*
 * `altmem compare [options] -- CMD ARGS...`: does altmem speed up this
 * program?  CMD runs alternately with the C library's routines and with
 * libaltmem-preload.so preloaded (`altmem run`'s library), in pairs, and the
 * paired wall times are compared with a Wilcoxon signed-rank test
 * (bench/stats.c): median of each arm, the speed-up with its confidence
 * interval, and whether the difference is more than noise.  docs/index.md.
 *
 * Why the design:
 *   - pairs, in the order ABBA (pair 0 libc first, pair 1 altmem first...):
 *     a slow phase of a shared machine, or a cache warming over the runs,
 *     lands on both arms, and neither always runs second;
 *   - the test is on the paired log ratios, not on two independent samples:
 *     the noise a pair shares cancels, which is what lets 10 pairs resolve 5%;
 *   - a rank test, not a bootstrap: with 10 pairs a bootstrap's interval is
 *     unreliable, while the signed-rank interval is exact for any symmetric
 *     noise and a single outlier moves it by one rank only;
 *   - the two arms differ only by LD_PRELOAD (and ALTMEM_TUNABLES with
 *     --variant): each run is fork + execvp of the same argv with the same
 *     stdin, stdout and stderr kinds;
 *   - a run that exits non-zero or dies is reported and its pair left out: a
 *     crash is not a fast run.
 *   - `--cmd-b PROG` compares two programs instead (arm B runs PROG with CMD's
 *     arguments, no preload in either arm): a static program cannot be
 *     preloaded into, so its two builds, with and without libaltmem-libc.a,
 *     are the two arms, paired and tested the same way;
 *   - adaptive mode (`--until PCT`, `--max-pairs N`): pairs are added until
 *     the interval excludes 1, or lies within +/-PCT%, or N pairs are made,
 *     looking only at a fixed schedule of pair counts (look_schedule) fixed
 *     before the first run.  Looking again and again at growing data and
 *     stopping when it looks good would make a 95% test false far more often
 *     than 5%; here each of the K looks uses level 0.05/K (Bonferroni), so the
 *     chance that any look errs is at most 5% whatever made the run stop, and
 *     the interval reported is the one at that level;
 *   - a testing hook, ALTMEM_COMPARE_TEST_DURATIONS (read_test_durations),
 *     replaces the measured wall times with given ones: a verdict on measured
 *     times depends on the machine's load, so tests of the statistics, the
 *     pairing and the verdicts could not be exact without it.
 * The report goes to stderr, so that stdout carries CMD's own output, once.
 */
#define _GNU_SOURCE
#include "compare.h"

#include <altmem.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "benchlib.h"
#include "machine.h"
#include "run.h"

#define MAX_RUNS 1000
#define ADAPTIVE_FIRST_LOOK 10     /* the first look, and the fewest --max-pairs */
#define ADAPTIVE_DEFAULT_MAX 100   /* --max-pairs when only --until is given */
#define ADAPTIVE_MAX_PCT 50        /* --until's largest value */
#define ADAPTIVE_ALPHA 0.05        /* the error rate over all looks */
#define MAX_LOOKS 32
#define ARM_LIBC 0
#define ARM_ALTMEM 1

static void compare_usage(FILE *f)
{
    fprintf(f,
            "usage: altmem compare [--runs N | --until PCT [--max-pairs N]] [--warmup N] [--variant NAME] [--aa]\n"
            "                      [--cmd-b PROG] [--no-stdin] [--] CMD [ARGS...]\n"
            "Runs CMD in N interleaved pairs (order ABBA), once with the C library's memcpy/memmove/memset\n"
            "and once with libaltmem-preload.so preloaded, and reports the median wall time of each, the\n"
            "speed-up (C library time / altmem time) with a 95%% confidence interval (Hodges-Lehmann\n"
            "estimate, Wilcoxon signed-rank interval of the paired log ratios) and whether it is\n"
            "distinguishable from noise.  The report is on stderr; CMD's stdout and stderr of the first\n"
            "run are written once; a later run whose output differs is named; a run that fails (exit\n"
            "status not 0, or a signal) is reported and its pair left out.\n"
            "  --runs N        pairs timed (default 10; 1..%d)\n"
            "  --until PCT     adaptive: add pairs until the interval excludes 1, or lies within\n"
            "                  +/-PCT%% (\"no difference larger than PCT%%\"; PCT above 0, at most 50),\n"
            "                  or --max-pairs are made\n"
            "  --max-pairs N   adaptive: the most pairs (default %d; %d..%d); without --until, stop\n"
            "                  only when the interval excludes 1 or at N\n"
            "  --warmup N      pairs run first and not timed (default 1: fills the page cache)\n"
            "  --variant NAME  pin altmem's routines to variant NAME (ALTMEM_TUNABLES=all=NAME)\n"
            "  --aa            both arms without altmem: an A/A run, to see this machine's noise\n"
            "  --cmd-b PROG    arm B runs PROG with CMD's arguments instead of CMD, and neither arm\n"
            "                  preloads altmem: two builds of one program, e.g. a static one linked\n"
            "                  with and without libaltmem-libc.a (--variant then pins arm B)\n"
            "  --no-stdin      CMD's stdin is /dev/null (else stdin is read to its end once and\n"
            "                  replayed to every run; a terminal is passed through)\n"
            "Exit status: 0 if every run exited 0, else the first failing run's (128+N: signal N);\n"
            "2 usage, 127 CMD or the library not found.\n"
            "Adaptive mode looks only at 10, 15, 20, 30, 40, 60, 80, 100, 150, 200, 300, ... pairs below N,\n"
            "and at N: K looks in all, each with a 100 x (1 - 0.05/K)%% interval (Bonferroni), so that a\n"
            "verdict of difference is false at most 5%% of the time however many looks are made; the\n"
            "interval and p reported are that level's.\n"
            "Environment: ALTMEM_PRELOAD_LIB  the library to preload (else as altmem run finds it)\n"
            "             ALTMEM_TUNABLES     passed to the altmem arm (--variant adds to it)\n",
            MAX_RUNS, ADAPTIVE_DEFAULT_MAX, ADAPTIVE_FIRST_LOOK, MAX_RUNS);
}

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "altmem compare: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (altmem compare --help)\n");
    return 2;
}

/* A whole decimal number in [lo, hi], or -1. */
static long parse_count(const char *s, long lo, long hi)
{
    if (!s || !*s || *s == '-' || *s == '+')
        return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return -1;
    return v;
}

/* --until's value: a decimal percentage in (0, ADAPTIVE_MAX_PCT], digits with
   at most one point and an optional '%' after them ("2", "0.5", "2.5%"), or -1.
   No sign, exponent, hex, inf or nan: strtod would take them all. */
static double parse_percent(const char *s)
{
    if (!s)
        return -1;
    size_t len = strlen(s);
    if (len && s[len - 1] == '%')
        len--;
    size_t dots = 0;
    for (size_t i = 0; i < len; i++)
        dots += s[i] == '.';
    /* all of it digits and points, one point at most, one digit at least */
    if (len > 32 || strspn(s, "0123456789.") != len || dots > 1 || len == dots)
        return -1;
    char buf[40];
    memcpy(buf, s, len);
    buf[len] = '\0';
    double v = strtod(buf, NULL);
    return v > 0 && v <= ADAPTIVE_MAX_PCT ? v : -1;
}

/*
 * The adaptive mode's looks, fixed before the first run: the pair counts
 * 10, 15, 20, 30, 40, 60, 80 times a power of ten (10, 15, ..., 80, 100, 150,
 * ..., 800, 1000) below max, and max itself.  Returns K, their number.  Looking
 * only there, rather than after every pair, keeps K small (8 up to 100 pairs),
 * and so the level 0.05/K each look must use.
 */
static int look_schedule(long max, long *at)
{
    static const long steps[] = {10, 15, 20, 30, 40, 60, 80};
    int k = 0;
    for (long scale = 1; k < MAX_LOOKS - 1; scale *= 10)
        for (size_t i = 0; i < sizeof steps / sizeof steps[0] && k < MAX_LOOKS - 1; i++) {
            if (steps[i] * scale >= max) {
                at[k++] = max;
                return k;
            }
            at[k++] = steps[i] * scale;
        }
    at[k++] = max;
    return k;
}

struct run {
    int arm, pair;           /* pair < 0: warm-up */
    double wall, cpu;        /* seconds */
    int status;              /* wait status */
    int differs;             /* stdout or stderr differs from the first run's */
};

struct streams {
    int in;                  /* replayed stdin, or -1: inherit */
    int out_first, err_first;      /* the first run's output, written out at the end */
    int out_scratch, err_scratch;  /* later runs', compared with it */
    int out_null, err_null;        /* ours is /dev/null: the runs write there, unchecked */
    uint64_t out_hash, err_hash;
};

static int is_dev_null(int fd)
{
    struct stat a, b;
    return fstat(fd, &a) == 0 && stat("/dev/null", &b) == 0 && S_ISCHR(a.st_mode) && a.st_rdev == b.st_rdev;
}

static int temp_file(void)
{
    const char *dir = getenv("TMPDIR");
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/altmem-compare.XXXXXX", dir && dir[0] ? dir : "/tmp");
    int fd = mkstemp(path);
    if (fd >= 0)
        unlink(path);
    else
        fprintf(stderr, "altmem compare: cannot create a temporary file in %s: %s\n", path, strerror(errno));
    return fd;
}

/* From the current offset of `from` (stdin may be a pipe) to its end. */
static int copy_fd(int from, int to)
{
    char buf[65536];
    for (;;) {
        ssize_t n = read(from, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return (int)n;
        for (ssize_t off = 0; off < n;) {
            ssize_t w = write(to, buf + off, (size_t)(n - off));
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                return -1;
            off += w;
        }
    }
}

/* FNV-1a of the file's contents: enough to tell a run whose output differs. */
static uint64_t hash_fd(int fd)
{
    uint64_t h = 1469598103934665603u;
    unsigned char buf[65536];
    if (fd < 0 || lseek(fd, 0, SEEK_SET) < 0)
        return 0;
    for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;)
        for (ssize_t i = 0; i < n; i++)
            h = (h ^ buf[i]) * 1099511628211u;
    return h;
}

static int setup_streams(struct streams *s, int no_stdin)
{
    memset(s, 0, sizeof *s);
    s->in = -1;
    s->out_first = s->err_first = s->out_scratch = s->err_scratch = -1;
    if (no_stdin) {
        s->in = open("/dev/null", O_RDONLY | O_CLOEXEC);
    } else if (fcntl(0, F_GETFD) >= 0 && !isatty(0)) {
        /* Every run must see the same input: read it once, replay the copy. */
        s->in = temp_file();
        if (s->in < 0 || copy_fd(0, s->in) < 0) {
            if (s->in >= 0)
                fprintf(stderr, "altmem compare: cannot copy stdin: %s\n", strerror(errno));
            return -1;
        }
    }
    s->out_null = is_dev_null(1);
    s->err_null = is_dev_null(2);
    if (!s->out_null && ((s->out_first = temp_file()) < 0 || (s->out_scratch = temp_file()) < 0))
        return -1;
    if (!s->err_null && ((s->err_first = temp_file()) < 0 || (s->err_scratch = temp_file()) < 0))
        return -1;
    return 0;
}

/* What altmem_compare_main allocates, freed on every way out of it (its early
   returns are many: one list is simpler than a cleanup label per exit). */
static void *owned[24];
static int owned_count;

static void *own(void *p)
{
    if (p && owned_count < (int)(sizeof owned / sizeof owned[0]))
        owned[owned_count++] = p;
    return p;
}

static void free_owned(void)
{
    while (owned_count > 0)
        free(owned[--owned_count]);
}

/*
 * Testing hook: ALTMEM_COMPARE_TEST_DURATIONS=FILE, FILE holding one wall time
 * in seconds per run, in the order the runs are made (warm-up runs included, so
 * that line K is "run K" of the report; blank lines and lines starting with #
 * are skipped).  Every run still happens (exit statuses, output, environments
 * and the ABBA order are the real ones); only the wall time each run is given
 * comes from FILE.  It exists so that tests/test_compare.sh can check verdicts,
 * estimates and intervals exactly, which measured times under load cannot give.
 * So that it cannot steer a real measurement unnoticed: the name says TEST, the
 * file must hold exactly as many times as there are runs, and the report says
 * the times were not measured.  docs/index.md.
 */
#define TEST_DURATIONS_ENV "ALTMEM_COMPARE_TEST_DURATIONS"
#define TEST_DURATION_LINE 128   /* longer lines are an error, not a number */
/* With the hook on, ALTMEM_COMPARE_TEST_NO_RUNS=1 makes no run at all: each run
   counts as having exited 0 with no output, its time from the file.  For the
   tests of the adaptive mode's error rate (tests/test_compare.sh adaptive_aa_rate),
   which need hundreds of compares of up to 202 runs each: the statistics and the
   stopping rule alone, without thousands of fork + exec.  Ignored when the hook
   is off (it cannot skip the runs of a measurement), and said in the report. */
#define TEST_NO_RUNS_ENV "ALTMEM_COMPARE_TEST_NO_RUNS"

/* The hook's file, or NULL when the hook is off. */
static const char *test_durations_path(void)
{
    /* A setuid or otherwise AT_SECURE altmem must not let whoever runs it
       choose what it reports (the library ignores ALTMEM_TUNABLES there too). */
    if (getauxval(AT_SECURE))
        return NULL;
    const char *path = getenv(TEST_DURATIONS_ENV);
    return path && path[0] ? path : NULL;
}

/* A line's text for an error message: short, and on one line whatever it holds. */
static const char *printable(const char *s, size_t len, char *buf, size_t size)
{
    size_t k = 0;
    for (; k < len && k + 4 < size; k++)
        buf[k] = s[k] >= 0x20 && s[k] < 0x7f ? s[k] : '?';
    if (k < len)
        k += (size_t)snprintf(buf + k, size - k, "...");
    buf[k] = '\0';
    return buf;
}

/* The `want` times of FILE into a new array (owned), or NULL after one line on
   stderr: a file that cannot be read, a line that is not a time above 0, or a
   count other than `want`. */
static double *read_test_durations(const char *path, size_t want, long warmup, long runs, int adaptive)
{
    FILE *f = fopen(path, "re");
    if (!f) {
        fprintf(stderr, "altmem compare: %s=%s: %s\n", TEST_DURATIONS_ENV, path, strerror(errno));
        return NULL;
    }
    double *t = own(calloc(want, sizeof *t));
    size_t got = 0;
    long lineno = 0;
    int bad = !t;
    char line[TEST_DURATION_LINE + 1], shown[48];
    for (int c = 0; c != EOF && !bad;) {
        size_t len = 0;
        int too_long = 0;
        while ((c = getc(f)) != EOF && c != '\n') {
            if (len < TEST_DURATION_LINE)
                line[len++] = (char)c;
            else
                too_long = 1;
        }
        if (c == EOF && ferror(f)) {
            fprintf(stderr, "altmem compare: %s=%s: %s\n", TEST_DURATIONS_ENV, path, strerror(errno));
            bad = 1;
            break;
        }
        if (c == EOF && len == 0 && !too_long)
            break;
        lineno++;
        size_t start = 0;
        while (start < len && (line[start] == ' ' || line[start] == '\t'))
            start++;
        while (len > start && (line[len - 1] == ' ' || line[len - 1] == '\t' || line[len - 1] == '\r'))
            len--;
        line[len] = '\0';
        if ((!too_long && len == start) || line[start] == '#')
            continue;
        /* Decimal only (strtod would take hex, inf, nan), and all of the line:
           strlen, not len, so that a NUL inside it does not end the number. */
        const char *num = line + start;
        int decimal = !too_long && strlen(line) == len && (isdigit((unsigned char)num[0]) || num[0] == '.') &&
                      strspn(num, "0123456789.eE+-") == len - start;
        char *end = NULL;
        errno = 0;
        double v = decimal ? strtod(num, &end) : 0;
        if (!decimal || end != line + len || errno || !isfinite(v) || !(v > 0)) {
            fprintf(stderr, "altmem compare: %s=%s: line %ld: '%s' is not a duration (seconds, a number above 0)\n",
                    TEST_DURATIONS_ENV, path, lineno, printable(num, len - start, shown, sizeof shown));
            bad = 1;
        } else if (got++ < want) {
            t[got - 1] = v;
        }
    }
    fclose(f);
    /* (counted to the end: "23 durations" says more than "too many") */
    if (!bad && got != want && adaptive) {
        /* The runs an adaptive compare makes are known only as it goes: the
           file holds the times of the most it can make, of which it uses the
           first ones (the report says how many). */
        fprintf(stderr,
                "altmem compare: %s=%s: %zu duration%s for %zu runs (2 x (%ld warm-up + %ld pairs, the most "
                "--max-pairs allows)): one per run that can be made, in order\n",
                TEST_DURATIONS_ENV, path, got, got == 1 ? "" : "s", want, warmup, runs);
        bad = 1;
    } else if (!bad && got != want) {
        fprintf(stderr,
                "altmem compare: %s=%s: %zu duration%s for %zu runs (2 x (%ld warm-up + %ld pairs)): one per run, "
                "in order\n",
                TEST_DURATIONS_ENV, path, got, got == 1 ? "" : "s", want, warmup, runs);
        bad = 1;
    }
    return bad ? NULL : t;
}

/* The environment of an arm, built once so that the child only swaps environ:
   environ with lib taken out of LD_PRELOAD, then ld_preload appended to it, and
   with tunables ("ALTMEM_TUNABLES=...") replacing the user's. */
static char **build_env(const char *lib, const char *ld_preload, const char *tunables)
{
    size_t n = 0;
    for (char **e = environ; *e; e++)
        n++;
    char **env = own(calloc(n + 3, sizeof *env));
    if (!env)
        return NULL;
    size_t k = 0;
    for (char **e = environ; *e; e++)
        if (strncmp(*e, "LD_PRELOAD=", 11) && (!tunables || strncmp(*e, "ALTMEM_TUNABLES=", 16)))
            env[k++] = *e;
    /* The C library arm keeps the user's other preloads (a malloc replacement
       affects both arms alike) but never altmem's. */
    const char *old = getenv("LD_PRELOAD");
    size_t need = (old ? strlen(old) : 0) + strlen(lib) + 16;
    char *list = malloc(need);
    if (!list)
        return NULL;
    size_t used = (size_t)snprintf(list, need, "LD_PRELOAD=");
    for (const char *p = old ? old : ""; *p;) {
        size_t len = strcspn(p, ": ");
        if (len && (len != strlen(lib) || strncmp(p, lib, len)))
            used += (size_t)snprintf(list + used, need - used, "%s%.*s", used > 11 ? ":" : "", (int)len, p);
        p += len;
        p += strspn(p, ": ");
    }
    if (ld_preload)
        used += (size_t)snprintf(list + used, need - used, "%s%s", used > 11 ? ":" : "", ld_preload);
    if (used > 11)
        env[k++] = own(list);
    else
        free(list);
    if (tunables)
        env[k++] = (char *)tunables;
    env[k] = NULL;
    return env;
}

/* Runs argv once; 0, or the errno of a failed exec (the child never ran CMD). */
static int run_once(char **argv, char **envp, struct streams *s, int first, struct run *r)
{
    int out = s->out_null ? -1 : first ? s->out_first : s->out_scratch;
    int err = s->err_null ? -1 : first ? s->err_first : s->err_scratch;
    if (out >= 0 && (ftruncate(out, 0) != 0 || lseek(out, 0, SEEK_SET) < 0))
        return errno;
    if (err >= 0 && (ftruncate(err, 0) != 0 || lseek(err, 0, SEEK_SET) < 0))
        return errno;
    if (s->in >= 0 && lseek(s->in, 0, SEEK_SET) < 0)
        return errno;
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0)
        return errno;
    fflush(NULL);
    double t0 = bench_now_s();
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(pipefd[0]);
        close(pipefd[1]);
        return e;
    }
    if (pid == 0) {
        if ((s->in >= 0 && dup2(s->in, 0) < 0) || (out >= 0 && dup2(out, 1) < 0) || (err >= 0 && dup2(err, 2) < 0))
            _exit(126);
        environ = envp;
        execvp(argv[0], argv);
        int e = errno;
        if (write(pipefd[1], &e, sizeof e) < 0)
            _exit(127);
        _exit(127);
    }
    close(pipefd[1]);
    int status = 0;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0)
        if (errno != EINTR)
            return errno;
    r->wall = bench_now_s() - t0;
    r->cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
             ru.ru_stime.tv_usec * 1e-6;
    r->status = status;
    int e = 0;
    ssize_t got = read(pipefd[0], &e, sizeof e);
    close(pipefd[0]);
    if (got == (ssize_t)sizeof e)
        return e ? e : ENOEXEC;
    uint64_t ho = out >= 0 ? hash_fd(out) : 0, he = err >= 0 ? hash_fd(err) : 0;
    if (first) {
        s->out_hash = ho;
        s->err_hash = he;
    } else {
        r->differs = (out >= 0 && ho != s->out_hash) | (err >= 0 && he != s->err_hash) << 1;
    }
    return 0;
}

static int run_failed(int status)
{
    return !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}

static int exit_code(int status)
{
    return WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
}

static void describe_status(int status, char *buf, size_t len)
{
    if (WIFEXITED(status))
        snprintf(buf, len, "exit status %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(buf, len, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        snprintf(buf, len, "wait status %#x", (unsigned)status);
}

static const char *ms(double s, char *buf, size_t len)
{
    if (s < 1)
        snprintf(buf, len, "%.2f ms", s * 1e3);
    else
        snprintf(buf, len, "%.3f s", s);
    return buf;
}

/* "--name VALUE" or "--name=VALUE" at argv[*i]: 1 with *val set (and *i past
   a separate value), -1 when the value is missing, 0 for another option. */
static int option_value(int argc, char **argv, int *i, const char *name, const char **val)
{
    size_t len = strlen(name);
    if (strncmp(argv[*i], name, len))
        return 0;
    if (argv[*i][len] == '=') {
        *val = argv[*i] + len + 1;
        return 1;
    }
    if (argv[*i][len])
        return 0;
    if (*i + 1 >= argc)
        return -1;
    *val = argv[++*i];
    return 1;
}

/* Does some built-in variant have this name (so that all=NAME pins something)? */
static int known_variant(const char *name)
{
    struct altmem_variant_info v;
    for (size_t i = 0; altmem_variant(i, &v) == 0; i++)
        if (!strcmp(v.name, name))
            return 1;
    return 0;
}

/* One look of the adaptive mode: the statistics on the pairs made so far. */
struct look {
    long pairs;                       /* pairs made (warm-up not counted) */
    size_t n;                         /* of them, completed without a failed run */
    int failed;                       /* some run so far failed (warm-up included) */
    struct bench_signed_rank sr;    /* at the per-look level */
    const char *stop;                 /* why the runs stop here, or NULL */
};

/* log(A time / B time) of each timed pair among the first `made` runs that
   completed (both runs exited 0), in pair order, into d; their number.
   *failed: whether any of the runs, warm-up included, failed. */
static size_t pair_ratios(const struct run *r, size_t made, long warmup, double *d, int *failed)
{
    size_t n = 0;
    *failed = 0;
    for (size_t k = 0; k < made; k++)
        *failed |= run_failed(r[k].status);
    for (size_t k = 2 * (size_t)warmup; k + 1 < made; k += 2) {
        if (run_failed(r[k].status) || run_failed(r[k + 1].status))
            continue;
        double t[2] = {0, 0};
        t[r[k].arm] = r[k].wall;
        t[r[k + 1].arm] = r[k + 1].wall;
        d[n++] = log(t[0] / t[1]);
    }
    return n;
}

/*
 * The stopping rule, at a look: the interval (at the per-look level) excludes
 * 1 (a verdict of difference); or, with --until PCT, it lies within
 * [1/(1+PCT/100), 1+PCT/100] (neither arm's time more than PCT% above the
 * other's: "no difference larger than PCT%"); or a run has failed (a command
 * that fails is not one to run hundreds of times); or this is the last look.
 * NULL: go on to the next look.
 */
static const char *look_stop(const struct bench_signed_rank *sr, double until, int failed, int last)
{
    double margin = log(1.0 + until / 100.0);
    if (sr->bounded && (sr->lo > 0 || sr->hi < 0))
        return "excludes1";
    if (until > 0 && sr->bounded && sr->lo >= -margin && sr->hi <= margin)
        return "width";
    if (failed)
        return "failed";
    return last ? "max" : NULL;
}

static int compare_main(const char *argv0, int argc, char **argv)
{
    long runs = 10, warmup = 1, max_pairs = 0;   /* max_pairs > 0: adaptive */
    double until = 0;                             /* > 0: the width stop, in percent */
    const char *variant = NULL, *cmd_b = NULL, *runs_arg = NULL, *adaptive_arg = NULL;
    int aa = 0, no_stdin = 0, i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            compare_usage(stdout);
            return 0;
        }
        if (a[0] != '-')
            break;
        const char *val = NULL;
        int got;
        if ((got = option_value(argc, argv, &i, "--runs", &val)) != 0) {
            if (got < 0 || (runs = parse_count(val, 1, MAX_RUNS)) < 0)
                return usage_error("bad --runs '%s': a whole number of pairs from 1 to 1000", val ? val : "");
            runs_arg = "--runs";
        } else if ((got = option_value(argc, argv, &i, "--until", &val)) != 0) {
            if (got < 0 || (until = parse_percent(val)) < 0)
                return usage_error("bad --until '%s': a percentage above 0 and at most 50, such as 2 or 2.5%%",
                                   val ? val : "");
            adaptive_arg = "--until";
        } else if ((got = option_value(argc, argv, &i, "--max-pairs", &val)) != 0) {
            if (got < 0 || (max_pairs = parse_count(val, ADAPTIVE_FIRST_LOOK, MAX_RUNS)) < 0)
                return usage_error("bad --max-pairs '%s': a whole number of pairs from 10 to 1000", val ? val : "");
            adaptive_arg = "--max-pairs";
        } else if ((got = option_value(argc, argv, &i, "--warmup", &val)) != 0) {
            if (got < 0 || (warmup = parse_count(val, 0, MAX_RUNS)) < 0)
                return usage_error("bad --warmup '%s': a whole number from 0 to 1000", val ? val : "");
        } else if ((got = option_value(argc, argv, &i, "--variant", &val)) != 0) {
            if (got < 0 || !known_variant(val))
                return usage_error("bad --variant '%s': not a variant of this build (altmem info lists them)",
                                   val ? val : "");
            variant = val;
        } else if ((got = option_value(argc, argv, &i, "--cmd-b", &val)) != 0) {
            if (got < 0 || !val[0])
                return usage_error("bad --cmd-b '%s': the program arm B runs", val ? val : "");
            cmd_b = val;
        } else if (!strcmp(a, "--aa")) {
            aa = 1;
        } else if (!strcmp(a, "--no-stdin")) {
            no_stdin = 1;
        } else {
            return usage_error("unknown option '%s' (put the command after --)", a);
        }
    }
    if (i >= argc) {
        fprintf(stderr, "altmem compare: no command given (altmem compare --help)\n");
        return 2;
    }
    if (aa && variant)
        return usage_error("%s: --aa runs no altmem arm to pin", "--variant");
    if (aa && cmd_b)
        return usage_error("%s: --aa and --cmd-b both choose arm B", "--cmd-b");
    if (runs_arg && adaptive_arg)
        return usage_error("%s: --runs fixes the number of pairs, --until and --max-pairs let the runs choose it: "
                           "give one or the other",
                           adaptive_arg);
    /* Adaptive: its looks, fixed before the first run, and the level of each. */
    int adaptive = adaptive_arg != NULL, nlooks = 0, looks_made = 0;
    long look_at[MAX_LOOKS];
    double level = ADAPTIVE_ALPHA;
    if (adaptive) {
        if (!max_pairs)
            max_pairs = ADAPTIVE_DEFAULT_MAX;
        nlooks = look_schedule(max_pairs, look_at);
        level = ADAPTIVE_ALPHA / nlooks;
        runs = max_pairs;   /* until it stops: then the pairs made */
    }
    /* Read before any run: a bad file must not cost the user the runs. */
    size_t total = (size_t)(warmup + runs) * 2;
    const char *test_path = test_durations_path();
    double *test_wall = NULL;
    if (test_path && !(test_wall = read_test_durations(test_path, total, warmup, runs, adaptive)))
        return 2;
    const char *no_runs_env = test_path ? getenv(TEST_NO_RUNS_ENV) : NULL;
    int no_runs = no_runs_env && !strcmp(no_runs_env, "1");
    char **cmd = argv + i;
    /* Arm B's argv: CMD's, or with --cmd-b the same arguments after PROG. */
    char **cmd_arm[2] = {cmd, cmd};
    if (cmd_b) {
        int nargs = argc - i;
        cmd_arm[1] = own(calloc((size_t)nargs + 1, sizeof(char *)));
        if (!cmd_arm[1])
            return 1;
        memcpy(cmd_arm[1], cmd, (size_t)nargs * sizeof(char *));
        cmd_arm[1][0] = (char *)cmd_b;
    }

    char lib[PATH_MAX];
    /* --cmd-b preloads nothing and takes nothing out of LD_PRELOAD: both arms
       run with the user's environment as it is. */
    if (cmd_b)
        lib[0] = '\0';
    else if (altmem_run_find_library(argv0, "altmem compare", lib) != 0)
        return 127;
    if (strpbrk(lib, ": ")) {
        fprintf(stderr, "altmem compare: %s: LD_PRELOAD cannot name a path containing ':' or ' '\n", lib);
        return 127;
    }
    char *tunables = NULL;
    if (variant) {
        const char *old = getenv("ALTMEM_TUNABLES");
        size_t need = strlen(variant) + (old ? strlen(old) : 0) + 32;
        tunables = own(malloc(need));
        if (!tunables)
            return 1;
        /* After the user's settings, so that the pin is the one that counts. */
        snprintf(tunables, need, "ALTMEM_TUNABLES=%s%sall=%s", old && old[0] ? old : "", old && old[0] ? ":" : "",
                 variant);
    }
    char **env[2];
    env[ARM_LIBC] = build_env(lib, NULL, NULL);
    env[ARM_ALTMEM] = aa ? env[ARM_LIBC] : build_env(lib, cmd_b ? NULL : lib, tunables);
    struct streams st;
    if (!env[0] || !env[1] || setup_streams(&st, no_stdin) != 0)
        return 1;

    const char *label[2] = {"C library", aa ? "C library (B)" : "altmem"};
    if (aa)
        label[0] = "C library (A)";
    if (cmd_b) {
        label[0] = "A";
        label[1] = "B";
    }
    struct run *r = own(calloc(total, sizeof *r));
    if (!r)
        return 1;
    struct look *looks = adaptive ? own(calloc((size_t)nlooks, sizeof *looks)) : NULL;
    double *look_d = adaptive ? own(calloc((size_t)runs, sizeof(double))) : NULL;
    if (adaptive && (!looks || !look_d))
        return 1;
    int progress = isatty(2);
    size_t made = 0;
    for (size_t k = 0; k < total; k++) {
        long pair = (long)(k / 2) - warmup;
        /* ABBA over all pairs, warm-up included (and the pairs an adaptive
           compare adds: the order is the run index's, whenever it stops) */
        int arm = (int)((k / 2) % 2 ? 1 - k % 2 : k % 2);
        r[k].arm = arm;
        r[k].pair = (int)pair;
        if (progress && adaptive)
            fprintf(stderr, "\raltmem compare: run %zu of at most %zu (%s)   ", k + 1, total, label[arm]);
        else if (progress)
            fprintf(stderr, "\raltmem compare: run %zu/%zu (%s)   ", k + 1, total, label[arm]);
        /* (no_runs: the run counts as made, exit status 0, no output) */
        int e = no_runs ? 0 : run_once(cmd_arm[arm], env[arm], &st, k == 0, &r[k]);
        if (e) {
            if (progress)
                fprintf(stderr, "\n");
            fprintf(stderr, "altmem compare: %s: %s\n", cmd_arm[arm][0],
                    e == ENOENT && !strchr(cmd_arm[arm][0], '/') ? "command not found" : strerror(e));
            return e == ENOENT ? 127 : 126;
        }
        if (test_wall)
            r[k].wall = test_wall[k];
        made = k + 1;
        /* An adaptive compare looks after the pairs of its schedule alone. */
        if (adaptive && k % 2 && looks_made < nlooks && pair + 1 == look_at[looks_made]) {
            struct look *lk = &looks[looks_made];
            lk->pairs = pair + 1;
            lk->n = pair_ratios(r, made, warmup, look_d, &lk->failed);
            if (bench_signed_rank(look_d, lk->n, level, &lk->sr) != 0)
                return 1;
            lk->stop = look_stop(&lk->sr, until, lk->failed, looks_made == nlooks - 1);
            looks_made++;
            if (lk->stop)
                break;
        }
    }
    if (progress)
        fprintf(stderr, "\r%60s\r", "");
    if (adaptive) {
        /* From here on, as a fixed compare of the pairs made. */
        runs = looks[looks_made - 1].pairs;
        total = made;
    }

    /* CMD's output, once, before the report. */
    fflush(NULL);
    if (st.out_first >= 0 && lseek(st.out_first, 0, SEEK_SET) == 0)
        copy_fd(st.out_first, 1);
    if (st.err_first >= 0 && lseek(st.err_first, 0, SEEK_SET) == 0)
        copy_fd(st.err_first, 2);

    char cpu[256], load[64], cmdline[512];
    machine_cpu_model(cpu, sizeof cpu);
    machine_load(load, sizeof load);
    size_t used = 0;
    for (char **c = cmd; *c && used < sizeof cmdline; c++)
        used += (size_t)snprintf(cmdline + used, sizeof cmdline - used, "%s%s", c == cmd ? "" : " ", *c);
    fprintf(stderr, "\naltmem compare: %ld pairs (+%ld warm-up), order ABBA: %s\n", runs, warmup, cmdline);
    fprintf(stderr, "  cpu:    %s; load average %s after the runs\n", cpu, load);
    if (aa)
        fprintf(stderr, "  arms:   both without altmem (--aa: an A/A comparison)\n");
    else if (cmd_b)
        fprintf(stderr, "  arms:   A = %s, B = %s (--cmd-b: the same arguments, no preload%s%s)\n", cmd[0], cmd_b,
                variant ? "; B pinned: all=" : "", variant ? variant : "");
    else
        fprintf(stderr, "  altmem: %s%s%s\n", lib, variant ? ", pinned: all=" : "", variant ? variant : "");
    /* The schedule, as text: the report's mode line and the result line. */
    char schedule[MAX_LOOKS * 8] = "";
    for (int l = 0, used_s = 0; l < nlooks && used_s < (int)sizeof schedule; l++)
        used_s += snprintf(schedule + used_s, sizeof schedule - (size_t)used_s, "%s%ld", l ? "," : "", look_at[l]);
    double margin = log(1.0 + until / 100.0);
    if (adaptive) {
        char until_s[48] = "";
        if (until > 0)
            snprintf(until_s, sizeof until_s, "--until %g%%, ", until);
        fprintf(stderr,
                "  mode:   adaptive (%s--max-pairs %ld): looks after %s pairs (%d), each at level\n"
                "          0.05/%d = %.6g (Bonferroni: a false verdict of difference at most 5%% of the time\n"
                "          over all %d looks)\n",
                until_s, max_pairs, schedule, nlooks, nlooks, level, nlooks);
        for (int l = 0; l < looks_made; l++) {
            const struct look *lk = &looks[l];
            char done[48] = "";
            if (lk->n != (size_t)lk->pairs)
                snprintf(done, sizeof done, " (%zu completed)", lk->n);
            fprintf(stderr, "  look %d of %d: %ld pairs%s: ", l + 1, nlooks, lk->pairs, done);
            if (!lk->n)
                fprintf(stderr, "no pair to compare");
            else if (!lk->sr.bounded)
                fprintf(stderr, "%.4fx, no interval (too few pairs)", exp(lk->sr.estimate));
            else
                fprintf(stderr, "%.4fx [%.4f..%.4f]", exp(lk->sr.estimate), exp(lk->sr.lo), exp(lk->sr.hi));
            const char *stop = lk->stop ? lk->stop : "";
            char why[64] = "";
            if (!strcmp(stop, "excludes1"))
                snprintf(why, sizeof why, ": excludes 1");
            else if (!strcmp(stop, "width"))
                snprintf(why, sizeof why, ": within +/-%g%%", until);
            else if (lk->sr.bounded && until > 0)
                snprintf(why, sizeof why, ": holds 1, not within +/-%g%%", until);
            else if (lk->sr.bounded)
                snprintf(why, sizeof why, ": holds 1");
            fprintf(stderr, "%s%s\n", why,
                    !lk->stop                 ? ""
                    : !strcmp(stop, "failed") ? ": a run failed: stop"
                    : !strcmp(stop, "max")    ? ": the last look (--max-pairs): stop"
                                              : ": stop");
        }
    }
    if (test_wall && adaptive)
        fprintf(stderr, "  timing: NOT MEASURED: wall times from %s=%s (a testing hook); %zu of its %zu times used\n",
                TEST_DURATIONS_ENV, test_path, made, (size_t)(warmup + max_pairs) * 2);
    else if (test_wall)
        fprintf(stderr, "  timing: NOT MEASURED: wall times from %s=%s (a testing hook)\n", TEST_DURATIONS_ENV,
                test_path);
    if (no_runs)
        fprintf(stderr, "  runs:   NOT MADE: %s=1 (a testing hook): no command was run; each run counts as\n"
                        "          having exited 0 with no output\n",
                TEST_NO_RUNS_ENV);

    int first_bad = -1, bad = 0, differ = 0;
    char *pair_bad = own(calloc((size_t)runs + 1, 1));
    if (!pair_bad)
        return 1;
    for (size_t k = 0; k < total; k++) {
        char why[96];
        if (run_failed(r[k].status)) {
            describe_status(r[k].status, why, sizeof why);
            if (r[k].pair < 0)
                fprintf(stderr, "  failed: run %zu (warm-up, %s): %s\n", k + 1, label[r[k].arm], why);
            else
                fprintf(stderr, "  failed: run %zu (pair %d, %s): %s: pair left out\n", k + 1, r[k].pair + 1,
                        label[r[k].arm], why);
            if (first_bad < 0)
                first_bad = exit_code(r[k].status);
            bad++;
            if (r[k].pair >= 0)
                pair_bad[r[k].pair] = 1;
        }
        if (r[k].differs) {
            differ++;
            fprintf(stderr, "  note:   run %zu (%s) wrote a different %s from run 1's\n", k + 1, label[r[k].arm],
                    r[k].differs == 1 ? "stdout" : r[k].differs == 2 ? "stderr" : "stdout and stderr");
        }
    }
    /* (no_runs: no output to compare, said above) */
    if (!no_runs && st.out_null && st.err_null)
        fprintf(stderr, "  output: stdout and stderr are /dev/null: not compared between runs\n");
    else if (!no_runs && !differ)
        fprintf(stderr, "  output: every run wrote the same%s%s as run 1\n", st.out_null ? "" : " stdout",
                st.err_null ? "" : st.out_null ? " stderr" : " and stderr");

    double *w[2], *c[2], *d;
    size_t n = 0;
    w[0] = own(calloc((size_t)runs, sizeof(double)));
    w[1] = own(calloc((size_t)runs, sizeof(double)));
    c[0] = own(calloc((size_t)runs, sizeof(double)));
    c[1] = own(calloc((size_t)runs, sizeof(double)));
    d = own(calloc((size_t)runs, sizeof(double)));
    if (!w[0] || !w[1] || !c[0] || !c[1] || !d)
        return 1;
    for (long p = 0; p < runs; p++) {
        if (pair_bad[p])
            continue;
        double t[2] = {0, 0}, u[2] = {0, 0};
        for (size_t k = 0; k < total; k++)
            if (r[k].pair == p) {
                t[r[k].arm] = r[k].wall;
                u[r[k].arm] = r[k].cpu;
            }
        w[0][n] = t[0];
        w[1][n] = t[1];
        c[0][n] = u[0];
        c[1][n] = u[1];
        d[n] = log(t[0] / t[1]);   /* > 0: the second arm took less time */
        n++;
    }
    if (!n) {
        fprintf(stderr, "  result: no pair completed without a failure: nothing to compare\n");
        return first_bad > 0 ? first_bad : 1;
    }
    struct bench_signed_rank sr;
    if (bench_signed_rank(d, n, level, &sr) != 0)
        return 1;
    fprintf(stderr, "  %-14s %12s %12s %12s %14s\n", "", "median wall", "min", "max", "median cpu");
    for (int a = 0; a < 2; a++) {
        char b1[32], b2[32], b3[32], b4[32];
        double med = bench_median(w[a], (int)n);   /* sorts: min and max are the ends */
        fprintf(stderr, "  %-14s %12s %12s %12s %14s\n", label[a], ms(med, b1, sizeof b1), ms(w[a][0], b2, sizeof b2),
                ms(w[a][n - 1], b3, sizeof b3), ms(bench_median(c[a], (int)n), b4, sizeof b4));
    }
    double ratio = exp(sr.estimate);
    const char *verdict, *stop = adaptive ? looks[looks_made - 1].stop : NULL;
    char adaptive_verdict[160];
    /* Adaptive: the p of the last look alone, times the looks planned
       (Bonferroni), so that p < 0.05 still means "distinguishable". */
    double p = adaptive ? fmin(1, nlooks * sr.p) : sr.p;
    int distinguishable = sr.bounded && (sr.lo > 0 || sr.hi < 0);
    if (adaptive && !distinguishable) {
        if (!strcmp(stop, "width"))
            snprintf(adaptive_verdict, sizeof adaptive_verdict,
                     "no difference larger than %g%% (the interval lies within %.4fx .. %.4fx)", until, exp(-margin),
                     exp(margin));
        else
            snprintf(adaptive_verdict, sizeof adaptive_verdict, "not distinguishable from noise (%s; %s)",
                     sr.bounded ? "the interval holds 1" : "too few pairs for an interval",
                     !strcmp(stop, "failed") ? "stopped: a run failed" : "--max-pairs reached");
        verdict = adaptive_verdict;
    } else if (!sr.bounded)
        verdict = "not distinguishable from noise: too few pairs for a 95% interval (6 at least)";
    else if (sr.lo > 0)
        verdict = aa || cmd_b ? "B faster: distinguishable from noise" : "altmem faster: distinguishable from noise";
    else if (sr.hi < 0)
        verdict = aa || cmd_b ? "B slower: distinguishable from noise" : "altmem slower: distinguishable from noise";
    else
        verdict = "not distinguishable from noise (the interval holds 1)";
    fprintf(stderr, "  speed-up (%s time / %s time) over %zu pairs: %.4fx", label[0], label[1], n, ratio);
    if (sr.bounded && adaptive)
        fprintf(stderr, ", %.5g%% CI %.4fx .. %.4fx (%.2f%% exactly; 95%% over all %d looks)\n", 100 * (1 - level),
                exp(sr.lo), exp(sr.hi), 100 * sr.coverage, nlooks);
    else if (sr.bounded)
        fprintf(stderr, ", 95%% CI %.4fx .. %.4fx (%.1f%% exactly)\n", exp(sr.lo), exp(sr.hi), 100 * sr.coverage);
    else
        fprintf(stderr, ", no interval\n");
    fprintf(stderr, "    method: Hodges-Lehmann estimate and Wilcoxon signed-rank interval of the paired log time\n"
                    "    ratios (%s), two-sided p = %.4f\n",
            sr.exact ? "exact distribution" : "normal approximation", p);
    if (adaptive)
        fprintf(stderr,
                "    sequential: look %d of %d, stopped: %s; p = %d x %.4f (this look's alone), at most 1\n",
                looks_made, nlooks,
                !strcmp(stop, "excludes1") ? "the interval excludes 1"
                : !strcmp(stop, "width")   ? "the interval is within the width asked"
                : !strcmp(stop, "failed")  ? "a run failed"
                                           : "the most pairs allowed",
                nlooks, sr.p);
    fprintf(stderr, "  verdict: %s\n", verdict);
    char extra[MAX_LOOKS * 8 + 128] = "";
    if (adaptive) {
        int e = snprintf(extra, sizeof extra, " mode=adaptive looks=%d schedule=%s level=%.6g stopped=%s", looks_made,
                         schedule, level, stop);
        if (until > 0 && e > 0 && (size_t)e < sizeof extra)
            snprintf(extra + e, sizeof extra - (size_t)e, " until=%g", until);
    }
    fprintf(stderr, "result: pairs=%zu failed_runs=%d ratio=%.4f lo=%.4f hi=%.4f p=%.4f distinguishable=%s%s%s%s\n",
            n, bad, ratio, sr.bounded ? exp(sr.lo) : 0.0, sr.bounded ? exp(sr.hi) : INFINITY, p,
            distinguishable ? "yes" : "no", extra, test_wall ? " durations=injected" : "",
            no_runs ? " commands=not-run" : "");
    return first_bad > 0 ? first_bad : 0;
}

int altmem_compare_main(const char *argv0, int argc, char **argv)
{
    int status = compare_main(argv0, argc, argv);
    free_owned();
    return status;
}
