/*
 * OS interface, freestanding flavour: raw Linux system calls (raw_syscall.h;
 * what differs between architectures is in src/arch/<arch>/os_arch.h), no C
 * library, for programs built with -ffreestanding -nostdlib (docs/freestanding.md).
 *
 * A hosted program's C library finds the environment and the auxiliary vector
 * itself; here the program's start-up code hands them over with
 * altmem_init_freestanding() (src/init_freestanding.c), which stores them here
 * and then selects the variants.  A bootloader or
 * unikernel that has neither passes NULL: detection then relies on what the CPU
 * reports by itself (CPUID, CPUCFG, riscv_hwprobe), ALTMEM_TUNABLES is not read
 * and AT_SECURE counts as clear.
 */
#include "os.h"
#include "raw_syscall.h"
#include "lib/text.h"

static char *const *raw_envp;
static const unsigned long *raw_auxv;
static const char *raw_profile;

void altmem__os_set_vectors(char *const *envp, const unsigned long *auxv, const char *profile)
{
    raw_envp = envp;
    raw_auxv = auxv;
    raw_profile = profile;
}

const char *altmem__os_profile_string(void)
{
    return raw_profile;
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

/* The freestanding flavour reads no file (docs/tunables.md, "The profile"); a
   profile comes as a string, altmem_init_freestanding_profile(). */
int altmem__os_read_file(const char *path, int secure, char **buf, size_t cap, size_t *len)
{
    (void)path;
    (void)secure;
    (void)buf;
    (void)cap;
    *len = 0;
    return -38; /* -ENOSYS */
}

int altmem__os_x86_cpuid_kept(unsigned leaf, unsigned subleaf, unsigned regs[4])
{
    (void)leaf, (void)subleaf, (void)regs;
    return 0;   /* no C library: every leaf is read with CPUID */
}

/* ---- Faults: the kernel's own rt_sigaction and ucontext layouts ---- */

/* The flags and signals, the same on every architecture os_arch.h exists for;
   struct altmem__k_sigaction (the kernel's struct sigaction), the filling of one
   to install (altmem__k_sigaction_init) and the restorer come from os_arch.h. */
#define K_SA_SIGINFO 0x00000004ul
#define K_SA_ONSTACK 0x08000000ul
#define K_SA_RESTART 0x10000000ul
#define K_SA_NODEFER 0x40000000ul
#define K_SA_RESETHAND 0x80000000ul
#define K_SIGSEGV 11
#define K_SIGBUS 7
#define K_SIG_DFL 0ul
#define K_SIG_IGN 1ul

#ifdef ALTMEM_ARCH_SIGRETURN_ASM
/* The architecture's signal restorer (os_arch.h declares it; its
   altmem__k_sigaction_init puts it in the actions we install). */
__asm__(".pushsection .text\n\t.balign 16\n\t.hidden altmem__rt_sigreturn\n"
        "altmem__rt_sigreturn:\n\t" ALTMEM_ARCH_SIGRETURN_ASM "\n\t.popsection");
#endif

static struct altmem__k_sigaction raw_prev_segv, raw_prev_bus;

static struct altmem__k_sigaction *raw_prev(int sig)
{
    return sig == K_SIGBUS ? &raw_prev_bus : &raw_prev_segv;
}

static long k_sigaction(int sig, const struct altmem__k_sigaction *sa, struct altmem__k_sigaction *old)
{
    return altmem__syscall6(ALTMEM_NR_rt_sigaction, sig, (long)sa, (long)old, 8, 0, 0);
}

static int raw_is_ours(const struct altmem__k_sigaction *sa, altmem__fault_fn *fn)
{
    return (sa->flags & K_SA_SIGINFO) && sa->handler == (unsigned long)fn;
}

int altmem__os_fault_install(altmem__fault_fn *fn)
{
    static const int sigs[2] = {K_SIGSEGV, K_SIGBUS};
    for (int i = 0; i < 2; i++) {
        struct altmem__k_sigaction cur, ours, old;
        long r = k_sigaction(sigs[i], 0, &cur);
        if (r < 0)
            return (int)r;
        if (raw_is_ours(&cur, fn))
            continue;
        *raw_prev(sigs[i]) = cur;
        altmem__k_sigaction_init(&ours, (unsigned long)fn,
                                 K_SA_SIGINFO | K_SA_ONSTACK | K_SA_RESTART | K_SA_NODEFER,   /* see os_libc.c */
                                 0);
        r = k_sigaction(sigs[i], &ours, &old);
        if (r < 0)
            return (int)r;
        if (!raw_is_ours(&old, fn))
            *raw_prev(sigs[i]) = old;
    }
    return 0;
}

void altmem__os_fault_chain(int sig, void *info, void *ucontext)
{
    struct altmem__k_sigaction *p = raw_prev(sig);
    int code = altmem__os_fault_code(info);
    if (p->handler != K_SIG_DFL && p->handler != K_SIG_IGN) {
        unsigned long bit = 1ul << (sig - 1), mask = p->mask, old;
        if (p->flags & K_SA_NODEFER)
            mask &= ~bit;
        else
            mask |= bit;
        altmem__syscall6(ALTMEM_NR_rt_sigprocmask, 0 /* SIG_BLOCK */, (long)&mask, (long)&old, 8, 0, 0);
        if (p->flags & K_SA_NODEFER)
            altmem__syscall6(ALTMEM_NR_rt_sigprocmask, 1 /* SIG_UNBLOCK */, (long)&bit, 0, 8, 0, 0);
        struct altmem__k_sigaction h = *p;
        if (p->flags & K_SA_RESETHAND) {
            p->handler = K_SIG_DFL;
            p->flags = 0;
        }
        if (h.flags & K_SA_SIGINFO)
            ((void (*)(int, void *, void *))h.handler)(sig, info, ucontext);
        else
            ((void (*)(int))h.handler)(sig);
        altmem__syscall6(ALTMEM_NR_rt_sigprocmask, 2 /* SIG_SETMASK */, (long)&old, 0, 8, 0, 0);
        return;
    }
    if (p->handler == K_SIG_IGN && code <= 0)
        return;
    struct altmem__k_sigaction dfl = {0};
    dfl.handler = K_SIG_DFL;
    k_sigaction(sig, &dfl, 0);
    if (code <= 0)
        altmem__syscall3(ALTMEM_NR_kill, altmem__syscall0(ALTMEM_NR_getpid), sig, 0);
}

/* The interrupted PC in the kernel's struct ucontext, at the architecture's
   offset (os_arch.h). */
uintptr_t *altmem__os_fault_pc(void *ucontext)
{
    return (uintptr_t *)((char *)ucontext + ALTMEM_ARCH_KUC_PC_OFFSET);
}

int altmem__os_fault_code(void *info)
{
    return ((const int *)info)[2];   /* si_signo, si_errno, si_code */
}

/* One slot for the process (os.h); si_addr follows si_signo, si_errno, si_code
   and the padding to 8 bytes on every 64-bit Linux. */
static uintptr_t kept_fault_addr;

void altmem__os_fault_keep(void *info)
{
    __atomic_store_n(&kept_fault_addr, *(const uintptr_t *)((const char *)info + 16), __ATOMIC_RELAXED);
}

uintptr_t altmem__os_fault_kept(void)
{
    return __atomic_exchange_n(&kept_fault_addr, 0, __ATOMIC_RELAXED);
}
