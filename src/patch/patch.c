/*
 * The alternatives engine: rewrites each patch site's branch to reach the
 * target its slot holds, like the kernel's apply_alternatives().
 *
 * Rules it keeps:
 *   - never writable and executable: a page goes R-X -> RW- -> R-X, and is not
 *     executed in between (the stubs own their pages; see entry.S);
 *   - never leaves a stub unexecutable: before touching a stub page it runs the
 *     same protection dance on the probe page of the same mapping, so a system
 *     that refuses to re-enable execution of modified code (SELinux execmod,
 *     PaX MPROTECT) is found out on a page nobody executes;
 *   - never writes a site it does not recognise, or a branch that cannot reach;
 *   - copies a variant only into a room its stub owns (altmem_stub_rooms), and
 *     only what the architecture's planner accepts (x86_64: copy.h); the branch
 *     everywhere else;
 *   - calls no C library function (runs in the library constructor and in
 *     freestanding programs; in libaltmem-preload.so it patches memcpy itself).
 * Every refusal leaves the pointer binding in place, which is always correct.
 */
#include "patch.h"

#include "lib/text.h"
#include "os/os.h"

/* The rooms of the stubs that own one (src/arch/stubs.inc). */
struct stub_room {
    int32_t site;   /* PC-relative */
    uint32_t room;
};
extern const struct stub_room __start_altmem_stub_rooms[] __attribute__((weak, visibility("hidden")));
extern const struct stub_room __stop_altmem_stub_rooms[] __attribute__((weak, visibility("hidden")));

static size_t room_of(uintptr_t site)
{
    for (const struct stub_room *r = __start_altmem_stub_rooms; r && r < __stop_altmem_stub_rooms; r++)
        if ((uintptr_t)&r->site + (intptr_t)r->site == site)
            return r->room;
    return 0;
}

/* The sites this process copied a variant into, and from where: the code
   itself is then checked against a fresh copy (copied_from), as a branch is
   decoded. */
#define COPIES_MAX 8
static struct {
    uintptr_t site, src;
} copies[COPIES_MAX];

static uintptr_t copied_from(uintptr_t site, size_t room, size_t *len)
{
    *len = 0;
    for (size_t i = 0; i < COPIES_MAX && copies[i].site; i++) {
        if (copies[i].site != site)
            continue;
        const struct altmem__copy_plan *plan = altmem__arch_copy_plan(site, copies[i].src, room, 0);
        if (plan && altmem__arch_copy_apply(site, copies[i].src, plan, 1)) {
            *len = plan->len;
            return copies[i].src;
        }
    }
    return 0;
}

static void remember_copy(uintptr_t site, uintptr_t src)
{
    for (size_t i = 0; i < COPIES_MAX; i++) {
        if (!copies[i].site || copies[i].site == site) {
            copies[i].site = site;
            copies[i].src = src;
            return;
        }
    }
}

/* The sites given the branch where a copy was asked for, and why (decided when
   patching: the bytes may change later, and info must say what happened). */
static struct {
    uintptr_t site;
    const char *why;
} refusals[COPIES_MAX];

static void remember_refusal(uintptr_t site, const char *why)
{
    for (size_t i = 0; i < COPIES_MAX; i++) {
        if (!refusals[i].site || refusals[i].site == site) {
            refusals[i].site = site;
            refusals[i].why = why;
            return;
        }
    }
}

#define PROT_R 1
#define PROT_W 2
#define PROT_X 4

static void put_bytes(struct altmem__text *t, const unsigned char *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char h[3] = {"0123456789abcdef"[b[i] >> 4], "0123456789abcdef"[b[i] & 15], ' '};
        altmem__text_putn(t, h, i + 1 < n ? 3 : 2);
    }
}

static void set_reason(char *reason, size_t len, const char *a, uintptr_t v, const char *b)
{
    struct altmem__text t = {reason, len, 0};
    altmem__text_puts(&t, a);
    if (b) {
        altmem__text_putu(&t, v);
        altmem__text_puts(&t, b);
    }
}

static void debug_site(const struct altmem__site *s, uintptr_t site, uintptr_t old_target, size_t old_len,
                       uintptr_t new_target, size_t new_len, int tail, const unsigned char *old_code,
                       const unsigned char *new_code)
{
    char line[320];
    struct altmem__text t = {line, sizeof line, 0};
    uintptr_t dispatch = site + altmem__arch_site_len;
    altmem__text_puts(&t, "altmem: patch ");
    altmem__text_puts(&t, (const char *)ALTMEM_SITE_FIELD(s, name));
    altmem__text_puts(&t, " at ");
    altmem__text_puthex(&t, site);
    altmem__text_puts(&t, old_len ? ": copy of " : ": branch ");
    altmem__text_puthex(&t, old_target);
    altmem__text_puts(&t, old_target == dispatch ? " (dispatch)" : "");
    altmem__text_puts(&t, " -> ");
    if (new_len) {
        altmem__text_puts(&t, "copy of ");
        altmem__text_puthex(&t, new_target);
        altmem__text_puts(&t, ", ");
        altmem__text_putu(&t, new_len);
        altmem__text_puts(&t, tail ? " bytes, then a branch to " : " bytes (the whole entry)");
        if (tail)
            altmem__text_puthex(&t, new_target + new_len);
        altmem__text_puts(&t, " [");
        put_bytes(&t, old_code, altmem__arch_site_len);
        altmem__text_puts(&t, " -> ");
        put_bytes(&t, (const unsigned char *)site, altmem__arch_site_len);
        altmem__text_puts(&t, " ...]\n");
    } else {
        altmem__text_puthex(&t, new_target);
        altmem__text_puts(&t, " [");
        put_bytes(&t, old_code, altmem__arch_site_len);
        altmem__text_puts(&t, " -> ");
        put_bytes(&t, new_code, altmem__arch_site_len);
        altmem__text_puts(&t, "]\n");
    }
    altmem__os_write_err(t.buf, t.len);
}

/* "mprotect(<what>) failed: errno N" into reason. */
static void refusal(char *reason, size_t len, const char *what, int err)
{
    struct altmem__text t = {reason, len, 0};
    altmem__text_puts(&t, "mprotect ");
    altmem__text_puts(&t, what);
    altmem__text_puts(&t, " refused (errno ");
    altmem__text_putu(&t, (unsigned long long)-err);
    altmem__text_puts(&t, ")");
}

/* R-X -> RW- -> R-X on the probe page, writing one byte back unchanged (the
   write makes the private page a modified copy, which is what execmod checks).
   Returns 1, or 0 with the refused step in reason. */
static int probe_ok(uintptr_t probe, size_t page, char *reason, size_t reason_len)
{
    void *p = (void *)(probe & ~(uintptr_t)(page - 1));
    int r = altmem__os_mprotect(p, page, PROT_R | PROT_W);
    if (r != 0) {
        refusal(reason, reason_len, "making code writable", r);
        return 0;
    }
    volatile unsigned char *b = (volatile unsigned char *)p;
    *b = *b;
    r = altmem__os_mprotect(p, page, PROT_R | PROT_X);
    if (r != 0) {
        altmem__os_mprotect(p, page, PROT_R);   /* never executed; keep it read-only */
        refusal(reason, reason_len, "making modified code executable", r);
        return 0;
    }
    return 1;
}

/* A site to rewrite, decided before any stub page is made writable. */
struct pending_site {
    const struct altmem__site *s;
    uintptr_t site, current, target;
    uintptr_t first;                 /* its page span: [first, first + span) */
    size_t span;
    size_t held;                     /* bytes of current copied (0: a branch)      */
    const struct altmem__copy_plan *plan;   /* target's copy (NULL: the branch)   */
    unsigned char old_code[16], new_code[16];
};

static void write_site(const struct pending_site *q)
{
    if (q->plan) {
        altmem__arch_copy_apply(q->site, q->target, q->plan, 0);
        return;
    }
    volatile unsigned char *w = (volatile unsigned char *)q->site;
    for (size_t i = 0; i < altmem__arch_site_len; i++)
        w[i] = q->new_code[i];
}

/* What a refusal puts back: the old copy, or the old first bytes (the stub's
   branch and dispatcher; what a copy wrote after them is never reached). */
static void restore_site(const struct pending_site *q)
{
    if (q->held) {
        const struct altmem__copy_plan *plan = altmem__arch_copy_plan(q->site, q->current, room_of(q->site), 0);
        if (plan)
            altmem__arch_copy_apply(q->site, q->current, plan, 0);
        return;
    }
    volatile unsigned char *w = (volatile unsigned char *)q->site;
    for (size_t i = 0; i < sizeof q->old_code; i++)
        w[i] = q->old_code[i];
}

/* Writes the sites of one page span with one R-X -> RW- -> R-X round (the
   stubs share one or two pages: six routines cost two mprotect calls, not
   twelve; each is a system call on every process start, docs/dropin.md,
   "Start-up cost").  Nothing runs between the two calls but the byte stores,
   so no stub is ever called while its page is not executable.  On a refusal
   to make the page executable again, every site of the span gets its old
   bytes back. */
static int write_span(const struct pending_site *p, size_t n, int debug, char *reason, size_t reason_len)
{
    int r = altmem__os_mprotect((void *)p[0].first, p[0].span, PROT_R | PROT_W);
    if (r != 0) {
        refusal(reason, reason_len, "making the stub page writable", r);
        return 0;
    }
    for (size_t k = 0; k < n; k++)
        write_site(&p[k]);
    r = altmem__os_mprotect((void *)p[0].first, p[0].span, PROT_R | PROT_X);
    if (r != 0) {
        /* The probe said this works; if it does not, put the old code back
           so that at least the bytes are the ones that were there. */
        for (size_t k = 0; k < n; k++)
            restore_site(&p[k]);
        refusal(reason, reason_len, "making the stub page executable again", r);
        altmem__os_mprotect((void *)p[0].first, p[0].span, PROT_R | PROT_X);
        return 0;
    }
    for (size_t k = 0; k < n; k++) {
        const struct altmem__copy_plan *plan = p[k].plan;
        if (plan)
            remember_copy(p[k].site, p[k].target);
        altmem__arch_sync_icache(p[k].site, plan ? plan->len + 5u : altmem__arch_site_len);
        if (debug)
            debug_site(p[k].s, p[k].site, p[k].current, p[k].held, p[k].target, plan ? plan->len : 0,
                       plan && plan->tail, p[k].old_code, p[k].new_code);
    }
    return 1;
}

/* Sites written in one round at most: the library has one per routine (5);
   each takes 80 bytes of the caller's stack, whose frame reaches a new stack
   page (a page fault) the larger it is. */
#define PENDING_MAX 8

enum altmem__patch_result altmem__patch_sites(const struct altmem__site *begin,
                                              const struct altmem__site *end, int debug, int copy,
                                              char *reason, size_t reason_len)
{
    if (reason_len)
        reason[0] = '\0';
    size_t page = altmem__os_page_size();
    if (page > altmem__arch_isolation) {
        set_reason(reason, reason_len, "page size ", page, " exceeds the stubs' isolation");
        return ALTMEM_PATCH_UNSUPPORTED;
    }
    enum altmem__patch_result result = ALTMEM_PATCH_DONE;
    uintptr_t probed_ok = 0;       /* probe page already shown to be fine */
    struct pending_site pend[PENDING_MAX];
    size_t np = 0;

    for (const struct altmem__site *s = begin; s < end; s++) {
        uintptr_t site = ALTMEM_SITE_FIELD(s, site);
        uintptr_t target = *(const uintptr_t *)ALTMEM_SITE_FIELD(s, slot);
        size_t room = room_of(site), held = 0, len = 0;
        uintptr_t current = room ? copied_from(site, room, &held) : 0;
        /* A site may straddle two pages only if the stubs were laid out wrongly;
           cover both to be safe (a room lies in its stub's page: entry.S). */
        size_t extent = room > altmem__arch_site_len ? room : altmem__arch_site_len;
        uintptr_t first = site & ~(uintptr_t)(page - 1);
        uintptr_t last = (site + extent - 1) & ~(uintptr_t)(page - 1);
        size_t span = (size_t)(last - first) + page;
        /* A site of another span, or a full list: write what is pending first
           (no struct is copied: this file must not call memcpy, it patches it). */
        if (np > 0 && (first != pend[0].first || span != pend[0].span || np == PENDING_MAX)) {
            if (!write_span(pend, np, debug, reason, reason_len))
                return ALTMEM_PATCH_REFUSED;
            np = 0;
        }
        struct pending_site *q = &pend[np];
        /* Never copy from the stub page itself: its bytes are being rewritten. */
        const struct altmem__copy_plan *plan = 0;
        const char *not_copied = "the variant lies in the entry's own page";
        if (copy && room && (target & ~(uintptr_t)(page - 1)) != first && (target & ~(uintptr_t)(page - 1)) != last)
            plan = altmem__arch_copy_plan(site, target, room, &not_copied);
        if (room)
            remember_refusal(site, copy && !plan ? not_copied : 0);
        len = plan ? plan->len : 0;
        const unsigned char *code = (const unsigned char *)site;
        size_t keep = room >= sizeof q->old_code ? sizeof q->old_code : altmem__arch_site_len;
        for (size_t i = 0; i < keep; i++)
            q->old_code[i] = code[i];

        if (!held)
            current = altmem__arch_decode(site, q->old_code);
        if (current == 0) {
            set_reason(reason, reason_len, "a site holds an instruction the engine did not write", 0, 0);
            result = ALTMEM_PATCH_UNSUPPORTED;
            continue;
        }
        if (current == target && (held ? held == len : !len))
            continue;                                /* already there (idempotent) */
        if (held && !len) {
            set_reason(reason, reason_len, "a site holds a copy the engine cannot replace by a branch", 0, 0);
            result = ALTMEM_PATCH_UNSUPPORTED;
            continue;
        }
        if (!len && altmem__arch_encode(site, target, q->new_code) != 0) {
            set_reason(reason, reason_len, "a variant is out of the branch's reach", 0, 0);
            result = ALTMEM_PATCH_UNSUPPORTED;
            continue;
        }

        uintptr_t probe = ALTMEM_SITE_FIELD(s, probe);
        if (probe != probed_ok) {
            if (!probe_ok(probe, page, reason, reason_len))
                return ALTMEM_PATCH_REFUSED;
            probed_ok = probe;
        }
        q->s = s;
        q->site = site;
        q->current = current;
        q->target = target;
        q->first = first;
        q->span = span;
        q->held = held;
        q->plan = plan;
        np++;
    }
    if (np > 0 && !write_span(pend, np, debug, reason, reason_len))
        return ALTMEM_PATCH_REFUSED;
    return result;
}

uintptr_t altmem__site_target(const struct altmem__site *begin, const struct altmem__site *end,
                              const void *slot, size_t *copied)
{
    size_t held = 0;
    if (copied)
        *copied = 0;
    for (const struct altmem__site *s = begin; s < end; s++) {
        if ((const void *)ALTMEM_SITE_FIELD(s, slot) != slot)
            continue;
        uintptr_t site = ALTMEM_SITE_FIELD(s, site);
        size_t room = room_of(site);
        uintptr_t t = room ? copied_from(site, room, &held) : 0;
        if (!t)
            t = altmem__arch_decode(site, (const unsigned char *)site);
        if (t != *(const uintptr_t *)slot || t == site + altmem__arch_site_len)
            return 0;
        if (copied)
            *copied = held;
        return t;
    }
    return 0;
}

const char *altmem__site_not_copied(const struct altmem__site *begin, const struct altmem__site *end,
                                    const void *slot)
{
    for (const struct altmem__site *s = begin; s < end; s++) {
        if ((const void *)ALTMEM_SITE_FIELD(s, slot) != slot)
            continue;
        uintptr_t site = ALTMEM_SITE_FIELD(s, site);
        for (size_t i = 0; i < COPIES_MAX && refusals[i].site; i++)
            if (refusals[i].site == site)
                return refusals[i].why;
        return 0;
    }
    return 0;
}
