/*
 * aarch64's inline helpers for the generic core: included as <arch.h> through
 * the include directory src/arch/aarch64.  The interface is described in
 * src/arch/x86_64/arch.h and docs/architecture.md, "Adding an architecture".
 */
#ifndef ALTMEM_ARCH_H
#define ALTMEM_ARCH_H

/* None used: the loop spins on its load alone. */
static inline void altmem__arch_cpu_relax(void)
{
}

/* R_AARCH64_JUMP_SLOT: the relocation of a PLT slot, which the preload rewrites. */
#define ALTMEM__ARCH_PLT_SLOT_RELOC 1026

#endif
