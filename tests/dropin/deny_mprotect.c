/*
 * deny_mprotect write|exec [--] CMD [ARGS...]
 *
 * Runs CMD under a seccomp filter that makes mprotect (and pkey_mprotect) fail
 * with EACCES when the requested protection includes
 *   write: PROT_WRITE — a system that never lets a mapping become writable
 *          again (stricter than any real policy, so the first step of
 *          patching is refused; it also stops glibc's pthread_create, which
 *          makes a new stack usable with mprotect, so only single-threaded
 *          programs run under it);
 *   exec:  PROT_EXEC — SELinux without execmod, or PaX MPROTECT: the page can
 *          be made writable and written, but not executable again, the case
 *          the engine's probe page exists for.
 * Everything else passes.  The filter is inherited across execve, so the
 * dynamic loader, libaltmem's constructor and the program all run under it;
 * this is a real refusal by the kernel, not a simulated one in altmem.
 *
 * Before exec'ing CMD it checks on a page of its own that the filter refuses
 * what it should and allows the rest, so a filter that silently does nothing
 * fails here instead of making the tests pass for the wrong reason.
 *
 * Exit: CMD's status; 2 usage; 1 the filter did not behave; 127 CMD not
 * found; 77 seccomp is unavailable here (the last line says why).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#elif defined(__riscv) && __riscv_xlen == 64
#define ARCH AUDIT_ARCH_RISCV64
#elif defined(__loongarch64) && defined(AUDIT_ARCH_LOONGARCH64)
#define ARCH AUDIT_ARCH_LOONGARCH64
#endif

#ifndef __NR_pkey_mprotect
#define __NR_pkey_mprotect -1
#endif

/* The low 32 bits of argument 2 (prot): the kernel compares int prot. */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PROT_ARG offsetof(struct seccomp_data, args[2])
#else
#define PROT_ARG (offsetof(struct seccomp_data, args[2]) + 4)
#endif

static int usage(void)
{
    fprintf(stderr, "usage: deny_mprotect write|exec [--] CMD [ARGS...]\n");
    return 2;
}

static int skip(const char *why, int err)
{
    printf("deny_mprotect: SKIP: %s: %s\n", why, strerror(err));
    return 77;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return usage();
    unsigned deny;
    if (!strcmp(argv[1], "write"))
        deny = PROT_WRITE;
    else if (!strcmp(argv[1], "exec"))
        deny = PROT_EXEC;
    else
        return usage();
    int cmd = 2;
    if (!strcmp(argv[cmd], "--"))
        cmd++;
    if (cmd >= argc)
        return usage();

#ifndef ARCH
    printf("deny_mprotect: SKIP: no seccomp architecture constant for this target\n");
    return 77;
#else
    struct sock_filter code[] = {
        /* A foreign-ABI system call (x32, compat) is none of our business. */
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mprotect, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)__NR_pkey_mprotect, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, PROT_ARG),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, deny, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EACCES & SECCOMP_RET_DATA)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {.len = sizeof code / sizeof code[0], .filter = code};

    /* Without privileges the kernel accepts a filter only from a process that
       can never gain any (a setuid CMD then runs without its bits, which no
       test here needs). */
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return skip("prctl(PR_SET_NO_NEW_PRIVS)", errno);
    long r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
    if (r != 0 && errno == ENOSYS)
        r = prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
    if (r != 0)
        return skip("installing a seccomp filter", errno);

    /* The filter must refuse exactly what it claims to. */
    long page = sysconf(_SC_PAGESIZE);
    void *p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("deny_mprotect: mmap");
        return 1;
    }
    int bad = 0;
    errno = 0;
    if (mprotect(p, (size_t)page, PROT_READ) != 0) {
        fprintf(stderr, "deny_mprotect: mprotect(PROT_READ) refused too: %s\n", strerror(errno));
        bad = 1;
    }
    errno = 0;
    if (mprotect(p, (size_t)page, PROT_READ | deny) == 0 || errno != EACCES) {
        fprintf(stderr, "deny_mprotect: mprotect(PROT_READ|%s) was not refused with EACCES (%s)\n",
                deny == PROT_WRITE ? "PROT_WRITE" : "PROT_EXEC", errno ? strerror(errno) : "it succeeded");
        bad = 1;
    }
    munmap(p, (size_t)page);
    if (bad)
        return 1;

    execvp(argv[cmd], argv + cmd);
    fprintf(stderr, "deny_mprotect: %s: %s\n", argv[cmd], strerror(errno));
    return 127;
#endif
}
