/*
 * Raw Linux system calls, no C library: the freestanding OS flavour (os_raw.c)
 * and the freestanding test runtime (tests/freestanding/) use these.  One
 * inline-asm sequence per architecture; every call returns the kernel's value,
 * which is -errno on error (-4095..-1), so nothing here touches errno.
 *
 * Numbers: x86_64 has its own table (arch/x86/entry/syscalls/syscall_64.tbl);
 * aarch64, riscv64 and loongarch64 share the asm-generic table
 * (include/uapi/asm-generic/unistd.h), where riscv_hwprobe (258) and
 * riscv_flush_icache (259) are RISC-V's arch-specific slots.
 */
#ifndef ALTMEM_RAW_SYSCALL_H
#define ALTMEM_RAW_SYSCALL_H

#if defined(__x86_64__)
#define ALTMEM_NR_write 1
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
#define ALTMEM_NR_riscv_hwprobe (-1)
#define ALTMEM_NR_riscv_flush_icache (-1)
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
#elif defined(__aarch64__) || (defined(__riscv) && __riscv_xlen == 64) || \
    (defined(__loongarch__) && __loongarch_grlen == 64)
#define ALTMEM_NR_write 64
#define ALTMEM_NR_exit 93
#define ALTMEM_NR_exit_group 94
#define ALTMEM_NR_clock_gettime 113
#define ALTMEM_NR_kill 129
#define ALTMEM_NR_rt_sigaction 134
#define ALTMEM_NR_rt_sigprocmask 135
#define ALTMEM_NR_getpid 172
#define ALTMEM_NR_munmap 215
#define ALTMEM_NR_clone 220
#define ALTMEM_NR_mmap 222
#define ALTMEM_NR_mprotect 226
#define ALTMEM_NR_wait4 260
#define ALTMEM_NR_uname 160
#if defined(__riscv)
#define ALTMEM_NR_riscv_hwprobe 258
#define ALTMEM_NR_riscv_flush_icache 259
#else
#define ALTMEM_NR_riscv_hwprobe (-1)
#define ALTMEM_NR_riscv_flush_icache (-1)
#endif
static inline long altmem__syscall6(long n, long a, long b, long c, long d, long e, long f)
{
#if defined(__aarch64__)
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
#elif defined(__riscv)
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
#else /* loongarch64: the kernel may clobber the temporaries $t0-$t8 */
    register long a7 __asm__("$a7") = n;
    register long a0 __asm__("$a0") = a;
    register long a1 __asm__("$a1") = b;
    register long a2 __asm__("$a2") = c;
    register long a3 __asm__("$a3") = d;
    register long a4 __asm__("$a4") = e;
    register long a5 __asm__("$a5") = f;
    __asm__ volatile("syscall 0"
                     : "+r"(a0)
                     : "r"(a7), "r"(a1), "r"(a2), "r"(a3), "r"(a4), "r"(a5)
                     : "$t0", "$t1", "$t2", "$t3", "$t4", "$t5", "$t6", "$t7", "$t8", "memory");
    return a0;
#endif
}
#else
#error "raw system calls: unsupported architecture (x86_64, aarch64, riscv64, loongarch64)"
#endif

#define altmem__syscall0(n) altmem__syscall6(n, 0, 0, 0, 0, 0, 0)
#define altmem__syscall1(n, a) altmem__syscall6(n, (long)(a), 0, 0, 0, 0, 0)
#define altmem__syscall2(n, a, b) altmem__syscall6(n, (long)(a), (long)(b), 0, 0, 0, 0)
#define altmem__syscall3(n, a, b, c) altmem__syscall6(n, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define altmem__syscall4(n, a, b, c, d) altmem__syscall6(n, (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)

#endif
