/*
 * altmem info: what was detected (features, caches), masked and forced, the
 * policy and the rules behind it, the profile, and for each routine the variant
 * it is bound to, how and why; then every variant built in.
 */
#include "info.h"

#include <altmem.h>
#include <stdio.h>
#include <string.h>

/* "UAL SIMD256", or "none". */
static const char *feature_list(uint64_t mask, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (unsigned b = 0; b < 64 && n < len; b++) {
        if (!(mask >> b & 1))
            continue;
        const char *name = altmem_feature_name(b);
        int w = name ? snprintf(buf + n, len - n, "%s%s", n ? " " : "", name)
                     : snprintf(buf + n, len - n, "%sbit%u", n ? " " : "", b);
        n += w > 0 ? (size_t)w : 0;
    }
    return n ? buf : "none";
}

static void print_features(uint64_t mask)
{
    char buf[128];
    printf("%s\n", feature_list(mask, buf, sizeof buf));
}

static void print_size(const char *label, size_t bytes)
{
    if (!bytes)
        printf("  %-5s unknown\n", label);
    else if (bytes >= (1u << 20) && bytes % (1u << 20) == 0)
        printf("  %-5s %zu MiB\n", label, bytes >> 20);
    else
        printf("  %-5s %zu KiB\n", label, bytes >> 10);
}

/* "32 KiB", "1 MiB", "100 B", "never" */
static const char *size_words(size_t n, char *buf, size_t len)
{
    if (n == (size_t)-1)
        snprintf(buf, len, "never");
    else if (n >= (1u << 20) && n % (1u << 20) == 0)
        snprintf(buf, len, "%zu MiB", n >> 20);
    else if (n >= 1024 && n % 1024 == 0)
        snprintf(buf, len, "%zu KiB", n >> 10);
    else
        snprintf(buf, len, "%zu B", n);
    return buf;
}

/* " (ALTMEM_TUNABLES)", " (profile)" or "": who set a policy value.  (The
   profile's bits ride in overridden << 8, see print_policy.) */
static const char *mark(const struct altmem_policy_info *p, unsigned bit)
{
    return p->overridden & bit ? " (ALTMEM_TUNABLES)" : p->overridden & (bit << 8) ? " (profile)" : "";
}

/* The policy (what the x86_64 variants read) and the rules behind it. */
static void print_policy(void)
{
    struct altmem_policy_info p;
    altmem_policy(&p);
    char a[32], b[32], c[32], d[32];
    struct altmem_profile_info prof;
    altmem_profile(&prof);
    /* A value the profile set is marked as such (the variable's mark wins). */
    p.overridden |= prof.policy << 8;
    printf("policy (when the variants change strategy; per-CPU rules below, ALTMEM_TUNABLES overrides):\n");
    printf("  512-bit variants    %s\n", p.wide_vectors ? "may be bound" : "not bound by default (a pin still can)");
    printf("  rep movsb from      %s / %s / %s (16/32/64-byte variants), %s co-aligned%s  [rep_movsb_threshold]\n",
           size_words(p.rep_movsb[0], a, sizeof a), size_words(p.rep_movsb[1], b, sizeof b),
           size_words(p.rep_movsb[2], c, sizeof c), size_words(p.rep_movsb_coaligned, d, sizeof d),
           mark(&p, ALTMEM_POLICY_MOVSB));
    printf("  rep stosb from      %s / %s / %s%s  [rep_stosb_threshold]\n", size_words(p.rep_stosb[0], a, sizeof a),
           size_words(p.rep_stosb[1], b, sizeof b), size_words(p.rep_stosb[2], c, sizeof c),
           mark(&p, ALTMEM_POLICY_STOSB));
    printf("  non-temporal from   %s for copies%s  [nt_threshold], %s for memset%s  [memset_nt_threshold]\n",
           size_words(p.nt_copy, a, sizeof a), mark(&p, ALTMEM_POLICY_NT_COPY),
           size_words(p.nt_memset, b, sizeof b), mark(&p, ALTMEM_POLICY_NT_MEMSET));
    if (p.movsb_short_distance)
        printf("  no rep movsb at     (dst - src) mod 4096 in 1..%zu%s  [rep_movsb_short_distance]\n",
               p.movsb_short_distance, mark(&p, ALTMEM_POLICY_SHORT));
    else
        printf("  no rep movsb at     (no short-distance rule)%s  [rep_movsb_short_distance]\n",
               mark(&p, ALTMEM_POLICY_SHORT));
    printf("rules applied (in order; a later one overrides):\n");
    struct altmem_rule_info r;
    for (unsigned i = 0; altmem_policy_rule(i, &r) == 0; i++)
        if (r.applied)
            printf("  %-21s %s: %s\n  %-21s source: %s\n", r.name, r.when, r.changes, "", r.source);
}

/* The profile: where, whether it applied (or why not), its settings with their
   comments (the measured margins), and which policy values it set. */
static void print_profile(void)
{
    struct altmem_profile_info p;
    altmem_profile(&p);
    if (!p.path) {
        printf("profile:            none (ALTMEM_PROFILE=none)\n");
        return;
    }
    if (p.status == ALTMEM_PROFILE_NONE) {
        printf("profile:            %s: not there (altmem tune --write measures and writes it)\n", p.path);
        return;
    }
    if (p.status == ALTMEM_PROFILE_IGNORED) {
        printf("profile:            %s: ignored: %s\n", p.path, p.why);
        return;
    }
    printf("profile:            %s: applied (measured on this CPU; ALTMEM_TUNABLES overrides it)\n", p.path);
    const char *s = p.text, *end = p.text + p.text_len;
    int seen_cpu = 0;
    while (s < end) {
        const char *e = memchr(s, '\n', (size_t)(end - s));
        if (!e)
            e = end;
        const char *t = s;
        while (t < e && (*t == ' ' || *t == '\t'))
            t++;
        if (t < e && *t != '#') {
            if (seen_cpu)
                printf("  %.*s\n", (int)(e - t), t);
            seen_cpu = 1;
        }
        s = e < end ? e + 1 : end;
    }
}

/* What each binding means for a caller (docs/alternatives.md, "Per linkage"). */
static const char *binding_legend(const char *bound_by)
{
    if (!strcmp(bound_by, "ifunc"))
        return "the dynamic loader wrote each variant's address into its callers' GOT "
               "(libaltmem.so's IFUNC entries; ALTMEM_TUNABLES=bind=patch for the stubs)";
    if (!strcmp(bound_by, "PLT slots"))
        return "each caller's PLT slot was given the variant's address at start-up "
               "(libaltmem-preload.so); other calls reach the stub, which jumps through the pointer";
    if (!strcmp(bound_by, "copied"))
        return "the variant's code was copied into the entry at start-up, its first size classes "
               "at least (static links, which have no IFUNC entries, or bind=copy)";
    if (!strcmp(bound_by, "patched branch"))
        return "each entry stub's jump was rewritten to the variant at start-up "
               "(the routines whose variant is not copied, or bind=patch)";
    return "each entry stub jumps through the routine's pointer";
}

static const char *reason_word(enum altmem_bind_reason r)
{
    switch (r) {
    case ALTMEM_BOUND_DETECTED: return "detected";
    case ALTMEM_BOUND_OVERRIDDEN: return "overridden";
    case ALTMEM_BOUND_REFUSED: return "refused";
    case ALTMEM_BOUND_PROFILE: return "profile";
    default: return "default";
    }
}

static int print_info(void)
{
    struct altmem_cpu_info cpu;
    altmem_cpu(&cpu);
    printf("altmem %s\n", ALTMEM_VERSION_STRING);
    printf("architecture:       %s\n", cpu.arch);
    if (cpu.notes && cpu.notes[0])
        printf("cpu:                %s\n", cpu.notes);
    printf("features detected:  ");
    print_features(cpu.detected);
    printf("features masked:    ");
    print_features(cpu.masked);
    if (cpu.forced) {
        printf("features forced:    ");
        print_features(cpu.forced);
    }
    printf("features in use:    ");
    print_features(cpu.active);
    if (cpu.secure)
        printf("ALTMEM_TUNABLES:    ignored (AT_SECURE process)\n");
    printf("caches:\n");
    print_size("L1d", cpu.l1d_bytes);
    print_size("L2", cpu.l2_bytes);
    print_size("L3", cpu.l3_bytes);
    print_policy();
    print_profile();

    printf("\n%-10s %-13s %-11s %-15s %s\n", "routine", "bound to", "reason", "bound by", "why");
    const char *shown[ALTMEM_ROUTINE_COUNT];      /* each binding the table shows, once */
    const char *not_copied[ALTMEM_ROUTINE_COUNT] = {0};  /* a copy asked for, the branch given: why */
    int nshown = 0;
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
        struct altmem_binding_info b;
        altmem_binding((enum altmem_routine)r, &b);
        int seen = 0;
        for (int i = 0; i < nshown; i++)
            seen |= !strcmp(shown[i], b.bound_by);
        if (!seen)
            shown[nshown++] = b.bound_by;
        printf("%-10s %-13s %-11s %-15s %s\n", altmem_routine_name((enum altmem_routine)r), b.variant,
               reason_word(b.reason), b.bound_by, b.why);
        if (b.bound_note && !strncmp(b.bound_note, "not copied: ", 12))
            not_copied[r] = b.bound_note;
        else if (r == ALTMEM_ROUTINE_COUNT - 1 && b.bound_note && b.bound_note[0])
            printf("%s: %s\n",
                   !strcmp(b.bound_by, "pointer") || !strcmp(b.bound_by, "patched branch") ? "not patched"
                                                                                            : b.bound_by,
                   b.bound_note);
    }
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++)
        if (not_copied[r])
            printf("%s %s\n", altmem_routine_name((enum altmem_routine)r), not_copied[r]);
    for (int i = 0; i < nshown; i++)
        printf("bound by %s: %s\n", shown[i], binding_legend(shown[i]));

    printf("\nvariants (preference order):\n");
    for (size_t i = 0; i < altmem_variant_count(); i++) {
        struct altmem_variant_info v;
        altmem_variant(i, &v);
        char buf[128];
        printf("  %-10s %-13s needs %-16s %-12s %s\n", altmem_routine_name(v.routine), v.name,
               v.requires ? feature_list(v.requires, buf, sizeof buf) : "nothing",
               v.runnable ? "runnable" : "not runnable", v.summary);
    }
    return 0;
}

static void info_usage(FILE *f)
{
    fprintf(f, "usage: altmem info\n"
               "Prints what was detected (features, caches), masked and forced, the policy and the rules\n"
               "behind it, the profile, and for each routine the variant it is bound to, how and why;\n"
               "then every variant built in.\n"
               "Environment: ALTMEM_TUNABLES, ALTMEM_PROFILE (see docs/tunables.md)\n");
}

int altmem_info_main(const char *self, int argc, char **argv)
{
    (void)self;
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        info_usage(stdout);
        return 0;
    }
    return print_info();
}
