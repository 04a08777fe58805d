/*
 * Selection and ALTMEM_TUNABLES, without touching the running process:
 * altmem__decide() is a pure function of (CPU, tunables value, AT_SECURE), so
 * made-up CPUs stand in for hardware this host is not.  Also the invariants of
 * the variant table that selection, tests and `altmem info` rely on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

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
           subset of this one's would always be chosen first. */
        for (size_t j = 0; j < i; j++) {
            const struct altmem__variant *u = &altmem__variants[j];
            if (u->routine == v->routine)
                CHECK((u->requires & ~v->requires) != 0, "%s %s (row %zu) can never be selected: %s (row %zu) "
                      "comes first and needs no more", rn, v->name, i, u->name, j);
        }
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
        CHECK(st.nt_threshold == derived[i].want && altmem__nt_default(&c) == derived[i].want,
              "nt default, %s: %zu, expected %zu", derived[i].what, st.nt_threshold, derived[i].want);
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
        CHECK(st.nt_threshold == want, "%s: nt_threshold %zu, expected %zu", given[i].value, st.nt_threshold, want);
    }
    /* Ignored with the rest of ALTMEM_TUNABLES in AT_SECURE processes. */
    decide(&c, "nt_threshold=1", 1);
    CHECK(st.nt_threshold == 8 * M, "secure: nt_threshold %zu", st.nt_threshold);
    printf("nt_threshold: %zu derived from made-up caches, %zu values of nt_threshold= (bad ones warned, "
           "default kept), ignored when secure\n",
           sizeof derived / sizeof derived[0], sizeof given / sizeof given[0]);
}

/* ---- x86_64: the SIMD and string-instruction rows ------------------------ */

static void x86_rows(void)
{
#if defined(__x86_64__)
    const uint64_t S128 = ALTMEM_FEAT_SIMD128, S256 = ALTMEM_FEAT_SIMD256, S512 = ALTMEM_FEAT_SIMD512,
                   ERMS = ALTMEM_FEAT_ERMS, FSRM = ALTMEM_FEAT_FSRM;
    static const struct {
        uint64_t f;
        const char *tun, *want;
    } cases[] = {
        {0, NULL, "avx512_erms"}, /* f filled in below: everything this file knows */
        {UAL | S128 | S256 | S512, NULL, "avx512"},
        {0, "hwcaps=-ERMS", "avx512"},
        {UAL | S128 | S256 | ERMS | FSRM, NULL, "avx2_erms"},
        {UAL | S128 | S256, NULL, "avx2"},
        {UAL | S128 | ERMS, NULL, "erms"},
        {UAL | S128, NULL, "sse2"},
        {0, "hwcaps=-SIMD512", "avx2_erms"},
        {UAL | S128 | S512 | ERMS, NULL, "avx512_erms"},
        {0, "hwcaps=-SIMD512,-ERMS", "avx2"},
        {0, "hwcaps=-SIMD512,-SIMD256", "erms"},
        {0, "hwcaps=-SIMD512,-SIMD256,-ERMS", "sse2"},
        {0, "hwcaps=-SIMD512,-SIMD256,-SIMD128", "ual"},
        {0, "hwcaps=-UAL", "generic"},
        {S128 | S256 | S512 | ERMS, NULL, "generic"}, /* no UAL: strict alignment */
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
    }
    /* Pins by name, and refusals of rows the CPU cannot run. */
    struct altmem__cpu avx2 = make_cpu("made-up-x86", UAL | S128 | S256);
    decide(&avx2, "memcpy=sse2:memset=avx512:memmove=erms", 0);
    expect("x86 pins", "sse2", O, "avx2", R, "avx2", R);
    expect_warnings("x86 pins", 2);
    CHECK(any_warning_has(&w, "memset=avx512") && any_warning_has(&w, "SIMD512") &&
              any_warning_has(&w, "memmove=erms") && any_warning_has(&w, "ERMS"),
          "x86 refusals do not name the pin and the feature: '%s'", w.line[0]);
    printf("x86_64 rows: %zu feature sets bind avx512_erms > avx512 > avx2_erms > avx2 > erms > sse2 > ual > generic; "
           "pins and refusals\n", sizeof cases / sizeof cases[0]);
#else
    printf("x86_64 rows: not on this architecture\n");
#endif
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
    printf("select: %d checks, %d failures: %s\n", checks, failures, failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
