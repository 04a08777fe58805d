/*
 * Start-up code for the freestanding test programs: the kernel enters a static
 * program at _start with the stack holding argc, argv[], NULL, envp[], NULL,
 * then the auxiliary vector (type/value pairs up to AT_NULL).  _start is the one
 * thing C cannot say (no frame, the stack pointer as data), so it is a few
 * instructions per architecture that pass the stack pointer to fs_start_c();
 * the rest is C.  No ELF constructors run: the programs call
 * altmem_init_freestanding() themselves, as a real freestanding user would.
 */
#include "fs_rt.h"

/* Reached from _start only: external linkage for the asm, kept by `used`. */
__attribute__((used, noreturn)) void fs_start_c(long *sp);

void fs_start_c(long *sp)
{
    int argc = (int)sp[0];
    char **argv = (char **)(sp + 1);
    char **envp = argv + argc + 1;
    char **e = envp;
    while (*e)
        e++;
    fs_envp = envp;
    fs_auxv = (unsigned long *)(e + 1);
    fs_exit(fs_main(argc, argv, envp, fs_auxv));
}

/* Each: zero the frame pointer (and link register) so debuggers see the
   outermost frame, pass sp, keep it 16-byte aligned, call, trap if it returns. */
#if defined(__x86_64__)
__asm__(".text\n"
        ".global _start\n"
        ".type _start, @function\n"
        "_start:\n"
        "  xor %ebp, %ebp\n"
        "  mov %rsp, %rdi\n"
        "  and $-16, %rsp\n"
        "  call fs_start_c\n"
        "  hlt\n"
        ".size _start, . - _start\n");
#elif defined(__aarch64__)
__asm__(".text\n"
        ".global _start\n"
        ".type _start, %function\n"
        "_start:\n"
        "  mov x29, #0\n"
        "  mov x30, #0\n"
        "  mov x0, sp\n"
        "  bl fs_start_c\n"
        "  brk #0\n"
        ".size _start, . - _start\n");
#elif defined(__riscv) && __riscv_xlen == 64
/* gp must hold __global_pointer$ before any gp-relative access the linker
   relaxes to; the load itself must not be relaxed against gp. */
__asm__(".text\n"
        ".global _start\n"
        ".type _start, @function\n"
        "_start:\n"
        "  .option push\n"
        "  .option norelax\n"
        "  lla gp, __global_pointer$\n"
        "  .option pop\n"
        "  li fp, 0\n"
        "  li ra, 0\n"
        "  mv a0, sp\n"
        "  andi sp, sp, -16\n"
        "  call fs_start_c\n"
        "  ebreak\n"
        ".size _start, . - _start\n");
#elif defined(__loongarch__) && __loongarch_grlen == 64
__asm__(".text\n"
        ".global _start\n"
        ".type _start, @function\n"
        "_start:\n"
        "  move $fp, $zero\n"
        "  move $ra, $zero\n"
        "  move $a0, $sp\n"
        "  bstrins.d $sp, $zero, 3, 0\n"
        "  bl fs_start_c\n"
        "  break 0\n"
        ".size _start, . - _start\n");
#else
#error "freestanding start-up: unsupported architecture"
#endif
