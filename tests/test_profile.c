/*
 * The profile (src/profile.c, the reading in src/os/os_libc.c and select.c):
 *   - a valid profile applies, with ALTMEM_TUNABLES over it setting by setting;
 *   - every bad input of docs/tunables.md ("The profile", bad input) is ignored
 *     whole, with exactly one warning line naming the problem, and the rules'
 *     choices stand; a profile truncated at every length (a file that shrinks
 *     while it is read) never crashes and never applies a setting it lacks;
 *   - the file reader: missing, directory, FIFO (without blocking), /dev/zero,
 *     a symlink loop, 64 KiB and one byte more, no read permission, and the
 *     AT_SECURE ownership and mode rules.
 *   test_profile [--self-test]
 * --self-test runs the bad-input table against a parser that accepts anything:
 * each case must then fail (the table can catch a parser that lets bad input by).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "altmem.h"
#include "cpu.h"
#include "decide.h"
#include "profile.h"
#include "lib/text.h"
#include "variant_table.h"
#include "os/os.h"

#define UAL ALTMEM_FEAT_UAL

static struct altmem__state st;
static int nwarn;
static char lastwarn[600];

static void collect(const char *line, size_t len, void *ctx)
{
    (void)ctx;
    nwarn++;
    snprintf(lastwarn, sizeof lastwarn, "%.*s", (int)len, line);
}

static struct altmem__cpu make_cpu(uint64_t features)
{
    struct altmem__cpu c;
    memset(&c, 0, sizeof c);
    c.arch = "x86_64";
    c.features = features;
    c.vendor = ALTMEM__VENDOR_AMD;
    c.family = 26;
    c.model = 2;
    c.stepping = 1;
    c.l1d_bytes = 48 << 10;
    c.l2_bytes = 1 << 20;
    c.l3_bytes = 32 << 20;
    c.idflags = ALTMEM__ID_HYPERVISOR;
    return c;
}

static char ident[400];

static const char *identity(const struct altmem__cpu *c)
{
    struct altmem__text t = {ident, sizeof ident - 1, 0};
    altmem__cpu_identity(c, &t);
    ident[t.len] = '\0';
    return ident;
}

static int self_test;

/* Decides with the profile text; 1 if it applied. */
static int run(const struct altmem__cpu *c, const char *text, size_t len, const char *env)
{
    nwarn = 0;
    lastwarn[0] = '\0';
    altmem__decide_profile(c, env, text, len, "test-profile", 0, &st, collect, NULL);
    if (self_test)   /* the lenient parser: whatever was given applies */
        return 1;
    return st.prof.status == ALTMEM_PROFILE_APPLIED;
}

static const char *bound(int r) { return altmem__variants[st.bound[r].variant].name; }

/* The names the checks use: on x86_64 the rules bind the widest vector
   variant and the profile pins a narrower one; elsewhere the rules bind ual
   (the CPU has UAL) and the profile pins generic. */
#if defined(__x86_64__)
#define CPU_FEATURES (UAL | ALTMEM_FEAT_SIMD128 | ALTMEM_FEAT_SIMD256 | ALTMEM_FEAT_ERMS)
#define RULES_PICK "avx2"
#define PROFILE_PIN "sse2"
#define OTHER_PIN "ual"
#else
#define CPU_FEATURES UAL
#define RULES_PICK "ual"
#define PROFILE_PIN "generic"
#define OTHER_PIN "generic"
#endif

/* ---- A valid profile, and ALTMEM_TUNABLES over it ---------------------------- */

static void valid(void)
{
    struct altmem__cpu c = make_cpu(CPU_FEATURES);
    char text[1200];
    snprintf(text, sizeof text,
             "# made by hand\n\n  cpu: %s  \nmemcpy=" PROFILE_PIN "   # 1.05x\r\nrep_movsb_threshold=64K\n"
             "memset_nt_threshold=8M\n\t# a comment line\ncopy_user=" OTHER_PIN "\n", identity(&c));
    CHECK(run(&c, text, strlen(text), NULL) && nwarn == 0, "valid profile not applied: %s / %s", st.prof.why, lastwarn);
    CHECK(!strcmp(bound(ALTMEM_MEMCPY), PROFILE_PIN) && st.bound[ALTMEM_MEMCPY].reason == ALTMEM_BOUND_PROFILE,
          "memcpy %s reason %d", bound(ALTMEM_MEMCPY), st.bound[ALTMEM_MEMCPY].reason);
    CHECK(strstr(st.bound[ALTMEM_MEMCPY].why, "profile test-profile") != NULL, "why: %s", st.bound[ALTMEM_MEMCPY].why);
    CHECK(!strcmp(bound(ALTMEM_COPY_USER), OTHER_PIN), "copy_user %s", bound(ALTMEM_COPY_USER));
    CHECK(!strcmp(bound(ALTMEM_MEMSET), RULES_PICK) && st.bound[ALTMEM_MEMSET].reason == ALTMEM_BOUND_DETECTED,
          "memset %s", bound(ALTMEM_MEMSET));
    CHECK(st.policy.movsb[1] == 64 << 10 && st.policy.nt_set == 8 << 20, "policy movsb %zu nt_set %zu",
          st.policy.movsb[1], st.policy.nt_set);
    CHECK(st.prof.policy == (ALTMEM_POLICY_MOVSB | ALTMEM_POLICY_NT_MEMSET), "profile's policy bits %#x",
          st.prof.policy);
    /* The variable over the profile, setting by setting. */
    run(&c, text, strlen(text), "memcpy=" RULES_PICK ":rep_movsb_threshold=8K:nt_threshold=2M");
    CHECK(!strcmp(bound(ALTMEM_MEMCPY), RULES_PICK) && st.bound[ALTMEM_MEMCPY].reason == ALTMEM_BOUND_OVERRIDDEN,
          "variable's pin: %s", bound(ALTMEM_MEMCPY));
    CHECK(!strcmp(bound(ALTMEM_COPY_USER), OTHER_PIN) && st.bound[ALTMEM_COPY_USER].reason == ALTMEM_BOUND_PROFILE,
          "profile's other pin kept: %s", bound(ALTMEM_COPY_USER));
    /* (nt_threshold= sets memset's too, as it does alone: docs/tunables.md.) */
    CHECK(st.policy.movsb[1] == 8 << 10 && st.policy.nt_copy == 2 << 20 && st.policy.nt_set == 2 << 20,
          "variable over profile: movsb %zu nt %zu/%zu", st.policy.movsb[1], st.policy.nt_copy, st.policy.nt_set);
    CHECK(st.prof.policy == 0, "profile's bits after the variable: %#x", st.prof.policy);
    run(&c, text, strlen(text), "rep_stosb_threshold=8K");
    CHECK(st.policy.movsb[1] == 64 << 10 && st.policy.stosb[1] == 8 << 10 && st.policy.nt_set == 8 << 20 &&
              st.prof.policy == (ALTMEM_POLICY_MOVSB | ALTMEM_POLICY_NT_MEMSET),
          "another setting in the variable leaves the profile's: movsb %zu stosb %zu nt_set %zu bits %#x",
          st.policy.movsb[1], st.policy.stosb[1], st.policy.nt_set, st.prof.policy);
    /* In an AT_SECURE process the variable is ignored, the (system) profile not. */
    nwarn = 0;
    altmem__decide_profile(&c, "memcpy=" RULES_PICK, text, strlen(text), "test-profile", 1, &st, collect, NULL);
    CHECK(!strcmp(bound(ALTMEM_MEMCPY), PROFILE_PIN), "secure: %s", bound(ALTMEM_MEMCPY));
    /* No profile: the rules'. */
    run(&c, NULL, 0, NULL);
    CHECK(st.prof.status == ALTMEM_PROFILE_NONE && !strcmp(bound(ALTMEM_MEMCPY), RULES_PICK) && nwarn == 0,
          "no profile: %s", bound(ALTMEM_MEMCPY));
    printf("valid: applied, ALTMEM_TUNABLES over it setting by setting, kept under AT_SECURE\n");
}

/* ---- Bad input: ignored whole, one warning ----------------------------------- */

struct bad_case {
    const char *what;
    const char *body;       /* after a matching cpu: line, unless no_cpu */
    int no_cpu;
    const char *needle;     /* in the warning */
};

static void bad_input(void)
{
    struct altmem__cpu c = make_cpu(UAL | ALTMEM_FEAT_SIMD128 | ALTMEM_FEAT_SIMD256);
    const struct bad_case cases[] = {
        {"empty file", "", 1, "no cpu: line"},
        {"comments only", "# nothing\n   \n", 1, "no cpu: line"},
        {"a setting before the cpu line", "memcpy=ual\n", 1, "expected the cpu: line first"},
        {"unknown key", "frobnicate=1\n", 0, "not a setting a profile may hold"},
        {"hwcaps is not measured", "hwcaps=-UAL\n", 0, "not a setting a profile may hold"},
        {"verbose is not measured", "verbose=1\n", 0, "not a setting a profile may hold"},
        {"two settings on a line", "memcpy=ual:memset=ual\n", 0, "more than one setting"},
        {"a line without =", "memcpy\n", 0, "not a setting (KEY=VALUE)"},
        {"value out of range", "rep_movsb_short_distance=5000\n", 0, "0..4095"},
        {"bad size", "rep_movsb_threshold=12X\n", 0, "rep_movsb_threshold"},
        {"huge size", "nt_threshold=999999999999999999999\n", 0, "nt_threshold"},
        {"unknown variant", "memcpy=avx9\n", 0, "unknown variant"},
#if defined(__x86_64__)
        {"a variant this CPU cannot run", "memset=avx512\n", 0, "SIMD512, which this CPU lacks"},
#endif
        {"empty value", "memcpy=\n", 0, "needs a variant name"},
        {"the second line bad", "memcpy=ual\nmemset=nope\n", 0, "line 3"},
    };
    int n = (int)(sizeof cases / sizeof cases[0]);
    char text[2000];
    for (int i = 0; i < n; i++) {
        if (cases[i].no_cpu)
            snprintf(text, sizeof text, "%s", cases[i].body);
        else
            snprintf(text, sizeof text, "cpu: %s\n%s", identity(&c), cases[i].body);
        int applied = run(&c, text, strlen(text), NULL);
        CHECK(!applied && nwarn == 1 && strstr(lastwarn, cases[i].needle) &&
                  strstr(lastwarn, "altmem: profile test-profile: ") == lastwarn &&
                  strstr(lastwarn, "ignored, the rules' choices stand") && !strchr(lastwarn, '\n'),
              "%s: applied %d, %d warnings, '%s' (wanted '%s')", cases[i].what, applied, nwarn, lastwarn,
              cases[i].needle);
        CHECK(self_test || (st.bound[ALTMEM_MEMCPY].reason == ALTMEM_BOUND_DETECTED && st.prof.policy == 0),
              "%s: the rules' choice did not stand", cases[i].what);
    }
    /* A variant this CPU cannot run, on every architecture: ual on a CPU without UAL. */
    {
        struct altmem__cpu strict = make_cpu(0);
        snprintf(text, sizeof text, "cpu: %s\nmemset=ual\n", identity(&strict));
        int applied = run(&strict, text, strlen(text), NULL);
        CHECK(!applied && nwarn == 1 && strstr(lastwarn, "UAL, which this CPU lacks"),
              "ual on a strict-alignment CPU: applied %d, %d warnings, '%s'", applied, nwarn, lastwarn);
        n++;
    }
    /* Another CPU: every identity field in turn. */
    struct altmem__cpu other[8];
    for (int i = 0; i < 8; i++)
        other[i] = c;
    other[0].model = 1;
    other[1].family = 25;
    other[2].stepping = 0;
    other[3].vendor = ALTMEM__VENDOR_INTEL;
    other[4].features &= ~ALTMEM_FEAT_SIMD256;
    other[5].l3_bytes = 384 << 20;  /* the same CPU model on another host (seen: 384 MiB, 32 MiB) */
    other[6].idflags = 0;
    other[7].arch = "aarch64";
    static const char *const field[] = {"model=", "family=", "stepping=", "vendor=", "features=", "l3=",
                                        "hypervisor=", "arch="};
    for (int i = 0; i < 8; i++) {
        snprintf(text, sizeof text, "cpu: %s\nmemcpy=ual\n", identity(&other[i]));
        int applied = run(&c, text, strlen(text), NULL);
        CHECK(!applied && nwarn == 1 && strstr(lastwarn, "measured on another CPU") && strstr(lastwarn, field[i]),
              "other CPU (%s): applied %d, '%s'", field[i], applied, lastwarn);
    }
    /* A profile with fields missing, or one more. */
    snprintf(text, sizeof text, "cpu: %s extra=1\n", identity(&c));
    CHECK(!run(&c, text, strlen(text), NULL) && strstr(lastwarn, "extra=1"), "extra field: %s", lastwarn);
    /* NUL bytes, long lines, binary junk. */
    static char big[(1 << 20) + 200];
    int len = snprintf(big, sizeof big, "cpu: %s\nmemcpy=ual\n", identity(&c));
    big[len - 3] = '\0';
    CHECK(!run(&c, big, (size_t)len, NULL) && nwarn == 1 && strstr(lastwarn, "is NUL"), "NUL: %s", lastwarn);
    len = snprintf(big, 200, "cpu: %s\n# ", identity(&c));
    memset(big + len, 'x', 1 << 20);
    big[len + (1 << 20)] = '\n';
    CHECK(!run(&c, big, (size_t)len + (1 << 20) + 1, NULL) && nwarn == 1 && strstr(lastwarn, "line 2 is longer"),
          "1 MiB line: %s", lastwarn);
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (size_t i = 0; i < 4096; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        big[i] = (char)(1 + x % 255);
    }
    CHECK(!run(&c, big, 4096, NULL) && nwarn == 1, "binary junk: applied or %d warnings: %s", nwarn, lastwarn);
    printf("bad input: %d cases, 8 identity fields, an extra field, NUL bytes, a 1 MiB line, binary junk: each "
           "ignored with one warning\n", n);
}

/* A profile cut at every length (a file that shrank while it was read). */
static void truncated(void)
{
    struct altmem__cpu c = make_cpu(CPU_FEATURES);
    char text[800];
    int len = snprintf(text, sizeof text, "# head\ncpu: %s\nmemcpy=" PROFILE_PIN "\nrep_movsb_threshold=64K\n", identity(&c));
    int applied = 0;
    for (int cut = 0; cut <= len; cut++) {
        int a = run(&c, text, (size_t)cut, NULL);
        applied += a;
        if (a && !self_test) {
            /* Only whole settings apply: the pin when the cut holds all of it,
               else the rules' choice (a cut inside it leaves an unknown
               variant or no KEY=VALUE, and the profile is ignored). */
            int ps = (int)(strstr(text, "memcpy=" PROFILE_PIN "\n") - text), pe = ps + (int)strlen("memcpy=" PROFILE_PIN);
            CHECK(cut >= pe ? !strcmp(bound(ALTMEM_MEMCPY), PROFILE_PIN)
                            : cut <= ps && !strcmp(bound(ALTMEM_MEMCPY), RULES_PICK),
                  "cut at %d: applied, memcpy %s", cut, bound(ALTMEM_MEMCPY));
        }
        CHECK(a || nwarn == 1, "cut at %d: ignored with %d warnings", cut, nwarn);
    }
    CHECK(self_test || applied > 0, "no cut applied at all");
    printf("truncated: %d cuts, %d applied (a whole cpu line and whole settings), the rest ignored with one warning\n",
           len + 1, applied);
}

/* ---- The file reader ----------------------------------------------------------- */

static char rbuf[ALTMEM__PROFILE_MAX];

static int rd(const char *path, int secure, size_t *len)
{
    char *b = rbuf;
    return altmem__os_read_file(path, secure, &b, sizeof rbuf, len);
}

/* With no buffer given, the reader maps one only for a file it reads: a missing
   file (most processes' case) maps nothing. */
static int rd_mapped(const char *path, char **out, size_t *len)
{
    *out = NULL;
    return altmem__os_read_file(path, 0, out, ALTMEM__PROFILE_MAX, len);
}

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "FAIL: reading the profile blocked (FIFO?)\n";
    (void)!write(1, msg, sizeof msg - 1);
    _exit(1);
}

static void reader(void)
{
    char dir[200];
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/altmem-profile.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        exit(1);
    }
    /* A hang guard, not a time limit: the FIFO case would block for ever. */
    signal(SIGALRM, on_alarm);
    alarm(120);
    char p[300];
    size_t len = 0;
    snprintf(p, sizeof p, "%s/missing", dir);
    CHECK(rd(p, 0, &len) == -ENOENT, "missing file");
    char *mapped;
    CHECK(rd_mapped(p, &mapped, &len) == -ENOENT && !mapped, "missing file, no buffer given: none mapped");
    CHECK(rd_mapped(dir, &mapped, &len) == ALTMEM__READ_NOT_REGULAR && !mapped, "directory: none mapped");
    CHECK(rd(dir, 0, &len) == ALTMEM__READ_NOT_REGULAR, "directory");
    snprintf(p, sizeof p, "%s/fifo", dir);
    if (mkfifo(p, 0644) == 0)
        CHECK(rd(p, 0, &len) == ALTMEM__READ_NOT_REGULAR, "FIFO (and it did not block)");
    CHECK(rd("/dev/zero", 0, &len) == ALTMEM__READ_NOT_REGULAR, "/dev/zero");
    char a[300], b[300];
    snprintf(a, sizeof a, "%s/loop1", dir);
    snprintf(b, sizeof b, "%s/loop2", dir);
    if (symlink(b, a) == 0 && symlink(a, b) == 0)
        CHECK(rd(a, 0, &len) == -ELOOP, "symlink loop");
    snprintf(p, sizeof p, "%s/big", dir);
    FILE *f = fopen(p, "w");
    for (int i = 0; f && i < ALTMEM__PROFILE_MAX; i++)
        fputc('#', f);
    if (f)
        fclose(f);
    CHECK(rd(p, 0, &len) == 0 && len == ALTMEM__PROFILE_MAX, "exactly 64 KiB: %zu", len);
    f = fopen(p, "a");
    if (f) {
        fputc('\n', f);
        fclose(f);
    }
    CHECK(rd(p, 0, &len) == ALTMEM__READ_TOO_BIG, "64 KiB + 1");
    snprintf(p, sizeof p, "%s/ok", dir);
    f = fopen(p, "w");
    if (f) {
        fputs("cpu: x\n", f);
        fclose(f);
    }
    chmod(p, 0644);
    CHECK(rd(p, 0, &len) == 0 && len == 7 && !memcmp(rbuf, "cpu: x\n", 7), "small file");
    CHECK(rd_mapped(p, &mapped, &len) == 0 && mapped && len == 7 && !memcmp(mapped, "cpu: x\n", 7) &&
              (munmap(mapped, ALTMEM__PROFILE_MAX) == 0),
          "small file, no buffer given: read into a mapped one");
    int root = geteuid() == 0;
    if (root) {
        CHECK(rd(p, 1, &len) == 0, "secure: root's, 0644");
        chmod(p, 0664);
        CHECK(rd(p, 1, &len) == ALTMEM__READ_INSECURE, "secure: group-writable");
        chmod(p, 0646);
        CHECK(rd(p, 1, &len) == ALTMEM__READ_INSECURE, "secure: world-writable");
        CHECK(rd(p, 0, &len) == 0, "not secure: world-writable is read");
        chmod(p, 0644);
        if (chown(p, 65534, 65534) == 0)
            CHECK(rd(p, 1, &len) == ALTMEM__READ_INSECURE, "secure: not root's");
        /* No read permission: as uid 65534, a file of mode 0600 owned by root. */
        if (chown(p, 0, 0) == 0 && chmod(p, 0600) == 0 && chmod(dir, 0755) == 0) {
            pid_t pid = fork();
            if (pid == 0) {
                if (setgid(65534) != 0 || setuid(65534) != 0)
                    _exit(3); /* a user namespace without uid 65534 */
                _exit(rd(p, 0, &len) == -EACCES ? 0 : 1);
            }
            int ws = 0;
            waitpid(pid, &ws, 0);
            if (WIFEXITED(ws) && WEXITSTATUS(ws) == 3)
                printf("  not run: no read permission (this process cannot become uid 65534)\n");
            else
                CHECK(WIFEXITED(ws) && WEXITSTATUS(ws) == 0, "no read permission (as uid 65534): status %d", ws);
        }
    }
    alarm(0);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    (void)!system(cmd);
    printf("reader: missing, directory, FIFO, /dev/zero, symlink loop, 64 KiB and 64 KiB + 1, small file%s\n",
           root ? "; AT_SECURE owner and mode rules; no read permission" : " (not root: the AT_SECURE owner and "
                                                                            "permission checks need root, not run)");
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--self-test")) {
        self_test = 1;
        bad_input();
        int caught = failures;
        printf("self-test: the bad-input table against a parser that accepts anything: %d of %d checks failed, as "
               "they must\n", caught, checks);
        if (caught < 20) {
            printf("self-test: FAILED: the table lets bad input by\n");
            return 1;
        }
        printf("self-test: passed\n");
        return 0;
    }
    valid();
    bad_input();
    truncated();
    reader();
    printf("profile: %d checks, %d failures: %s\n", checks, failures, failures ? "FAILED" : "passed");
    return failures != 0;
}
