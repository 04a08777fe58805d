/*
 * x86_64's inline helpers for the generic core: included as <arch.h> through
 * the include directory src/arch/x86_64.  What every architecture's arch.h
 * provides (docs/architecture.md, "Adding an architecture"):
 *
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

#endif
