/*
 * The freestanding test runtime (see fs_rt.h): everything a test program needs
 * from an operating system, made of raw Linux system calls.  Built with the
 * no-libc flags (-ffreestanding -fno-builtin, and under GCC
 * -fno-tree-loop-distribute-patterns) so that the byte loops below stay loops
 * instead of becoming calls to themselves.
 */
#include "fs_rt.h"

#include "os/raw_syscall.h"

char **fs_envp;
unsigned long *fs_auxv;

/* ---- Process and output ----------------------------------------------- */

void fs_exit(int status)
{
    for (;;)
        altmem__syscall1(ALTMEM_NR_exit_group, status);
}

long fs_write(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    size_t left = n;
    while (left) {
        long w = altmem__syscall3(ALTMEM_NR_write, fd, p, left);
        if (w == -4) /* EINTR */
            continue;
        if (w <= 0)
            return -1;
        p += w;
        left -= (size_t)w;
    }
    return (long)n;
}

struct out {
    int fd;
    size_t len;
    char buf[256];
};

static void out_flush(struct out *o)
{
    if (o->len)
        fs_write(o->fd, o->buf, o->len);
    o->len = 0;
}

static void out_char(struct out *o, char c)
{
    if (o->len == sizeof o->buf)
        out_flush(o);
    o->buf[o->len++] = c;
}

/* One converted field: sign/prefix, digits or text, padded to width. */
static void out_field(struct out *o, const char *prefix, const char *body, size_t len, int width, int left,
                      int zero)
{
    size_t plen = fs_strlen(prefix);
    size_t pad = width > 0 && (size_t)width > plen + len ? (size_t)width - plen - len : 0;
    if (!left && !zero)
        while (pad--)
            out_char(o, ' ');
    while (*prefix)
        out_char(o, *prefix++);
    if (!left && zero)
        while (pad--)
            out_char(o, '0');
    for (size_t i = 0; i < len; i++)
        out_char(o, body[i]);
    if (left)
        while (pad--)
            out_char(o, ' ');
}

static size_t utoa(char *end, unsigned long long v, unsigned base)
{
    size_t n = 0;
    do {
        *--end = "0123456789abcdef"[v % base];
        v /= base;
        n++;
    } while (v);
    return n;
}

void fs_vprintf(int fd, const char *fmt, va_list ap)
{
    struct out o;
    o.fd = fd;
    o.len = 0;
    for (const char *f = fmt; *f; f++) {
        if (*f != '%') {
            out_char(&o, *f);
            continue;
        }
        f++;
        int left = 0, zero = 0, plus = 0, width = 0, lng = 0;
        for (;; f++) {
            if (*f == '-')
                left = 1;
            else if (*f == '+')
                plus = 1;
            else if (*f == '0')
                zero = 1;
            else
                break;
        }
        while (*f >= '0' && *f <= '9')
            width = width * 10 + (*f++ - '0');
        if (*f == 'z') { /* size_t */
            lng = 3;
            f++;
        }
        while (*f == 'l') { /* long, long long */
            lng++;
            f++;
        }
        char digits[24];
        char *end = digits + sizeof digits;
        switch (*f) {
        case 'd':
        case 'i': {
            long long v = lng == 0 ? va_arg(ap, int) : lng == 1 ? va_arg(ap, long) : lng == 2 ? va_arg(ap, long long)
                                                                                         : (long long)va_arg(ap, size_t);
            unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
            size_t n = utoa(end, u, 10);
            out_field(&o, v < 0 ? "-" : plus ? "+" : "", end - n, n, width, left, zero);
            break;
        }
        case 'u':
        case 'x': {
            unsigned long long v = lng == 0   ? va_arg(ap, unsigned)
                                   : lng == 1 ? va_arg(ap, unsigned long)
                                   : lng == 2 ? va_arg(ap, unsigned long long)
                                              : va_arg(ap, size_t);
            size_t n = utoa(end, v, *f == 'x' ? 16 : 10);
            out_field(&o, "", end - n, n, width, left, zero);
            break;
        }
        case 'p': {
            size_t n = utoa(end, (uintptr_t)va_arg(ap, void *), 16);
            out_field(&o, "0x", end - n, n, width, left, zero);
            break;
        }
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (!s)
                s = "(null)";
            out_field(&o, "", s, fs_strlen(s), width, left, 0);
            break;
        }
        case 'c': {
            char c = (char)va_arg(ap, int);
            out_field(&o, "", &c, 1, width, left, 0);
            break;
        }
        case '%':
            out_char(&o, '%');
            break;
        default: /* unknown conversion: shown as is, so the mistake is visible */
            out_char(&o, '%');
            if (!*f)
                f--;
            else
                out_char(&o, *f);
            break;
        }
    }
    out_flush(&o);
}

void fs_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fs_vprintf(1, fmt, ap);
    va_end(ap);
}

void fs_eprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fs_vprintf(2, fmt, ap);
    va_end(ap);
}

/* ---- Strings, environment, auxv --------------------------------------- */

size_t fs_strlen(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

int fs_strcmp(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return (unsigned char)*a - (unsigned char)*b;
}

int fs_strncmp(const char *a, const char *b, size_t n)
{
    for (; n; n--, a++, b++) {
        if (*a != *b || !*a)
            return (unsigned char)*a - (unsigned char)*b;
    }
    return 0;
}

const char *fs_strstr(const char *hay, const char *needle)
{
    size_t n = fs_strlen(needle);
    for (; *hay; hay++)
        if (fs_strncmp(hay, needle, n) == 0)
            return hay;
    return n ? NULL : hay;
}

const char *fs_getenv(const char *name)
{
    size_t n = fs_strlen(name);
    for (char **e = fs_envp; e && *e; e++)
        if (fs_strncmp(*e, name, n) == 0 && (*e)[n] == '=')
            return *e + n + 1;
    return NULL;
}

unsigned long fs_getauxval(unsigned long type)
{
    for (unsigned long *a = fs_auxv; a && a[0]; a += 2)
        if (a[0] == type)
            return a[1];
    return 0;
}

size_t fs_page_size(void)
{
    unsigned long p = fs_getauxval(6 /* AT_PAGESZ */);
    return p ? p : 4096;
}

uint64_t fs_now_ms(void)
{
    struct {
        long sec, nsec;
    } ts = {0, 0};
    altmem__syscall2(ALTMEM_NR_clock_gettime, 1 /* CLOCK_MONOTONIC */, &ts);
    return (uint64_t)ts.sec * 1000 + (uint64_t)ts.nsec / 1000000;
}

/* ---- Memory ----------------------------------------------------------- */

void fs_protect(void *addr, size_t len, int prot)
{
    long r = altmem__syscall3(ALTMEM_NR_mprotect, addr, len, prot);
    if (r) {
        fs_eprintf("fs_rt: mprotect(%p, %zu, %d) failed: errno %ld\n", addr, len, prot, -r);
        fs_exit(2);
    }
}

unsigned char *fs_map_guarded(size_t size)
{
    size_t page = fs_page_size();
    size = (size + page - 1) / page * page;
    /* mmap(NULL, len, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) */
    long r = altmem__syscall6(ALTMEM_NR_mmap, 0, (long)(size + 2 * page), 3, 0x22, -1, 0);
    if (r < 0 && r > -4096) {
        fs_eprintf("fs_rt: mmap of %zu bytes failed: errno %ld\n", size + 2 * page, -r);
        fs_exit(2);
    }
    unsigned char *base = (unsigned char *)r;
    fs_protect(base, page, FS_PROT_NONE);
    fs_protect(base + page + size, page, FS_PROT_NONE);
    return base + page;
}

/* ---- Faults ------------------------------------------------------------ */

static void (*fault_describe)(uintptr_t);

/* The kernel's siginfo: si_signo, si_errno, si_code, then (after padding to 8
   bytes) the union whose first member, for SIGSEGV and SIGBUS, is si_addr. */
struct fs_siginfo {
    int signo, errno_, code, pad_;
    void *addr;
};

static void on_fault(int sig, struct fs_siginfo *si, void *uc)
{
    (void)uc;
    fs_printf("\nFAULT (%s, si_code %d) at %p\n", sig == 7 ? "SIGBUS" : "SIGSEGV", si->code, si->addr);
    if (fault_describe)
        fault_describe((uintptr_t)si->addr);
    fs_exit(FS_EXIT_FAULT);
}

/* Never runs (on_fault exits), but x86_64 refuses to deliver a signal whose
   action has no restorer, and aarch64 accepts one. */
static void no_return_restorer(void)
{
    fs_exit(FS_EXIT_FAULT + 1);
}

/* The kernel's struct sigaction (not the C library's): the restorer field
   exists only where the architecture defines SA_RESTORER. */
struct fs_ksigaction {
    void (*handler)(int, struct fs_siginfo *, void *);
    unsigned long flags;
#if defined(__x86_64__) || defined(__aarch64__)
    void (*restorer)(void);
#endif
    unsigned long mask;
#if defined(__loongarch__)
    unsigned long qemu72_spare; /* qemu-user 7.2 reads 32 bytes here (see src/arch/loongarch64/os_arch.h) */
#endif
};

void fs_catch_faults(void (*describe)(uintptr_t addr))
{
    fault_describe = describe;
    struct fs_ksigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.handler = on_fault;
    sa.flags = 4 /* SA_SIGINFO */ | 0x80000000ul /* SA_RESETHAND */;
#if defined(__x86_64__) || defined(__aarch64__)
    sa.flags |= 0x04000000 /* SA_RESTORER */;
    sa.restorer = no_return_restorer;
#else
    (void)no_return_restorer;
#endif
    static const int sigs[] = {11 /* SIGSEGV */, 7 /* SIGBUS */};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        long r = altmem__syscall4(ALTMEM_NR_rt_sigaction, sigs[i], &sa, 0, 8 /* sizeof the kernel's sigset */);
        if (r) {
            fs_eprintf("fs_rt: rt_sigaction(%d) failed: errno %ld\n", sigs[i], -r);
            fs_exit(2);
        }
    }
}

/* ---- Processes ----------------------------------------------------------- */

int fs_fork(void)
{
    /* clone(SIGCHLD, no new stack, ...): fork.  The remaining arguments' order
       differs between x86_64 and asm-generic, but all are 0 here. */
    long r = altmem__syscall2(ALTMEM_NR_clone, 17 /* SIGCHLD */, 0);
    if (r < 0) {
        fs_eprintf("fs_rt: fork failed: errno %ld\n", -r);
        fs_exit(2);
    }
    return (int)r;
}

int fs_wait(int pid, int *status)
{
    long r;
    do
        r = altmem__syscall4(ALTMEM_NR_wait4, pid, status, 0, 0);
    while (r == -4);
    return (int)r;
}

/* ---- For the compiler ------------------------------------------------- */

void *memcpy(void *__restrict dst, const void *__restrict src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    for (size_t i = 0; i < n; i++)
        d[i] = s[i];
    return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
    unsigned char *d = dst;
    const unsigned char *s = src;
    if ((uintptr_t)d < (uintptr_t)s) {
        for (size_t i = 0; i < n; i++)
            d[i] = s[i];
    } else {
        for (size_t i = n; i > 0; i--)
            d[i - 1] = s[i - 1];
    }
    return dst;
}

void *memset(void *dst, int c, size_t n)
{
    unsigned char *d = dst;
    for (size_t i = 0; i < n; i++)
        d[i] = (unsigned char)c;
    return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i])
            return x[i] - y[i];
    return 0;
}
