/*
 * x86_64's inline helpers for the generic core: included as <arch.h> through
 * the include directory src/arch/x86_64.  What every architecture's arch.h
 * provides (docs/architecture.md, "Adding an architecture"):
 *
 *   ALTMEM__ARCH_PLT_SLOT_RELOC the relocation type of a PLT slot, the one the
 *                              preload rewrites (src/preload/plt_bind.c)
 *   altmem__arch_cpu_relax()   the hint for one turn of a spin-wait loop
 *                              (src/select.c: a thread waiting for another's
 *                              altmem_init); empty where the architecture has
 *                              none.  x86_64: pause.
 */
#ifndef ALTMEM_ARCH_H
#define ALTMEM_ARCH_H

static inline void altmem__arch_cpu_relax(void)
{
    __builtin_ia32_pause();
}

/* R_X86_64_JUMP_SLOT: the relocation of a PLT slot, which the preload rewrites. */
#define ALTMEM__ARCH_PLT_SLOT_RELOC 7

#endif
