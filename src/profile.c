/*
 * The profile: settings `altmem tune` measured on this machine, read once at
 * start-up and applied only on the CPU they were measured on (docs/tunables.md,
 * "The profile").
 *
 * Format, a text file a person can read and edit:
 *
 *     # any comment
 *     cpu: arch=x86_64 vendor=amd family=26 model=2 stepping=1 features=UAL,...
 *          l1d=48K l2=1M l3=32M hypervisor=yes        (one line)
 *     rep_stosb_threshold=256K   # a comment: the measured margin
 *     memcpy=avx2
 *
 * The cpu line comes first and must equal this CPU's identity field by field;
 * then one ALTMEM_TUNABLES setting per line, of the kinds a measurement can
 * choose (variant pins, thresholds).  A profile is applied whole or not at all:
 * the first problem ignores it, with one line saying which line and why, and
 * the rules' choices stand.  No libc (freestanding builds link this file).
 */
#include "profile.h"
#include "altmem.h"
#include "cpu.h"
#include "lib/text.h"
#include "tunables.h"
#include "variant_table.h"

#define LINE_MAX_BYTES 1024

static const char *vendor_word(int v)
{
    switch (v) {
    case ALTMEM__VENDOR_INTEL: return "intel";
    case ALTMEM__VENDOR_AMD: return "amd";
    case ALTMEM__VENDOR_OTHER: return "other";
    }
    return "unknown";
}

static void put_size(struct altmem__text *t, size_t b)
{
    if (b && b % (1u << 20) == 0) {
        altmem__text_putu(t, b >> 20);
        altmem__text_puts(t, "M");
    } else if (b && b % 1024 == 0) {
        altmem__text_putu(t, b >> 10);
        altmem__text_puts(t, "K");
    } else {
        altmem__text_putu(t, b);
    }
}

void altmem__cpu_identity(const struct altmem__cpu *c, struct altmem__text *t)
{
    altmem__text_puts(t, "arch=");
    altmem__text_puts(t, c->arch ? c->arch : "unknown");
    altmem__text_puts(t, " vendor=");
    altmem__text_puts(t, vendor_word(c->vendor));
    altmem__text_puts(t, " family=");
    altmem__text_putu(t, c->family);
    altmem__text_puts(t, " model=");
    altmem__text_putu(t, c->model);
    altmem__text_puts(t, " stepping=");
    altmem__text_putu(t, c->stepping);
    altmem__text_puts(t, " features=");
    altmem__text_features(t, c->features, ",");
    altmem__text_puts(t, " l1d=");
    put_size(t, c->l1d_bytes);
    altmem__text_puts(t, " l2=");
    put_size(t, c->l2_bytes);
    altmem__text_puts(t, " l3=");
    put_size(t, c->l3_bytes);
    altmem__text_puts(t, " hypervisor=");
    altmem__text_puts(t, c->idflags & ALTMEM__ID_HYPERVISOR ? "yes" : "no");
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* The next space-separated token of [*p, end): its start and length. */
static size_t next_token(const char **p, const char *end, const char **tok)
{
    while (*p < end && is_space(**p))
        (*p)++;
    *tok = *p;
    while (*p < end && !is_space(**p))
        (*p)++;
    return (size_t)(*p - *tok);
}

/* Compares the cpu line's fields [s, end) with this CPU's identity, in order;
   0 if equal, else 1 with the first difference in *why. */
static int identity_differs(const char *s, const char *end, const struct altmem__cpu *cpu, struct altmem__text *why)
{
    char mine[400];
    struct altmem__text m = {mine, sizeof mine, 0};
    altmem__cpu_identity(cpu, &m);
    const char *mp = mine, *mend = mine + m.len;
    for (;;) {
        const char *a, *b;
        size_t na = next_token(&s, end, &a), nb = next_token(&mp, mend, &b);
        if (na == 0 && nb == 0)
            return 0;
        if (na == nb) {
            size_t i = 0;
            while (i < na && a[i] == b[i])
                i++;
            if (i == na)
                continue;
        }
        altmem__text_puts(why, "measured on another CPU: ");
        if (na == 0)
            altmem__text_puts(why, "(nothing)");
        else
            altmem__text_quoted(why, a, na);
        altmem__text_puts(why, " in the profile, ");
        if (nb == 0)
            altmem__text_puts(why, "(nothing)");
        else
            altmem__text_quoted(why, b, nb);
        altmem__text_puts(why, " here");
        return 1;
    }
}

/* The settings a profile may hold: what `altmem tune` measures. */
static int allowed_key(const char *s, size_t k)
{
    static const char *const keys[] = {"memcpy", "memmove", "memset", "copy_user", "clear_user",
                                       "nt_threshold", "memset_nt_threshold", "rep_movsb_threshold",
                                       "rep_stosb_threshold", "rep_movsb_short_distance"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (altmem__strlen(keys[i]) == k && altmem__eq_nocase(s, k, keys[i]))
            return 1;
    return 0;
}

struct first_warning {
    struct altmem__text *why;
    int seen;
};

/* Keeps the tunables parser's first warning, without its prefix and suffix. */
static void keep_first(const char *line, size_t len, void *ctx)
{
    struct first_warning *f = ctx;
    if (f->seen++)
        return;
    static const char prefix[] = "altmem: " ALTMEM_TUNABLES_ENV ": ", suffix[] = " (ignored)";
    if (len >= sizeof prefix - 1 && altmem__eq_nocase(line, sizeof prefix - 1, prefix)) {
        line += sizeof prefix - 1;
        len -= sizeof prefix - 1;
    }
    if (len >= sizeof suffix - 1 && altmem__eq_nocase(line + len - (sizeof suffix - 1), sizeof suffix - 1, suffix))
        len -= sizeof suffix - 1;
    altmem__text_putn(f->why, line, len);
}

int altmem__profile_parse(const char *text, size_t len, const struct altmem__cpu *cpu,
                          struct altmem__tunables *out, char *why_buf, size_t why_len)
{
    struct altmem__text why = {why_buf, why_len, 0};
    if (why_len)
        why_buf[0] = '\0';
    altmem__tunables_reset(out);
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\0') {
            altmem__text_puts(&why, "byte ");
            altmem__text_putu(&why, i);
            altmem__text_puts(&why, " is NUL: not a text file");
            return 0;
        }
    }
    int have_cpu = 0;
    unsigned line_no = 0;
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *ls = p;
        while (p < end && *p != '\n')
            p++;
        const char *le = p;
        if (p < end)
            p++;
        line_no++;
        if ((size_t)(le - ls) > LINE_MAX_BYTES) {
            altmem__text_puts(&why, "line ");
            altmem__text_putu(&why, line_no);
            altmem__text_puts(&why, " is longer than 1024 bytes");
            return 0;
        }
        /* Comments to the end of the line; surrounding spaces. */
        for (const char *c = ls; c < le; c++)
            if (*c == '#') {
                le = c;
                break;
            }
        while (ls < le && is_space(*ls))
            ls++;
        while (le > ls && is_space(le[-1]))
            le--;
        if (ls == le)
            continue;
        size_t n = (size_t)(le - ls);
        if (!have_cpu) {
            if (n < 4 || !altmem__eq_nocase(ls, 4, "cpu:")) {
                altmem__text_puts(&why, "line ");
                altmem__text_putu(&why, line_no);
                altmem__text_puts(&why, ": expected the cpu: line first (a profile written by altmem tune), not ");
                altmem__text_quoted(&why, ls, n);
                return 0;
            }
            if (identity_differs(ls + 4, le, cpu, &why))
                return 0;
            have_cpu = 1;
            continue;
        }
        size_t k = 0;
        while (k < n && ls[k] != '=')
            k++;
        int colon = 0;
        for (size_t i = 0; i < n; i++)
            colon |= ls[i] == ':';
        if (k == n || colon || !allowed_key(ls, k)) {
            altmem__text_puts(&why, "line ");
            altmem__text_putu(&why, line_no);
            altmem__text_puts(&why, ": ");
            altmem__text_quoted(&why, ls, n);
            altmem__text_puts(&why, colon ? " holds more than one setting"
                                          : k == n ? " is not a setting (KEY=VALUE)"
                                                   : " is not a setting a profile may hold (variant pins and "
                                                     "thresholds only)");
            return 0;
        }
        char item[LINE_MAX_BYTES + 1];
        for (size_t i = 0; i < n; i++)
            item[i] = ls[i];
        item[n] = '\0';
        char msg[240];
        struct altmem__text mt = {msg, sizeof msg, 0};
        struct first_warning f = {&mt, 0};
        altmem__tunables_parse(item, out, keep_first, &f);
        if (f.seen) {
            altmem__text_puts(&why, "line ");
            altmem__text_putu(&why, line_no);
            altmem__text_puts(&why, ": ");
            altmem__text_putn(&why, msg, mt.len);
            return 0;
        }
        for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
            int v = out->pin[r];
            if (v >= 0 && (altmem__variants[v].requires & ~cpu->features)) {
                altmem__text_puts(&why, "line ");
                altmem__text_putu(&why, line_no);
                altmem__text_puts(&why, ": ");
                altmem__text_puts(&why, altmem__variants[v].name);
                altmem__text_puts(&why, " needs ");
                altmem__text_features(&why, altmem__variants[v].requires & ~cpu->features, "+");
                altmem__text_puts(&why, ", which this CPU lacks");
                return 0;
            }
        }
    }
    if (!have_cpu) {
        altmem__text_puts(&why, "no cpu: line (empty, or not a profile written by altmem tune)");
        return 0;
    }
    return 1;
}
