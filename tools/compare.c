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
#define ALPHA 0.05                 /* the error rate over all looks (a fixed compare makes one) */
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

/* What altmem_compare_main allocates, freed on every way out of it (its steps
   return early in many places: one list is simpler than a cleanup label per exit). */
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

/* The steps of a compare return KEEP_GOING, or the exit status it ends with. */
#define KEEP_GOING (-1)

struct compare_options {
    long pairs;                     /* timed: --runs, or adaptive, the most (--max-pairs) */
    long warmup;
    double until;                   /* > 0: the width stop, in percent */
    double margin;                  /* log(1 + until/100): the width stop's bound on a log ratio */
    const char *variant, *cmd_b;
    int aa, no_stdin, adaptive;
    char **cmd;                     /* CMD ARGS... (argv's tail) */
    int cmd_args;                   /* their number */
    /* The looks, fixed before the first run, each at level ALPHA / nlooks: an
       adaptive compare's schedule, or a fixed compare's one look after its last
       pair, so that both modes have one pair loop and one interval computation. */
    long look_at[MAX_LOOKS];
    int nlooks;
    double level;
    /* As given: what the fields above are settled from once every option is read. */
    long max_pairs;                 /* 0: --max-pairs not given */
    const char *adaptive_option;    /* the last of --until and --max-pairs given */
    int runs_given;
};

/* The option at argv[*i], *i then past its value. */
static int parse_option(int argc, char **argv, int *i, struct compare_options *o)
{
    const char *a = argv[*i], *val = NULL;
    int got;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
        compare_usage(stdout);
        return 0;
    }
    if ((got = option_value(argc, argv, i, "--runs", &val)) != 0) {
        if (got < 0 || (o->pairs = parse_count(val, 1, MAX_RUNS)) < 0)
            return usage_error("bad --runs '%s': a whole number of pairs from 1 to 1000", val ? val : "");
        o->runs_given = 1;
    } else if ((got = option_value(argc, argv, i, "--until", &val)) != 0) {
        if (got < 0 || (o->until = parse_percent(val)) < 0)
            return usage_error("bad --until '%s': a percentage above 0 and at most 50, such as 2 or 2.5%%",
                               val ? val : "");
        o->adaptive_option = "--until";
    } else if ((got = option_value(argc, argv, i, "--max-pairs", &val)) != 0) {
        if (got < 0 || (o->max_pairs = parse_count(val, ADAPTIVE_FIRST_LOOK, MAX_RUNS)) < 0)
            return usage_error("bad --max-pairs '%s': a whole number of pairs from 10 to 1000", val ? val : "");
        o->adaptive_option = "--max-pairs";
    } else if ((got = option_value(argc, argv, i, "--warmup", &val)) != 0) {
        if (got < 0 || (o->warmup = parse_count(val, 0, MAX_RUNS)) < 0)
            return usage_error("bad --warmup '%s': a whole number from 0 to 1000", val ? val : "");
    } else if ((got = option_value(argc, argv, i, "--variant", &val)) != 0) {
        if (got < 0 || !known_variant(val))
            return usage_error("bad --variant '%s': not a variant of this build (altmem info lists them)",
                               val ? val : "");
        o->variant = val;
    } else if ((got = option_value(argc, argv, i, "--cmd-b", &val)) != 0) {
        if (got < 0 || !val[0])
            return usage_error("bad --cmd-b '%s': the program arm B runs", val ? val : "");
        o->cmd_b = val;
    } else if (!strcmp(a, "--aa")) {
        o->aa = 1;
    } else if (!strcmp(a, "--no-stdin")) {
        o->no_stdin = 1;
    } else {
        return usage_error("unknown option '%s' (put the command after --)", a);
    }
    return KEEP_GOING;
}

/* KEEP_GOING, or the exit status: 0 after --help, 2 after a usage error. */
static int parse_options(int argc, char **argv, struct compare_options *o)
{
    *o = (struct compare_options){.pairs = 10, .warmup = 1};
    int i = 1;
    for (; i < argc; i++) {
        if (!strcmp(argv[i], "--")) {
            i++;
            break;
        }
        if (argv[i][0] != '-')
            break;
        int status = parse_option(argc, argv, &i, o);
        if (status != KEEP_GOING)
            return status;
    }
    if (i >= argc) {
        fprintf(stderr, "altmem compare: no command given (altmem compare --help)\n");
        return 2;
    }
    if (o->aa && o->variant)
        return usage_error("%s: --aa runs no altmem arm to pin", "--variant");
    if (o->aa && o->cmd_b)
        return usage_error("%s: --aa and --cmd-b both choose arm B", "--cmd-b");
    if (o->runs_given && o->adaptive_option)
        return usage_error("%s: --runs fixes the number of pairs, --until and --max-pairs let the runs choose it: "
                           "give one or the other",
                           o->adaptive_option);
    o->cmd = argv + i;
    o->cmd_args = argc - i;
    o->margin = log(1.0 + o->until / 100.0);
    o->adaptive = o->adaptive_option != NULL;
    if (o->adaptive) {
        o->pairs = o->max_pairs ? o->max_pairs : ADAPTIVE_DEFAULT_MAX;
        o->nlooks = look_schedule(o->pairs, o->look_at);
    } else {
        o->nlooks = 1;
        o->look_at[0] = o->pairs;
    }
    o->level = ALPHA / o->nlooks;
    return KEEP_GOING;
}

/* Why a look stops the runs; STOP_NOT_YET: the next look decides. */
enum stop { STOP_NOT_YET, STOP_EXCLUDES_1, STOP_WIDTH, STOP_FAILED, STOP_MAX };

static const struct {
    const char *name;        /* the result line's stopped=NAME, which scripts read */
    const char *look_note;   /* at the end of the look's line */
    const char *stopped;     /* the sequential line's "stopped: ..." */
} stop_text[] = {
    [STOP_NOT_YET] = {"", "", ""},
    [STOP_EXCLUDES_1] = {"excludes1", ": stop", "the interval excludes 1"},
    [STOP_WIDTH] = {"width", ": stop", "the interval is within the width asked"},
    [STOP_FAILED] = {"failed", ": a run failed: stop", "a run failed"},
    [STOP_MAX] = {"max", ": the last look (--max-pairs): stop", "the most pairs allowed"},
};

/* A look: the statistics on the pairs made so far. */
struct look {
    long pairs;                       /* pairs made (warm-up not counted) */
    size_t n;                         /* of them, completed without a failed run */
    struct bench_signed_rank sr;      /* at the per-look level */
    enum stop stop;
};

struct compare_run {
    struct streams streams;
    struct run *runs;                 /* room for the most runs the compare can make */
    size_t planned, made;
    struct look looks[MAX_LOOKS];
    int looks_made;
    /* The completed pairs at the latest look, in pair order (collect_pairs). */
    double *wall[2], *cpu[2];         /* by arm */
    double *log_ratio;                /* log(A time / B time): > 0, B took less time */
    const char *test_path;            /* the testing hook's file, or NULL */
    double *test_wall;                /* its times, one per planned run */
    int no_runs;                      /* TEST_NO_RUNS_ENV: no command is run */
};

/* The planned runs, the testing hook's times (read before any run: a bad file
   must not cost the user the runs) and room for the pairs' figures. */
static int prepare_run(const struct compare_options *o, struct compare_run *cmp)
{
    *cmp = (struct compare_run){.planned = (size_t)(o->warmup + o->pairs) * 2};
    cmp->test_path = test_durations_path();
    if (cmp->test_path &&
        !(cmp->test_wall = read_test_durations(cmp->test_path, cmp->planned, o->warmup, o->pairs, o->adaptive)))
        return 2;
    const char *no_runs = cmp->test_path ? getenv(TEST_NO_RUNS_ENV) : NULL;
    cmp->no_runs = no_runs && !strcmp(no_runs, "1");
    cmp->runs = own(calloc(cmp->planned, sizeof *cmp->runs));
    cmp->log_ratio = own(calloc((size_t)o->pairs, sizeof(double)));
    int allocated = cmp->runs && cmp->log_ratio;
    for (int arm = 0; arm < 2; arm++) {
        cmp->wall[arm] = own(calloc((size_t)o->pairs, sizeof(double)));
        cmp->cpu[arm] = own(calloc((size_t)o->pairs, sizeof(double)));
        allocated &= cmp->wall[arm] && cmp->cpu[arm];
    }
    return allocated ? KEEP_GOING : 1;
}

struct arms {
    char **argv[2];
    char **env[2];
    const char *label[2];
    char lib[PATH_MAX];               /* what the altmem arm preloads; "" with --cmd-b */
};

/* ALTMEM_TUNABLES with every routine pinned to variant, or NULL when out of
   memory.  After the user's settings, so that the pin is the one that counts. */
static char *pinned_tunables(const char *variant)
{
    const char *old = getenv("ALTMEM_TUNABLES");
    size_t need = strlen(variant) + (old ? strlen(old) : 0) + 32;
    char *tunables = own(malloc(need));
    if (tunables)
        snprintf(tunables, need, "ALTMEM_TUNABLES=%s%sall=%s", old && old[0] ? old : "", old && old[0] ? ":" : "",
                 variant);
    return tunables;
}

static int prepare_arms(const char *argv0, const struct compare_options *o, struct arms *arms)
{
    /* Arm B's argv: CMD's, or with --cmd-b the same arguments after PROG. */
    arms->argv[0] = arms->argv[1] = o->cmd;
    if (o->cmd_b) {
        arms->argv[1] = own(calloc((size_t)o->cmd_args + 1, sizeof(char *)));
        if (!arms->argv[1])
            return 1;
        memcpy(arms->argv[1], o->cmd, (size_t)o->cmd_args * sizeof(char *));
        arms->argv[1][0] = (char *)o->cmd_b;
    }
    /* --cmd-b preloads nothing and takes nothing out of LD_PRELOAD: both arms
       run with the user's environment as it is. */
    if (o->cmd_b)
        arms->lib[0] = '\0';
    else if (altmem_run_find_library(argv0, "altmem compare", arms->lib) != 0)
        return 127;
    if (strpbrk(arms->lib, ": ")) {
        fprintf(stderr, "altmem compare: %s: LD_PRELOAD cannot name a path containing ':' or ' '\n", arms->lib);
        return 127;
    }
    char *tunables = NULL;
    if (o->variant && !(tunables = pinned_tunables(o->variant)))
        return 1;
    arms->env[ARM_LIBC] = build_env(arms->lib, NULL, NULL);
    arms->env[ARM_ALTMEM] =
        o->aa ? arms->env[ARM_LIBC] : build_env(arms->lib, o->cmd_b ? NULL : arms->lib, tunables);
    if (!arms->env[ARM_LIBC] || !arms->env[ARM_ALTMEM])
        return 1;
    if (o->cmd_b) {
        arms->label[0] = "A";
        arms->label[1] = "B";
    } else {
        arms->label[0] = o->aa ? "C library (A)" : "C library";
        arms->label[1] = o->aa ? "C library (B)" : "altmem";
    }
    return KEEP_GOING;
}

/* The one pair loop: of the runs made, the timed pairs whose two runs both
   exited 0, in pair order, into cmp's wall, cpu and log_ratio; their number. */
static size_t collect_pairs(struct compare_run *cmp, long warmup)
{
    size_t n = 0;
    for (size_t k = 2 * (size_t)warmup; k + 1 < cmp->made; k += 2) {
        const struct run *pair = &cmp->runs[k];
        if (run_failed(pair[0].status) || run_failed(pair[1].status))
            continue;
        for (int i = 0; i < 2; i++) {
            cmp->wall[pair[i].arm][n] = pair[i].wall;
            cmp->cpu[pair[i].arm][n] = pair[i].cpu;
        }
        cmp->log_ratio[n] = log(cmp->wall[0][n] / cmp->wall[1][n]);
        n++;
    }
    return n;
}

static int interval_excludes_1(const struct bench_signed_rank *sr)
{
    return sr->bounded && (sr->lo > 0 || sr->hi < 0);
}

/*
 * The stopping rule, at a look: the interval (at the per-look level) excludes
 * 1 (a verdict of difference); or, with --until PCT, it lies within
 * [1/(1+PCT/100), 1+PCT/100] (neither arm's time more than PCT% above the
 * other's: "no difference larger than PCT%"); or a run has failed (a command
 * that fails is not one to run hundreds of times); or this is the last look.
 */
static enum stop look_stop(const struct compare_options *o, const struct bench_signed_rank *sr, int failed, int last)
{
    if (interval_excludes_1(sr))
        return STOP_EXCLUDES_1;
    if (o->until > 0 && sr->bounded && sr->lo >= -o->margin && sr->hi <= o->margin)
        return STOP_WIDTH;
    if (failed)
        return STOP_FAILED;
    return last ? STOP_MAX : STOP_NOT_YET;
}

/* The one interval computation: a look after `pairs` pairs, the next in
   cmp->looks; -1 when out of memory. */
static int take_look(const struct compare_options *o, struct compare_run *cmp, long pairs)
{
    struct look *lk = &cmp->looks[cmp->looks_made];
    lk->pairs = pairs;
    lk->n = collect_pairs(cmp, o->warmup);
    if (bench_signed_rank(cmp->log_ratio, lk->n, o->level, &lk->sr) != 0)
        return -1;
    int failed = 0;   /* warm-up included */
    for (size_t k = 0; k < cmp->made; k++)
        failed |= run_failed(cmp->runs[k].status);
    lk->stop = look_stop(o, &lk->sr, failed, cmp->looks_made == o->nlooks - 1);
    cmp->looks_made++;
    return 0;
}

/* The runs, in pairs, until a look stops them (the last look always does). */
static int make_runs(const struct compare_options *o, const struct arms *arms, struct compare_run *cmp)
{
    int progress = isatty(2);
    for (size_t k = 0; k < cmp->planned; k++) {
        long pair = (long)(k / 2) - o->warmup;
        /* ABBA over all pairs, warm-up included (and the pairs an adaptive
           compare adds: the order is the run index's, whenever it stops) */
        int arm = (int)((k / 2) % 2 ? 1 - k % 2 : k % 2);
        struct run *r = &cmp->runs[k];
        r->arm = arm;
        r->pair = (int)pair;
        if (progress && o->adaptive)
            fprintf(stderr, "\raltmem compare: run %zu of at most %zu (%s)   ", k + 1, cmp->planned,
                    arms->label[arm]);
        else if (progress)
            fprintf(stderr, "\raltmem compare: run %zu/%zu (%s)   ", k + 1, cmp->planned, arms->label[arm]);
        /* (no_runs: the run counts as made, exit status 0, no output) */
        int e = cmp->no_runs ? 0 : run_once(arms->argv[arm], arms->env[arm], &cmp->streams, k == 0, r);
        if (e) {
            if (progress)
                fprintf(stderr, "\n");
            fprintf(stderr, "altmem compare: %s: %s\n", arms->argv[arm][0],
                    e == ENOENT && !strchr(arms->argv[arm][0], '/') ? "command not found" : strerror(e));
            return e == ENOENT ? 127 : 126;
        }
        if (cmp->test_wall)
            r->wall = cmp->test_wall[k];
        cmp->made = k + 1;
        /* Only after the pair counts of the schedule, fixed before the first run. */
        if (k % 2 && cmp->looks_made < o->nlooks && pair + 1 == o->look_at[cmp->looks_made]) {
            if (take_look(o, cmp, pair + 1) != 0)
                return 1;
            if (cmp->looks[cmp->looks_made - 1].stop != STOP_NOT_YET)
                break;
        }
    }
    if (progress)
        fprintf(stderr, "\r%60s\r", "");
    return KEEP_GOING;
}

/* CMD's output, once, before the report. */
static void replay_output(const struct streams *s)
{
    fflush(NULL);
    if (s->out_first >= 0 && lseek(s->out_first, 0, SEEK_SET) == 0)
        copy_fd(s->out_first, 1);
    if (s->err_first >= 0 && lseek(s->err_first, 0, SEEK_SET) == 0)
        copy_fd(s->err_first, 2);
}

static void report_setting(const struct compare_options *o, const struct arms *arms, long pairs)
{
    char cpu[256], load[64], cmdline[512];
    machine_cpu_model(cpu, sizeof cpu);
    machine_load(load, sizeof load);
    size_t used = 0;
    for (char **c = o->cmd; *c && used < sizeof cmdline; c++)
        used += (size_t)snprintf(cmdline + used, sizeof cmdline - used, "%s%s", c == o->cmd ? "" : " ", *c);
    fprintf(stderr, "\naltmem compare: %ld pairs (+%ld warm-up), order ABBA: %s\n", pairs, o->warmup, cmdline);
    fprintf(stderr, "  cpu:    %s; load average %s after the runs\n", cpu, load);
    if (o->aa)
        fprintf(stderr, "  arms:   both without altmem (--aa: an A/A comparison)\n");
    else if (o->cmd_b)
        fprintf(stderr, "  arms:   A = %s, B = %s (--cmd-b: the same arguments, no preload%s%s)\n", o->cmd[0],
                o->cmd_b, o->variant ? "; B pinned: all=" : "", o->variant ? o->variant : "");
    else
        fprintf(stderr, "  altmem: %s%s%s\n", arms->lib, o->variant ? ", pinned: all=" : "",
                o->variant ? o->variant : "");
}

/* The looks' pair counts, "10,15,20,...": the mode line's and the result line's. */
static const char *schedule_text(const struct compare_options *o, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int l = 0, used = 0; l < o->nlooks && used < (int)size; l++)
        used += snprintf(buf + used, size - (size_t)used, "%s%ld", l ? "," : "", o->look_at[l]);
    return buf;
}

static void report_look(const struct compare_options *o, const struct look *lk, int number)
{
    char done[48] = "", why[64] = "";
    if (lk->n != (size_t)lk->pairs)
        snprintf(done, sizeof done, " (%zu completed)", lk->n);
    fprintf(stderr, "  look %d of %d: %ld pairs%s: ", number, o->nlooks, lk->pairs, done);
    if (!lk->n)
        fprintf(stderr, "no pair to compare");
    else if (!lk->sr.bounded)
        fprintf(stderr, "%.4fx, no interval (too few pairs)", exp(lk->sr.estimate));
    else
        fprintf(stderr, "%.4fx [%.4f..%.4f]", exp(lk->sr.estimate), exp(lk->sr.lo), exp(lk->sr.hi));
    if (lk->stop == STOP_EXCLUDES_1)
        snprintf(why, sizeof why, ": excludes 1");
    else if (lk->stop == STOP_WIDTH)
        snprintf(why, sizeof why, ": within +/-%g%%", o->until);
    else if (lk->sr.bounded && o->until > 0)
        snprintf(why, sizeof why, ": holds 1, not within +/-%g%%", o->until);
    else if (lk->sr.bounded)
        snprintf(why, sizeof why, ": holds 1");
    fprintf(stderr, "%s%s\n", why, stop_text[lk->stop].look_note);
}

static void report_looks(const struct compare_options *o, const struct compare_run *cmp)
{
    char until[48] = "", schedule[MAX_LOOKS * 8];
    if (o->until > 0)
        snprintf(until, sizeof until, "--until %g%%, ", o->until);
    fprintf(stderr,
            "  mode:   adaptive (%s--max-pairs %ld): looks after %s pairs (%d), each at level\n"
            "          0.05/%d = %.6g (Bonferroni: a false verdict of difference at most 5%% of the time\n"
            "          over all %d looks)\n",
            until, o->pairs, schedule_text(o, schedule, sizeof schedule), o->nlooks, o->nlooks, o->level,
            o->nlooks);
    for (int l = 0; l < cmp->looks_made; l++)
        report_look(o, &cmp->looks[l], l + 1);
}

/* A report on times not measured, or on runs not made, must say so. */
static void report_test_hook(const struct compare_options *o, const struct compare_run *cmp)
{
    if (cmp->test_wall && o->adaptive)
        fprintf(stderr, "  timing: NOT MEASURED: wall times from %s=%s (a testing hook); %zu of its %zu times used\n",
                TEST_DURATIONS_ENV, cmp->test_path, cmp->made, cmp->planned);
    else if (cmp->test_wall)
        fprintf(stderr, "  timing: NOT MEASURED: wall times from %s=%s (a testing hook)\n", TEST_DURATIONS_ENV,
                cmp->test_path);
    if (cmp->no_runs)
        fprintf(stderr, "  runs:   NOT MADE: %s=1 (a testing hook): no command was run; each run counts as\n"
                        "          having exited 0 with no output\n",
                TEST_NO_RUNS_ENV);
}

struct failures {
    int runs;
    int first_status;                 /* the first failed run's exit status, or -1 */
};

/* The runs that failed or wrote another output than the first, and what of
   the output was compared. */
static struct failures report_runs(const struct arms *arms, const struct compare_run *cmp)
{
    struct failures failed = {0, -1};
    int differ = 0;
    for (size_t k = 0; k < cmp->made; k++) {
        const struct run *r = &cmp->runs[k];
        char why[96];
        if (run_failed(r->status)) {
            describe_status(r->status, why, sizeof why);
            if (r->pair < 0)
                fprintf(stderr, "  failed: run %zu (warm-up, %s): %s\n", k + 1, arms->label[r->arm], why);
            else
                fprintf(stderr, "  failed: run %zu (pair %d, %s): %s: pair left out\n", k + 1, r->pair + 1,
                        arms->label[r->arm], why);
            if (failed.first_status < 0)
                failed.first_status = exit_code(r->status);
            failed.runs++;
        }
        if (r->differs) {
            differ++;
            fprintf(stderr, "  note:   run %zu (%s) wrote a different %s from run 1's\n", k + 1, arms->label[r->arm],
                    r->differs == 1 ? "stdout" : r->differs == 2 ? "stderr" : "stdout and stderr");
        }
    }
    const struct streams *s = &cmp->streams;
    /* (no_runs: no output to compare, said above) */
    if (!cmp->no_runs && s->out_null && s->err_null)
        fprintf(stderr, "  output: stdout and stderr are /dev/null: not compared between runs\n");
    else if (!cmp->no_runs && !differ)
        fprintf(stderr, "  output: every run wrote the same%s%s as run 1\n", s->out_null ? "" : " stdout",
                s->err_null ? "" : s->out_null ? " stderr" : " and stderr");
    return failed;
}

/* Each arm's times over the n completed pairs (sorts them). */
static void report_times(const struct arms *arms, struct compare_run *cmp, size_t n)
{
    fprintf(stderr, "  %-14s %12s %12s %12s %14s\n", "", "median wall", "min", "max", "median cpu");
    for (int a = 0; a < 2; a++) {
        char b1[32], b2[32], b3[32], b4[32];
        double med = bench_median(cmp->wall[a], (int)n);   /* sorts: min and max are the ends */
        fprintf(stderr, "  %-14s %12s %12s %12s %14s\n", arms->label[a], ms(med, b1, sizeof b1),
                ms(cmp->wall[a][0], b2, sizeof b2), ms(cmp->wall[a][n - 1], b3, sizeof b3),
                ms(bench_median(cmp->cpu[a], (int)n), b4, sizeof b4));
    }
}

/* buf: room for the adaptive mode's verdicts, which are written out. */
static const char *verdict_text(const struct compare_options *o, const struct look *last, char *buf, size_t size)
{
    const struct bench_signed_rank *sr = &last->sr;
    if (o->adaptive && !interval_excludes_1(sr)) {
        if (last->stop == STOP_WIDTH)
            snprintf(buf, size, "no difference larger than %g%% (the interval lies within %.4fx .. %.4fx)", o->until,
                     exp(-o->margin), exp(o->margin));
        else
            snprintf(buf, size, "not distinguishable from noise (%s; %s)",
                     sr->bounded ? "the interval holds 1" : "too few pairs for an interval",
                     last->stop == STOP_FAILED ? "stopped: a run failed" : "--max-pairs reached");
        return buf;
    }
    if (!sr->bounded)
        return "not distinguishable from noise: too few pairs for a 95% interval (6 at least)";
    if (sr->lo > 0)
        return o->aa || o->cmd_b ? "B faster: distinguishable from noise" : "altmem faster: distinguishable from noise";
    if (sr->hi < 0)
        return o->aa || o->cmd_b ? "B slower: distinguishable from noise" : "altmem slower: distinguishable from noise";
    return "not distinguishable from noise (the interval holds 1)";
}

/* The speed-up, how it was computed, the verdict, and the result line for scripts. */
static void report_result(const struct compare_options *o, const struct arms *arms, const struct compare_run *cmp,
                          int failed_runs)
{
    const struct look *last = &cmp->looks[cmp->looks_made - 1];
    const struct bench_signed_rank *sr = &last->sr;
    double ratio = exp(sr->estimate);
    /* The p of the last look alone, times the looks planned (Bonferroni), so
       that p < 0.05 still means "distinguishable" (a fixed compare: one look). */
    double p = fmin(1, o->nlooks * sr->p);
    fprintf(stderr, "  speed-up (%s time / %s time) over %zu pairs: %.4fx", arms->label[0], arms->label[1], last->n,
            ratio);
    if (sr->bounded && o->adaptive)
        fprintf(stderr, ", %.5g%% CI %.4fx .. %.4fx (%.2f%% exactly; 95%% over all %d looks)\n",
                100 * (1 - o->level), exp(sr->lo), exp(sr->hi), 100 * sr->coverage, o->nlooks);
    else if (sr->bounded)
        fprintf(stderr, ", 95%% CI %.4fx .. %.4fx (%.1f%% exactly)\n", exp(sr->lo), exp(sr->hi), 100 * sr->coverage);
    else
        fprintf(stderr, ", no interval\n");
    fprintf(stderr, "    method: Hodges-Lehmann estimate and Wilcoxon signed-rank interval of the paired log time\n"
                    "    ratios (%s), two-sided p = %.4f\n",
            sr->exact ? "exact distribution" : "normal approximation", p);
    if (o->adaptive)
        fprintf(stderr, "    sequential: look %d of %d, stopped: %s; p = %d x %.4f (this look's alone), at most 1\n",
                cmp->looks_made, o->nlooks, stop_text[last->stop].stopped, o->nlooks, sr->p);
    char verdict[160], schedule[MAX_LOOKS * 8], adaptive[MAX_LOOKS * 8 + 128] = "";
    fprintf(stderr, "  verdict: %s\n", verdict_text(o, last, verdict, sizeof verdict));
    if (o->adaptive) {
        int e = snprintf(adaptive, sizeof adaptive, " mode=adaptive looks=%d schedule=%s level=%.6g stopped=%s",
                         cmp->looks_made, schedule_text(o, schedule, sizeof schedule), o->level,
                         stop_text[last->stop].name);
        if (o->until > 0 && e > 0 && (size_t)e < sizeof adaptive)
            snprintf(adaptive + e, sizeof adaptive - (size_t)e, " until=%g", o->until);
    }
    fprintf(stderr, "result: pairs=%zu failed_runs=%d ratio=%.4f lo=%.4f hi=%.4f p=%.4f distinguishable=%s%s%s%s\n",
            last->n, failed_runs, ratio, sr->bounded ? exp(sr->lo) : 0.0, sr->bounded ? exp(sr->hi) : INFINITY, p,
            interval_excludes_1(sr) ? "yes" : "no", adaptive, cmp->test_wall ? " durations=injected" : "",
            cmp->no_runs ? " commands=not-run" : "");
}

static int report(const struct compare_options *o, const struct arms *arms, struct compare_run *cmp)
{
    const struct look *last = &cmp->looks[cmp->looks_made - 1];
    replay_output(&cmp->streams);
    report_setting(o, arms, last->pairs);
    if (o->adaptive)
        report_looks(o, cmp);
    report_test_hook(o, cmp);
    struct failures failed = report_runs(arms, cmp);
    int status = failed.first_status > 0 ? failed.first_status : 0;
    if (!last->n) {
        fprintf(stderr, "  result: no pair completed without a failure: nothing to compare\n");
        return status ? status : 1;
    }
    report_times(arms, cmp, last->n);
    report_result(o, arms, cmp, failed.runs);
    return status;
}

static int compare_main(const char *argv0, int argc, char **argv)
{
    struct compare_options o;
    struct compare_run cmp;
    struct arms arms;
    int status = parse_options(argc, argv, &o);
    if (status == KEEP_GOING)
        status = prepare_run(&o, &cmp);
    if (status == KEEP_GOING)
        status = prepare_arms(argv0, &o, &arms);
    if (status == KEEP_GOING && setup_streams(&cmp.streams, o.no_stdin) != 0)
        status = 1;
    if (status == KEEP_GOING)
        status = make_runs(&o, &arms, &cmp);
    return status == KEEP_GOING ? report(&o, &arms, &cmp) : status;
}

int altmem_compare_main(const char *argv0, int argc, char **argv)
{
    int status = compare_main(argv0, argc, argv);
    free_owned();
    return status;
}
