/*
 * Selection at start-up (src/select.c): binding a decision, and the state
 * altmem_init() decided, for the freestanding entry (src/init_freestanding.c),
 * the alternatives engine (src/patch/alternative.c), the tests and the bench.
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

#endif
