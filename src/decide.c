/*
 * The decision, pure: from a CPU description, an ALTMEM_TUNABLES value and a
 * profile's text, which variant each routine binds and why, and the policy
 * (thresholds) the variants read.  No global state, no I/O: the tests run it
 * for CPUs they make up (tests/test_select.c, tests/test_profile.c), and
 * altmem_init() (src/select.c) runs it once for the CPU it runs on.
 *
 * The walk: a routine binds its first variant in the registry's order
 * (src/registry.def, best first) whose required features the CPU has and
 * that the policy does not rule out; a pin (tunables or profile) replaces
 * the walk when the CPU can run the variant pinned.
 */
#include "decide.h"
#include "altmem.h"
#include "cpu.h"
#include "policy.h"
#include "profile.h"
#include "lib/text.h"
#include "tunables.h"
#include "variant_table.h"

static int generic_index(enum altmem_routine r)
{
    return altmem__variant_find(r, "generic", 7);
}

/* ---- The decision ------------------------------------------------------- */

static int runnable(const struct altmem__variant *v, uint64_t features)
{
    return altmem__runnable(v->requires, features);
}

static void warn_line(altmem__warn_fn *warn, void *ctx, struct altmem__text *t)
{
    if (warn)
        warn(t->buf, t->len, ctx);
}

/* A variant the policy keeps out of the default walk: 512-bit registers where
   the rules say they lower the clock (not the evex variants: AVX-512's
   instructions on 32-byte registers, as glibc's evex variants there). */
static int ruled_out_512(const struct altmem__variant *v, const struct altmem__policy *p)
{
    return !p->allow512 && v->vec512;
}

/* The 64-byte variants built twice (x86_vec_entry512.h, exactly 64 bytes):
   the _halves build only where a rule asks for it, and then not the other
   512-bit variants of its routine. */
static int has_halves64(enum altmem_routine r)
{
    for (size_t i = 0; i < altmem__variant_total; i++)
        if (altmem__variants[i].routine == r && altmem__variants[i].halves64)
            return 1;
    return 0;
}

static int ruled_out_halves(const struct altmem__variant *v, const struct altmem__policy *p)
{
    if (v->halves64)
        return !p->halves64;
    return p->halves64 && v->vec512 && has_halves64(v->routine);
}

/* A copy that returns through vzeroupper where the rules say a transaction
   may be running (intel-rtm). */
static int ruled_out_vzeroupper(const struct altmem__variant *v, const struct altmem__policy *p)
{
    return p->avx2_copies_out && v->vzeroupper && (v->routine == ALTMEM_MEMCPY || v->routine == ALTMEM_MEMMOVE);
}

static int ruled_out(const struct altmem__variant *v, const struct altmem__policy *p)
{
    return ruled_out_512(v, p) || ruled_out_halves(v, p) || ruled_out_vzeroupper(v, p);
}

/* The rule that kept v out (ruled_out). */
static const char *rule_name(const struct altmem__variant *v, const struct altmem__policy *p)
{
    int rule = ruled_out_512(v, p)          ? p->no512_rule
               : ruled_out_vzeroupper(v, p) ? p->avx2_copies_out_rule
               : p->halves64                ? p->halves64_rule
                                            : -1;
    return rule >= 0 ? altmem__policy_rules[rule].name : "?";
}

/* Field by field (no struct copy: clang would call memcpy, freestanding). */
static void policy_copy(struct altmem__policy *d, const struct altmem__policy *s)
{
    d->allow512 = s->allow512;
    d->no512_rule = s->no512_rule;
    d->nt_copy = s->nt_copy;
    d->nt_set = s->nt_set;
    for (int w = 0; w < 3; w++) {
        d->movsb[w] = s->movsb[w];
        d->stosb[w] = s->stosb[w];
        d->movsb_fwd_overlap[w] = s->movsb_fwd_overlap[w];
    }
    d->movsb_coaligned = s->movsb_coaligned;
    d->movsb32_apart = s->movsb32_apart;
    d->stosb_stop16 = s->stosb_stop16;
    d->movsb_stop16 = s->movsb_stop16;
    d->movsb_stop16_apart = s->movsb_stop16_apart;
    d->movsb_stop16_near = s->movsb_stop16_near;
    d->short_distance = s->short_distance;
    d->split_loads_above = s->split_loads_above;
    d->halves64 = s->halves64;
    d->halves64_rule = s->halves64_rule;
    d->avx2_copies_out = s->avx2_copies_out;
    d->avx2_copies_out_rule = s->avx2_copies_out_rule;
    d->nt_copy16_never = s->nt_copy16_never;
    d->nt_copy_linear = s->nt_copy_linear;
    d->split_loads_streaming = s->split_loads_streaming;
    d->nt_fwd_overlap = s->nt_fwd_overlap;
    d->nt_coaligned = s->nt_coaligned;
    d->memset_no_lines = s->memset_no_lines;
    d->zero_block = s->zero_block;
    d->rules = s->rules;
}

void altmem__decide(const struct altmem__cpu *cpu, const char *tunables, int secure,
                    struct altmem__state *out, altmem__warn_fn *warn, void *ctx)
{
    altmem__decide_profile(cpu, tunables, NULL, 0, NULL, secure, out, warn, ctx);
}

/* The profile's pins under ALTMEM_TUNABLES: each routine the variable did not
   pin takes the profile's (marked so). */
static void profile_pins(struct altmem__state *out, const struct altmem__tunables *p)
{
    struct altmem__tunables *t = &out->tun;
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
        if (t->pin[r] < 0 && p->pin[r] >= 0) {
            t->pin[r] = p->pin[r];
            t->pin_old[r] = p->pin_old[r];
            out->prof.pin[r] = 1;
        }
    }
}

/* The policy settings of one set of tunables onto pol; the ALTMEM_POLICY_* bits
   of what it set. */
static unsigned policy_apply(struct altmem__policy *pol, const struct altmem__tunables *t)
{
    unsigned set = 0;
    if (t->nt_set) {
        pol->nt_copy = pol->nt_set = t->nt_threshold;
        pol->nt_copy16_never = 0;       /* the setting is every width's */
        pol->nt_fwd_overlap = 0;        /* ... and every overlap's */
        pol->nt_coaligned = 0;          /* ... and every alignment's */
        set |= ALTMEM_POLICY_NT_COPY | ALTMEM_POLICY_NT_MEMSET;
    }
    if (t->memset_nt_set) {
        pol->nt_set = t->memset_nt_threshold;
        set |= ALTMEM_POLICY_NT_MEMSET;
    }
    if (t->movsb_set) {
        pol->movsb[0] = pol->movsb[1] = pol->movsb[2] = pol->movsb_coaligned = pol->movsb32_apart = t->movsb;
        /* the setting is every width's, up to streaming */
        pol->movsb_stop16 = pol->movsb_stop16_apart = pol->movsb_stop16_near = (size_t)-1;
        pol->movsb_fwd_overlap[0] = pol->movsb_fwd_overlap[1] = pol->movsb_fwd_overlap[2] = 0; /* ... and every overlap's */
        set |= ALTMEM_POLICY_MOVSB;
    }
    if (t->stosb_set) {
        pol->stosb[0] = pol->stosb[1] = pol->stosb[2] = t->stosb;
        pol->stosb_stop16 = (size_t)-1;  /* the setting is every width's, up to streaming */
        set |= ALTMEM_POLICY_STOSB;
    }
    if (t->short_set) {
        pol->short_distance = t->short_distance;
        set |= ALTMEM_POLICY_SHORT;
    }
    return set;
}

/* The profile's settings, parsed by altmem__decide_profile (not on the stack:
   the constructor's may be small). */
static struct altmem__tunables ptun;

void altmem__decide_policy(struct altmem__state *out)
{
    /* The rules' policy for this CPU, then ALTMEM_TUNABLES setting by setting. */
    /* The rules see the features selection uses: hwcaps=-ERMS is a CPU
       without ERMS to them too (rule no-erms). */
    uint64_t detected = out->cpu.features;
    out->cpu.features = out->active;
    altmem__policy_for(&out->cpu, &out->rules_policy);
    out->cpu.features = detected;
    struct altmem__policy *pol = &out->policy;
    policy_copy(pol, &out->rules_policy);
    /* The profile's settings, then the variable's over them. */
    unsigned from_profile = out->prof.use ? policy_apply(pol, &ptun) : 0;
    unsigned from_variable = policy_apply(pol, &out->tun);
    out->prof.policy = from_profile & ~from_variable;
}

void altmem__decide_profile(const struct altmem__cpu *cpu, const char *tunables, const char *profile,
                            size_t profile_len, const char *path, int secure, struct altmem__state *out,
                            altmem__warn_fn *warn, void *ctx)
{
    /* Field by field: clang turns a whole-struct copy into a memcpy call even
       under -ffreestanding, and this file must not call the C library. */
    out->cpu.arch = cpu->arch;
    out->cpu.features = cpu->features;
    out->cpu.l1d_bytes = cpu->l1d_bytes;
    out->cpu.l2_bytes = cpu->l2_bytes;
    out->cpu.l3_bytes = cpu->l3_bytes;
    out->cpu.vendor = cpu->vendor;
    out->cpu.family = cpu->family;
    out->cpu.model = cpu->model;
    out->cpu.stepping = cpu->stepping;
    out->cpu.idflags = cpu->idflags;
    out->cpu.vector_bytes = cpu->vector_bytes;
    out->cpu.zero_block = cpu->zero_block;
    out->cpu.glibc_nt = cpu->glibc_nt;
    out->cpu.glibc_movsb_stop = cpu->glibc_movsb_stop;
    out->cpu.caches_late = cpu->caches_late;
    for (size_t i = 0; i < 4; i++)
        out->cpu.arch_raw[i] = cpu->arch_raw[i];
    for (size_t i = 0; i < sizeof out->cpu.notes; i++)
        out->cpu.notes[i] = cpu->notes[i];
    out->secure = secure;
    altmem__tunables_reset(&out->tun);
    out->patch_note[0] = '\0';
    /* Setuid and other AT_SECURE programs must not let the caller's environment
       steer them (as glibc drops GLIBC_TUNABLES there). */
    if (tunables && !secure)
        altmem__tunables_parse(tunables, &out->tun, warn, ctx);

    /* The profile, whole or not at all, under the variable. */
    out->prof.path = path;
    out->prof.status = profile ? ALTMEM_PROFILE_APPLIED : ALTMEM_PROFILE_NONE;
    out->prof.why[0] = '\0';
    out->prof.text = profile;
    out->prof.len = profile_len;
    out->prof.policy = 0;
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++)
        out->prof.pin[r] = 0;
    int use_profile = 0;
    if (profile) {
        if (altmem__profile_parse(profile, profile_len, cpu, &ptun, out->prof.why, sizeof out->prof.why)) {
            profile_pins(out, &ptun);
            use_profile = 1;
        } else {
            out->prof.status = ALTMEM_PROFILE_IGNORED;
            char line[400];
            struct altmem__text w = {line, sizeof line, 0};
            altmem__text_puts(&w, "altmem: profile ");
            altmem__text_puts(&w, path ? path : "(string)");
            altmem__text_puts(&w, ": ");
            altmem__text_puts(&w, out->prof.why);
            altmem__text_puts(&w, "; ignored, the rules' choices stand");
            warn_line(warn, ctx, &w);
        }
    }

    /* Only UAL may be forced on: it is a speed property (a CPU without it still
       runs the ual variants, slowly, or traps if the OS does not emulate), while
       a missing SIMD or string feature would raise SIGILL. */
    uint64_t bad = out->tun.force & ~cpu->features & ~ALTMEM_FEAT_UAL;
    if (bad) {
        char line[200];
        struct altmem__text w = {line, sizeof line, 0};
        altmem__text_puts(&w, "altmem: " ALTMEM_TUNABLES_ENV ": refusing hwcaps=+");
        altmem__text_features(&w, bad, ",+");
        altmem__text_puts(&w, ": this CPU lacks it (only +UAL can be forced)");
        warn_line(warn, ctx, &w);
        out->tun.force &= ~bad;
    }
    out->active = (cpu->features & ~out->tun.mask) | out->tun.force;
    out->prof.use = use_profile;
    altmem__decide_policy(out);
    struct altmem__policy *pol = &out->policy;

    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
        struct altmem__bound *b = &out->bound[r];
        struct altmem__text why = {b->why, sizeof b->why, 0};
        b->why[0] = '\0';

        /* First variant, in preference order, whose requirements hold and
           that the rules allow (a pin below may still choose any runnable one). */
        int best = -1;
        for (size_t i = 0; i < altmem__variant_total; i++) {
            if ((int)altmem__variants[i].routine == r && runnable(&altmem__variants[i], out->active) &&
                !ruled_out(&altmem__variants[i], pol)) {
                best = (int)i;
                break;
            }
        }
        if (best < 0)               /* cannot happen: generic requires nothing */
            best = generic_index((enum altmem_routine)r);
        b->variant = best;
        b->reason = ALTMEM_BOUND_DETECTED;
        const struct altmem__variant *bv = &altmem__variants[best];
        if (bv->requires) {
            altmem__text_puts(&why, "CPU has ");
            altmem__text_features(&why, bv->requires, "+");
        } else {
            altmem__text_puts(&why, "needs nothing");
        }
        /* Name the better variants that were passed over, and what they lacked. */
        int skipped = 0;
        for (int i = 0; i < best; i++) {
            const struct altmem__variant *v = &altmem__variants[i];
            if ((int)v->routine != r)
                continue;
            altmem__text_puts(&why, skipped++ ? ", " : "; skipped ");
            altmem__text_puts(&why, v->name);
            if (runnable(v, out->active)) {
                altmem__text_puts(&why, " (rule ");
                altmem__text_puts(&why, rule_name(v, pol));
                altmem__text_puts(&why, ")");
            } else {
                altmem__text_puts(&why, " (lacks ");
                altmem__text_features(&why, v->requires & ~out->active, "+");
                altmem__text_puts(&why, ")");
            }
        }
        if (out->tun.mask & cpu->features) {
            altmem__text_puts(&why, "; masked by " ALTMEM_TUNABLES_ENV ": ");
            altmem__text_features(&why, out->tun.mask & cpu->features, ",");
        }

        int pin = out->tun.pin[r];
        if (pin < 0)
            continue;
        const struct altmem__variant *pv = &altmem__variants[pin];
        /* A pin is honoured only if the CPU itself can run the variant: masking
           may remove features, a pin must never add one the hardware lacks
           (UAL is the one exception, and only when forced explicitly). */
        uint64_t can = cpu->features | out->tun.force;
        if (runnable(pv, can) && out->prof.pin[r]) {
            b->variant = pin;
            b->reason = ALTMEM_BOUND_PROFILE;
            why.len = 0;
            altmem__text_puts(&why, "set by the profile ");
            altmem__text_puts(&why, out->prof.path ? out->prof.path : "(string)");
        } else if (runnable(pv, can)) {
            b->variant = pin;
            b->reason = ALTMEM_BOUND_OVERRIDDEN;
            why.len = 0;
            altmem__text_puts(&why, "pinned by " ALTMEM_TUNABLES_ENV);
            if (out->tun.pin_old[r]) {
                altmem__text_puts(&why, " as ");
                altmem__text_puts(&why, out->tun.pin_old[r]);
                altmem__text_puts(&why, ", the old name of ");
                altmem__text_puts(&why, pv->name);
                altmem__text_puts(&why, " (rep movsb/stosb: the policy)");
            }
        } else {
            b->reason = ALTMEM_BOUND_REFUSED;
            char line[200];
            struct altmem__text w = {line, sizeof line, 0};
            altmem__text_puts(&w, "altmem: " ALTMEM_TUNABLES_ENV ": refusing ");
            altmem__text_puts(&w, altmem_routine_name((enum altmem_routine)r));
            altmem__text_puts(&w, "=");
            if (out->tun.pin_old[r]) {
                altmem__text_puts(&w, out->tun.pin_old[r]);
                altmem__text_puts(&w, " (now ");
                altmem__text_puts(&w, pv->name);
                altmem__text_puts(&w, ")");
            } else {
                altmem__text_puts(&w, pv->name);
            }
            altmem__text_puts(&w, ": needs ");
            altmem__text_features(&w, pv->requires & ~can, "+");
            altmem__text_puts(&w, ", which this CPU lacks; keeping ");
            altmem__text_puts(&w, bv->name);
            warn_line(warn, ctx, &w);
            why.len = 0;
            altmem__text_puts(&why, "pin '");
            altmem__text_puts(&why, pv->name);
            altmem__text_puts(&why, "' refused (CPU lacks ");
            altmem__text_features(&why, pv->requires & ~can, "+");
            altmem__text_puts(&why, ")");
        }
    }
}
