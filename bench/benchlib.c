/* The shared measuring kit (benchlib.h). */
#define _GNU_SOURCE
#include "benchlib.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

uint64_t bench_rng_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * UINT64_C(2685821657736338717);
}

uint64_t bench_calibrate(bench_time_fn *fn, void *ctx, double target_ns)
{
    uint64_t calls = 1;
    /* A call that lasts twice the target even cold is a sample on its own:
       timing it again would only cost time (a 64 MiB copy). */
    if (fn(ctx, 1) >= 2 * target_ns)
        return 1;
    for (;;) {
        double t = fn(ctx, calls);
        if (t >= target_ns || calls >= UINT64_C(1) << 40)
            return calls;
        /* Aim 10% past the target so noise rarely leaves a sample short;
           grow at least 2x so a too-fast first guess converges quickly. */
        double grow = t > 0 ? target_ns * 1.1 / t : 100.0;
        if (grow > 100.0)
            grow = 100.0;
        if (grow < 2.0)
            grow = 2.0;
        calls = (uint64_t)((double)calls * grow) + 1;
    }
}

void bench_interleave(int n, int reps, enum bench_order order, uint64_t *seed, bench_sample_fn *fn, void *ctx,
                      double *samples)
{
    int ord[n > 0 ? n : 1];
    for (int rep = 0; rep < reps; rep++) {
        for (int i = 0; i < n; i++)
            ord[i] = order == BENCH_ORDER_ROTATE ? (i + rep) % n : i;
        /* A disturbance with a period (a competing process's time slice)
           cannot keep landing on the same measurand. */
        if (order == BENCH_ORDER_SHUFFLE)
            for (int i = n - 1; i > 0; i--) {
                int j = (int)(bench_rng_next(seed) % (uint64_t)(i + 1)), tmp = ord[i];
                ord[i] = ord[j];
                ord[j] = tmp;
            }
        for (int k = 0; k < n; k++)
            samples[ord[k] * reps + rep] = fn(ctx, ord[k]);
    }
}

int bench_pin(int want, enum bench_pick pick, int *allowed_out, char *msg, size_t len)
{
    cpu_set_t allowed, one;
    int soft = want < 0 ? -2 : -1;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) {
        snprintf(msg, len, "not pinned (sched_getaffinity: %s)", strerror(errno));
        return soft;
    }
    int cpu = want;
    if (cpu >= 0 && !CPU_ISSET(cpu, &allowed)) {
        snprintf(msg, len, "CPU %d is not in this process's affinity mask", cpu);
        return -1;
    }
    if (cpu < 0 && pick == BENCH_PICK_CURRENT) {
        cpu = sched_getcpu();
        if (cpu >= 0 && !CPU_ISSET(cpu, &allowed))
            cpu = -1;
        for (int c = 0; c < CPU_SETSIZE && cpu < 0; c++)
            if (CPU_ISSET(c, &allowed))
                cpu = c;
    }
    for (int c = CPU_SETSIZE - 1; c >= 0 && cpu < 0; c--)
        if (CPU_ISSET(c, &allowed))
            cpu = c;
    if (cpu < 0) {
        snprintf(msg, len, "not pinned (empty affinity mask)");
        return -2;
    }
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0) {
        snprintf(msg, len, "not pinned (sched_setaffinity(CPU %d): %s)", cpu, strerror(errno));
        return soft;
    }
    if (allowed_out)
        *allowed_out = CPU_COUNT(&allowed);
    snprintf(msg, len, "CPU %d of %d allowed (sched_setaffinity)", cpu, CPU_COUNT(&allowed));
    return cpu;
}

/* ---- A memory load on the other CPUs -------------------------------------------- */

#define MAX_LOADS 256
static pid_t load_pids[MAX_LOADS];
static int load_count;

static void load_loop(size_t bytes)
{
    unsigned char *a = mmap(NULL, 2 * bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (a == MAP_FAILED)
        _exit(1);
    unsigned char *b = a + bytes;
    for (unsigned x = 0;; x++) {
        memset(a, (int)(x & 0xff), bytes);
        memcpy(b, a, bytes);
        /* the buffers are used: no store above may be dropped */
        __asm__ volatile("" : : "r"(a), "r"(b) : "memory");
    }
}

int bench_load_start(int timed_cpu, size_t bytes, char *msg, size_t len)
{
    cpu_set_t allowed;
    load_count = 0;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) {
        snprintf(msg, len, "no load (sched_getaffinity: %s)", strerror(errno));
        return 0;
    }
    if (timed_cpu < 0)
        for (int c = CPU_SETSIZE - 1; c >= 0 && timed_cpu < 0; c--)
            if (CPU_ISSET(c, &allowed))
                timed_cpu = c;
    char cpus[200] = "";
    size_t used = 0;
    pid_t parent = getpid();
    fflush(stdout);
    fflush(stderr);
    for (int c = 0; c < CPU_SETSIZE && load_count < MAX_LOADS; c++) {
        if (!CPU_ISSET(c, &allowed) || c == timed_cpu)
            continue;
        pid_t pid = fork();
        if (pid < 0)
            break;
        if (pid == 0) {
            /* Never outlive the measurement, however it ends. */
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (getppid() != parent)
                _exit(0);
            cpu_set_t one;
            CPU_ZERO(&one);
            CPU_SET(c, &one);
            sched_setaffinity(0, sizeof one, &one);
            load_loop(bytes);
        }
        load_pids[load_count++] = pid;
        if (used < sizeof cpus - 8)
            used += (size_t)snprintf(cpus + used, sizeof cpus - used, "%s%d", used ? "," : "", c);
    }
    if (load_count)
        snprintf(msg, len, "memset then memcpy of %zu MiB, over and over, on CPU %s (--load)", bytes >> 20, cpus);
    else
        snprintf(msg, len, "no load: no CPU allowed besides the timed one (CPU %d)", timed_cpu);
    return load_count;
}

size_t bench_load_bytes(uint64_t l3)
{
    uint64_t bytes = 2 * l3, mib = (uint64_t)1 << 20;
    if (bytes < 64 * mib)
        bytes = 64 * mib;
    if (bytes > 1024 * mib)
        bytes = 1024 * mib;
    return (size_t)bytes;
}

void bench_load_stop(void)
{
    for (int i = 0; i < load_count; i++)
        kill(load_pids[i], SIGKILL);
    for (int i = 0; i < load_count; i++)
        waitpid(load_pids[i], NULL, 0);
    load_count = 0;
}

/* ---- Progress ------------------------------------------------------------------ */

static int progress_state = -1; /* -1: not asked yet; 0: off; 1: on, nothing shown; 2: a line shown */

int bench_progress_on(void)
{
    if (progress_state < 0)
        progress_state = isatty(2) ? 1 : 0;
    return progress_state > 0;
}

/* last: the line stays (a newline after it) rather than being rewritten. */
static void progress_line(int last, const char *fmt, va_list ap)
{
    if (!bench_progress_on())
        return;
    /* \033[K erases what a longer previous line left. */
    fputc('\r', stderr);
    vfprintf(stderr, fmt, ap);
    fputs(last ? "\033[K\n" : "\033[K", stderr);
    fflush(stderr);
    progress_state = last ? 1 : 2;
}

void bench_progress(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    progress_line(0, fmt, ap);
    va_end(ap);
}

void bench_progress_end(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    progress_line(1, fmt, ap);
    va_end(ap);
}

void bench_progress_clear(void)
{
    if (progress_state != 2)
        return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    progress_state = 1;
}

/* ---- Children -------------------------------------------------------------------- */

/* When this program was started through an explicit loader
   (LIB/ld-linux-x86-64.so.2 --library-path LIB PROG ARGS, how another C
   library is run), /proc/self/exe is that loader: a child must be given its
   options and PROG again, or it would run without them.  Puts the loader, its
   options and PROG (from /proc/self/cmdline) into pre and returns how many,
   or 0 when the program was started directly. */
static int loader_prefix(char *buf, size_t len, char **pre, int max)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return 0;
    exe[n] = '\0';
    const char *base = strrchr(exe, '/');
    base = base ? base + 1 : exe;
    if (strncmp(base, "ld-linux", 8) && strncmp(base, "ld.so", 5) && strncmp(base, "ld-musl", 7))
        return 0;
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    size_t got = 0;
    ssize_t k;
    while (got < len - 1 && ((k = read(fd, buf + got, len - 1 - got)) > 0 || (k < 0 && errno == EINTR)))
        if (k > 0)
            got += (size_t)k;
    close(fd);
    buf[got] = '\0';
    /* ld.so's options that take the next word as their value (ld.so --help). */
    static const char *const with_value[] = {"--library-path",        "--preload",    "--audit",
                                             "--argv0",               "--inhibit-rpath",
                                             "--glibc-hwcaps-prepend", "--glibc-hwcaps-mask"};
    int m = 0;
    size_t at = 0;
    while (at < got && m < max) {
        char *w = buf + at;
        at += strlen(w) + 1;
        pre[m++] = w;
        if (m > 1 && strncmp(w, "--", 2))
            return m; /* PROG: its own arguments follow */
        for (size_t i = 0; m > 1 && i < sizeof with_value / sizeof with_value[0]; i++)
            if (!strcmp(w, with_value[i]) && at < got && m < max) {
                pre[m++] = buf + at;
                at += strlen(buf + at) + 1;
            }
    }
    return 0;
}

void bench_exec(const char *exe, char *const *args, const char *const *env)
{
    for (; env && *env; env++)
        putenv((char *)*env);
    if (!strcmp(exe, "/proc/self/exe") && args[0]) {
        static char cmdline[65536];
        char *argv[1024];
        int m = loader_prefix(cmdline, sizeof cmdline, argv, 64);
        if (m > 0) {
            for (int i = 1; args[i] && m < 1023; i++)
                argv[m++] = args[i];
            argv[m] = NULL;
            execv(exe, argv);
            return;
        }
    }
    execv(exe, args);
}

pid_t bench_child_start(const char *exe, char *const *args, const char *const *env, enum bench_child_stdout mode,
                        FILE **out)
{
    int fds[2] = {-1, -1};
    if (mode == BENCH_CHILD_PIPE && pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0) {
        if (mode == BENCH_CHILD_PIPE) {
            close(fds[0]);
            close(fds[1]);
        }
        return -1;
    }
    if (pid == 0) {
        if (mode == BENCH_CHILD_PIPE) {
            close(fds[0]);
            dup2(fds[1], 1);
        } else if (mode == BENCH_CHILD_NULL) {
            int fd = open("/dev/null", O_WRONLY);
            if (fd < 0 || dup2(fd, 1) < 0)
                _exit(126);
        }
        bench_exec(exe, args, env);
        _exit(127);
    }
    if (mode == BENCH_CHILD_PIPE) {
        close(fds[1]);
        *out = fdopen(fds[0], "r");
        if (!*out)
            close(fds[0]);
    }
    return pid;
}

int bench_child_wait(pid_t pid)
{
    int st;
    if (waitpid(pid, &st, 0) < 0)
        return -1;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}
