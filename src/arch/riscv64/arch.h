/*
 * riscv64's inline helpers for the generic core: included as <arch.h> through
 * the include directory src/arch/riscv64.  The interface is described in
 * src/arch/x86_64/arch.h and docs/architecture.md, "Adding an architecture".
 */
#ifndef ALTMEM_ARCH_H
#define ALTMEM_ARCH_H

/* None used: the loop spins on its load alone. */
static inline void altmem__arch_cpu_relax(void)
{
}

/* R_RISCV_JUMP_SLOT: the relocation of a PLT slot, which the preload rewrites. */
#define ALTMEM__ARCH_PLT_SLOT_RELOC 5

#endif
