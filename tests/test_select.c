/*
 * Selection and ALTMEM_TUNABLES, without touching the running process:
 * altmem__decide() is a pure function of (CPU, tunables value, AT_SECURE), so
 * made-up CPUs stand in for hardware this host is not.  Also the invariants of
 * the variant table that selection, tests and `altmem info` rely on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "altmem.h"
#include "cpu.h"
#include "decide.h"
#include "policy.h"
#include "select.h"
#include "tunables.h"
#include "variant_table.h"

#include "check.h"

#define PREFIX "altmem: ALTMEM_TUNABLES: "
#define UAL ALTMEM_FEAT_UAL

/* ---- Collecting warnings ------------------------------------------------ */

#define MAX_WARN 16
struct warns {
    int n;                    /* calls, including those not stored */
    char line[MAX_WARN][400];
    size_t len[MAX_WARN];
};

static void collect(const char *line, size_t len, void *ctx)
{
    struct warns *w = ctx;
    if (w->n < MAX_WARN) {
        size_t k = len < sizeof w->line[0] - 1 ? len : sizeof w->line[0] - 1;
        memcpy(w->line[w->n], line, k);
        w->line[w->n][k] = '\0';
        w->len[w->n] = len;
    }
    w->n++;
}

/* A warning is one line of printable ASCII starting with PREFIX; returns NULL
   if so, else what is wrong.  line must be NUL-terminated at len. */
static const char *shape_error(const char *line, size_t len)
{
    if (strlen(line) != len)
        return "length disagrees with the text (embedded NUL or missing terminator)";
    if (strncmp(line, PREFIX, strlen(PREFIX)) != 0)
        return "does not start with \"" PREFIX "\"";
    if (len <= strlen(PREFIX))
        return "says nothing after the prefix";
    if (len > 300)
        return "longer than 300 characters";
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        if (c == '\n' || c == '\r')
            return "more than one line";
        if (c < 0x20 || c >= 0x7f)
            return "contains a non-printable byte";
    }
    return NULL;
}

/* Every collected warning is well formed. */
static void check_shapes(const struct warns *w, const char *value)
{
    for (int i = 0; i < w->n && i < MAX_WARN; i++) {
        const char *e = shape_error(w->line[i], w->len[i]);
        CHECK(!e, "value '%.60s': warning %d %s: '%s'", value, i, e, w->line[i]);
    }
}

static int any_warning_has(const struct warns *w, const char *needle)
{
    for (int i = 0; i < w->n && i < MAX_WARN; i++)
        if (strstr(w->line[i], needle))
            return 1;
    return 0;
}

/* ---- Made-up CPUs and deciding ------------------------------------------ */

static struct altmem__cpu make_cpu(const char *arch, uint64_t features)
{
    struct altmem__cpu c;
    memset(&c, 0, sizeof c);
    c.arch = arch;
    c.features = features;
    return c;
}

static struct altmem__state st;
static struct warns w;

static void decide(const struct altmem__cpu *cpu, const char *value, int secure)
{
    memset(&st, 0xee, sizeof st);   /* decide must fill everything it reports */
    memset(&w, 0, sizeof w);
    altmem__decide(cpu, value, secure, &st, collect, &w);
    check_shapes(&w, value ? value : "(null)");
}

static const char *bound_name(int r)
{
    int v = st.bound[r].variant;
    if (v < 0 || (size_t)v >= altmem__variant_total)
        return "(out of range)";
    return altmem__variants[v].name;
}

static const char *reason_word(enum altmem_bind_reason r)
{
    switch (r) {
    case ALTMEM_BOUND_DEFAULT: return "DEFAULT";
    case ALTMEM_BOUND_DETECTED: return "DETECTED";
    case ALTMEM_BOUND_OVERRIDDEN: return "OVERRIDDEN";
    case ALTMEM_BOUND_REFUSED: return "REFUSED";
    case ALTMEM_BOUND_PROFILE: return "PROFILE";
    }
    return "?";
}

#define D ALTMEM_BOUND_DETECTED
#define O ALTMEM_BOUND_OVERRIDDEN
#define R ALTMEM_BOUND_REFUSED

/* The bindings of memcpy, memmove and memset are (variant, reason) as given.
   copy_user and clear_user follow the same rule: exhaustive_features() checks
   them for every feature combination, and the ones below that pin by routine
   name leave them alone. */
static void expect(const char *what, const char *v0, enum altmem_bind_reason r0, const char *v1,
                   enum altmem_bind_reason r1, const char *v2, enum altmem_bind_reason r2)
{
    const char *v[3] = {v0, v1, v2};
    enum altmem_bind_reason r[3] = {r0, r1, r2};
    for (int i = 0; i < 3; i++) {
        CHECK(!strcmp(bound_name(i), v[i]) && st.bound[i].reason == r[i], "%s: %s bound %s/%s, expected %s/%s",
              what, altmem_routine_name((enum altmem_routine)i), bound_name(i),
              reason_word(st.bound[i].reason), v[i], reason_word(r[i]));
        CHECK(strlen(st.bound[i].why) < sizeof st.bound[i].why && !strchr(st.bound[i].why, '\n'),
              "%s: why is not one line", what);
    }
}

static void expect_warnings(const char *what, int n)
{
    CHECK(w.n == n, "%s: %d warnings, expected %d%s%s", what, w.n, n, w.n ? "; first: " : "",
          w.n ? w.line[0] : "");
}

/* ---- The cases ---------------------------------------------------------- */

static const struct altmem__cpu *cpu_ual, *cpu_strict, *cpu_unknown;

static void basic_selection(void)
{
    decide(cpu_ual, NULL, 0);
    expect("UAL CPU, no tunables", "ual", D, "ual", D, "ual", D);
    expect_warnings("UAL CPU, no tunables", 0);
    CHECK(st.active == cpu_ual->features && st.secure == 0, "active/secure wrong");
    CHECK(strstr(st.bound[0].why, "UAL") != NULL, "why does not name UAL: '%s'", st.bound[0].why);

    decide(cpu_strict, NULL, 0);
    expect("CPU without UAL", "generic", D, "generic", D, "generic", D);
    CHECK(strstr(st.bound[0].why, "skipped ") && strstr(st.bound[0].why, "ual (lacks UAL)"),
          "why does not say what ual lacked: '%s'",
          st.bound[0].why);

    decide(cpu_unknown, NULL, 0);
    expect("unknown architecture", "generic", D, "generic", D, "generic", D);
    expect_warnings("unknown architecture", 0);

    decide(cpu_ual, "", 0);
    expect("empty value", "ual", D, "ual", D, "ual", D);
    CHECK(st.tun.mask == 0 && st.tun.force == 0 && st.tun.verbose == 0 && st.tun.pin[0] == -1 &&
              st.tun.pin[1] == -1 && st.tun.pin[2] == -1,
          "empty value left tunables state non-default");
    printf("basic: UAL -> ual, no UAL -> generic, unknown arch -> generic\n");
}

/* With no tunables, each routine is bound to its first runnable variant in
   table order, for every combination of feature bits. */
static void exhaustive_features(void)
{
    int combos = 0;
    for (uint64_t f = 0; f < (UINT64_C(1) << ALTMEM_FEAT_COUNT); f++) {
        struct altmem__cpu c = make_cpu("made-up", f);
        decide(&c, NULL, 0);
        CHECK(w.n == 0, "features %#llx: warnings without tunables", (unsigned long long)f);
        CHECK(st.active == f, "features %#llx: active %#llx", (unsigned long long)f,
              (unsigned long long)st.active);
        for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
            int first = -1;
            for (size_t i = 0; i < altmem__variant_total; i++)
                if ((int)altmem__variants[i].routine == r && (altmem__variants[i].requires & ~f) == 0) {
                    first = (int)i;
                    break;
                }
            CHECK(st.bound[r].variant == first && st.bound[r].reason == D,
                  "features %#llx: %s bound #%d, first runnable is #%d", (unsigned long long)f,
                  altmem_routine_name((enum altmem_routine)r), st.bound[r].variant, first);
        }
        combos++;
    }
    printf("exhaustive: %d feature combinations bind the first runnable variant, no warnings\n", combos);
}

static void masks_and_pins(void)
{
    decide(cpu_ual, "hwcaps=-UAL", 0);
    expect("hwcaps=-UAL", "generic", D, "generic", D, "generic", D);
    expect_warnings("hwcaps=-UAL", 0);
    CHECK(st.tun.mask == UAL && !(st.active & UAL), "mask %#llx active %#llx", (unsigned long long)st.tun.mask,
          (unsigned long long)st.active);
    CHECK(strstr(st.bound[0].why, "masked by ALTMEM_TUNABLES: UAL") != NULL, "mask not reported in why: '%s'",
          st.bound[0].why);

    decide(cpu_ual, "memcpy=generic", 0);
    expect("memcpy=generic", "generic", O, "ual", D, "ual", D);
    expect_warnings("memcpy=generic", 0);
    CHECK(strstr(st.bound[0].why, "pinned") != NULL, "why: '%s'", st.bound[0].why);

    decide(cpu_ual, "all=generic", 0);
    expect("all=generic", "generic", O, "generic", O, "generic", O);
    expect_warnings("all=generic", 0);

    decide(cpu_strict, "memcpy=ual", 0);
    expect("memcpy=ual without UAL", "generic", R, "generic", D, "generic", D);
    expect_warnings("memcpy=ual without UAL", 1);
    CHECK(any_warning_has(&w, "memcpy=ual") && any_warning_has(&w, "UAL"), "refusal does not name the pin: '%s'",
          w.line[0]);
    CHECK(strstr(st.bound[0].why, "refused") != NULL, "why: '%s'", st.bound[0].why);

    decide(cpu_strict, "all=ual", 0);
    expect("all=ual without UAL", "generic", R, "generic", R, "generic", R);
    expect_warnings("all=ual without UAL", ALTMEM_ROUTINE_COUNT);   /* one refusal per routine */
    CHECK(any_warning_has(&w, "memcpy=ual") && any_warning_has(&w, "memmove=ual") &&
              any_warning_has(&w, "memset=ual"),
          "refusals do not name each routine");

    decide(cpu_strict, "hwcaps=+UAL", 0);
    expect("hwcaps=+UAL without UAL", "ual", D, "ual", D, "ual", D);
    expect_warnings("hwcaps=+UAL without UAL", 0);
    CHECK((st.active & UAL) && st.tun.force == UAL, "UAL not forced");

    decide(cpu_strict, "hwcaps=+UAL:memcpy=ual", 0);
    expect("+UAL and memcpy=ual", "ual", O, "ual", D, "ual", D);
    expect_warnings("+UAL and memcpy=ual", 0);

    decide(cpu_strict, "hwcaps=+SIMD256", 0);
    expect("+SIMD256 without it", "generic", D, "generic", D, "generic", D);
    expect_warnings("+SIMD256 without it", 1);
    CHECK(any_warning_has(&w, "+SIMD256") && any_warning_has(&w, "refusing"), "warning: '%s'", w.line[0]);
    CHECK(!(st.active & ALTMEM_FEAT_SIMD256), "SIMD256 forced on a CPU without it");

    decide(cpu_strict, "hwcaps=+SIMD256,+SIMD512,+UAL", 0);
    expect_warnings("+SIMD256,+SIMD512,+UAL", 1);
    CHECK(any_warning_has(&w, "SIMD256") && any_warning_has(&w, "SIMD512"), "warning: '%s'", w.line[0]);
    CHECK((st.active & UAL) && !(st.active & (ALTMEM_FEAT_SIMD256 | ALTMEM_FEAT_SIMD512)),
          "active %#llx", (unsigned long long)st.active);

    struct altmem__cpu simd = make_cpu("made-up-simd", UAL | ALTMEM_FEAT_SIMD128);
    decide(&simd, "hwcaps=+SIMD128", 0);     /* present already: nothing to refuse */
    expect_warnings("+SIMD128 with it", 0);

    /* A pin may name a variant the mask removed (the hardware has it). */
    decide(cpu_ual, "hwcaps=-UAL:memcpy=ual", 0);
    expect("-UAL with memcpy=ual", "ual", O, "generic", D, "generic", D);
    expect_warnings("-UAL with memcpy=ual", 0);

    /* Later items win. */
    decide(cpu_ual, "hwcaps=-UAL,+UAL", 0);
    expect("-UAL,+UAL", "ual", D, "ual", D, "ual", D);
    decide(cpu_ual, "memcpy=generic:memcpy=ual", 0);
    expect("memcpy=generic:memcpy=ual", "ual", O, "ual", D, "ual", D);

    /* Case-insensitive keys, values and feature names. */
    decide(cpu_ual, "MEMCPY=Generic:HwCaps=-ual:VERBOSE", 0);
    expect("mixed case", "generic", O, "generic", D, "generic", D);
    expect_warnings("mixed case", 0);
    CHECK(st.tun.verbose == 1, "VERBOSE not recognised");

    static const struct {
        const char *value;
        int verbose;
    } vb[] = {{"verbose", 1}, {"verbose=1", 1}, {"verbose=0", 0}, {"verbose:verbose=0", 0}, {"memcpy=ual", 0}};
    for (size_t i = 0; i < sizeof vb / sizeof vb[0]; i++) {
        decide(cpu_ual, vb[i].value, 0);
        CHECK(st.tun.verbose == vb[i].verbose && w.n == 0, "'%s': verbose %d, expected %d", vb[i].value,
              st.tun.verbose, vb[i].verbose);
    }
    printf("tunables: masks, pins, all=, refusals, +UAL, +SIMD refusal, precedence, case, verbose\n");
}

static void secure_mode(void)
{
    static const char *const values[] = {
        "hwcaps=-UAL", "memcpy=generic:all=generic", "bogus=1:hwcaps=UAL:memcpy=nope", "verbose", "hwcaps=+UAL",
    };
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        decide(cpu_ual, values[i], 1);
        expect(values[i], "ual", D, "ual", D, "ual", D);
        expect_warnings(values[i], 0);
        CHECK(st.secure == 1 && st.tun.mask == 0 && st.tun.force == 0 && st.tun.verbose == 0 &&
                  st.tun.pin[0] == -1 && st.tun.pin[1] == -1 && st.tun.pin[2] == -1,
              "secure: '%s' left a trace in the tunables state", values[i]);
    }
    decide(cpu_strict, "hwcaps=+UAL", 1);
    expect("secure, +UAL without UAL", "generic", D, "generic", D, "generic", D);
    expect_warnings("secure, +UAL without UAL", 0);
    printf("secure: %zu values ignored entirely (no warnings, default bindings)\n",
           sizeof values / sizeof values[0] + 1);
}

/* Malformed values: every bad part one warning naming it; the rest applies. */
static void malformed(void)
{
    static char long_garbage[301], ten_k_key[10 * 1024 + 1], ten_k_list[10 * 1024 + 1], ten_k_pin[10 * 1024 + 1];
    memset(long_garbage, 'g', sizeof long_garbage - 1);
    memset(ten_k_key, 'k', sizeof ten_k_key - 1);
    strcpy(ten_k_list, "hwcaps=-UAL");
    while (strlen(ten_k_list) + 5 < sizeof ten_k_list)
        strcat(ten_k_list, ",-UAL");
    strcpy(ten_k_pin, "memcpy=");
    memset(ten_k_pin + 7, 'v', sizeof ten_k_pin - 8);
    static char long_needle[64];
    snprintf(long_needle, sizeof long_needle, "'%.40s...'", long_garbage);

    /* On the UAL CPU; bindings given per routine as variant/reason. */
    static const struct {
        const char *value;
        int warnings;
        const char *needle[3];
        const char *v[3];
        enum altmem_bind_reason r[3];
    } cases[] = {
        {"", 0, {0}, {"ual", "ual", "ual"}, {D, D, D}},
        {":", 0, {0}, {"ual", "ual", "ual"}, {D, D, D}},
        {"::::", 0, {0}, {"ual", "ual", "ual"}, {D, D, D}},
        {"=", 1, {"setting with no name: '='"}, {"ual", "ual", "ual"}, {D, D, D}},
        {"=generic", 1, {"setting with no name: '=generic'"}, {"ual", "ual", "ual"}, {D, D, D}},
        {"hwcaps", 1, {"'hwcaps'"}, {"ual", "ual", "ual"}, {D, D, D}},
        {"hwcaps=", 1, {"hwcaps needs a list"}, {"ual", "ual", "ual"}, {D, D, D}},
        {"hwcaps=UAL", 1, {"'UAL' needs a sign"}, {"ual", "ual", "ual"}, {D, D, D}},
        {"hwcaps=-FOO", 1, {"unknown feature 'FOO'"}, {"ual", "ual", "ual"}, {D, D, D}},
        {"hwcaps=-", 1, {"unknown feature ''"}, {"ual", "ual", "ual"}, {D, D, D}},
        {"hwcaps=,", 2, {"empty entry"}, {"ual", "ual", "ual"}, {D, D, D}},
        {"hwcaps=-UAL,", 1, {"empty entry"}, {"generic", "generic", "generic"}, {D, D, D}},
        {"hwcaps=-UAL,FOO", 1, {"'FOO' needs a sign"}, {"generic", "generic", "generic"}, {D, D, D}},
        {"memcpy", 1, {"'memcpy' needs a variant"}, {"ual", "ual", "ual"}, {D, D, D}},
        {"memcpy=", 1, {"'memcpy' needs a variant"}, {"ual", "ual", "ual"}, {D, D, D}},
        {"memcpy=nope", 1, {"memcpy: unknown variant 'nope'"}, {"ual", "ual", "ual"}, {D, D, D}},
        {"memcpy=generic=x", 1, {"unknown variant 'generic=x'"}, {"ual", "ual", "ual"}, {D, D, D}},
        {"all", 1, {"'all' needs a variant"}, {"ual", "ual", "ual"}, {D, D, D}},
        {"all=nope", 1, {"all: unknown variant 'nope'"}, {"ual", "ual", "ual"}, {D, D, D}},
        {"bogus=1", 1, {"unknown setting 'bogus'"}, {"ual", "ual", "ual"}, {D, D, D}},
        {"bogus", 1, {"unknown setting 'bogus'"}, {"ual", "ual", "ual"}, {D, D, D}},
        {"verbose=2", 1, {"verbose takes 0 or 1, not '2'"}, {"ual", "ual", "ual"}, {D, D, D}},
        {"verbose=", 1, {"verbose takes 0 or 1, not ''"}, {"ual", "ual", "ual"}, {D, D, D}},
        {" memcpy=generic", 1, {"unknown setting ' memcpy'"}, {"ual", "ual", "ual"}, {D, D, D}},
        {long_garbage, 1, {long_needle}, {"ual", "ual", "ual"}, {D, D, D}},
        {"\x01\x1b[31m\x7f\x80\xff=1", 1, {"unknown setting '\?\?[31m\?\?\?'"}, {"ual", "ual", "ual"}, {D, D, D}},
        {"memcpy=gen\neric", 1, {"unknown variant 'gen?eric'"}, {"ual", "ual", "ual"}, {D, D, D}},
        {ten_k_key, 1, {"unknown setting 'kkkk"}, {"ual", "ual", "ual"}, {D, D, D}},
        {ten_k_list, 0, {0}, {"generic", "generic", "generic"}, {D, D, D}},
        {ten_k_pin, 1, {"memcpy: unknown variant 'vvvv"}, {"ual", "ual", "ual"}, {D, D, D}},
        /* Valid parts around bad ones still apply. */
        {"bogus:memcpy=generic:hwcaps=UAL:memset=nope:memmove=GENERIC",
         3,
         {"'bogus'", "'UAL' needs a sign", "memset: unknown variant 'nope'"},
         {"generic", "generic", "ual"},
         {O, O, D}},
        {"hwcaps=-FOO,-UAL:verbose=yes:memset=generic",
         2,
         {"unknown feature 'FOO'", "not 'yes'"},
         {"generic", "generic", "generic"},
         {D, D, O}},
    };
    int total_warnings = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char what[80];
        snprintf(what, sizeof what, "case %zu '%.40s'", i, cases[i].value);
        decide(cpu_ual, cases[i].value, 0);
        expect(what, cases[i].v[0], cases[i].r[0], cases[i].v[1], cases[i].r[1], cases[i].v[2], cases[i].r[2]);
        expect_warnings(what, cases[i].warnings);
        for (int k = 0; k < 3 && cases[i].needle[k]; k++)
            CHECK(any_warning_has(&w, cases[i].needle[k]), "%s: no warning contains \"%s\"; got %d: '%s'", what,
                  cases[i].needle[k], w.n, w.n ? w.line[0] : "");
        /* The parser's own count agrees with the lines it emitted. */
        struct altmem__tunables t;
        memset(&t, 0, sizeof t);
        for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++)
            t.pin[r] = -1;
        int got = altmem__tunables_parse(cases[i].value, &t, NULL, NULL);
        CHECK(got == cases[i].warnings, "%s: parse returned %d without a callback", what, got);
        total_warnings += w.n;
    }
    printf("malformed: %zu values, %d warnings, each one line starting with \"" PREFIX
           "\" naming the bad part; valid parts applied\n",
           sizeof cases / sizeof cases[0], total_warnings);

    /* No callback: same decision, nothing to crash on. */
    struct altmem__state quiet;
    altmem__decide(cpu_strict, "bogus:all=ual:hwcaps=+SIMD512", 0, &quiet, NULL, NULL);
    CHECK(quiet.bound[0].reason == R && !strcmp(altmem__variants[quiet.bound[0].variant].name, "generic"),
          "decide without a warning callback");
}

/* The checker itself must reject what it is meant to reject. */
static void checker_controls(void)
{
    static const char *const bad[] = {
        "altmem: ALTMEM_TUNABLES: two\nlines",
        "warning: ALTMEM_TUNABLES: wrong prefix",
        "altmem: ALTMEM_TUNABLES: ",
        "altmem: ALTMEM_TUNABLES: raw \x1b byte",
    };
    int rejected = 0;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        rejected += shape_error(bad[i], strlen(bad[i])) != NULL;
    CHECK(rejected == (int)(sizeof bad / sizeof bad[0]), "warning-shape checker accepted a bad line");
    CHECK(shape_error(PREFIX "fine (ignored)", strlen(PREFIX "fine (ignored)")) == NULL,
          "warning-shape checker rejected a good line");
    struct warns fake;
    memset(&fake, 0, sizeof fake);
    collect(PREFIX "unknown setting 'x'", strlen(PREFIX "unknown setting 'x'"), &fake);
    CHECK(!any_warning_has(&fake, "'y'") && any_warning_has(&fake, "'x'"), "needle matcher");
    printf("negative controls: warning checker rejected %d malformed lines, needle matcher discriminates\n",
           rejected);
}

/* ---- Table invariants --------------------------------------------------- */

static int has_char(const char *s, const char *set)
{
    for (; *s; s++)
        if (strchr(set, *s) || (unsigned char)*s <= ' ' || (unsigned char)*s >= 0x7f)
            return 1;
    return 0;
}

static void table_invariants(void)
{
    size_t n = altmem__variant_total;
    CHECK(n == altmem_variant_count(), "altmem_variant_count %zu, table %zu", altmem_variant_count(), n);
    unsigned pref[ALTMEM_ROUTINE_COUNT] = {0};
    for (size_t i = 0; i < n; i++) {
        const struct altmem__variant *v = &altmem__variants[i];
        CHECK((unsigned)v->routine < ALTMEM_ROUTINE_COUNT, "row %zu: routine %d out of range", i, (int)v->routine);
        if ((unsigned)v->routine >= ALTMEM_ROUTINE_COUNT)
            continue;
        const char *rn = altmem_routine_name(v->routine);
        CHECK(v->name && v->name[0] && !has_char(v->name, ":=,+-"),
              "row %zu: name must be a plain token usable in ALTMEM_TUNABLES", i);
        CHECK(v->summary && v->summary[0] && !strchr(v->summary, '\n'), "row %zu (%s %s): summary not one line", i,
              rn, v->name);
        CHECK(v->fn.memcpy != NULL, "row %zu (%s %s): no function", i, rn, v->name);
        CHECK((v->requires >> ALTMEM_FEAT_COUNT) == 0, "row %zu (%s %s): requires an unnamed feature bit", i, rn,
              v->name);
        /* Found by name (any case), and only once per routine. */
        CHECK(altmem__variant_find(v->routine, v->name, strlen(v->name)) == (int)i,
              "row %zu (%s %s): name not unique within the routine", i, rn, v->name);
        char upper[32];
        size_t k = 0;
        for (; v->name[k] && k < sizeof upper - 1; k++)
            upper[k] = (char)(v->name[k] >= 'a' && v->name[k] <= 'z' ? v->name[k] - 32 : v->name[k]);
        CHECK(altmem__variant_find(v->routine, upper, k) == (int)i, "row %zu: '%.*s' not found", i, (int)k, upper);
        /* Reachable: an earlier variant of the routine whose requirements are a
           subset of this one's would always be chosen first, unless the policy
           can rule it out and not this one (512-bit registers, allow512 = 0;
           the other 512-bit variants where the rules ask for the _halves builds). */
        for (size_t j = 0; j < i; j++) {
            const struct altmem__variant *u = &altmem__variants[j];
            if (u->routine == v->routine)
                CHECK((u->requires & ~v->requires) != 0 || (u->vec512 && !v->vec512) ||
                          (u->vec512 && !u->halves64 && v->halves64),
                      "%s %s (row %zu) can never be selected: %s (row %zu) comes first and needs no more", rn,
                      v->name, i, u->name, j);
        }
        /* vec512 is the flag set avx512's: 512-bit registers in these names; halves64
           the name avx512_halves's (x86_vec_entry512.h: exactly 64 bytes). */
        int halves = !strcmp(v->name, "avx512_halves");
        CHECK(v->vec512 == (!strcmp(v->name, "avx512") || halves), "row %zu (%s %s): vec512 %d", i, rn, v->name,
              v->vec512);
        CHECK(v->halves64 == halves, "row %zu (%s %s): halves64 %d", i, rn, v->name, v->halves64);
        /* The public view agrees with the table. */
        struct altmem_variant_info info;
        CHECK(altmem_variant(i, &info) == 0 && info.routine == v->routine && !strcmp(info.name, v->name) &&
                  info.requires == v->requires && info.preference == pref[v->routine] &&
                  info.fn.memcpy == v->fn.memcpy,
              "altmem_variant(%zu) disagrees with the table", i);
        pref[v->routine]++;
    }
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
        int g = altmem__variant_find((enum altmem_routine)r, "generic", 7);
        CHECK(g >= 0 && altmem__variants[g].requires == 0, "%s: no generic variant requiring nothing",
              altmem_routine_name((enum altmem_routine)r));
        CHECK(pref[r] >= 1, "%s has no variants", altmem_routine_name((enum altmem_routine)r));
        CHECK(altmem__variant_find((enum altmem_routine)r, "nope", 4) == -1, "variant_find found 'nope'");
        CHECK(altmem__variant_find((enum altmem_routine)r, "generi", 6) == -1, "variant_find matched a prefix");
        CHECK(altmem__variant_find((enum altmem_routine)r, "generics", 8) == -1, "variant_find matched a longer name");
    }
    struct altmem_variant_info info;
    struct altmem_binding_info b;
    CHECK(altmem_variant(n, &info) == -1, "altmem_variant(count) did not fail");
    CHECK(altmem_binding(ALTMEM_ROUTINE_COUNT, &b) == -1, "altmem_binding(out of range) did not fail");
    CHECK(altmem_routine_name(ALTMEM_ROUTINE_COUNT) == NULL, "routine name out of range");
    CHECK(altmem_feature_name(ALTMEM_FEAT_COUNT) == NULL, "feature name out of range");
    for (unsigned f = 0; f < ALTMEM_FEAT_COUNT; f++)
        CHECK(altmem_feature_name(f) && !has_char(altmem_feature_name(f), ":=,+-"), "feature %u name", f);
    printf("table: %zu variants; every routine has generic (needs nothing); names unique, tunable-safe; "
           "every variant reachable; public view matches\n", n);
}

/* ---- Non-temporal threshold: derived from the caches, or nt_threshold= ---- */

static void nt_threshold(void)
{
    const size_t K = 1024, M = 1024 * 1024;
    static const struct {
        size_t l2, l3, want;
        const char *what;
    } derived[] = {
        {2 * M, 480 * M, 32 * M, "VM reporting the host's 480 MiB LLC: 16 x L2"},
        {512 * K, 32 * M, 8 * M, "Zen 3 CCX: LLC / 4"},
        {2 * M, 105 * M, 105 * M / 4, "56-core server: LLC / 4"},
        {1 * M, 0, 256 * K, "no L3: L2 / 4"},
        {0, 0, 16 * M, "caches unknown: 16 MiB"},
    };
    for (size_t i = 0; i < sizeof derived / sizeof derived[0]; i++) {
        struct altmem__cpu c = make_cpu("made-up", UAL);
        c.l2_bytes = derived[i].l2;
        c.l3_bytes = derived[i].l3;
        decide(&c, NULL, 0);
        CHECK(st.policy.nt_copy == derived[i].want && altmem__nt_default(&c) == derived[i].want,
              "nt default, %s: %zu, expected %zu", derived[i].what, st.policy.nt_copy, derived[i].want);
    }
    static const struct {
        const char *value;
        size_t want; /* (size_t)-1: rejected, the default stays */
    } given[] = {
        {"nt_threshold=4096", 4096},
        {"nt_threshold=0", 0},
        {"nt_threshold=64k", 64 * K},
        {"NT_THRESHOLD=3M", 3 * M},
        {"nt_threshold=2G", 2048 * M},
        {"nt_threshold=1M:nt_threshold=2M", 2 * M},
        {"nt_threshold=281474976710656", (size_t)1 << 48},
        {"nt_threshold=", (size_t)-1},
        {"nt_threshold", (size_t)-1},
        {"nt_threshold=12X", (size_t)-1},
        {"nt_threshold=-1", (size_t)-1},
        {"nt_threshold=1T", (size_t)-1},
        {"nt_threshold=K", (size_t)-1},
        {"nt_threshold=1MB", (size_t)-1},
        {"nt_threshold= 1", (size_t)-1},
        {"nt_threshold=281474976710657", (size_t)-1},
        {"nt_threshold=262144G", (size_t)1 << 48},
        {"nt_threshold=262145G", (size_t)-1},
        {"nt_threshold=99999999999999999999999999", (size_t)-1},
    };
    struct altmem__cpu c = make_cpu("made-up", UAL);
    c.l2_bytes = 2 * M;
    c.l3_bytes = 32 * M;
    for (size_t i = 0; i < sizeof given / sizeof given[0]; i++) {
        decide(&c, given[i].value, 0);
        int bad = given[i].want == (size_t)-1;
        expect_warnings(given[i].value, bad);
        CHECK(!bad || any_warning_has(&w, "nt_threshold takes a byte count"), "%s: warning '%s'", given[i].value,
              w.n ? w.line[0] : "");
        size_t want = bad ? 8 * M : given[i].want;
        CHECK(st.policy.nt_copy == want, "%s: nt_threshold %zu, expected %zu", given[i].value, st.policy.nt_copy, want);
    }
    /* Ignored with the rest of ALTMEM_TUNABLES in AT_SECURE processes. */
    decide(&c, "nt_threshold=1", 1);
    CHECK(st.policy.nt_copy == 8 * M, "secure: nt_threshold %zu", st.policy.nt_copy);
    printf("nt_threshold: %zu derived from made-up caches, %zu values of nt_threshold= (bad ones warned, "
           "default kept), ignored when secure\n",
           sizeof derived / sizeof derived[0], sizeof given / sizeof given[0]);
}

#define KB ((size_t)1 << 10)
#define MB ((size_t)1 << 20)
#define NEVER ((size_t)-1)

/* ---- x86_64: the SIMD and string-instruction rows ------------------------ */

static void x86_rows(void)
{
#if defined(__x86_64__)
    const uint64_t S128 = ALTMEM_FEAT_SIMD128, S256 = ALTMEM_FEAT_SIMD256, S512 = ALTMEM_FEAT_SIMD512,
                   ERMS = ALTMEM_FEAT_ERMS, FSRM = ALTMEM_FEAT_FSRM;
    /* One variant per vector width; rep movsb / rep stosb are policy: the
       rule no-erms (or hwcaps=-ERMS) turns them off (string 0), -1: a variant
       that has no string path. */
    static const struct {
        uint64_t f;
        const char *tun, *want;
        int string;
    } cases[] = {
        {0, NULL, "avx512", 1}, /* f filled in below: everything this file knows */
        {UAL | S128 | S256 | S512, NULL, "avx512", 0},
        {0, "hwcaps=-ERMS", "avx512", 0},
        {UAL | S128 | S256 | ERMS | FSRM, NULL, "avx2", 1},
        {UAL | S128 | S256, NULL, "avx2", 0},
        {UAL | S128 | ERMS, NULL, "sse2", 1},
        {UAL | S128, NULL, "sse2", 0},
        {0, "hwcaps=-SIMD512", "avx2", 1},
        {UAL | S128 | S512 | ERMS, NULL, "avx512", 1},
        {0, "hwcaps=-SIMD512,-ERMS", "avx2", 0},
        {0, "hwcaps=-SIMD512,-SIMD256", "sse2", 1},
        {0, "hwcaps=-SIMD512,-SIMD256,-ERMS", "sse2", 0},
        {0, "hwcaps=-SIMD512,-SIMD256,-SIMD128", "ual", -1},
        {0, "hwcaps=-UAL", "generic", -1},
        {S128 | S256 | S512 | ERMS, NULL, "generic", -1}, /* no UAL: strict alignment */
        /* a tunable still sets what the rule turned off */
        {0, "hwcaps=-ERMS:rep_movsb_threshold=4K:rep_stosb_threshold=8K", "avx512", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint64_t f = cases[i].f ? cases[i].f : UAL | S128 | S256 | S512 | ERMS | FSRM;
        struct altmem__cpu c = make_cpu("made-up-x86", f);
        decide(&c, cases[i].tun, 0);
        char what[96];
        snprintf(what, sizeof what, "x86 features %#llx %s", (unsigned long long)f,
                 cases[i].tun ? cases[i].tun : "");
        expect(what, cases[i].want, D, cases[i].want, D, cases[i].want, D);
        expect_warnings(what, 0);
        if (cases[i].string >= 0) {
            int movsb = st.policy.movsb[0] != NEVER && st.policy.movsb[1] != NEVER && st.policy.movsb[2] != NEVER &&
                        st.policy.movsb_coaligned != NEVER;
            int stosb = st.policy.stosb[0] != NEVER && st.policy.stosb[1] != NEVER && st.policy.stosb[2] != NEVER;
            int none = st.policy.movsb[0] == NEVER && st.policy.movsb[1] == NEVER && st.policy.movsb[2] == NEVER &&
                       st.policy.movsb_coaligned == NEVER && st.policy.stosb[0] == NEVER &&
                       st.policy.stosb[1] == NEVER && st.policy.stosb[2] == NEVER;
            CHECK(cases[i].string ? movsb && stosb : none, "%s: rep movsb from %zu/%zu/%zu, rep stosb from %zu/%zu/%zu; "
                  "expected %s", what, st.policy.movsb[0], st.policy.movsb[1], st.policy.movsb[2], st.policy.stosb[0],
                  st.policy.stosb[1], st.policy.stosb[2], cases[i].string ? "a size" : "never");
        }
    }
    /* Pins by name (the merged names too: aliases, any case), and refusals of
       rows the CPU cannot run. */
    struct altmem__cpu avx2 = make_cpu("made-up-x86", UAL | S128 | S256);
    decide(&avx2, "memcpy=sse2:memset=avx512:memmove=erms", 0);
    expect("x86 pins", "sse2", O, "sse2", O, "avx2", R);
    expect_warnings("x86 pins", 1);
    CHECK(any_warning_has(&w, "memset=avx512") && any_warning_has(&w, "SIMD512"),
          "x86 refusal does not name the pin and the feature: '%s'", w.line[0]);
    decide(&avx2, "memcpy=AVX2_ERMS:memset=avx512_erms", 0);
    expect("x86 alias pins", "avx2", O, "avx2", D, "avx2", R);
    expect_warnings("x86 alias pins", 1);
    CHECK(any_warning_has(&w, "memset=avx512_erms (now avx512)") && any_warning_has(&w, "SIMD512"),
          "x86 alias refusal does not name the pin, its new name and the feature: '%s'", w.line[0]);
    CHECK(strstr(st.bound[ALTMEM_MEMCPY].why, "as avx2_erms, the old name of avx2") != NULL,
          "x86 alias pin: why does not name the old spelling: '%s'", st.bound[ALTMEM_MEMCPY].why);
    printf("x86_64 rows: %zu feature sets bind avx512 > avx2 > sse2 > ual > generic, rep movsb/stosb on iff ERMS "
           "(or a tunable); pins, the old _erms names as aliases, refusals\n", sizeof cases / sizeof cases[0]);
#else
    printf("x86_64 rows: not on this architecture\n");
#endif
}

/* ---- Per-CPU rules (src/policy.c): every row, on CPUs no session can run --- */


struct rule_case {
    const char *what;
    int vendor;
    unsigned family, model;
    uint32_t idflags;
    uint64_t features;
    size_t l2, l3;
    /* expected */
    const char *memcpy_variant;
    size_t nt_copy, nt_set, movsb2, movsb_coal, stosb2, short_distance;
    const char *rules;            /* the applied rules' names, space-separated */
    size_t glibc_nt;              /* glibc 2.36's threshold on that CPU (0: not known) */
};

static void policy_rules(void)
{
    const uint64_t x86 = UAL | ALTMEM_FEAT_SIMD128 | ALTMEM_FEAT_SIMD256 | ALTMEM_FEAT_ERMS | ALTMEM_FEAT_FSRM;
    const uint64_t x512 = x86 | ALTMEM_FEAT_SIMD512;
    const int I = ALTMEM__VENDOR_INTEL, A = ALTMEM__VENDOR_AMD, X = ALTMEM__VENDOR_OTHER;
    static const char *const dflt = "defaults";
    const struct rule_case cases[] = {
        /* Skylake-SP, Cascade Lake: AVX-512, no AVX-VNNI (glibc Prefer_No_AVX512), no FSRM */
        {"Skylake-SP 6/0x55", I, 6, 0x55, 0, x512 & ~ALTMEM_FEAT_FSRM, 1 * MB, 32 * MB, "avx2", 8 * MB, 8 * MB, 32 * KB, 16 * KB,
         4 * KB, 0, "defaults intel-avx512-no-vnni", 0},
        /* ... with RTM that can commit: the evex copies, not the avx2 ones (intel-rtm) */
        {"Skylake-SP 6/0x55, RTM", I, 6, 0x55, ALTMEM__ID_RTM, x512 & ~ALTMEM_FEAT_FSRM, 1 * MB, 32 * MB, "evex", 8 * MB,
         8 * MB, 32 * KB, 16 * KB, 4 * KB, 0, "defaults intel-avx512-no-vnni intel-rtm", 0},
        /* Ice Lake-SP (the model 106 machine of issue 11) */
        {"Ice Lake-SP 6/0x6a", I, 6, 0x6a, 0, x512, 2 * MB, 48 * MB, "avx2", 12 * MB, 12 * MB, 32 * KB, 16 * KB,
         4 * KB, 0, "defaults intel-avx512-no-vnni intel-fsrm", 0},
        /* Sapphire Rapids: AVX-VNNI, 512-bit allowed */
        {"Sapphire Rapids 6/0x8f", I, 6, 0x8f, ALTMEM__ID_AVX_VNNI, x512, 2 * MB, 105 * MB, "avx512", 26880 * KB,
         26880 * KB, 32 * KB, 16 * KB, 4 * KB, 0, "defaults intel-fsrm", 0},
        /* the family 6 model 167 guest of docs/performance.md (480 MiB L3 reported) */
        {"Intel 6/167 KVM", I, 6, 167, ALTMEM__ID_AVX_VNNI | ALTMEM__ID_HYPERVISOR, x512, 2 * MB, 480 * MB,
         "avx512", 32 * MB, 32 * MB, 32 * KB, 16 * KB, 4 * KB, 0, "defaults intel-fsrm", 0},
        /* ... which has RTM: the rule applies, avx512 binds as before */
        {"Intel 6/167 KVM, RTM", I, 6, 167, ALTMEM__ID_AVX_VNNI | ALTMEM__ID_HYPERVISOR | ALTMEM__ID_RTM, x512, 2 * MB,
         480 * MB, "avx512", 32 * MB, 32 * MB, 32 * KB, 16 * KB, 4 * KB, 0, "defaults intel-rtm intel-fsrm", 0},
        /* Emerald Rapids, the KVM guest of issue 20 (260 MiB L3, 2 threads per L3, L2 not
           inclusive: glibc streams from (260 / 2 + 2) MiB x 3/4 = 99 MiB, 0x6300000) */
        {"Intel 6/207 KVM", I, 6, 207, ALTMEM__ID_AVX_VNNI | ALTMEM__ID_HYPERVISOR, x512, 2 * MB, 260 * MB,
         "avx512", 4 * MB, 40 * MB, 20 * KB, 16 * KB, 4 * KB, 0, "defaults intel-emr-kvm intel-fsrm", 99 * MB},
        /* ... and with ERMS hidden (hwcaps=-ERMS): no-erms, after it, turns every rep movsb off,
           the 32-byte apart start too */
        {"Intel 6/207 KVM, no ERMS", I, 6, 207, ALTMEM__ID_AVX_VNNI | ALTMEM__ID_HYPERVISOR, x512 & ~ALTMEM_FEAT_ERMS,
         2 * MB, 260 * MB, "avx512", 4 * MB, 40 * MB, NEVER, NEVER, NEVER, 0, "defaults intel-emr-kvm intel-fsrm no-erms", 99 * MB},
        /* ... and on bare metal: glibc's threshold */
        {"Intel 6/207", I, 6, 207, ALTMEM__ID_AVX_VNNI, x512, 2 * MB, 260 * MB, "avx512", 99 * MB, 99 * MB,
         32 * KB, 16 * KB, 4 * KB, 0, "defaults intel-fsrm", 99 * MB},
        /* an Intel without AVX-512: the rule does not apply */
        {"Intel Alder Lake 6/0x97", I, 6, 0x97, ALTMEM__ID_AVX_VNNI, x86, 1280 * KB, 30 * MB, "avx2",
         7680 * KB, 7680 * KB, 32 * KB, 16 * KB, 4 * KB, 0, "defaults intel-fsrm", 0},
        /* Zen 2, Zen 3 (AVX2): glibc's AMD rules */
        {"Zen 2 0x17/0x31", A, 0x17, 0x31, 0, x86 & ~ALTMEM_FEAT_FSRM, 512 * KB, 16 * MB, "avx2", 12 * MB,
         12 * MB, NEVER, NEVER, NEVER, 63, "defaults amd-zen-no-string", 12 * MB},
        /* the KVM guest of issue 21: glibc 2.36 reads a 256 MiB L3 from CPUID 0x80000006
           there and streams from 192 MiB (ld.so --list-diagnostics: 0xc000000) */
        {"Zen 3 0x19/0x01 KVM", A, 0x19, 0x01, ALTMEM__ID_HYPERVISOR, x86, 512 * KB, 32 * MB, "avx2", 192 * MB,
         192 * MB, NEVER, NEVER, NEVER, 63, "defaults amd-zen-no-string", 192 * MB},
        /* Zen 4: AVX-512, allowed on AMD; streaming copies from 3/4 of the L3, memset
           from 8 times it (measured: docs/perf/amd-family25-model17.md) */
        {"Zen 4 0x19/0x11", A, 0x19, 0x11, ALTMEM__ID_AVX_VNNI, x512, 1 * MB, 32 * MB, "avx512_halves", 24 * MB,
         256 * MB, NEVER, NEVER, NEVER, 63, "defaults amd-zen-no-string amd-zen4", 24 * MB},
        /* ... the KVM guest of issue 28, where glibc 2.36 reads 320 MiB from the legacy
           leaf and streams from 240 MiB: the rule takes the L3 of 0x8000001D */
        {"Zen 4 0x19/0x11 KVM", A, 0x19, 0x11, ALTMEM__ID_HYPERVISOR, x512, 1 * MB, 32 * MB, "avx512_halves", 24 * MB,
         256 * MB, NEVER, NEVER, NEVER, 63, "defaults amd-zen-no-string amd-zen4", 240 * MB},
        /* ... and with no L3 known: the rule's thresholds from it do not apply (glibc
           2.36's stays), the rest of the rule does */
        {"Zen 4, caches unknown", A, 0x19, 0x61, 0, x512, 0, 0, "avx512_halves", 64 * MB, 64 * MB, NEVER, NEVER, NEVER,
         63, "defaults amd-zen-no-string amd-zen4", 64 * MB},
        /* Zen 5: measured (docs/perf/amd-family26-model2.md) */
        {"Zen 5 0x1a/0x02", A, 0x1a, 0x02, ALTMEM__ID_AVX_VNNI | ALTMEM__ID_HYPERVISOR, x512, 1 * MB, 32 * MB,
         "avx512", 16 * MB, 64 * MB, 32 * KB, 32 * KB, 1 * MB, 0, "defaults amd-zen-no-string amd-zen5", 24 * MB},
        {"Zen 5, caches unknown", A, 0x1a, 0x44, 0, x512, 0, 0, "avx512", 16 * MB, 64 * MB, 32 * KB, 32 * KB,
         1 * MB, 0, "defaults amd-zen-no-string amd-zen5", 0},
        /* pre-Zen AMD (family 0x15): defaults only */
        {"AMD 0x15", A, 0x15, 0x02, 0, x86, 2 * MB, 8 * MB, "avx2", 2 * MB, 2 * MB, 32 * KB, 16 * KB, 4 * KB,
         0, "defaults", 0},
        /* a vendor we do not know, and a CPU we cannot identify at all */
        {"other vendor", X, 7, 0x5b, 0, x512, 512 * KB, 32 * MB, "avx512", 8 * MB, 8 * MB, 32 * KB, 16 * KB,
         4 * KB, 0, "defaults", 0},
        {"unidentified", ALTMEM__VENDOR_UNKNOWN, 0, 0, 0, UAL, 0, 0, "ual", 16 * MB, 16 * MB, NEVER, NEVER,
         NEVER, 0, "defaults no-erms", 0},
        /* an x86_64 without ERMS (Intel before Ivy Bridge, or a hypervisor that
           hides the bit): no rep movsb / rep stosb */
        {"Intel 6/0x1a (Nehalem), no ERMS", I, 6, 0x1a, 0, UAL | ALTMEM_FEAT_SIMD128, 256 * KB, 8 * MB, "sse2",
         2 * MB, 2 * MB, NEVER, NEVER, NEVER, 0, "defaults no-erms", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct rule_case *k = &cases[i];
        struct altmem__cpu c = make_cpu("x86_64", k->features);
        c.vendor = k->vendor;
        c.family = k->family;
        c.model = k->model;
        c.idflags = k->idflags;
        c.l2_bytes = k->l2;
        c.glibc_nt = k->glibc_nt;
        c.l3_bytes = k->l3;
        struct altmem__policy p;
        memset(&p, 0xee, sizeof p);
        altmem__policy_for(&c, &p);
        /* Installed, the variables the variants read: the derived ones too
           (this process's own policy is put back after the table). */
        altmem__policy_install(&p);
        size_t stop_min = p.movsb_stop16 < p.movsb_stop16_apart ? p.movsb_stop16 : p.movsb_stop16_apart;
        stop_min = stop_min < p.movsb_stop16_near ? stop_min : p.movsb_stop16_near;
        size_t nt16 = p.nt_copy16_never ? NEVER : p.nt_copy;
        /* the 32-byte copies' start with src and dst apart mod 32: only intel-fsrm sets its own */
        size_t apart = p.movsb32_apart < p.movsb[1] ? p.movsb32_apart : p.movsb[1];
        size_t want_apart = strstr(k->rules, "intel-fsrm") && !strstr(k->rules, "no-erms") ? 2560 : p.movsb[1];
        CHECK(apart == want_apart, "%s: 32-byte rep movsb apart from %zu, expected %zu", k->what, apart, want_apart);
        CHECK(altmem__rep_movsb_stop_16_min == stop_min && altmem__copy_loop_below[0] == (p.movsb[0] < nt16 ? p.movsb[0] : nt16) &&
                  altmem__copy_loop_below[1] == (apart < p.nt_copy ? apart : p.nt_copy) &&
                  altmem__copy_loop_below_32_coaligned == (p.movsb[1] < p.nt_copy ? p.movsb[1] : p.nt_copy) &&
                  altmem__rep_movsb_start_32_apart == apart &&
                  altmem__nt_threshold_fwd_overlap == (p.nt_fwd_overlap > p.nt_copy ? p.nt_fwd_overlap : p.nt_copy),
              "%s: installed: stop min %zu (want %zu), copy loops below %zu/%zu (co-aligned %zu), 32-byte apart from %zu, "
              "forward overlaps from %zu", k->what, altmem__rep_movsb_stop_16_min, stop_min, altmem__copy_loop_below[0],
              altmem__copy_loop_below[1], altmem__copy_loop_below_32_coaligned, altmem__rep_movsb_start_32_apart,
              altmem__nt_threshold_fwd_overlap);
        /* rep movsb with no other test (large()): below streaming and the 16-byte stops, none with a short distance */
        size_t direct16 = p.short_distance || p.movsb_fwd_overlap[0] ? 0 : stop_min == NEVER ? nt16 : stop_min + 1 < nt16 ? stop_min + 1 : nt16;
        size_t direct32 = p.short_distance || p.movsb_fwd_overlap[1] ? 0 : p.nt_copy;
        /* the 64-byte copies' loops: below both their rep movsb starts, streaming and the hand-over */
        size_t below512 = p.movsb[2] < p.movsb_coaligned ? p.movsb[2] : p.movsb_coaligned;
        below512 = below512 < p.nt_copy ? below512 : p.nt_copy;
        below512 = p.split_loads_above != NEVER && p.split_loads_above + 1 < below512 ? p.split_loads_above + 1 : below512;
        CHECK(altmem__copy_loop_below_512 == below512, "%s: 64-byte copy loops below %zu, expected %zu", k->what,
              altmem__copy_loop_below_512, below512);
        CHECK(altmem__rep_movsb_direct_below[0] == direct16 && altmem__rep_movsb_direct_below[1] == direct32,
              "%s: rep movsb direct below %zu/%zu, expected %zu/%zu", k->what, altmem__rep_movsb_direct_below[0],
              altmem__rep_movsb_direct_below[1], direct16, direct32);
        CHECK(p.nt_copy == k->nt_copy && p.nt_set == k->nt_set, "%s: nt %zu/%zu, expected %zu/%zu", k->what,
              p.nt_copy, p.nt_set, k->nt_copy, k->nt_set);
        CHECK(p.movsb[2] == k->movsb2 && p.movsb_coaligned == k->movsb_coal && p.stosb[2] == k->stosb2,
              "%s: movsb %zu (co-aligned %zu), stosb %zu; expected %zu, %zu, %zu", k->what, p.movsb[2],
              p.movsb_coaligned, p.stosb[2], k->movsb2, k->movsb_coal, k->stosb2);
        CHECK(p.short_distance == k->short_distance, "%s: short distance %zu, expected %zu", k->what,
              p.short_distance, k->short_distance);
        /* Only amd-zen4 hands misaligned copies above 512 B to the 32-byte variant. */
        size_t split = strstr(k->rules, "amd-zen4") ? 512 : NEVER;
        /* ... and keeps its 16-byte copies out of streaming (so does amd-zen5). */
        CHECK(p.nt_copy16_never == (strstr(k->rules, "amd-zen4") || strstr(k->rules, "amd-zen5")),
              "%s: nt_copy16_never %d", k->what, p.nt_copy16_never);
        CHECK(p.nt_copy_linear == (strstr(k->rules, "amd-zen4") || strstr(k->rules, "amd-zen5")),
              "%s: nt_copy_linear %d", k->what, p.nt_copy_linear);
        /* Only amd-zen5 hands the 64-byte copies' streaming to the 32-byte variant (installed as such). */
        CHECK(p.split_loads_streaming == (strstr(k->rules, "amd-zen5") != NULL) &&
                  altmem__copy_split_loads_streaming == (size_t)p.split_loads_streaming,
              "%s: split loads streaming %d (installed %zu)", k->what, p.split_loads_streaming,
              altmem__copy_split_loads_streaming);
        /* Only intel-emr-kvm streams forward overlaps later than the rest, and amd-zen5 never. */
        CHECK(p.nt_fwd_overlap == (strstr(k->rules, "intel-emr-kvm") ? 16 * MB : strstr(k->rules, "amd-zen5") ? NEVER : 0),
              "%s: nt_fwd_overlap %zu", k->what, p.nt_fwd_overlap);
        /* Only amd-zen5 turns the 64-byte memset's lines off (installed as the mask). */
        CHECK(p.memset_no_lines == (strstr(k->rules, "amd-zen5") != NULL) &&
                  altmem__memset_lines_mask == (p.memset_no_lines ? 0 : 63),
              "%s: memset lines off %d (mask %zu)", k->what, p.memset_no_lines, altmem__memset_lines_mask);
        /* Only amd-zen5 streams equally aligned copies later than the rest (never; installed as such). */
        CHECK(p.nt_coaligned == (strstr(k->rules, "amd-zen5") ? NEVER : 0) &&
                  altmem__nt_threshold_coaligned == (p.nt_coaligned > p.nt_copy ? p.nt_coaligned : p.nt_copy),
              "%s: equally aligned copies stream from %zu (installed %zu)", k->what, p.nt_coaligned,
              altmem__nt_threshold_coaligned);
        /* Only amd-zen5 starts forward overlaps' rep movsb later than the rest, per
           width (installed as such), and starts its 16-byte rep movsb and rep stosb
           earlier than the wider ones'. */
        int zen5 = strstr(k->rules, "amd-zen5") != NULL;
        static const size_t zen5_fwd[3] = {8 * KB, 40 * KB, 64 * KB};
        for (int w = 0; w < 3; w++)
            CHECK(p.movsb_fwd_overlap[w] == (zen5 ? zen5_fwd[w] : 0) &&
                      altmem__rep_movsb_start_fwd_overlap[w] == p.movsb_fwd_overlap[w],
                  "%s: width %d: forward overlaps' rep movsb from %zu (installed %zu)", k->what, w,
                  p.movsb_fwd_overlap[w], altmem__rep_movsb_start_fwd_overlap[w]);
        CHECK(!zen5 || strstr(k->rules, "no-erms") || (p.movsb[0] == 3 * KB && p.movsb[1] == 32 * KB),
              "%s: 16/32-byte rep movsb from %zu/%zu, expected 3/32 KiB", k->what, p.movsb[0], p.movsb[1]);
        CHECK(!zen5 || strstr(k->rules, "no-erms") || (p.stosb[0] == 2 * KB && p.stosb[1] == p.stosb[2]),
              "%s: 16/32-byte rep stosb from %zu/%zu, expected 2 KiB and the 64-byte start", k->what, p.stosb[0],
              p.stosb[1]);
        CHECK(!strstr(k->rules, "amd-zen4") || p.stosb[0] == 2 * KB, "%s: 16-byte rep stosb from %zu, expected 2 KiB",
              k->what, p.stosb[0]);
        /* ... up to 3/4 of the L3 where it is known; no stop anywhere else. */
        size_t stop16 = strstr(k->rules, "amd-zen4") && k->l3 ? k->l3 / 4 * 3 : NEVER;
        CHECK(p.stosb_stop16 == stop16, "%s: 16-byte rep stosb up to %zu, expected %zu", k->what, p.stosb_stop16,
              stop16);
        /* ... and its 16-byte copies take rep movsb from 2 to 32 KiB (8 KiB apart, 12 MiB src 64 B-4 KiB ahead); no stop elsewhere. */
        int zen4 = strstr(k->rules, "amd-zen4") != NULL && !strstr(k->rules, "no-erms");
        CHECK(!zen4 || p.movsb[0] == 2 * KB, "%s: 16-byte rep movsb from %zu, expected 2 KiB", k->what, p.movsb[0]);
        CHECK(p.movsb_stop16 == (strstr(k->rules, "amd-zen4") ? 32 * KB : NEVER) &&
                  p.movsb_stop16_apart == (strstr(k->rules, "amd-zen4") ? 8 * KB : NEVER) &&
                  p.movsb_stop16_near == (strstr(k->rules, "amd-zen4") ? 12 * MB : NEVER),
              "%s: 16-byte rep movsb up to %zu (near %zu)", k->what, p.movsb_stop16, p.movsb_stop16_near);
        CHECK(p.split_loads_above == split, "%s: split loads above %zu, expected %zu", k->what, p.split_loads_above,
              split);
        char names[200] = "";
        for (size_t r = 0; r < altmem__policy_rule_count; r++)
            if (p.rules >> r & 1)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", names[0] ? " " : "",
                         altmem__policy_rules[r].name);
        CHECK(!strcmp(names, k->rules), "%s: rules '%s', expected '%s'", k->what, names, k->rules);
#if defined(__x86_64__)
        /* ... and the decision: the rules' variant, no warning. */
        decide(&c, NULL, 0);
        CHECK(!strcmp(bound_name(ALTMEM_MEMCPY), k->memcpy_variant), "%s: memcpy bound %s, expected %s", k->what,
              bound_name(ALTMEM_MEMCPY), k->memcpy_variant);
        CHECK(st.policy.nt_copy == k->nt_copy, "%s: decide's policy differs from the rules'", k->what);
        /* memmove as memcpy; where RTM kept the avx2 copies out, the reason says so. */
        CHECK(!strcmp(bound_name(ALTMEM_MEMMOVE), k->memcpy_variant), "%s: memmove bound %s, expected %s", k->what,
              bound_name(ALTMEM_MEMMOVE), k->memcpy_variant);
        CHECK(strcmp(k->memcpy_variant, "evex") || strstr(st.bound[ALTMEM_MEMMOVE].why, "avx2 (rule intel-rtm)"),
              "%s: why does not name intel-rtm: '%s'", k->what, st.bound[ALTMEM_MEMMOVE].why);
        expect_warnings(k->what, 0);
        /* nt_threshold= is every copy's threshold, forward overlaps' too. */
        decide(&c, "nt_threshold=8M", 0);
        CHECK(st.policy.nt_copy == 8 * MB && st.policy.nt_fwd_overlap == 0,
              "%s: nt_threshold=8M: nt %zu, forward overlaps %zu", k->what, st.policy.nt_copy,
              st.policy.nt_fwd_overlap);
        /* rep_movsb_threshold= is every copy's start, forward overlaps' too. */
        decide(&c, "rep_movsb_threshold=8K", 0);
        CHECK(st.policy.movsb[0] == 8 * KB && st.policy.movsb[2] == 8 * KB && st.policy.movsb_fwd_overlap[0] == 0 &&
                  st.policy.movsb_fwd_overlap[1] == 0 && st.policy.movsb_fwd_overlap[2] == 0,
              "%s: rep_movsb_threshold=8K: rep movsb from %zu/%zu, forward overlaps %zu/%zu/%zu", k->what,
              st.policy.movsb[0], st.policy.movsb[2], st.policy.movsb_fwd_overlap[0], st.policy.movsb_fwd_overlap[1],
              st.policy.movsb_fwd_overlap[2]);
        decide(&c, NULL, 0);
        /* The 64-byte variants' _halves builds: only where amd-zen4 asks, all three
           routines, and why names the rule. */
        int zen4_halves = strstr(k->rules, "amd-zen4") != NULL;
        CHECK(p.halves64 == zen4_halves && (p.halves64_rule >= 0) == zen4_halves &&
                  (!zen4_halves || !strcmp(altmem__policy_rules[p.halves64_rule].name, "amd-zen4")),
              "%s: halves64 %d (rule %d)", k->what, p.halves64, p.halves64_rule);
        if (p.allow512 && (k->features & ALTMEM_FEAT_SIMD512)) {
            const char *want = zen4_halves ? "avx512_halves" : "avx512";
            CHECK(!strcmp(bound_name(ALTMEM_MEMMOVE), want) && !strcmp(bound_name(ALTMEM_MEMSET), want),
                  "%s: memmove %s, memset %s, expected %s", k->what, bound_name(ALTMEM_MEMMOVE),
                  bound_name(ALTMEM_MEMSET), want);
            CHECK(!zen4_halves || strstr(st.bound[ALTMEM_MEMCPY].why, "avx512 (rule amd-zen4)") != NULL,
                  "%s: why does not name the rule that kept avx512 out: '%s'", k->what,
                  st.bound[ALTMEM_MEMCPY].why);
            decide(&c, zen4_halves ? "memcpy=avx512" : "memcpy=avx512_halves", 0); /* a pin still can */
            CHECK(!strcmp(bound_name(ALTMEM_MEMCPY), zen4_halves ? "avx512" : "avx512_halves"),
                  "%s: pin of the other 64-byte build not honoured", k->what);
            expect_warnings(k->what, 0);
            decide(&c, NULL, 0);
        }
        if (!p.allow512) {
            CHECK(strstr(st.bound[ALTMEM_MEMCPY].why, "rule intel-avx512-no-vnni") != NULL,
                  "%s: why does not name the rule: '%s'", k->what, st.bound[ALTMEM_MEMCPY].why);
            /* memset has a 32-byte variant with AVX-512's masked stores: that one,
               as glibc binds its evex variants there. */
            CHECK(!strcmp(bound_name(ALTMEM_MEMSET), "evex"), "%s: memset bound %s, expected evex", k->what,
                  bound_name(ALTMEM_MEMSET));
            decide(&c, "memcpy=avx512", 0); /* a pin still can */
            CHECK(!strcmp(bound_name(ALTMEM_MEMCPY), "avx512"), "%s: pin avx512 not honoured", k->what);
        }
#endif
    }
    altmem__policy_install(&altmem__global.policy);
    /* Every row says where it comes from. */
    for (size_t r = 0; r < altmem__policy_rule_count; r++) {
        const struct altmem__policy_rule *row = &altmem__policy_rules[r];
        CHECK(row->name && row->when && row->changes && row->source &&
                  (strstr(row->source, "glibc") || strstr(row->source, "measured")),
              "rule %zu has no published or measured source", r);
    }
    CHECK(!strcmp(altmem__policy_rules[0].name, dflt), "row 0 is not the defaults");

    /* ALTMEM_TUNABLES overrides setting by setting, with validated values. */
    struct altmem__cpu z5 = make_cpu("x86_64", x512);
    z5.vendor = A;
    z5.family = 0x1a;
    z5.l2_bytes = 1 * MB;
    z5.l3_bytes = 32 * MB;
    const struct {
        const char *value;
        int warnings;
        size_t nt_copy, nt_set, movsb, stosb, shortd;
    } ov[] = {
        {"rep_movsb_threshold=64K", 0, 16 * MB, 64 * MB, 64 * KB, 1 * MB, 0},
        {"rep_movsb_threshold=never:rep_stosb_threshold=2048", 0, 16 * MB, 64 * MB, NEVER, 2 * KB, 0},
        {"nt_threshold=8M", 0, 8 * MB, 8 * MB, 32 * KB, 1 * MB, 0},
        {"nt_threshold=8M:memset_nt_threshold=never", 0, 8 * MB, NEVER, 32 * KB, 1 * MB, 0},
        {"rep_movsb_short_distance=63", 0, 16 * MB, 64 * MB, 32 * KB, 1 * MB, 63},
        {"rep_movsb_short_distance=4095", 0, 16 * MB, 64 * MB, 32 * KB, 1 * MB, 4095},
        {"rep_movsb_short_distance=4096", 1, 16 * MB, 64 * MB, 32 * KB, 1 * MB, 0},
        {"rep_movsb_short_distance=-1", 1, 16 * MB, 64 * MB, 32 * KB, 1 * MB, 0},
        {"rep_stosb_threshold=12X", 1, 16 * MB, 64 * MB, 32 * KB, 1 * MB, 0},
        {"rep_stosb_threshold=", 1, 16 * MB, 64 * MB, 32 * KB, 1 * MB, 0},
        {"rep_movsb_threshold=1T", 1, 16 * MB, 64 * MB, 32 * KB, 1 * MB, 0},
        {"memset_nt_threshold=nevermore", 1, 16 * MB, 64 * MB, 32 * KB, 1 * MB, 0},
        {"rep_movsb_threshold=0:rep_stosb_threshold=0", 0, 16 * MB, 64 * MB, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof ov / sizeof ov[0]; i++) {
        decide(&z5, ov[i].value, 0);
        expect_warnings(ov[i].value, ov[i].warnings);
        const struct altmem__policy *p = &st.policy;
        /* (movsb: the 32- and 64-byte starts; amd-zen5 starts the 16-byte ones at 3 KiB, the setting all three) */
        CHECK(p->nt_copy == ov[i].nt_copy && p->nt_set == ov[i].nt_set && p->movsb[1] == ov[i].movsb &&
                  p->movsb[2] == ov[i].movsb && p->movsb_coaligned == ov[i].movsb && p->stosb[1] == ov[i].stosb &&
                  p->short_distance == ov[i].shortd,
              "%s: policy nt %zu/%zu movsb %zu stosb %zu short %zu", ov[i].value, p->nt_copy, p->nt_set, p->movsb[1],
              p->stosb[1], p->short_distance);
        CHECK(st.rules_policy.movsb[2] == 32 * KB, "%s: the rules' own policy was changed", ov[i].value);
        /* nt_threshold= is every copy's, equally aligned ones' too (amd-zen5 starts them never) */
        CHECK(p->nt_coaligned == (strstr(ov[i].value, "nt_threshold=8M") ? 0 : NEVER),
              "%s: equally aligned copies stream from %zu", ov[i].value, p->nt_coaligned);
    }
    /* In AT_SECURE processes none of it applies. */
    decide(&z5, "rep_movsb_threshold=64K:nt_threshold=1M", 1);
    CHECK(st.policy.movsb[2] == 32 * KB && st.policy.nt_copy == 16 * MB, "secure: policy overrides applied");
    printf("policy: %zu CPUs through the rule table (%zu rules), %zu overrides\n", sizeof cases / sizeof cases[0],
           altmem__policy_rule_count, sizeof ov / sizeof ov[0]);
}

/* The Zicboz block reaches the variants (the policy's zero_block) only while
   selection uses ZICBOZ on riscv64: hwcaps=-ZICBOZ turns cbo.zero off. */
static void zero_block(void)
{
    struct altmem__cpu rv = make_cpu("riscv64", UAL | ALTMEM_FEAT_RVV | ALTMEM_FEAT_ZICBOZ);
    rv.zero_block = 64;
    decide(&rv, NULL, 0);
    CHECK(st.policy.zero_block == 64, "riscv64 with ZICBOZ: zero_block %zu, expected 64", st.policy.zero_block);
    decide(&rv, "hwcaps=-ZICBOZ", 0);
    CHECK(st.policy.zero_block == 0, "riscv64, hwcaps=-ZICBOZ: zero_block %zu, expected 0", st.policy.zero_block);
    /* Negative control: elsewhere the block is not Zicboz's (aarch64 DC ZVA
       has no feature bit), and the mask must not touch it. */
    struct altmem__cpu a = make_cpu("aarch64", UAL);
    a.zero_block = 64;
    decide(&a, "hwcaps=-ZICBOZ", 0);
    CHECK(st.policy.zero_block == 64, "aarch64, hwcaps=-ZICBOZ: zero_block %zu, expected 64", st.policy.zero_block);
    printf("zero_block: riscv64 block only with ZICBOZ in use; other architectures untouched\n");
}

int main(void)
{
    /* UAL alone, and nothing at all: so that on x86_64, whose SIMD rows need
       UAL + SIMDn, these still choose ual and generic (x86_rows() has the rest). */
    struct altmem__cpu u = make_cpu("made-up-ual", UAL);
    struct altmem__cpu s = make_cpu("made-up-strict", 0);
    struct altmem__cpu k = make_cpu("unknown", 0);
    cpu_ual = &u;
    cpu_strict = &s;
    cpu_unknown = &k;

    checker_controls();
    table_invariants();
    basic_selection();
    exhaustive_features();
    masks_and_pins();
    secure_mode();
    malformed();
    nt_threshold();
    x86_rows();
    policy_rules();
    zero_block();
    printf("select: %d checks, %d failures: %s\n", checks, failures, failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
