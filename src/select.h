/*
 * Selection at start-up (src/select.c): binding a decision, and the state
 * altmem_init() decided, for the freestanding entry (src/init_freestanding.c),
 * the alternatives engine (src/alternative.c), the tests and the bench.
 */
#ifndef ALTMEM_SELECT_H
#define ALTMEM_SELECT_H

#include "decide.h"

/* Installs a decision: the policy's variables, then every routine's entry
   pointed at its variant. */
void altmem__bind(const struct altmem__state *st);

/* The state altmem_init() decided (valid after it returns). */
extern struct altmem__state altmem__global;
/* 1 once selection has run (or is running): too late for the freestanding
   entry's vectors (src/init_freestanding.c). */
int altmem__selection_started(void);

/* The shared library's IFUNC entries (src/entry.c, ALTMEM_IFUNC_ENTRIES): what
   the resolver of routine r hands the dynamic loader, the bound variant or
   stub (the routine's patched-branch stub), which it gives when ALTMEM_TUNABLES
   asks for bind=patch or bind=pointer, and when the loader asks before it has
   relocated this library.  Callable then: it touches nothing a relocation
   writes until it has checked. */
void *altmem__ifunc_resolve(enum altmem_routine r, void *stub);
/* 1 when this library has IFUNC entries (src/entry.c defines it so; else 0). */
extern int altmem__ifunc_entries;

/* The preload's binding (src/preload/plt_bind.c, linked into
   libaltmem-preload.so only; elsewhere the weak reference is null): gives the
   callers' PLT slots of each routine's names the variant variant[r] (with
   debug, a line on stderr per slot).  Returns
   0 and what it did, or -1 when it must not run (the loader was asked to
   audit, profile or not bind), and then the stubs are patched; they are
   patched too when other_refs says calls reach them. */
struct altmem__plt_report {
    unsigned slots[ALTMEM_ROUTINE_COUNT]; /* slots given the variant, per routine */
    unsigned objects;                     /* objects that had any               */
    unsigned relro_rounds;                /* read-only spans opened and closed  */
    unsigned refused;                     /* spans mprotect refused to open     */
    unsigned other_refs;                  /* names bound here that relocations
                                             outside the PLT refer to (GOT slots
                                             of -fno-plt calls, function
                                             pointers): calls through the stub */
};
int altmem__plt_bind(const void *const *variant, int debug, struct altmem__plt_report *out) __attribute__((weak));

#endif
