/*
 * aarch64's Linux ABI, for the OS layer (src/os/): included as <os_arch.h>
 * through the include directory src/arch/aarch64.  The interface (the
 * ALTMEM_NR_<call> numbers, altmem__syscall6, ALTMEM_ARCH_UC_PC,
 * ALTMEM_ARCH_KUC_PC_OFFSET, struct altmem__k_sigaction,
 * altmem__k_sigaction_init, optionally ALTMEM_ARCH_SIGRETURN_ASM) is described
 * in src/arch/x86_64/os_arch.h and docs/architecture.md, "Adding an architecture".
 *
 * Numbers: the asm-generic table.
 */
#ifndef ALTMEM_OS_ARCH_H
#define ALTMEM_OS_ARCH_H

#if !defined(__aarch64__)
#error "src/arch/aarch64/os_arch.h: the compiler does not target aarch64"
#endif

#include "os/syscall_asm_generic.h"

static inline long altmem__syscall6(long n, long a, long b, long c, long d, long e, long f)
{
    register long x8 __asm__("x8") = n;
    register long x0 __asm__("x0") = a;
    register long x1 __asm__("x1") = b;
    register long x2 __asm__("x2") = c;
    register long x3 __asm__("x3") = d;
    register long x4 __asm__("x4") = e;
    register long x5 __asm__("x5") = f;
    __asm__ volatile("svc 0"
                     : "+r"(x0)
                     : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
                     : "memory");
    return x0;
}

/* The program counter: mcontext_t's pc in the C library; in the kernel's
   struct ucontext, uc_mcontext (struct sigcontext) is at 176 (uc_flags,
   uc_link, uc_stack, the 128-byte sigmask block, 16-aligned), and its pc
   follows fault_address, regs[31] and sp. */
#define ALTMEM_ARCH_UC_PC(uc) ((uintptr_t *)&(uc)->uc_mcontext.pc)
#define ALTMEM_ARCH_KUC_PC_OFFSET (176 + 8 + 31 * 8 + 8)

/* struct sigaction as the kernel takes it: aarch64 has sa_restorer (SA_RESTORER). */
struct altmem__k_sigaction {
    unsigned long handler;
    unsigned long flags;
    unsigned long restorer;
    unsigned long mask;          /* 64 signals */
};

static inline void altmem__k_sigaction_init(struct altmem__k_sigaction *sa, unsigned long handler,
                                            unsigned long flags, unsigned long mask)
{
    sa->handler = handler;
    sa->flags = flags;
    sa->restorer = 0;   /* the kernel uses the vDSO's sigreturn trampoline */
    sa->mask = mask;
}

#endif
