/*
 * The system call numbers of the asm-generic table
 * (include/uapi/asm-generic/unistd.h), which aarch64, riscv64 and loongarch64
 * share: the part of ALTMEM_NR_<call> their src/arch/<arch>/os_arch.h takes
 * from here (an architecture's own slots, such as RISC-V's riscv_hwprobe, stay
 * in its os_arch.h).
 */
#ifndef ALTMEM_SYSCALL_ASM_GENERIC_H
#define ALTMEM_SYSCALL_ASM_GENERIC_H

#define ALTMEM_NR_openat 56
#define ALTMEM_NR_close 57
#define ALTMEM_NR_read 63
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

#endif
