/*
 * The alternatives engine: patch sites and the code that rewrites them.
 *
 * Each patchable entry point is a stub in an isolated, page-aligned part of the
 * text (src/arch/<arch>/entry.S, or ALTMEM_ALTERNATIVE in a user's code):
 *
 *     site:      branch  dispatch     <- the one instruction (x86_64, aarch64,
 *     dispatch:  jump *slot              loongarch64) or pair (riscv64) rewritten
 *
 * Before patching, the branch reaches the dispatcher, which jumps through the
 * routine's pointer (`slot`), so the entry is correct at every moment.  Patching
 * rewrites the branch to reach the slot's current target directly.  A record per
 * site, in the read-only section altmem_patch_sites (PC-relative fields, so the
 * section needs no run-time relocation), tells the engine where each site is.
 * The record is emitted by one macro, ALTMEM__SITE_RECORD
 * (include/altmem_alternative.h), for altmem's stubs (src/arch/stubs.inc) and
 * for a program's own ALTMEM_ALTERNATIVE routines alike.
 */
#ifndef ALTMEM_PATCH_H
#define ALTMEM_PATCH_H

#include <stddef.h>
#include <stdint.h>

#include "copy_plan.h"

struct altmem__site {
    int32_t site;   /* PC-relative: the branch instruction(s)                    */
    int32_t slot;   /* PC-relative: the pointer holding the selected target      */
    int32_t name;   /* PC-relative: NUL-terminated routine name                  */
    int32_t probe;  /* PC-relative: a never-executed page of the same mapping    */
};

#define ALTMEM_SITE_FIELD(rec, f) ((uintptr_t)&(rec)->f + (intptr_t)(rec)->f)

/* Per architecture (src/arch/<arch>/patch.c). */

/* Bytes rewritten at each site. */
extern const size_t altmem__arch_site_len;
/* Bytes each stub section is aligned and padded to; the engine refuses to patch
   when the system's page size is larger (the stub page could hold other code). */
extern const size_t altmem__arch_isolation;
/* Encodes "branch from site to target" into out[0..altmem__arch_site_len).
   Returns 0, or -1 if target is out of the branch's reach. */
int altmem__arch_encode(uintptr_t site, uintptr_t target, unsigned char *out);
/* Decodes the branch at site: its target, or 0 if it is not a branch the
   engine wrote (then the site is left alone). */
uintptr_t altmem__arch_decode(uintptr_t site, const unsigned char *code);
/* Makes freshly written instructions visible to instruction fetch. */
void altmem__arch_sync_icache(uintptr_t start, size_t len);
/* Copies instead of branches, where a stub owns a room (x86_64: copy.h; the
   other architectures have no plan).  plan: the build's plan for copying
   target's code into the room at site, if the code is what it was planned
   from and the copy can reach from there; NULL: the branch, and in *why (why
   may be NULL) the reason in one line.  apply: writes it, or with check
   compares, returning 1 when written or the same. */
const struct altmem__copy_plan *altmem__arch_copy_plan(uintptr_t site, uintptr_t target, size_t room,
                                                       const char **why);
int altmem__arch_copy_apply(uintptr_t site, uintptr_t target, const struct altmem__copy_plan *plan, int check);

/* The engine (src/patch/patch.c). */

enum altmem__patch_result {
    ALTMEM_PATCH_DONE,        /* every site in range now branches directly          */
    ALTMEM_PATCH_REFUSED,     /* the system refused (mprotect); pointer binding kept */
    ALTMEM_PATCH_UNSUPPORTED, /* page size, reach or unknown code: pointer binding   */
};

/* Rewrites the sites in [begin, end) to branch to their slots' current
   targets; with copy, a site that owns a room (altmem_stub_rooms, written by
   src/arch/stubs.inc) gets the target's code itself where the architecture
   can copy it, the branch elsewhere.  reason receives one line when the
   result is not DONE. */
enum altmem__patch_result altmem__patch_sites(const struct altmem__site *begin,
                                              const struct altmem__site *end, int debug, int copy,
                                              char *reason, size_t reason_len);

/* Where the site whose slot is `slot` currently leads: its slot's target if
   patched or copied, else 0 (still through the pointer).  *copied (may be
   NULL) receives the bytes of the target's code the site holds, 0 for a
   branch. */
uintptr_t altmem__site_target(const struct altmem__site *begin, const struct altmem__site *end,
                              const void *slot, size_t *copied);

/* Why altmem__patch_sites, asked to copy into the room of the site whose slot
   is `slot`, chose the branch (as decided then), in one line; NULL where it
   chose the copy, the site owns no room, or no copy was asked for.  Whether
   the branch was then written is altmem__site_target's to say. */
const char *altmem__site_not_copied(const struct altmem__site *begin, const struct altmem__site *end,
                                    const void *slot);

#endif
