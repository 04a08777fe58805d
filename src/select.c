/*
 * Initialisation and binding: detect the CPU, read ALTMEM_TUNABLES and the
 * profile, let the decision (src/decide.c) choose, then bind each routine:
 * its pointer, and its entry's patched branch.  Also the introspection API
 * that `altmem info` prints from.
 */
#include "select.h"
#include "altmem.h"
#include "bind_mode.h"
#include "cpu.h"
#include "decide.h"
#include "os/os.h"
#include "patch/patch.h"
#include "policy.h"
#include "profile.h"
#include "registry.h" /* the generic variants, the pointers' first targets */
#include "lib/text.h"
#include "tunables.h"
#include "variant_table.h"
#include <arch.h> /* altmem__arch_cpu_relax: src/arch/<arch>/arch.h */

/* This module's patch sites (the linker defines both symbols when any exist). */
extern const struct altmem__site __start_altmem_patch_sites[] __attribute__((weak, visibility("hidden")));
extern const struct altmem__site __stop_altmem_patch_sites[] __attribute__((weak, visibility("hidden")));

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
#define ROUTINE(routine, libc_name, access, reads) altmem_##routine##_fn *altmem__##routine##_impl = altmem_##routine##_generic;
#include "registry.def"
#undef ROUTINE

void altmem__bind(const struct altmem__state *st)
{
    /* Before the pointers: a variant bound below reads them. */
    if (st->cpu.caches_late)
        altmem__policy_install_early(&st->policy);
    else
        altmem__policy_install(&st->policy);
#define ROUTINE(routine, libc_name, access, reads)                                                                    \
    __atomic_store_n(&altmem__##routine##_impl, altmem__variants[st->bound[ALTMEM__ID_##routine].variant].fn.routine, \
                     __ATOMIC_RELEASE);
#include "registry.def"
#undef ROUTINE
}

/* ---- Initialisation ----------------------------------------------------- */

struct altmem__state altmem__global;
static int init_state;   /* 0 not started, 1 running, 2 done */
static int settle_state; /* the caches: 0 to be read, 1 being read, 2 read */

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

/* The profile's text, or NULL: not there (silently), or unreadable (one line).
   Its buffer is mapped only when the file opens, and kept: the state points
   into it (altmem_profile). */
static const char *read_profile(const char *path, int secure, size_t *len)
{
    char *buf = NULL;
    int rc = altmem__os_read_file(path, secure, &buf, ALTMEM__PROFILE_MAX, len);
    if (rc == 0)
        return buf;
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

static const char *bound_by(enum altmem_routine r);
static const char *copy_note(enum altmem_routine r, const char *bound);

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
        altmem__text_puts(&t, ")");
        const char *not_copied = copy_note((enum altmem_routine)r, bound_by((enum altmem_routine)r));
        if (not_copied) {
            altmem__text_puts(&t, "; ");
            altmem__text_puts(&t, not_copied);
        }
        altmem__text_puts(&t, "\n");
        altmem__os_write_err(t.buf, t.len);
    }
    /* How calls reach them, where that is worth a line: the preload's PLT slots
       (how many), or why nothing was patched. */
    if (st->patch_note[0]) {
        char line[320];
        struct altmem__text t = {line, sizeof line, 0};
        altmem__text_puts(&t, "altmem: bound by ");
        altmem__text_puts(&t, bound_by(ALTMEM_MEMCPY));
        altmem__text_puts(&t, ": ");
        altmem__text_puts(&t, st->patch_note);
        altmem__text_puts(&t, "\n");
        altmem__os_write_err(t.buf, t.len);
    }
}

#if ALTMEM_BIND_MODE == ALTMEM_BIND_PATCH
/* The preload's PLT slots given the variants (src/preload/plt_bind.c). */
static int plt_bound;

static int plt_bind(struct altmem__text *note)
{
    const void *variant[ALTMEM_ROUTINE_COUNT];
#define ROUTINE(routine, libc_name, access, reads) \
    variant[ALTMEM__ID_##routine] = (const void *)altmem__##routine##_impl;
#include "registry.def"
#undef ROUTINE
    struct altmem__plt_report rep;
    if (altmem__plt_bind(variant, altmem__global.tun.debug, &rep) != 0)
        return -1;
    unsigned slots = 0;
    for (int r = 0; r < ALTMEM_ROUTINE_COUNT; r++)
        slots += rep.slots[r];
    altmem__text_putu(note, slots);
    altmem__text_puts(note, slots == 1 ? " PLT slot in " : " PLT slots in ");
    altmem__text_putu(note, rep.objects);
    altmem__text_puts(note, rep.objects == 1 ? " object" : " objects");
    if (rep.relro_rounds) {
        altmem__text_puts(note, " (");
        altmem__text_putu(note, rep.relro_rounds);
        altmem__text_puts(note, " read-only)");
    }
    if (rep.refused) {
        altmem__text_puts(note, ", ");
        altmem__text_putu(note, rep.refused);
        altmem__text_puts(note, " read-only refused");
    }
    plt_bound = 1;
    if (rep.other_refs) {
        /* -fno-plt calls or function pointers reach the stubs: patch them too. */
        altmem__text_puts(note, "; stubs patched too: GOT references");
        char patched[sizeof altmem__global.patch_note];
        patched[0] = '\0';
        altmem__patch_sites(__start_altmem_patch_sites, __stop_altmem_patch_sites, altmem__global.tun.debug,
                            altmem__global.tun.bind != ALTMEM__BIND_PATCH, patched, sizeof patched);
        if (patched[0]) {
            altmem__text_puts(note, " (not: ");
            altmem__text_puts(note, patched);
            altmem__text_puts(note, ")");
        }
    } else {
        altmem__text_puts(note, "; other calls: stub, pointer");
    }
    return 0;
}
#endif

void altmem_init(void)
{
    int expected = 0;
    if (!__atomic_compare_exchange_n(&init_state, &expected, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) {
        /* Someone else is initialising (or has): wait for the result. */
        while (__atomic_load_n(&init_state, __ATOMIC_ACQUIRE) != 2) {
            altmem__arch_cpu_relax();
        }
        return;
    }
    struct altmem__cpu cpu;
    cpu.vendor = ALTMEM__VENDOR_UNKNOWN;   /* the x86 identity; other architectures leave it */
    cpu.family = cpu.model = cpu.stepping = 0;
    cpu.idflags = 0;
    altmem__cpu_detect_id(&cpu);
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
    /* A profile's cpu line names the cache sizes; without one, only calls of
       ALTMEM__SETTLE_FROM bytes or more need them (altmem__settle). */
    if (text)
        altmem__cpu_detect_caches(&cpu);
    if (!cpu.caches_late)
        __atomic_store_n(&settle_state, 2, __ATOMIC_RELAXED);
    altmem__decide_profile(&cpu, value, text, plen, path, secure, &altmem__global, warn_to_stderr, 0);
    altmem__bind(&altmem__global);
#if ALTMEM_BIND_MODE == ALTMEM_BIND_PATCH
    /* The pointers are right; now let the entry branches skip them. */
    struct altmem__text note = {altmem__global.patch_note, sizeof altmem__global.patch_note, 0};
    if (altmem__global.tun.bind == ALTMEM__BIND_POINTER)
        altmem__text_puts(&note, "bind=pointer in " ALTMEM_TUNABLES_ENV);
    else if (altmem__ifunc_entries && altmem__global.tun.bind == ALTMEM__BIND_IFUNC)
        ; /* callers reach the variants through their GOT; no code to rewrite */
    else if (altmem__plt_bind && altmem__global.tun.bind == ALTMEM__BIND_IFUNC && plt_bind(&note) == 0)
        ; /* the preload: its callers' PLT slots hold the variants */
    else
        altmem__patch_sites(__start_altmem_patch_sites, __stop_altmem_patch_sites, altmem__global.tun.debug,
                            altmem__global.tun.bind != ALTMEM__BIND_PATCH, altmem__global.patch_note,
                            sizeof altmem__global.patch_note);
#endif
    if (altmem__global.tun.verbose)
        print_bindings(&altmem__global);
    __atomic_store_n(&init_state, 2, __ATOMIC_RELEASE);
}

__attribute__((constructor)) static void altmem_constructor(void)
{
    altmem_init();
}

/* The first call of ALTMEM__SETTLE_FROM bytes or more after altmem_init() left
   the cache sizes unread (policy.h, ALTMEM_SETTLE): read them, decide the
   policy again with them, install it.  Never waits: 0 to a call that finds it
   under way, in another thread or in the code a signal interrupted (which then
   takes the generic variant, below), or done. */
int altmem__settle(void)
{
    int expected = 0;
    if (__atomic_load_n(&init_state, __ATOMIC_ACQUIRE) != 2 ||
        !__atomic_compare_exchange_n(&settle_state, &expected, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
        return 0;
    altmem__cpu_detect_caches(&altmem__global.cpu);
    altmem__decide_policy(&altmem__global);
    altmem__policy_install(&altmem__global.policy);
    __atomic_store_n(&settle_state, 2, __ATOMIC_RELEASE);
    return 1;
}

#define ROUTINE(routine, libc_name, access, reads)                                                 \
    __attribute__((cold)) ALTMEM__RET_##routine altmem__settle_##routine ALTMEM__PARAMS_##routine  \
    {                                                                                              \
        if (altmem__settle())                                                                      \
            return __atomic_load_n(&altmem__##routine##_impl, __ATOMIC_ACQUIRE) ALTMEM__ARGS_##routine; \
        return altmem_##routine##_generic ALTMEM__ARGS_##routine;                                  \
    }
#include "registry.def"
#undef ROUTINE

int altmem__selection_started(void)
{
    return __atomic_load_n(&init_state, __ATOMIC_ACQUIRE) != 0;
}

/* ---- IFUNC entries ------------------------------------------------------ */

/* 0 here; src/entry.c's IFUNC entries, linked into libaltmem.so only, define it
   1: a fact of the link, not of the run.  Not const: GCC 12 folded a weak
   constant's 0 into its readers, and `altmem info` said "pointer". */
__attribute__((weak)) int altmem__ifunc_entries = 0;
/* Per routine, how many resolver calls came before this library was relocated. */
static unsigned ifunc_early[ALTMEM_ROUTINE_COUNT];

/* Its own address once the loader has applied this library's relative
   relocations; before that, the value the linker left (0 or the link-time
   address).  volatile: the compiler must not assume the initialiser. */
static void *volatile self_address = (void *)&self_address;

void *altmem__ifunc_resolve(enum altmem_routine r, void *stub)
{
    /* glibc relocates objects in dependency order, so only an object that uses
       this library without naming it (DT_NEEDED) is relocated first.  Then nothing
       a relocation writes may be read, altmem_init() included; the stub is right
       from the start (through the pointer, then the patched branch). */
    if (self_address != (void *)&self_address) {
        ifunc_early[r]++;
        return stub;
    }
    altmem_init();
    if (altmem__global.tun.bind != ALTMEM__BIND_IFUNC)
        return stub;
    switch (r) {
#define ROUTINE(routine, libc_name, access, reads)                                                 \
    case ALTMEM__ID_##routine:                                                                     \
        return (void *)__atomic_load_n(&altmem__##routine##_impl, __ATOMIC_ACQUIRE);
#include "registry.def"
#undef ROUTINE
    default:
        return stub;
    }
}

/* ---- Introspection ------------------------------------------------------ */

static void ensure_init(void)
{
    if (__atomic_load_n(&init_state, __ATOMIC_ACQUIRE) != 2)
        altmem_init();
    /* What is reported includes the cache sizes and the thresholds from them. */
    if (__atomic_load_n(&settle_state, __ATOMIC_ACQUIRE) != 2 && !altmem__settle())
        while (__atomic_load_n(&settle_state, __ATOMIC_ACQUIRE) != 2)
            altmem__arch_cpu_relax();
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
    out->runnable = altmem__runnable(v->requires, altmem__global.cpu.features);
    out->preference = pref;
    out->fn.memcpy = v->fn.memcpy;
    return 0;
}

#define ROUTINE(routine, libc_name, access, reads) [ALTMEM__ID_##routine] = &altmem__##routine##_impl,
static const void *const slots[ALTMEM_ROUTINE_COUNT] = {
#include "registry.def"
};
#undef ROUTINE

#if ALTMEM_BIND_MODE == ALTMEM_BIND_PATCH
static const char bound_by_branch[] = "patched branch";
#endif

/* Read from the code itself, not from a flag: what a call really goes through
   (under IFUNC entries, the resolver's answer: the variant itself). */
static const char *bound_by(enum altmem_routine r)
{
#if ALTMEM_BIND_MODE == ALTMEM_BIND_PATCH
    if (altmem__ifunc_entries && altmem__global.tun.bind == ALTMEM__BIND_IFUNC)
        return "ifunc";
    if (plt_bound)
        return "PLT slots";
    size_t copied;
    if (altmem__site_target(__start_altmem_patch_sites, __stop_altmem_patch_sites, slots[r], &copied))
        return copied ? "copied" : bound_by_branch;
    return "pointer";
#else
    extern const char altmem__entry_binding[];   /* src/entry.c: "pointer" or "ifunc" */
    (void)slots[r];
    return altmem__entry_binding;
#endif
}

#if ALTMEM_BIND_MODE == ALTMEM_BIND_PATCH
/* COMMON, which linkers place after every .bss section: written only when
   asked (altmem_binding), these 1.1 KB would otherwise sit before the state
   every start-up writes and push it onto a page of its own, one more page
   fault in every process (docs/dropin.md, "Start-up cost"; test
   dropin.startup_pages). */
char altmem__copy_notes[ALTMEM_ROUTINE_COUNT][224] __attribute__((common, visibility("hidden")));
#endif

/* Why a routine the engine was asked to copy holds the branch instead
   ("not copied: ..."), or NULL; bound: what bound_by() said for it. */
static const char *copy_note(enum altmem_routine r, const char *bound)
{
#if ALTMEM_BIND_MODE == ALTMEM_BIND_PATCH
    const char *why = bound == bound_by_branch
                          ? altmem__site_not_copied(__start_altmem_patch_sites, __stop_altmem_patch_sites, slots[r])
                          : 0;
    if (!why)
        return 0;
    struct altmem__text t = {altmem__copy_notes[r], sizeof altmem__copy_notes[r], 0};
    altmem__text_puts(&t, "not copied: ");
    altmem__text_puts(&t, why);
    return altmem__copy_notes[r];
#else
    (void)r;
    (void)bound;
    return 0;
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
    if (ifunc_early[r] && !out->bound_note[0])
        out->bound_note = "an object relocated before this library (no DT_NEEDED on it) calls through the stub";
    const char *not_copied = copy_note(r, out->bound_by);
    if (not_copied && !out->bound_note[0])
        out->bound_note = not_copied;
    return 0;
}
