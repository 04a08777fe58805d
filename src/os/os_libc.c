/* OS interface, hosted flavour: the C library provides auxv, environment,
   glibc's CPUID leaves, fstat and the signal dispositions.  The plain system
   calls are made directly, as in the freestanding flavour: those both flavours
   have in src/os/os_syscalls.c; openat, read, close, getpid and kill here,
   where the profile's reader and the fault chain need them (raw_syscall.h).
   Each C library function used here is a symbol the dynamic loader looks up
   when it loads libaltmem.so or the preload (os_syscalls.c says why that
   counts). */
#define _GNU_SOURCE
#include "os.h"
#include "raw_syscall.h"

#include <errno.h>
#include <signal.h>
#include <ucontext.h>
#include <string.h>
#include <sys/auxv.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* The architecture's part: the program counter in ucontext_t and the numbers of
   the system calls only some architectures have (src/arch/<arch>/os_arch.h). */
#if __has_include(<os_arch.h>)
#include <os_arch.h>
#else
#error "OS layer: no src/arch/<arch>/os_arch.h for this architecture (docs/architecture.md, \"Adding an architecture\")"
#endif

extern char **environ;
/* Where the initial stack's argument count is (glibc's loader and static
   start-up set it first thing; musl has none: weak). */
extern void *__libc_stack_end __attribute__((weak));

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
    char **env = environ;
    /* NULL while the dynamic loader relocates, when it calls the IFUNC
       resolvers of libaltmem.so (src/entry.c): the C library sets it up later.
       The initial stack already holds it, after argc and argv's NULL. */
    if (!env && &__libc_stack_end && __libc_stack_end) {
        long *argc = __libc_stack_end;
        env = (char **)(argc + 1) + *argc + 1;
    }
    if (!env)
        return NULL;
    /* By hand, not strncmp for every entry: the preload asks for 4 names in
       each process's start-up, and most entries differ at their first byte. */
    for (char **e = env; *e; e++) {
        const char *a = *e, *b = name;
        while (*b && *a == *b)
            a++, b++;
        if (!*b && *a == '=')
            return a + 1;
    }
    return NULL;
}

int altmem__os_read_file(const char *path, int secure, char **bufp, size_t cap, size_t *len)
{
    long fd = altmem__syscall4(ALTMEM_NR_openat, AT_FDCWD, path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0);
    if (fd < 0)
        return (int)fd;
    int saved = errno;
    struct stat st;
    int rc = 0;
    if (fstat((int)fd, &st) != 0)
        rc = -errno;
    else if (!S_ISREG(st.st_mode))
        rc = ALTMEM__READ_NOT_REGULAR;
    else if (secure && (st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH))))
        rc = ALTMEM__READ_INSECURE;
    else if ((unsigned long long)st.st_size > cap)
        rc = ALTMEM__READ_TOO_BIG;
    else if (!*bufp && !(*bufp = altmem__os_map_anon(cap)))
        rc = -ENOMEM;
    char *buf = *bufp;
    size_t got = 0;
    /* Until end of file or cap + 1 bytes (a file that grew meanwhile is too big;
       one that shrank is read as it is now). */
    while (rc == 0) {
        char extra;
        char *to = got < cap ? buf + got : &extra;
        long r = altmem__syscall3(ALTMEM_NR_read, fd, to, got < cap ? cap - got : 1);
        if (r == -EINTR)
            continue;
        if (r < 0)
            rc = (int)r;
        else if (r == 0)
            break;
        else if (got >= cap)
            rc = ALTMEM__READ_TOO_BIG;
        else
            got += (size_t)r;
    }
    altmem__syscall1(ALTMEM_NR_close, fd);
    errno = saved;
    *len = got;
    return rc;
}

const char *altmem__os_profile_string(void)
{
    return NULL;
}

#if defined(__x86_64__) && defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <sys/platform/x86.h>
/* Weak: the same libaltmem.a links with musl-gcc, which has none.  A static
   glibc program links glibc's in with -Wl,-u,__x86_get_cpuid_feature_leaf
   (docs/dropin.md, "Static programs"); without it, it is NULL and every leaf
   is read with CPUID. */
#pragma weak __x86_get_cpuid_feature_leaf

int altmem__os_x86_cpuid_kept(unsigned leaf, unsigned subleaf, unsigned regs[4])
{
    unsigned index;
    if (leaf == 1 && subleaf == 0)
        index = CPUID_INDEX_1;
    else if (leaf == 7 && subleaf == 0)
        index = CPUID_INDEX_7;
    else if (leaf == 7 && subleaf == 1)
        index = CPUID_INDEX_7_ECX_1;
    else if (leaf == 0x80000001u && subleaf == 0)
        index = CPUID_INDEX_80000001;
    else if (leaf == 0x80000007u && subleaf == 0)
        index = CPUID_INDEX_80000007;
    else if (leaf == 0x80000008u && subleaf == 0)
        index = CPUID_INDEX_80000008;
    else
        return 0;
    if (!__x86_get_cpuid_feature_leaf)
        return 0;
    /* cpuid_array: the registers as CPUID returned them (active_array is glibc's
       own view, after GLIBC_TUNABLES and the OS's consent). */
    const struct cpuid_feature *f = __x86_get_cpuid_feature_leaf(index);
    for (int i = 0; i < 4; i++)
        regs[i] = f->cpuid_array[i];
    return 1;
}
#else
int altmem__os_x86_cpuid_kept(unsigned leaf, unsigned subleaf, unsigned regs[4])
{
    (void)leaf, (void)subleaf, (void)regs;
    return 0;
}
#endif

/* ---- Faults ---- */

/* The dispositions ours replaced, one per signal.  Written only while
   installing (before ours can run for them), read by the handler.  COMMON,
   which linkers place after every .bss section: off the page that start-up
   writes (src/select.c, altmem__copy_notes). */
struct sigaction altmem__prev_segv __attribute__((common, visibility("hidden")));
struct sigaction altmem__prev_bus __attribute__((common, visibility("hidden")));

static struct sigaction *prev_for(int sig)
{
    return sig == SIGBUS ? &altmem__prev_bus : &altmem__prev_segv;
}

/* The kernel calls a handler of sa_sigaction's exact type; the core's handler
   takes void pointers (it includes no libc header), so it is reached through
   this trampoline rather than through a cast function pointer. */
static altmem__fault_fn *core_handler;

static void libc_handler(int sig, siginfo_t *info, void *ucontext)
{
    core_handler(sig, info, ucontext);
}

static int is_ours(const struct sigaction *sa, altmem__fault_fn *fn)
{
    (void)fn;
    return (sa->sa_flags & SA_SIGINFO) && sa->sa_sigaction == libc_handler;
}

int altmem__os_fault_install(altmem__fault_fn *fn)
{
    static const int sigs[2] = {SIGSEGV, SIGBUS};
    int saved = errno;
    for (int i = 0; i < 2; i++) {
        struct sigaction cur, ours, old;
        if (sigaction(sigs[i], NULL, &cur) != 0)
            goto fail;
        if (is_ours(&cur, fn))
            continue;
        /* Remember the old one first: a fault between the two calls then
           already finds it. */
        *prev_for(sigs[i]) = cur;
        core_handler = fn;
        ours.sa_sigaction = libc_handler;
        /* SA_NODEFER: a fault inside a handler that runs while ours is on the
           stack (a signal handler calling copy_user, or the handler we chain to)
           must reach us, not find SIGSEGV blocked and be forced fatal.  The
           handler we chain to still gets its own mask (altmem__os_fault_chain). */
        ours.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART | SA_NODEFER;
        sigemptyset(&ours.sa_mask);
        if (sigaction(sigs[i], &ours, &old) != 0)
            goto fail;
        if (!is_ours(&old, fn))
            *prev_for(sigs[i]) = old;   /* changed under us: keep the latest */
    }
    errno = saved;
    return 0;
fail:;
    int r = -errno;
    errno = saved;
    return r;
}

void altmem__os_fault_chain(int sig, void *info, void *ucontext)
{
    struct sigaction *p = prev_for(sig);
    siginfo_t *si = info;
    int saved = errno;
    if ((p->sa_flags & SA_SIGINFO) || (p->sa_handler != SIG_DFL && p->sa_handler != SIG_IGN)) {
        /* Call it as the kernel would have: its mask added, sig itself blocked
           unless it asked for SA_NODEFER. */
        sigset_t mask = p->sa_mask, old;
        if (!(p->sa_flags & SA_NODEFER))
            sigaddset(&mask, sig);
        else
            sigdelset(&mask, sig);
        pthread_sigmask(SIG_BLOCK, &mask, &old);
        if (p->sa_flags & SA_NODEFER) {
            sigset_t only;
            sigemptyset(&only);
            sigaddset(&only, sig);
            pthread_sigmask(SIG_UNBLOCK, &only, NULL);
        }
        struct sigaction h = *p;
        if (p->sa_flags & SA_RESETHAND) {
            /* One shot: later faults get the default action. */
            p->sa_handler = SIG_DFL;
            p->sa_flags = 0;
        }
        errno = saved;
        if (h.sa_flags & SA_SIGINFO)
            h.sa_sigaction(sig, si, ucontext);
        else
            h.sa_handler(sig);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        return;
    }
    if (p->sa_handler == SIG_IGN && si->si_code <= 0) {
        errno = saved;
        return;                         /* a sent signal that was ignored stays ignored */
    }
    /* Default action (the kernel also forces it for an ignored fault): put it
       back.  A fault happens again when the access is re-executed; a sent
       signal is sent again and arrives when this handler returns. */
    struct sigaction dfl;
    dfl.sa_handler = SIG_DFL;
    dfl.sa_flags = 0;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    if (si->si_code <= 0)
        altmem__syscall2(ALTMEM_NR_kill, altmem__syscall0(ALTMEM_NR_getpid), sig);
    errno = saved;
}

uintptr_t *altmem__os_fault_pc(void *ucontext)
{
    ucontext_t *uc = ucontext;
    return ALTMEM_ARCH_UC_PC(uc);
}

int altmem__os_fault_code(void *info)
{
    return ((siginfo_t *)info)->si_code;
}

static __thread uintptr_t kept_fault_addr __attribute__((tls_model("initial-exec")));

void altmem__os_fault_keep(void *info)
{
    kept_fault_addr = (uintptr_t)((siginfo_t *)info)->si_addr;
}

uintptr_t altmem__os_fault_kept(void)
{
    uintptr_t a = kept_fault_addr;
    kept_fault_addr = 0;
    return a;
}
