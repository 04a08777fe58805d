/*
 * The decision (src/decide.c): from a CPU, ALTMEM_TUNABLES and a profile, the
 * state that says which variant each routine binds, why, and the policy.
 * Selection (src/select.c) runs it at start-up, the tests with made-up inputs;
 * the alternatives engine (src/alternative.c) shares its selection rule.
 */
#ifndef ALTMEM_DECIDE_H
#define ALTMEM_DECIDE_H

#include "altmem.h"
#include "cpu.h"
#include "policy.h"
#include "tunables.h"

#include <stddef.h>
#include <stdint.h>

/* The selection rule, for altmem's variants (src/decide.c) and users'
   alternatives (src/alternative.c) alike: a choice can run when the
   CPU has every feature it requires. */
static inline int altmem__runnable(uint64_t requires, uint64_t features)
{
    return (requires & ~features) == 0;
}

struct altmem__bound {
    int variant;                          /* index into altmem__variants        */
    enum altmem_bind_reason reason;
    char why[256];
};

/* What the decision made of the profile. */
struct altmem__profile_state {
    const char *path;                     /* the file looked for, or NULL (none) */
    int status;                           /* enum altmem_profile_status          */
    char why[256];                        /* ignored: why; applied: ""           */
    const char *text;                     /* its text (applied or ignored)       */
    size_t len;
    int pin[ALTMEM_ROUTINE_COUNT];        /* 1: this routine's pin came from it  */
    unsigned policy;                      /* ALTMEM_POLICY_* it set              */
    int use;                              /* its settings apply                  */
};

struct altmem__state {
    struct altmem__cpu cpu;
    struct altmem__tunables tun;
    uint64_t active;
    int secure;
    struct altmem__bound bound[ALTMEM_ROUTINE_COUNT];
    char patch_note[200];                 /* why sites were not patched, or ""  */
    struct altmem__policy policy;         /* the rules' choice, then ALTMEM_TUNABLES */
    struct altmem__policy rules_policy;   /* the rules' choice alone            */
    struct altmem__profile_state prof;
};

/* The whole decision, with no side effects: from detected CPU, the raw
   ALTMEM_TUNABLES value (may be NULL) and the AT_SECURE flag to bindings.  The
   library calls it at init; the tests call it with made-up inputs. */
void altmem__decide(const struct altmem__cpu *cpu, const char *tunables, int secure,
                    struct altmem__state *out, altmem__warn_fn *warn, void *ctx);
/* The same with a profile's text (NULL: none) read from path: applied under
   ALTMEM_TUNABLES, which overrides it setting by setting; ignored (one warning)
   unless it was measured on this CPU and every line is valid. */
void altmem__decide_profile(const struct altmem__cpu *cpu, const char *tunables, const char *profile,
                            size_t profile_len, const char *path, int secure, struct altmem__state *out,
                            altmem__warn_fn *warn, void *ctx);
/* The policy part of that decision again, from out->cpu as it is now (its
   cache sizes read late: src/select.c, altmem__settle), the profile and the
   variable: out->rules_policy, out->policy, out->prof.policy. */
void altmem__decide_policy(struct altmem__state *out);

#endif
