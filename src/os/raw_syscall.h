/*
 * Raw Linux system calls, no C library: the freestanding OS flavour (os_raw.c)
 * and the freestanding test runtime (tests/freestanding/) use these.  Every call
 * returns the kernel's value, which is -errno on error (-4095..-1), so nothing
 * here touches errno.
 *
 * The architecture's part comes from its src/arch/<arch>/os_arch.h (the
 * include directory src/arch/<arch>; targets linking libaltmem-freestanding.a
 * get it with the library): the instruction sequence, altmem__syscall6(), and
 * the numbers ALTMEM_NR_<call>, x86_64's own table or the asm-generic one
 * (os/syscall_asm_generic.h); riscv_hwprobe and riscv_flush_icache are
 * defined only where they exist (RISC-V's arch-specific slots).
 */
#ifndef ALTMEM_RAW_SYSCALL_H
#define ALTMEM_RAW_SYSCALL_H

#if __has_include(<os_arch.h>)
#include <os_arch.h>
#else
#error "raw system calls: no src/arch/<arch>/os_arch.h for this architecture (docs/architecture.md, \"Adding an architecture\")"
#endif

#define altmem__syscall0(n) altmem__syscall6(n, 0, 0, 0, 0, 0, 0)
#define altmem__syscall1(n, a) altmem__syscall6(n, (long)(a), 0, 0, 0, 0, 0)
#define altmem__syscall2(n, a, b) altmem__syscall6(n, (long)(a), (long)(b), 0, 0, 0, 0)
#define altmem__syscall3(n, a, b, c) altmem__syscall6(n, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define altmem__syscall4(n, a, b, c, d) altmem__syscall6(n, (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)

#endif
