/*
 * riscv64's Linux ABI, for the OS layer (src/os/): included as <os_arch.h>
 * through the include directory src/arch/riscv64.  The interface (the
 * ALTMEM_NR_<call> numbers, altmem__syscall6, ALTMEM_ARCH_UC_PC,
 * ALTMEM_ARCH_KUC_PC_OFFSET, struct altmem__k_sigaction,
 * altmem__k_sigaction_init, optionally ALTMEM_ARCH_SIGRETURN_ASM) is described
 * in src/arch/x86_64/os_arch.h and docs/architecture.md, "Adding an architecture".
 *
 * Numbers: the asm-generic table, and RISC-V's own slots riscv_hwprobe (258)
 * and riscv_flush_icache (259), the only architecture that has them
 * (altmem__os_riscv_hwprobe, altmem__os_riscv_flush_icache: src/os/os.h).
 */
#ifndef ALTMEM_OS_ARCH_H
#define ALTMEM_OS_ARCH_H

#if !defined(__riscv) || __riscv_xlen != 64
#error "src/arch/riscv64/os_arch.h: the compiler does not target riscv64"
#endif

#include "os/syscall_asm_generic.h"

#define ALTMEM_NR_riscv_hwprobe 258
#define ALTMEM_NR_riscv_flush_icache 259

static inline long altmem__syscall6(long n, long a, long b, long c, long d, long e, long f)
{
    register long a7 __asm__("a7") = n;
    register long a0 __asm__("a0") = a;
    register long a1 __asm__("a1") = b;
    register long a2 __asm__("a2") = c;
    register long a3 __asm__("a3") = d;
    register long a4 __asm__("a4") = e;
    register long a5 __asm__("a5") = f;
    __asm__ volatile("ecall"
                     : "+r"(a0)
                     : "r"(a7), "r"(a1), "r"(a2), "r"(a3), "r"(a4), "r"(a5)
                     : "memory");
    return a0;
}

/* The program counter: __gregs[REG_PC] in the C library's mcontext_t; in the
   kernel's struct ucontext, uc_mcontext is at 176 (uc_flags, uc_link,
   uc_stack, the 128-byte sigmask block, 16-aligned) and starts with it. */
#define ALTMEM_ARCH_UC_PC(uc) ((uintptr_t *)&(uc)->uc_mcontext.__gregs[REG_PC])
#define ALTMEM_ARCH_KUC_PC_OFFSET 176

/* struct sigaction as the kernel takes it: asm-generic, no sa_restorer. */
struct altmem__k_sigaction {
    unsigned long handler;
    unsigned long flags;
    unsigned long mask;          /* 64 signals */
};

static inline void altmem__k_sigaction_init(struct altmem__k_sigaction *sa, unsigned long handler,
                                            unsigned long flags, unsigned long mask)
{
    sa->handler = handler;
    sa->flags = flags;
    sa->mask = mask;
}

#endif
