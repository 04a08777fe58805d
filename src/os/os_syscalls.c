/*
 * OS interface, both flavours: the calls that are plain Linux system calls and
 * need nothing from a C library (raw_syscall.h; the numbers and the system call
 * instruction in src/arch/<arch>/os_arch.h).  The freestanding flavour has no C
 * library to make them; the hosted one makes them directly too: each C library
 * function it used was a symbol the dynamic loader looks up when it loads
 * libaltmem.so or the preload (both -z now), about 500 instructions of every
 * process's start-up apiece (docs/dropin.md, "Start-up cost").  Every call
 * returns the kernel's value, -errno on error, and touches no errno.
 */
#include "os.h"
#include "raw_syscall.h"

void *altmem__os_map_anon(size_t len)
{
    /* PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS: the same values on every
       architecture here. */
    long r = altmem__syscall6(ALTMEM_NR_mmap, 0, (long)len, 3, 0x22, -1, 0);
    return r < 0 && r > -4096 ? (void *)0 : (void *)r;
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
#ifdef ALTMEM_NR_riscv_hwprobe
    /* riscv_hwprobe(pairs, count, cpusetsize 0, cpus NULL, flags 0): all CPUs. */
    return altmem__syscall6(ALTMEM_NR_riscv_hwprobe, (long)pairs, (long)pair_count, 0, 0, 0, 0);
#else
    (void)pairs;
    (void)pair_count;
    return -38; /* ENOSYS */
#endif
}

int altmem__os_uname_release(char *buf, size_t cap)
{
    /* struct utsname: six fields of 65 bytes; release is the third. */
    char u[6 * 65];
    if (!cap)
        return -22; /* EINVAL */
    long r = altmem__syscall1(ALTMEM_NR_uname, u);
    if (r < 0)
        return (int)r;
    size_t i = 0;
    for (; i + 1 < cap && i < 65 && u[130 + i]; i++)
        buf[i] = u[130 + i];
    buf[i] = '\0';
    return 0;
}

int altmem__os_mprotect(void *addr, size_t len, int prot)
{
    return (int)altmem__syscall3(ALTMEM_NR_mprotect, addr, len, prot);
}

long altmem__os_riscv_flush_icache(void *start, void *end)
{
#ifdef ALTMEM_NR_riscv_flush_icache
    return altmem__syscall3(ALTMEM_NR_riscv_flush_icache, start, end, 0);
#else
    (void)start;
    (void)end;
    return -38; /* ENOSYS */
#endif
}
