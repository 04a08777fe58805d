/*
 * fuzz_tunables: the ALTMEM_TUNABLES parser (src/tunables.c, altmem__tunables_parse)
 * and the whole decision (altmem__decide) on a made-up CPU, from arbitrary bytes.
 *
 * Checks, for every input:
 *   - no crash, no hang (libFuzzer's -timeout), no sanitizer report;
 *   - the parser agrees with an independent model of docs/tunables.md written here
 *     (model_parse): the same mask, force, pins, verbose, debug, bind, nt_threshold,
 *     and the same number of warnings -- each bad part one warning, everything else
 *     applied, defaults where nothing valid was given;
 *   - each warning is one line: starts "altmem: ALTMEM_TUNABLES: ", at most 511
 *     bytes, every byte printable ASCII (no '\n', no NUL inside, bad bytes as '?');
 *   - the decision is valid: active = (detected & ~mask) | force, where only UAL can
 *     be forced on a CPU that lacks a feature (one warning for the refused rest);
 *     for every routine the bound variant index is in range and names a variant of
 *     that routine; unpinned, it is the first variant in table order whose
 *     requirements are in the active features; pinned, it is the pin if the CPU
 *     (detected | forced) can run it, else the detected choice with one warning
 *     (reason "refused"); every `why` is one bounded printable line;
 *     the policy (src/policy.c) is the per-CPU rules' choice (altmem__policy_for of
 *     the same CPU, which must be deterministic) with each ALTMEM_TUNABLES setting
 *     applied over it (nt_threshold= sets both non-temporal thresholds,
 *     memset_nt_threshold= the memset one, rep_movsb_threshold= every rep movsb
 *     start, co-aligned too, rep_stosb_threshold= every rep stosb start,
 *     rep_movsb_short_distance= the short-distance rule), and nt_threshold is its
 *     copy threshold; on a CPU only the defaults rule matches, the non-temporal
 *     default is the documented one (a quarter of the LLC, at most 16 x L2;
 *     L2 / 4 with no L3; 16 MiB when unknown); when a rule forbids 512-bit
 *     variants, the detected choice skips them (a pin may still choose one);
 *   - AT_SECURE: the value is ignored entirely (defaults, no warnings).
 *
 * Input layout:
 *    0-7  the CPU's detected features (64 bits, little-endian; bits above
 *         ALTMEM_FEAT_COUNT too)
 *      8  bit 0: AT_SECURE
 *      9  architecture name: % 5 (x86_64 aarch64 riscv64 loongarch64 unknown)
 *  10-13  L2 size (32 bits) << (byte 14 % 24)      15-18  L3 (32 bits) << (byte 19 % 24)
 *     20  vendor: % 4 (unknown, Intel, AMD, other)   21 family   22 model
 *     23  idflags: & 7 (AVX-VNNI, hypervisor, RTM)
 *    24-  the ALTMEM_TUNABLES value (copied and NUL-terminated: it ends at the
 *         first NUL byte)
 * With FUZZ_PLANT=1 the checked decision is first broken the way a selection bug
 * would: memcpy bound to the table's first memcpy variant whatever the features.
 *
 * Seeds (tests/fuzz/corpus/fuzz_tunables/, tests/fuzz/make_seeds.sh): every kind of
 * item, valid and malformed, on a CPU with all features and one with none.
 * Dictionary: tests/fuzz/tunables.dict.
 */
#define FZ_NAME "fuzz_tunables"
#include "fuzz_common.h"

#define PREFIX "altmem: " ALTMEM_TUNABLES_ENV ": "
/* A warning line's bound: the library builds them in buffers of at most 512 bytes. */
#define MAX_LINE 511
#define FZ_STR2(x) #x
#define FZ_STR(x) FZ_STR2(x)

/* ---- The model: docs/tunables.md, written independently of src/tunables.c ---- */

struct model {
    uint64_t mask, force;
    int pin[ALTMEM_ROUTINE_COUNT];
    int verbose, debug;
    int bind; /* 0 ifunc (the default), 1 copy, 2 patch, 3 pointer */
    /* The BYTES settings, in the order of bytes_keys; and the short distance. */
    int set[4];
    size_t val[4];
    int short_set;
    size_t short_distance;
    int warnings;
};

/* BYTES: a count up to 2^48 with an optional K, M or G (powers of 1024), or never. */
static const char *const bytes_keys[4] = {"nt_threshold", "memset_nt_threshold", "rep_movsb_threshold",
                                          "rep_stosb_threshold"};

static int lower(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* s[0, n) equals the word w, ASCII case-insensitively. */
static int is(const char *s, size_t n, const char *w)
{
    if (strlen(w) != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (lower((unsigned char)s[i]) != lower((unsigned char)w[i]))
            return 0;
    return 1;
}

static const char *const feat[ALTMEM_FEAT_COUNT] = {"UAL", "SIMD128", "SIMD256", "SIMD512", "ERMS", "FSRM", "SVE", "MOPS", "RVV", "ZICBOZ"};
static const char *const routines[ALTMEM_ROUTINE_COUNT] = {"memcpy", "memmove", "memset", "copy_user",
                                                             "clear_user"};

static size_t nvar;
static struct altmem_variant_info var[128];

/* Table index of routine r's variant named s[0, n), or -1.  The names merged
   into their vector width's variant are aliases (docs/tunables.md). */
static int find_variant(int r, const char *s, size_t n)
{
    for (size_t i = 0; i < nvar; i++)
        if ((int)var[i].routine == r && is(s, n, var[i].name))
            return (int)i;
    static const char *const alias[][2] = {{"erms", "sse2"}, {"avx2_erms", "avx2"}, {"avx512_erms", "avx512"}};
    for (size_t a = 0; a < sizeof alias / sizeof alias[0]; a++)
        if (is(s, n, alias[a][0]))
            return find_variant(r, alias[a][1], strlen(alias[a][1]));
    return -1;
}

static void model_hwcaps(struct model *m, const char *v, size_t n)
{
    if (n == 0) {
        m->warnings++;
        return;
    }
    /* Comma-separated; an empty entry (",," or a trailing ",") is a bad part. */
    size_t b = 0;
    for (;;) {
        size_t e = b;
        while (e < n && v[e] != ',')
            e++;
        const char *x = v + b;
        size_t len = e - b;
        int bit = -1;
        if (len >= 1 && (x[0] == '+' || x[0] == '-'))
            for (int f = 0; f < ALTMEM_FEAT_COUNT; f++)
                if (is(x + 1, len - 1, feat[f]))
                    bit = f;
        if (bit < 0) {
            m->warnings++;
        } else if (x[0] == '-') {
            m->mask |= UINT64_C(1) << bit;
            m->force &= ~(UINT64_C(1) << bit);
        } else {
            m->force |= UINT64_C(1) << bit;
            m->mask &= ~(UINT64_C(1) << bit);
        }
        if (e == n)
            break;
        b = e + 1;
    }
}

/* Digits, then at most one suffix letter from `suffixes` (NULL: none allowed);
   1 and *out (saturated above 2^64) if well-formed. */
static int model_number(const char *v, size_t n, unsigned __int128 *out, int suffixes)
{
    size_t i = 0;
    unsigned __int128 x = 0;
    while (i < n && v[i] >= '0' && v[i] <= '9') {
        if (x <= ((unsigned __int128)1 << 64))
            x = x * 10 + (unsigned)(v[i] - '0');
        i++;
    }
    if (i == 0)
        return 0;
    unsigned shift = 0;
    if (i < n) {
        int u = lower((unsigned char)v[i]);
        if (!suffixes || i + 1 != n)
            return 0;
        shift = u == 'k' ? 10 : u == 'm' ? 20 : u == 'g' ? 30 : 99;
        if (shift == 99)
            return 0;
    }
    *out = x << shift;
    return 1;
}

static void model_bytes(struct model *m, int which, const char *v, size_t n)
{
    unsigned __int128 x;
    if (is(v, n, "never")) {
        m->set[which] = 1;
        m->val[which] = SIZE_MAX;
    } else if (model_number(v, n, &x, 1) && x <= ((unsigned __int128)1 << 48)) {
        m->set[which] = 1;
        m->val[which] = (size_t)x;
    } else {
        m->warnings++;
    }
}

static void model_short(struct model *m, const char *v, size_t n)
{
    unsigned __int128 x;
    if (model_number(v, n, &x, 0) && x <= 4095) {
        m->short_set = 1;
        m->short_distance = (size_t)x;
    } else {
        m->warnings++;
    }
}

static void model_item(struct model *m, const char *s, size_t n)
{
    size_t k = 0;
    while (k < n && s[k] != '=')
        k++;
    int has = k < n;
    const char *v = has ? s + k + 1 : s + n;
    size_t vn = has ? n - k - 1 : 0;
    if (is(s, k, "hwcaps")) {
        if (has)
            model_hwcaps(m, v, vn);
        else
            m->warnings++;
    } else if (is(s, k, "verbose") || is(s, k, "debug")) {
        int *f = is(s, k, "verbose") ? &m->verbose : &m->debug;
        if (!has || is(v, vn, "1"))
            *f = 1;
        else if (is(v, vn, "0"))
            *f = 0;
        else
            m->warnings++;
    } else if (is(s, k, "bind")) {
        if (has && is(v, vn, "pointer"))
            m->bind = 3;
        else if (has && is(v, vn, "patch"))
            m->bind = 2;
        else if (has && is(v, vn, "copy"))
            m->bind = 1;
        else if (has && is(v, vn, "ifunc"))
            m->bind = 0;
        else
            m->warnings++;
    } else if (is(s, k, "rep_movsb_short_distance")) {
        model_short(m, v, vn);
    } else {
        for (int b = 0; b < 4; b++)
            if (is(s, k, bytes_keys[b])) {
                model_bytes(m, b, v, vn);
                return;
            }
        int routine = -2;
        if (is(s, k, "all"))
            routine = -1;
        for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++)
            if (is(s, k, routines[r]))
                routine = r;
        if (routine == -2 || !has || vn == 0) {
            m->warnings++;   /* unknown or nameless setting, or a pin without a name */
            return;
        }
        int any = 0;
        for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
            if (routine >= 0 && r != routine)
                continue;
            int idx = find_variant(r, v, vn);
            if (idx >= 0) {
                m->pin[r] = idx;
                any = 1;
            }
        }
        if (!any)
            m->warnings++;
    }
}

static void model_parse(struct model *m, const char *value)
{
    memset(m, 0, sizeof *m);
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++)
        m->pin[r] = -1;
    /* Colon-separated; empty items are skipped silently. */
    const char *b = value;
    for (;;) {
        const char *e = strchr(b, ':');
        size_t len = e ? (size_t)(e - b) : strlen(b);
        if (len)
            model_item(m, b, len);
        if (!e)
            break;
        b = e + 1;
    }
}

static size_t model_nt_default(const struct altmem__cpu *c)
{
    size_t llc = c->l3_bytes ? c->l3_bytes : c->l2_bytes;
    size_t t = llc / 4;
    if (c->l3_bytes && c->l2_bytes && t > 16 * c->l2_bytes)
        t = 16 * c->l2_bytes;
    return t ? t : (size_t)16 << 20;
}

/* ---- Warnings ------------------------------------------------------------------- */

struct wctx {
    int count;
    const char *value;
};

static void check_line(const char *what, const char *line, size_t len, const char *value)
{
    if (len > MAX_LINE)
        FZ_FAIL("%s of %zu bytes (more than " FZ_STR(MAX_LINE) ") for ALTMEM_TUNABLES \"%.200s\"", what, len, value);
    for (size_t i = 0; i < len; i++)
        if ((unsigned char)line[i] < 0x20 || (unsigned char)line[i] >= 0x7f)
            FZ_FAIL("%s has byte 0x%02x at %zu (not one printable line): \"%.*s\" for ALTMEM_TUNABLES \"%.200s\"",
                    what, (unsigned char)line[i], i, (int)len, line, value);
    if (line[len] != '\0')
        FZ_FAIL("%s is not NUL-terminated at its length %zu", what, len);
}

static void on_warn(const char *line, size_t len, void *ctx)
{
    struct wctx *w = ctx;
    w->count++;
    check_line("warning", line, len, w->value);
    if (len < strlen(PREFIX) || memcmp(line, PREFIX, strlen(PREFIX)))
        FZ_FAIL("warning does not start with \"" PREFIX "\": \"%.*s\"", (int)len, line);
}

/* ---- The target ----------------------------------------------------------------- */

static int planted;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    altmem_init();
    nvar = altmem_variant_count();
    if (nvar > sizeof var / sizeof var[0] || nvar != altmem__variant_total) {
        fprintf(stderr, "fuzz_tunables: %zu variants\n", nvar);
        exit(2);
    }
    for (size_t i = 0; i < nvar; i++)
        if (altmem_variant(i, &var[i]))
            exit(2);
    planted = fz_planted();
    return 0;
}

#define MAX_VALUE 8192

static void compare(const char *what, const struct altmem__tunables *t, const struct model *m, const char *value)
{
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++)
        if (t->pin[r] != m->pin[r])
            FZ_FAIL("%s: pin[%s] = %d, the model says %d for \"%.200s\"", what, routines[r], t->pin[r], m->pin[r],
                    value);
    if (t->mask != m->mask || t->verbose != m->verbose || t->debug != m->debug || (int)t->bind != m->bind)
        FZ_FAIL("%s: mask %#llx verbose %d debug %d bind %d; the model says mask %#llx verbose %d debug %d "
                "bind %d for \"%.200s\"",
                what, (unsigned long long)t->mask, t->verbose, t->debug, (int)t->bind, (unsigned long long)m->mask,
                m->verbose, m->debug, m->bind, value);
    const int set[4] = {t->nt_set, t->memset_nt_set, t->movsb_set, t->stosb_set};
    const size_t val[4] = {t->nt_threshold, t->memset_nt_threshold, t->movsb, t->stosb};
    for (int b = 0; b < 4; b++)
        if (set[b] != m->set[b] || (m->set[b] && val[b] != m->val[b]))
            FZ_FAIL("%s: %s set %d value %zu; the model says set %d value %zu for \"%.200s\"", what, bytes_keys[b],
                    set[b], val[b], m->set[b], m->val[b], value);
    if (t->short_set != m->short_set || (m->short_set && t->short_distance != m->short_distance))
        FZ_FAIL("%s: rep_movsb_short_distance set %d value %zu; the model says set %d value %zu for \"%.200s\"", what,
                t->short_set, t->short_distance, m->short_set, m->short_distance, value);
}

/* Whether the rule of that name applied to the policy. */
static int rule_applied(const struct altmem__policy *p, const char *name)
{
    for (size_t i = 0; i < altmem__policy_rule_count; i++)
        if (!strcmp(altmem__policy_rules[i].name, name))
            return p->rules >> i & 1;
    return 0;
}

static int same_policy(const struct altmem__policy *a, const struct altmem__policy *b)
{
    int same = a->allow512 == b->allow512 && a->no512_rule == b->no512_rule && a->nt_copy == b->nt_copy &&
               a->nt_set == b->nt_set && a->movsb_coaligned == b->movsb_coaligned &&
               a->short_distance == b->short_distance && a->split_loads_above == b->split_loads_above &&
               a->nt_copy16_never == b->nt_copy16_never && a->nt_copy_linear == b->nt_copy_linear &&
               a->split_loads_streaming == b->split_loads_streaming &&
               a->stosb_stop16 == b->stosb_stop16 && a->movsb_stop16 == b->movsb_stop16 && a->movsb_stop16_apart == b->movsb_stop16_apart &&
               a->movsb_stop16_near == b->movsb_stop16_near && a->halves64 == b->halves64 &&
               a->halves64_rule == b->halves64_rule && a->avx2_copies_out == b->avx2_copies_out &&
               a->avx2_copies_out_rule == b->avx2_copies_out_rule && a->movsb32_apart == b->movsb32_apart &&
               a->nt_fwd_overlap == b->nt_fwd_overlap &&
               !memcmp(a->movsb_fwd_overlap, b->movsb_fwd_overlap, sizeof a->movsb_fwd_overlap) &&
               a->nt_coaligned == b->nt_coaligned && a->memset_no_lines == b->memset_no_lines &&
               a->rules == b->rules;
    for (int w = 0; w < 3; w++)
        same = same && a->movsb[w] == b->movsb[w] && a->stosb[w] == b->stosb[w];
    return same;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fz_in in = {data, size, 0};
    static const char *const arches[5] = {"x86_64", "aarch64", "riscv64", "loongarch64", "unknown"};
    struct altmem__cpu cpu;
    memset(&cpu, 0, sizeof cpu);
    cpu.features = fz_u64(&in);
    int secure = fz_u8(&in) & 1;
    cpu.arch = arches[fz_u8(&in) % 5];
    uint32_t l2 = (uint32_t)fz_u16(&in) | (uint32_t)fz_u16(&in) << 16;
    cpu.l2_bytes = (size_t)l2 << (fz_u8(&in) % 24);
    uint32_t l3 = (uint32_t)fz_u16(&in) | (uint32_t)fz_u16(&in) << 16;
    cpu.l3_bytes = (size_t)l3 << (fz_u8(&in) % 24);
    cpu.l1d_bytes = 32768;
    cpu.vendor = fz_u8(&in) % 4;
    cpu.family = fz_u8(&in);
    cpu.model = fz_u8(&in);
    cpu.idflags = fz_u8(&in) & 7;

    static char value[MAX_VALUE + 1];
    size_t len = in.at < size ? size - in.at : 0;
    if (len > MAX_VALUE)
        len = MAX_VALUE;
    if (len)
        memcpy(value, data + in.at, len);
    value[len] = '\0';

    struct model m;
    model_parse(&m, value);

    /* The parser alone, from the defaults the decision starts from. */
    struct altmem__tunables t;
    memset(&t, 0, sizeof t);
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++)
        t.pin[r] = -1;
    struct wctx w = {0, value};
    int nw = altmem__tunables_parse(value, &t, on_warn, &w);
    if (nw != w.count)
        FZ_FAIL("altmem__tunables_parse returned %d warnings but reported %d", nw, w.count);
    if (nw != m.warnings)
        FZ_FAIL("altmem__tunables_parse: %d warnings, the model says %d, for \"%.200s\"", nw, m.warnings, value);
    compare("altmem__tunables_parse", &t, &m, value);

    /* The whole decision. */
    static struct altmem__state st;
    struct wctx wd = {0, value};
    altmem__decide(&cpu, value, secure, &st, on_warn, &wd);
    if (planted) {
        for (size_t i = 0; i < nvar; i++)
            if (var[i].routine == ALTMEM_MEMCPY) {
                st.bound[ALTMEM_MEMCPY].variant = (int)i;   /* "ignores the features" */
                break;
            }
    }
    if (secure) {
        model_parse(&m, "");
        if (wd.count)
            FZ_FAIL("AT_SECURE: %d warnings, but ALTMEM_TUNABLES must be ignored", wd.count);
    }
    uint64_t bad_force = m.force & ~cpu.features & ~ALTMEM_FEAT_UAL;
    m.force &= ~bad_force;
    compare("altmem__decide", &st.tun, &m, value);
    if (st.tun.force != m.force)
        FZ_FAIL("force %#llx, expected %#llx (only UAL can be forced)", (unsigned long long)st.tun.force,
                (unsigned long long)m.force);
    uint64_t active = (cpu.features & ~m.mask) | m.force;
    if (st.active != active)
        FZ_FAIL("active %#llx, expected %#llx", (unsigned long long)st.active, (unsigned long long)active);
    if (st.secure != secure)
        FZ_FAIL("secure %d, expected %d", st.secure, secure);

    /* The policy: the rules' choice for this CPU (pure: the same again), then
       each ALTMEM_TUNABLES setting over it.  The rules' values themselves are not
       modelled here, except the documented default non-temporal threshold on a
       CPU that only the defaults rule matches. */
    /* (The rules see the features in use: hwcaps=-ERMS is a CPU without ERMS to
       them, rule no-erms.) */
    struct altmem__policy rp;
    struct altmem__cpu seen = cpu;
    seen.features = active;
    altmem__policy_for(&seen, &rp);
    if (!same_policy(&rp, &st.rules_policy))
        FZ_FAIL("altmem__decide's rules_policy differs from altmem__policy_for() of the same CPU (features in use)");
    if (!(rp.rules & 1))
        FZ_FAIL("the defaults rule did not apply (rules %#x)", rp.rules);
    if (rp.rules == 1 && (rp.nt_copy != model_nt_default(&cpu) || rp.nt_set != rp.nt_copy || !rp.allow512))
        FZ_FAIL("defaults only: nt %zu/%zu (expected %zu: LLC/4, at most 16 x L2; 16 MiB unknown), allow512 %d",
                rp.nt_copy, rp.nt_set, model_nt_default(&cpu), rp.allow512);
    if (rp.allow512 ? rp.no512_rule != -1
                    : rp.no512_rule < 0 || (size_t)rp.no512_rule >= altmem__policy_rule_count ||
                          !(rp.rules >> rp.no512_rule & 1))
        FZ_FAIL("allow512 %d but no512_rule %d (rules %#x)", rp.allow512, rp.no512_rule, rp.rules);
    /* The 64-byte variants' _halves builds: asked for by amd-zen4 alone. */
    int zen4 = rule_applied(&rp, "amd-zen4");
    if (rp.halves64 != zen4 || (rp.halves64_rule >= 0) != zen4 ||
        (zen4 && strcmp(altmem__policy_rules[rp.halves64_rule].name, "amd-zen4") != 0))
        FZ_FAIL("halves64 %d (rule %d) but amd-zen4 %s (rules %#x)", rp.halves64, rp.halves64_rule,
                zen4 ? "applied" : "did not apply", rp.rules);
    /* The copies' avx2 variants out: asked for by intel-rtm alone. */
    int rtm = rule_applied(&rp, "intel-rtm");
    if (rp.avx2_copies_out != rtm || (rp.avx2_copies_out_rule >= 0) != rtm)
        FZ_FAIL("avx2_copies_out %d (rule %d) but intel-rtm %s (rules %#x)", rp.avx2_copies_out,
                rp.avx2_copies_out_rule, rtm ? "applied" : "did not apply", rp.rules);
    struct altmem__policy want = rp;
    if (m.set[0]) {
        want.nt_copy = want.nt_set = m.val[0];
        want.nt_copy16_never = 0;   /* the setting is every width's (amd-zen4 keeps the 16-byte copies out) */
        want.nt_fwd_overlap = 0;    /* ... and every overlap's (intel-emr-kvm) */
        want.nt_coaligned = 0;      /* ... and every alignment's (amd-zen5) */
    }
    if (m.set[1])
        want.nt_set = m.val[1];
    if (m.set[2]) {
        want.movsb[0] = want.movsb[1] = want.movsb[2] = want.movsb_coaligned = want.movsb32_apart = m.val[2];
        want.movsb_stop16 = want.movsb_stop16_apart = want.movsb_stop16_near = (size_t)-1;  /* the setting lifts amd-zen4's stops */
        memset(want.movsb_fwd_overlap, 0, sizeof want.movsb_fwd_overlap); /* ... and amd-zen5's forward-overlap starts */
    }
    if (m.set[3]) {
        want.stosb[0] = want.stosb[1] = want.stosb[2] = m.val[3];
        want.stosb_stop16 = (size_t)-1;  /* the setting lifts amd-zen4's stop */
    }
    if (m.short_set)
        want.short_distance = m.short_distance;
    if (!same_policy(&want, &st.policy))
        FZ_FAIL("policy nt %zu/%zu movsb %zu/%zu/%zu/%zu stosb %zu/%zu/%zu short %zu; expected nt %zu/%zu movsb "
                "%zu/%zu/%zu/%zu stosb %zu/%zu/%zu short %zu for \"%.200s\"",
                st.policy.nt_copy, st.policy.nt_set, st.policy.movsb[0], st.policy.movsb[1], st.policy.movsb[2],
                st.policy.movsb_coaligned, st.policy.stosb[0], st.policy.stosb[1], st.policy.stosb[2],
                st.policy.short_distance, want.nt_copy, want.nt_set, want.movsb[0], want.movsb[1], want.movsb[2],
                want.movsb_coaligned, want.stosb[0], want.stosb[1], want.stosb[2], want.short_distance, value);

    int warnings = (secure ? 0 : m.warnings) + (bad_force != 0);
    uint64_t can = cpu.features | m.force;
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
        const struct altmem__bound *b = &st.bound[r];
        if (b->variant < 0 || (size_t)b->variant >= nvar)
            FZ_FAIL("%s bound to variant index %d, out of range 0..%zu", routines[r], b->variant, nvar - 1);
        const struct altmem_variant_info *v = &var[b->variant];
        if ((int)v->routine != r)
            FZ_FAIL("%s bound to %s, a variant of %s", routines[r], v->name, routines[v->routine]);
        /* Detected: the first in table order whose requirements are active and
           that the rules allow (no 512-bit variant, the avx512 and avx512_halves
           ones, when allow512 is 0; the evex ones use AVX-512 on 32-byte
           registers; avx512_halves only where the rules ask for it, and then
           not the routine's avx512; not memcpy's and memmove's avx2, which
           return through vzeroupper, where intel-rtm applied). */
        int has_halves = 0;
        for (size_t i = 0; i < nvar; i++)
            has_halves |= (int)var[i].routine == r && !strcmp(var[i].name, "avx512_halves");
        int detected = -1;
        for (size_t i = 0; i < nvar && detected < 0; i++) {
            int halves = !strcmp(var[i].name, "avx512_halves"), plain512 = !strcmp(var[i].name, "avx512");
            int vzu_copy = !strcmp(var[i].name, "avx2") && (r == ALTMEM_MEMCPY || r == ALTMEM_MEMMOVE);
            if ((int)var[i].routine == r && (var[i].requires & ~active) == 0 &&
                (rp.allow512 || (!plain512 && !halves)) && (halves ? rp.halves64 : !(plain512 && has_halves && rp.halves64)) &&
                !(vzu_copy && rp.avx2_copies_out))
                detected = (int)i;
        }
        if (detected < 0)
            FZ_FAIL("%s: no variant runs on active features %#llx (the generic one should)", routines[r],
                    (unsigned long long)active);
        int pin = m.pin[r];
        enum altmem_bind_reason reason;
        int want_v;
        if (pin < 0) {
            reason = ALTMEM_BOUND_DETECTED;
            want_v = detected;
        } else if ((var[pin].requires & ~can) == 0) {
            reason = ALTMEM_BOUND_OVERRIDDEN;
            want_v = pin;
        } else {
            reason = ALTMEM_BOUND_REFUSED;
            want_v = detected;
            warnings++;
        }
        if (b->variant != want_v || b->reason != reason)
            FZ_FAIL("%s bound to %s (reason %d), expected %s (reason %d); features %#llx active %#llx allow512 %d, "
                    "pin %d, ALTMEM_TUNABLES \"%.200s\"",
                    routines[r], v->name, b->reason, var[want_v].name, reason, (unsigned long long)cpu.features,
                    (unsigned long long)active, rp.allow512, pin, value);
        uint64_t need = v->requires & ~(reason == ALTMEM_BOUND_OVERRIDDEN ? can : active);
        if (need)
            FZ_FAIL("%s bound to %s, which needs %#llx beyond what it may use", routines[r], v->name,
                    (unsigned long long)need);
        size_t wl = strnlen(b->why, sizeof b->why);
        if (wl == sizeof b->why)
            FZ_FAIL("%s: why is not NUL-terminated", routines[r]);
        check_line("why", b->why, wl, value);
    }
    if (wd.count != warnings)
        FZ_FAIL("altmem__decide: %d warnings, expected %d (parse %d, refused force %d) for \"%.200s\"", wd.count,
                warnings, m.warnings, bad_force != 0, value);
    return 0;
}
