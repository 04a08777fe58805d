/* OS interface, hosted flavour: the C library provides auxv, environment, write. */
#define _GNU_SOURCE
#include "os.h"

#include <errno.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char **environ;

unsigned long altmem__os_getauxval(unsigned long type, int *found)
{
    int saved = errno;
    errno = 0;
    unsigned long v = getauxval(type);
    *found = !(v == 0 && errno == ENOENT);
    errno = saved;
    return v;
}

const char *altmem__os_getenv(const char *name)
{
    /* Not getenv(): the constructor may run before the C library has set up
       anything getenv() relies on in exotic start-ups; environ is enough. */
    if (!environ)
        return NULL;
    size_t len = strlen(name);
    for (char **e = environ; *e; e++)
        if (strncmp(*e, name, len) == 0 && (*e)[len] == '=')
            return *e + len + 1;
    return NULL;
}

void altmem__os_write_err(const char *buf, size_t n)
{
    int saved = errno;
    while (n > 0) {
        ssize_t w = write(2, buf, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        buf += w;
        n -= (size_t)w;
    }
    errno = saved;
}

long altmem__os_riscv_hwprobe(void *pairs, size_t pair_count)
{
#ifdef __NR_riscv_hwprobe
    int saved = errno;
    long r = syscall(__NR_riscv_hwprobe, pairs, pair_count, 0L, 0L, 0L);
    r = r < 0 ? -(long)errno : r;
    errno = saved;
    return r;
#elif defined(__riscv)
    int saved = errno;
    long r = syscall(258, pairs, pair_count, 0L, 0L, 0L); /* __NR_riscv_hwprobe */
    r = r < 0 ? -(long)errno : r;
    errno = saved;
    return r;
#else
    (void)pairs;
    (void)pair_count;
    return -ENOSYS;
#endif
}

int altmem__os_mprotect(void *addr, size_t len, int prot)
{
    int saved = errno;
    int r = mprotect(addr, len, prot) == 0 ? 0 : -errno;
    errno = saved;
    return r;
}

long altmem__os_riscv_flush_icache(void *start, void *end)
{
#if defined(__riscv)
    int saved = errno;
    long r = syscall(259 /* __NR_riscv_flush_icache */, start, end, 0L);
    r = r < 0 ? -(long)errno : r;
    errno = saved;
    return r;
#else
    (void)start;
    (void)end;
    return -ENOSYS;
#endif
}
