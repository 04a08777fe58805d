/*
 * x86_64's Linux ABI, for the OS layer (src/os/): included as <os_arch.h>
 * through the include directory src/arch/x86_64 by os_libc.c (the hosted
 * flavour) and by src/os/raw_syscall.h (os_raw.c, the freestanding flavour, and
 * the freestanding test runtime).  What every architecture's os_arch.h
 * provides (docs/architecture.md, "Adding an architecture"):
 *
 *   ALTMEM_NR_<call>             system call numbers: openat, read, close,
 *                                write, mmap, mprotect,
 *                                munmap, rt_sigaction, rt_sigprocmask, getpid,
 *                                clone, exit, wait4, kill, clock_gettime,
 *                                exit_group, uname; riscv_hwprobe and
 *                                riscv_flush_icache only where the call exists
 *                                (the OS layer returns -ENOSYS without them)
 *   altmem__syscall6(n, a..f)    one system call, six arguments: the kernel's
 *                                value, -errno (-4095..-1) on error
 *   ALTMEM_ARCH_UC_PC(uc)        hosted: the interrupted program counter in the
 *                                C library's ucontext_t *uc, as a uintptr_t *
 *                                (os_libc.c includes <ucontext.h>, _GNU_SOURCE)
 *   ALTMEM_ARCH_KUC_PC_OFFSET    freestanding: the byte offset of that program
 *                                counter in the kernel's struct ucontext
 *   struct altmem__k_sigaction   the kernel's struct sigaction (rt_sigaction's,
 *                                8-byte mask): handler, flags, mask and the
 *                                architecture's own fields
 *   altmem__k_sigaction_init(sa, handler, flags, mask)
 *                                fills every field of an action to install:
 *                                those three, and the architecture's own
 *                                (restorer, padding; it may add to the flags,
 *                                e.g. SA_RESTORER)
 *   ALTMEM_ARCH_SIGRETURN_ASM    optional: the instructions of a signal
 *                                restorer (rt_sigreturn), which os_raw.c
 *                                places once as altmem__rt_sigreturn
 *
 * Numbers: x86_64's own table (arch/x86/entry/syscalls/syscall_64.tbl).
 */
#ifndef ALTMEM_OS_ARCH_H
#define ALTMEM_OS_ARCH_H

#if !defined(__x86_64__)
#error "src/arch/x86_64/os_arch.h: the compiler does not target x86_64"
#endif

#define ALTMEM_NR_read 0
#define ALTMEM_NR_write 1
#define ALTMEM_NR_close 3
#define ALTMEM_NR_mmap 9
#define ALTMEM_NR_mprotect 10
#define ALTMEM_NR_munmap 11
#define ALTMEM_NR_rt_sigaction 13
#define ALTMEM_NR_rt_sigprocmask 14
#define ALTMEM_NR_getpid 39
#define ALTMEM_NR_clone 56
#define ALTMEM_NR_exit 60
#define ALTMEM_NR_wait4 61
#define ALTMEM_NR_kill 62
#define ALTMEM_NR_clock_gettime 228
#define ALTMEM_NR_exit_group 231
#define ALTMEM_NR_uname 63
#define ALTMEM_NR_openat 257

static inline long altmem__syscall6(long n, long a, long b, long c, long d, long e, long f)
{
    register long r10 __asm__("r10") = d;
    register long r8 __asm__("r8") = e;
    register long r9 __asm__("r9") = f;
    long ret;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
    return ret;
}

/* The program counter: gregs[REG_RIP] in the C library's mcontext_t; in the
   kernel's struct ucontext, rip is sigcontext's 17th word (after r8-r15, rdi,
   rsi, rbp, rbx, rdx, rax, rcx, rsp), and uc_mcontext follows uc_flags,
   uc_link and uc_stack (40 bytes; no sigmask before it on x86_64). */
#define ALTMEM_ARCH_UC_PC(uc) ((uintptr_t *)&(uc)->uc_mcontext.gregs[REG_RIP])
#define ALTMEM_ARCH_KUC_PC_OFFSET (40 + 16 * 8)

/* struct sigaction as the kernel takes it: x86_64 has sa_restorer (SA_RESTORER). */
struct altmem__k_sigaction {
    unsigned long handler;
    unsigned long flags;
    unsigned long restorer;
    unsigned long mask;          /* 64 signals */
};

/* x86_64 returns from a handler only through a restorer that calls
   rt_sigreturn (15); os_raw.c places these instructions as altmem__rt_sigreturn. */
#define ALTMEM_ARCH_SIGRETURN_ASM "movq $15, %rax\n\tsyscall"
void altmem__rt_sigreturn(void);

static inline void altmem__k_sigaction_init(struct altmem__k_sigaction *sa, unsigned long handler,
                                            unsigned long flags, unsigned long mask)
{
    sa->handler = handler;
    sa->flags = flags | 0x04000000ul;   /* SA_RESTORER */
    sa->restorer = (unsigned long)altmem__rt_sigreturn;
    sa->mask = mask;
}

#endif
