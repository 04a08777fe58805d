/*
 * ALTMEM_TUNABLES: the one override variable.  Syntax (docs/tunables.md):
 *
 *   ALTMEM_TUNABLES=item[:item...]
 *   item:  hwcaps=[+-]FEATURE[,[+-]FEATURE...]   mask features off (-), or force on (+UAL)
 *          memcpy=VARIANT | memmove=VARIANT | memset=VARIANT    pin one routine
 *          all=VARIANT                           pin every routine that has VARIANT
 *          verbose[=0|1]                         print each binding at start-up
 *          debug[=0|1]                           print every patch site rewritten
 *          bind=ifunc|copy|patch|pointer         how calls reach the variant (default:
 *                                                ifunc in libaltmem.so, copy elsewhere;
 *                                                patch: the stubs' branch only;
 *                                                pointer: never rewrite code)
 *          nt_threshold=BYTES[K|M|G]             non-temporal stores from this size (all routines)
 *          memset_nt_threshold=BYTES             ... for memset and clear_user only
 *          rep_movsb_threshold=BYTES             rep movsb from this size (x86_64 copies)
 *          rep_stosb_threshold=BYTES             rep stosb from this size (x86_64 sets)
 *          rep_movsb_short_distance=N            no rep movsb at (dst - src) mod 4096 in 1..N (0..4095)
 *          (BYTES: a count up to 2^48 with an optional K, M or G suffix, or "never")
 *
 * Each bad part produces one warning naming it and is skipped; the rest applies.
 * No libc: this runs in the library constructor and in freestanding builds.
 */
#include "tunables.h"
#include "altmem.h"
#include "lib/text.h"
#include "variant_table.h"

#define PREFIX "altmem: " ALTMEM_TUNABLES_ENV ": "

struct parser {
    struct altmem__tunables *t;
    altmem__warn_fn *warn;
    void *ctx;
    int warnings;
};

/* Appends s[0..n) quoted, at most 40 characters, unprintable bytes as '?'. */
void altmem__text_quoted(struct altmem__text *t, const char *s, size_t n)
{
    altmem__text_puts(t, "'");
    for (size_t i = 0; i < n && i < 40; i++) {
        char c = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
        altmem__text_putn(t, &c, 1);
    }
    if (n > 40)
        altmem__text_puts(t, "...");
    altmem__text_puts(t, "'");
}

/* One warning: PREFIX what 'bad' rest (ignored) */
static void warn3(struct parser *p, const char *what, const char *bad, size_t badlen, const char *rest)
{
    char line[512];
    struct altmem__text t = {line, sizeof line, 0};
    altmem__text_puts(&t, PREFIX);
    altmem__text_puts(&t, what);
    if (bad)
        altmem__text_quoted(&t, bad, badlen);
    altmem__text_puts(&t, rest);
    altmem__text_puts(&t, " (ignored)");
    p->warnings++;
    if (p->warn)
        p->warn(t.buf, t.len, p->ctx);
}

static int feature_bit(const char *s, size_t n)
{
    for (unsigned b = 0; b < ALTMEM_FEAT_COUNT; b++)
        if (altmem__eq_nocase(s, n, altmem_feature_name(b)))
            return (int)b;
    return -1;
}

static void parse_hwcaps(struct parser *p, const char *v, size_t n)
{
    if (n == 0) {
        warn3(p, "hwcaps needs a list, as in hwcaps=-UAL", 0, 0, "");
        return;
    }
    size_t i = 0;
    while (i <= n) {
        size_t j = i;
        while (j < n && v[j] != ',')
            j++;
        const char *e = v + i;
        size_t len = j - i;
        if (len == 0) {
            warn3(p, "hwcaps: empty entry", 0, 0, "");
        } else if (e[0] != '+' && e[0] != '-') {
            warn3(p, "hwcaps: ", e, len, " needs a sign: -FEATURE masks it, +UAL forces it");
        } else {
            int bit = feature_bit(e + 1, len - 1);
            if (bit < 0) {
                char known[160];
                struct altmem__text t = {known, sizeof known - 1, 0};
                altmem__text_puts(&t, "; known: ");
                altmem__text_features(&t, (UINT64_C(1) << ALTMEM_FEAT_COUNT) - 1, " ");
                known[t.len] = '\0';
                warn3(p, "hwcaps: unknown feature ", e + 1, len - 1, known);
            } else if (e[0] == '-') {
                p->t->mask |= UINT64_C(1) << bit;
                p->t->force &= ~(UINT64_C(1) << bit);
            } else {
                p->t->mask &= ~(UINT64_C(1) << bit);
                p->t->force |= UINT64_C(1) << bit;
            }
        }
        i = j + 1;
    }
}

static void parse_pin(struct parser *p, int routine, const char *key, size_t keylen,
                      const char *v, size_t n)
{
    if (n == 0) {
        warn3(p, "", key, keylen, " needs a variant name, as in memcpy=generic");
        return;
    }
    int any = 0;
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
        if (routine >= 0 && r != routine)
            continue;
        int idx = altmem__variant_find((enum altmem_routine)r, v, n);
        if (idx >= 0) {
            p->t->pin[r] = idx;
            p->t->pin_old[r] = NULL;
            (void)altmem__variant_alias(v, n, &p->t->pin_old[r]);
            any = 1;
        }
    }
    if (!any) {
        char what[64];
        struct altmem__text t = {what, sizeof what, 0};
        altmem__text_putn(&t, key, keylen < 16 ? keylen : 16);
        altmem__text_puts(&t, ": unknown variant ");
        warn3(p, what, v, n, "; `altmem info` lists them");
    }
}

/* BYTES with an optional K, M or G (powers of 1024), at most 2^48, or "never"
   ((size_t)-1); on success *out and *set are written, else one warning names
   the setting and the value. */
static void parse_bytes(struct parser *p, const char *key, const char *v, size_t n, size_t *out, int *set)
{
    if (altmem__eq_nocase(v, n, "never")) {
        *out = (size_t)-1;
        *set = 1;
        return;
    }
    size_t i = 0, x = 0;
    for (; i < n && v[i] >= '0' && v[i] <= '9' && x <= (UINT64_C(1) << 48); i++)
        x = x * 10 + (size_t)(v[i] - '0');
    unsigned shift = 0;
    if (i > 0 && i + 1 == n) {
        char u = v[i];
        shift = u == 'k' || u == 'K' ? 10 : u == 'm' || u == 'M' ? 20 : u == 'g' || u == 'G' ? 30 : 99;
        i += shift != 99;
    }
    if (i == 0 || i != n || shift == 99 || x > (UINT64_C(1) << 48) >> shift) {
        char what[96];
        struct altmem__text w = {what, sizeof what, 0};
        altmem__text_puts(&w, key);
        altmem__text_puts(&w, " takes a byte count up to 256T (suffix K, M or G) or never, not ");
        warn3(p, what, v, n, "");
        return;
    }
    *out = x << shift;
    *set = 1;
}

/* rep_movsb_short_distance=N, 0..4095 */
static void parse_short(struct parser *p, const char *v, size_t n)
{
    size_t i = 0, x = 0;
    for (; i < n && v[i] >= '0' && v[i] <= '9' && x < 4096; i++)
        x = x * 10 + (size_t)(v[i] - '0');
    if (i == 0 || i != n || x > 4095) {
        warn3(p, "rep_movsb_short_distance takes 0..4095, not ", v, n, "");
        return;
    }
    p->t->short_distance = x;
    p->t->short_set = 1;
}

/* The size settings: each sets a value and says it was given. */
static const struct {
    const char *key;
    size_t off_value, off_set;
} sizes[] = {
    {"nt_threshold", __builtin_offsetof(struct altmem__tunables, nt_threshold),
     __builtin_offsetof(struct altmem__tunables, nt_set)},
    {"memset_nt_threshold", __builtin_offsetof(struct altmem__tunables, memset_nt_threshold),
     __builtin_offsetof(struct altmem__tunables, memset_nt_set)},
    {"rep_movsb_threshold", __builtin_offsetof(struct altmem__tunables, movsb),
     __builtin_offsetof(struct altmem__tunables, movsb_set)},
    {"rep_stosb_threshold", __builtin_offsetof(struct altmem__tunables, stosb),
     __builtin_offsetof(struct altmem__tunables, stosb_set)},
};

/* "; known: " and every setting's name, from the parser's own names. */
static void known_settings(struct altmem__text *t)
{
    altmem__text_puts(t, "; known: hwcaps");
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
        altmem__text_puts(t, " ");
        altmem__text_puts(t, altmem_routine_name((enum altmem_routine)r));
    }
    altmem__text_puts(t, " all verbose debug bind");
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        altmem__text_puts(t, " ");
        altmem__text_puts(t, sizes[i].key);
    }
    altmem__text_puts(t, " rep_movsb_short_distance");
}

static void parse_item(struct parser *p, const char *s, size_t n)
{
    size_t k = 0;
    while (k < n && s[k] != '=')
        k++;
    const char *v = s + k + (k < n);
    size_t vn = k < n ? n - k - 1 : 0;
    int has_value = k < n;

    if (altmem__eq_nocase(s, k, "hwcaps")) {
        if (!has_value)
            warn3(p, "", s, n, " needs a list, as in hwcaps=-UAL");
        else
            parse_hwcaps(p, v, vn);
        return;
    }
    if (altmem__eq_nocase(s, k, "verbose") || altmem__eq_nocase(s, k, "debug")) {
        int *flag = s[0] == 'v' || s[0] == 'V' ? &p->t->verbose : &p->t->debug;
        if (!has_value || altmem__eq_nocase(v, vn, "1"))
            *flag = 1;
        else if (altmem__eq_nocase(v, vn, "0"))
            *flag = 0;
        else
            warn3(p, flag == &p->t->verbose ? "verbose takes 0 or 1, not " : "debug takes 0 or 1, not ", v,
                  vn, "");
        return;
    }
    if (altmem__eq_nocase(s, k, "bind")) {
        if (has_value && altmem__eq_nocase(v, vn, "pointer"))
            p->t->bind = ALTMEM__BIND_POINTER;
        else if (has_value && altmem__eq_nocase(v, vn, "patch"))
            p->t->bind = ALTMEM__BIND_PATCH;
        else if (has_value && altmem__eq_nocase(v, vn, "copy"))
            p->t->bind = ALTMEM__BIND_COPY;
        else if (has_value && altmem__eq_nocase(v, vn, "ifunc"))
            p->t->bind = ALTMEM__BIND_IFUNC;
        else
            warn3(p, "bind takes ifunc, copy, patch or pointer, not ", v, vn, "");
        return;
    }
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        if (altmem__eq_nocase(s, k, sizes[i].key)) {
            char *base = (char *)p->t;
            parse_bytes(p, sizes[i].key, v, vn, (size_t *)(base + sizes[i].off_value),
                        (int *)(base + sizes[i].off_set));
            return;
        }
    }
    if (altmem__eq_nocase(s, k, "rep_movsb_short_distance")) {
        parse_short(p, v, vn);
        return;
    }
    if (altmem__eq_nocase(s, k, "all")) {
        if (!has_value)
            warn3(p, "", s, n, " needs a variant name, as in all=generic");
        else
            parse_pin(p, -1, s, k, v, vn);
        return;
    }
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
        if (altmem__eq_nocase(s, k, altmem_routine_name((enum altmem_routine)r))) {
            if (!has_value)
                warn3(p, "", s, n, " needs a variant name, as in memcpy=generic");
            else
                parse_pin(p, r, s, k, v, vn);
            return;
        }
    }
    if (k == 0) {
        warn3(p, "setting with no name: ", s, n, "");
    } else {
        char known[240];
        struct altmem__text t = {known, sizeof known - 1, 0};
        known_settings(&t);
        known[t.len] = '\0';
        warn3(p, "unknown setting ", s, k, known);
    }
}

void altmem__tunables_reset(struct altmem__tunables *t)
{
    t->mask = t->force = 0;
    t->verbose = t->debug = 0;
    t->bind = ALTMEM__BIND_IFUNC;
    t->nt_set = t->memset_nt_set = t->movsb_set = t->stosb_set = t->short_set = 0;
    t->nt_threshold = t->memset_nt_threshold = t->movsb = t->stosb = t->short_distance = 0;
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
        t->pin[r] = -1;
        t->pin_old[r] = NULL;
    }
}

int altmem__tunables_parse(const char *value, struct altmem__tunables *out,
                           altmem__warn_fn *warn, void *ctx)
{
    struct parser p = {out, warn, ctx, 0};
    const char *s = value;
    while (*s) {
        const char *e = s;
        while (*e && *e != ':')
            e++;
        if (e > s)              /* empty items (a::b, trailing ':') are harmless */
            parse_item(&p, s, (size_t)(e - s));
        s = *e ? e + 1 : e;
    }
    return p.warnings;
}
