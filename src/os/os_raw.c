/*
 * OS interface, freestanding flavour: raw Linux system calls (raw_syscall.h), no
 * C library, for programs built with -ffreestanding -nostdlib (docs/freestanding.md).
 *
 * A hosted program's C library finds the environment and the auxiliary vector
 * itself; here the program's start-up code hands them over with
 * altmem_init_freestanding(), which then selects the variants.  A bootloader or
 * unikernel that has neither passes NULL: detection then relies on what the CPU
 * reports by itself (CPUID, CPUCFG, riscv_hwprobe), ALTMEM_TUNABLES is not read
 * and AT_SECURE counts as clear.
 */
#include "os.h"
#include "raw_syscall.h"
#include "../internal.h"

static char *const *raw_envp;
static const unsigned long *raw_auxv;

void altmem_init_freestanding(char *const *envp, const unsigned long *auxv)
{
    /* Selection runs once.  If it has run already (a start-up that runs ELF
       constructors ran the library's, or altmem_init() was called first), it ran
       without these vectors; say so rather than pretend they were used.  Start-up
       code is single-threaded, so the plain read is enough. */
    if (altmem__global.cpu.arch) {
        static const char msg[] = "altmem: altmem_init_freestanding() called after selection had run: "
                                  "environment and auxiliary vector not used\n";
        altmem__os_write_err(msg, sizeof msg - 1);
        return;
    }
    raw_envp = envp;
    raw_auxv = auxv;
    altmem_init();
}

unsigned long altmem__os_getauxval(unsigned long type, int *found)
{
    *found = 0;
    if (!raw_auxv)
        return 0;
    for (const unsigned long *a = raw_auxv; a[0] != 0; a += 2) {   /* AT_NULL ends it */
        if (a[0] == type) {
            *found = 1;
            return a[1];
        }
    }
    return 0;
}

const char *altmem__os_getenv(const char *name)
{
    if (!raw_envp)
        return 0;
    size_t len = altmem__strlen(name);
    for (char *const *e = raw_envp; *e; e++) {
        const char *s = *e;
        size_t i = 0;
        while (i < len && s[i] == name[i])
            i++;
        if (i == len && s[len] == '=')
            return s + len + 1;
    }
    return 0;
}

void altmem__os_write_err(const char *buf, size_t n)
{
    while (n > 0) {
        long w = altmem__syscall3(ALTMEM_NR_write, 2, buf, n);
        if (w == -4 /* EINTR */)
            continue;
        if (w <= 0)
            return;
        buf += w;
        n -= (size_t)w;
    }
}

long altmem__os_riscv_hwprobe(void *pairs, size_t pair_count)
{
    if (ALTMEM_NR_riscv_hwprobe < 0)
        return -38; /* ENOSYS */
    /* riscv_hwprobe(pairs, count, cpusetsize 0, cpus NULL, flags 0): all CPUs. */
    return altmem__syscall6(ALTMEM_NR_riscv_hwprobe, (long)pairs, (long)pair_count, 0, 0, 0, 0);
}

int altmem__os_mprotect(void *addr, size_t len, int prot)
{
    return (int)altmem__syscall3(ALTMEM_NR_mprotect, addr, len, prot);
}

long altmem__os_riscv_flush_icache(void *start, void *end)
{
    if (ALTMEM_NR_riscv_flush_icache < 0)
        return -38; /* ENOSYS */
    return altmem__syscall3(ALTMEM_NR_riscv_flush_icache, start, end, 0);
}
