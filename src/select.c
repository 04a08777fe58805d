/*
 * Selection: the one table of variants, and the walk that binds each routine.
 *
 * The table drives everything: selection (first runnable variant in preference
 * order, after ALTMEM_TUNABLES), the tests (every runnable variant is called
 * directly), the benchmark, and `altmem info`.  Adding a variant = one row here
 * + one file below src/variants/ or src/arch/.
 */
#include "internal.h"
#include "os/os.h"
#include "patch/patch.h"
#include "registry.h" /* the generic variants, the pointers' first targets */

/* This module's patch sites (the linker defines both symbols when any exist). */
extern const struct altmem__site __start_altmem_patch_sites[] __attribute__((weak, visibility("hidden")));
extern const struct altmem__site __stop_altmem_patch_sites[] __attribute__((weak, visibility("hidden")));

static int generic_index(enum altmem_routine r)
{
    return altmem__variant_find(r, "generic", 7);
}

/* ---- The decision ------------------------------------------------------- */

static int runnable(const struct altmem__variant *v, uint64_t features)
{
    return (v->requires & ~features) == 0;
}

static void warn_line(altmem__warn_fn *warn, void *ctx, struct altmem__text *t)
{
    if (warn)
        warn(t->buf, t->len, ctx);
}

/* A variant the policy keeps out of the default walk: 512-bit registers where
   the rules say they lower the clock. */
static int ruled_out(const struct altmem__variant *v, const struct altmem__policy *p)
{
    return !p->allow512 && (v->requires & ALTMEM_FEAT_SIMD512);
}

/* The rule that cleared allow512. */
static const char *rule_name_512(const struct altmem__policy *p)
{
    return p->no512_rule >= 0 ? altmem__policy_rules[p->no512_rule].name : "?";
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
    }
    d->movsb_coaligned = s->movsb_coaligned;
    d->short_distance = s->short_distance;
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
        set |= ALTMEM_POLICY_NT_COPY | ALTMEM_POLICY_NT_MEMSET;
    }
    if (t->memset_nt_set) {
        pol->nt_set = t->memset_nt_threshold;
        set |= ALTMEM_POLICY_NT_MEMSET;
    }
    if (t->movsb_set) {
        pol->movsb[0] = pol->movsb[1] = pol->movsb[2] = pol->movsb_coaligned = t->movsb;
        set |= ALTMEM_POLICY_MOVSB;
    }
    if (t->stosb_set) {
        pol->stosb[0] = pol->stosb[1] = pol->stosb[2] = t->stosb;
        set |= ALTMEM_POLICY_STOSB;
    }
    if (t->short_set) {
        pol->short_distance = t->short_distance;
        set |= ALTMEM_POLICY_SHORT;
    }
    return set;
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
    for (size_t i = 0; i < sizeof out->cpu.notes; i++)
        out->cpu.notes[i] = cpu->notes[i];
    out->secure = secure;
    out->tun.mask = 0;
    out->tun.force = 0;
    out->tun.verbose = 0;
    out->tun.debug = 0;
    out->tun.no_patch = 0;
    out->tun.nt_set = 0;
    out->tun.nt_threshold = 0;
    out->tun.memset_nt_set = out->tun.movsb_set = out->tun.stosb_set = out->tun.short_set = 0;
    out->tun.memset_nt_threshold = out->tun.movsb = out->tun.stosb = out->tun.short_distance = 0;
    out->patch_note[0] = '\0';
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
        out->tun.pin[r] = -1;
        out->tun.pin_old[r] = NULL;
    }
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
    static struct altmem__tunables ptun; /* (not on the stack: the constructor's may be small) */
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
    unsigned from_profile = use_profile ? policy_apply(pol, &ptun) : 0;
    unsigned from_variable = policy_apply(pol, &out->tun);
    out->prof.policy = from_profile & ~from_variable;

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
                altmem__text_puts(&why, rule_name_512(pol));
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

/* ---- Non-temporal threshold --------------------------------------------- */

/*
 * Copies and sets of at least this many bytes bypass the caches (non-temporal
 * stores), where a variant has such a path: the destination would not stay
 * cached anyway, and the stores skip reading each line before writing it.
 * A quarter of the last-level cache (glibc 2.38's rule, after 2.36's 3/4 of a
 * per-thread share proved too small on large servers), but at most 16 times the
 * private L2: a virtual machine reports the host's whole LLC (480 MiB on the
 * machine in docs/performance.md), of which one guest gets a small, contended
 * part.  Unknown caches: 16 MiB.  ALTMEM_TUNABLES nt_threshold=BYTES overrides.
 */
size_t altmem__nt_default(const struct altmem__cpu *cpu)
{
    size_t llc = cpu->l3_bytes ? cpu->l3_bytes : cpu->l2_bytes;
    size_t t = llc / 4;
    if (cpu->l3_bytes && cpu->l2_bytes && t > 16 * cpu->l2_bytes)
        t = 16 * cpu->l2_bytes;
    return t ? t : (size_t)16 << 20;
}


static void ensure_init(void);

size_t altmem_nt_threshold(void)
{
    ensure_init();
    return altmem__nt_threshold;
}

/* ---- Binding ------------------------------------------------------------ */

/* Entry points (src/entry.c) jump through these.  They start at the generic
   variants, which are correct on every CPU, so a call that arrives before
   altmem_init() (another constructor, the dynamic loader) is still right. */
altmem_memcpy_fn *altmem__memcpy_impl = altmem_memcpy_generic;
altmem_memmove_fn *altmem__memmove_impl = altmem_memmove_generic;
altmem_memset_fn *altmem__memset_impl = altmem_memset_generic;
altmem_copy_user_fn *altmem__copy_user_impl = altmem_copy_user_generic;
altmem_clear_user_fn *altmem__clear_user_impl = altmem_clear_user_generic;

void altmem__bind(const struct altmem__state *st)
{
    /* Before the pointers: a variant bound below reads them. */
    altmem__policy_install(&st->policy);
    __atomic_store_n(&altmem__memcpy_impl, altmem__variants[st->bound[ALTMEM_MEMCPY].variant].fn.memcpy,
                     __ATOMIC_RELEASE);
    __atomic_store_n(&altmem__memmove_impl, altmem__variants[st->bound[ALTMEM_MEMMOVE].variant].fn.memmove,
                     __ATOMIC_RELEASE);
    __atomic_store_n(&altmem__memset_impl, altmem__variants[st->bound[ALTMEM_MEMSET].variant].fn.memset,
                     __ATOMIC_RELEASE);
    __atomic_store_n(&altmem__copy_user_impl,
                     altmem__variants[st->bound[ALTMEM_COPY_USER].variant].fn.copy_user, __ATOMIC_RELEASE);
    __atomic_store_n(&altmem__clear_user_impl,
                     altmem__variants[st->bound[ALTMEM_CLEAR_USER].variant].fn.clear_user, __ATOMIC_RELEASE);
}

/* ---- Initialisation ----------------------------------------------------- */

struct altmem__state altmem__global;
static int init_state;   /* 0 not started, 1 running, 2 done */

static void warn_to_stderr(const char *line, size_t len, void *ctx)
{
    (void)ctx;
    altmem__os_write_err(line, len);
    altmem__os_write_err("\n", 1);
}

/* ALTMEM_PROFILE names the profile ("" or "none": no profile); under AT_SECURE
   it is ignored and only the system profile is read (read_profile checks it is
   root's and not writable by others). */
static const char *profile_path(int secure)
{
    const char *env = secure ? NULL : altmem__os_getenv(ALTMEM_PROFILE_ENV);
    if (!env)
        return ALTMEM_PROFILE_PATH;
    if (env[0] == '\0' || altmem__eq_nocase(env, altmem__strlen(env), "none"))
        return NULL;
    return env;
}

static char profile_buf[ALTMEM__PROFILE_MAX];

/* The profile's text, or NULL: not there (silently), or unreadable (one line). */
static const char *read_profile(const char *path, int secure, size_t *len)
{
    int rc = altmem__os_read_file(path, secure, profile_buf, sizeof profile_buf, len);
    if (rc == 0)
        return profile_buf;
    if (rc == -2 /* ENOENT */ || rc == -38 /* ENOSYS: freestanding */ || rc == -20 /* ENOTDIR */)
        return NULL;
    char line[400];
    struct altmem__text w = {line, sizeof line, 0};
    altmem__text_puts(&w, "altmem: profile ");
    altmem__text_puts(&w, path);
    altmem__text_puts(&w, rc == ALTMEM__READ_NOT_REGULAR ? ": not a regular file"
                          : rc == ALTMEM__READ_TOO_BIG   ? ": larger than 64 KiB, not a profile"
                          : rc == ALTMEM__READ_INSECURE  ? ": in a setuid (AT_SECURE) process a profile must be "
                                                           "root's and writable by no one else"
                          : rc == -13                    ? ": no permission to read it"
                          : rc == -40                    ? ": too many levels of symbolic links"
                                                         : ": cannot be read");
    if (rc < 0 && rc != -13 && rc != -40) {
        altmem__text_puts(&w, " (errno ");
        altmem__text_putu(&w, (unsigned long long)-rc);
        altmem__text_puts(&w, ")");
    }
    altmem__text_puts(&w, "; ignored, the rules' choices stand");
    warn_to_stderr(w.buf, w.len, 0);
    return NULL;
}

static void print_bindings(const struct altmem__state *st)
{
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++) {
        char line[320];
        struct altmem__text t = {line, sizeof line, 0};
        altmem__text_puts(&t, "altmem: ");
        altmem__text_puts(&t, altmem_routine_name((enum altmem_routine)r));
        altmem__text_puts(&t, " -> ");
        altmem__text_puts(&t, altmem__variants[st->bound[r].variant].name);
        altmem__text_puts(&t, " (");
        altmem__text_puts(&t, st->bound[r].why);
        altmem__text_puts(&t, ")\n");
        altmem__os_write_err(t.buf, t.len);
    }
}

void altmem_init(void)
{
    int expected = 0;
    if (!__atomic_compare_exchange_n(&init_state, &expected, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) {
        /* Someone else is initialising (or has): wait for the result. */
        while (__atomic_load_n(&init_state, __ATOMIC_ACQUIRE) != 2) {
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
        }
        return;
    }
    struct altmem__cpu cpu;
    cpu.vendor = ALTMEM__VENDOR_UNKNOWN;   /* the x86 identity; other architectures leave it */
    cpu.family = cpu.model = cpu.stepping = 0;
    cpu.idflags = 0;
    altmem__cpu_detect(&cpu);
    int found;
    int secure = altmem__os_getauxval(23 /* AT_SECURE */, &found) != 0;
    const char *value = altmem__os_getenv(ALTMEM_TUNABLES_ENV);
    size_t plen = 0;
    const char *text = altmem__os_profile_string(), *path;
    if (text) {
        path = "(altmem_init_freestanding_profile)";
        plen = altmem__strlen(text);
    } else {
        path = profile_path(secure);
        text = path ? read_profile(path, secure, &plen) : NULL;
    }
    altmem__decide_profile(&cpu, value, text, plen, path, secure, &altmem__global, warn_to_stderr, 0);
    altmem__bind(&altmem__global);
#if ALTMEM_BIND_MODE == ALTMEM_BIND_PATCH
    /* The pointers are right; now let the entry branches skip them. */
    struct altmem__text note = {altmem__global.patch_note, sizeof altmem__global.patch_note, 0};
    if (altmem__global.tun.no_patch)
        altmem__text_puts(&note, "bind=pointer in " ALTMEM_TUNABLES_ENV);
    else
        altmem__patch_sites(__start_altmem_patch_sites, __stop_altmem_patch_sites, altmem__global.tun.debug,
                            altmem__global.patch_note, sizeof altmem__global.patch_note);
#endif
    if (altmem__global.tun.verbose)
        print_bindings(&altmem__global);
    __atomic_store_n(&init_state, 2, __ATOMIC_RELEASE);
}

__attribute__((constructor)) static void altmem_constructor(void)
{
    altmem_init();
}

/* ---- Introspection ------------------------------------------------------ */

static void ensure_init(void)
{
    if (__atomic_load_n(&init_state, __ATOMIC_ACQUIRE) != 2)
        altmem_init();
}

void altmem_cpu(struct altmem_cpu_info *out)
{
    ensure_init();
    const struct altmem__state *st = &altmem__global;
    out->arch = st->cpu.arch;
    out->detected = st->cpu.features;
    out->masked = st->tun.mask & st->cpu.features;
    out->forced = st->tun.force & ~st->cpu.features;
    out->active = st->active;
    out->l1d_bytes = st->cpu.l1d_bytes;
    out->l2_bytes = st->cpu.l2_bytes;
    out->l3_bytes = st->cpu.l3_bytes;
    out->secure = st->secure;
    out->notes = st->cpu.notes;
}

void altmem_policy(struct altmem_policy_info *out)
{
    ensure_init();
    const struct altmem__state *st = &altmem__global;
    const struct altmem__policy *p = &st->policy;
    out->wide_vectors = p->allow512;
    out->nt_copy = p->nt_copy;
    out->nt_memset = p->nt_set;
    for (int w = 0; w < 3; w++) {
        out->rep_movsb[w] = p->movsb[w];
        out->rep_stosb[w] = p->stosb[w];
    }
    out->rep_movsb_coaligned = p->movsb_coaligned;
    out->movsb_short_distance = p->short_distance;
    out->overridden = (st->tun.nt_set ? ALTMEM_POLICY_NT_COPY | ALTMEM_POLICY_NT_MEMSET : 0) |
                      (st->tun.memset_nt_set ? ALTMEM_POLICY_NT_MEMSET : 0) |
                      (st->tun.movsb_set ? ALTMEM_POLICY_MOVSB : 0) | (st->tun.stosb_set ? ALTMEM_POLICY_STOSB : 0) |
                      (st->tun.short_set ? ALTMEM_POLICY_SHORT : 0);
}

void altmem_profile(struct altmem_profile_info *out)
{
    ensure_init();
    const struct altmem__profile_state *p = &altmem__global.prof;
    out->path = p->path;
    out->status = (enum altmem_profile_status)p->status;
    out->why = p->why;
    out->text = p->text;
    out->text_len = p->len;
    out->policy = p->policy;
}

size_t altmem_cpu_identity(char *buf, size_t size)
{
    ensure_init();
    char line[400];
    struct altmem__text t = {line, sizeof line, 0};
    altmem__cpu_identity(&altmem__global.cpu, &t);
    for (size_t i = 0; size && i < t.len && i + 1 < size; i++)
        buf[i] = line[i];
    if (size)
        buf[t.len < size ? t.len : size - 1] = '\0';
    return t.len;
}

int altmem_policy_rule(unsigned i, struct altmem_rule_info *out)
{
    if (i >= altmem__policy_rule_count)
        return -1;
    ensure_init();
    const struct altmem__policy_rule *r = &altmem__policy_rules[i];
    out->name = r->name;
    out->when = r->when;
    out->changes = r->changes;
    out->source = r->source;
    out->applied = (int)(altmem__global.policy.rules >> i & 1);
    return 0;
}

size_t altmem_variant_count(void)
{
    return altmem__variant_total;
}

int altmem_variant(size_t i, struct altmem_variant_info *out)
{
    if (i >= altmem__variant_total)
        return -1;
    ensure_init();
    const struct altmem__variant *v = &altmem__variants[i];
    unsigned pref = 0;
    for (size_t j = 0; j < i; j++)
        pref += altmem__variants[j].routine == v->routine;
    out->routine = v->routine;
    out->name = v->name;
    out->summary = v->summary;
    out->requires = v->requires;
    out->runnable = runnable(v, altmem__global.cpu.features);
    out->preference = pref;
    out->fn.memcpy = v->fn.memcpy;
    return 0;
}

static const void *const slots[ALTMEM_ROUTINE_COUNT] = {
    &altmem__memcpy_impl, &altmem__memmove_impl, &altmem__memset_impl, &altmem__copy_user_impl,
    &altmem__clear_user_impl,
};

/* Read from the code itself, not from a flag: what a call really goes through. */
static const char *bound_by(enum altmem_routine r)
{
#if ALTMEM_BIND_MODE == ALTMEM_BIND_PATCH
    if (altmem__site_target(__start_altmem_patch_sites, __stop_altmem_patch_sites, slots[r]))
        return "patched branch";
    return "pointer";
#else
    extern const char altmem__entry_binding[];   /* src/entry.c: "pointer" or "ifunc" */
    (void)slots[r];
    return altmem__entry_binding;
#endif
}

int altmem_binding(enum altmem_routine r, struct altmem_binding_info *out)
{
    if ((unsigned)r >= ALTMEM_ROUTINE_COUNT)
        return -1;
    ensure_init();
    const struct altmem__bound *b = &altmem__global.bound[r];
    out->routine = r;
    out->variant = altmem__variants[b->variant].name;
    out->reason = b->reason;
    out->why = b->why;
    out->bound_by = bound_by(r);
    out->bound_note = altmem__global.patch_note;
    return 0;
}
