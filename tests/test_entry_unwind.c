/*
 * A fault inside a copied entry unwinds to its caller (x86_64).
 *
 * The static entries hold a copy of the bound variant's code
 * (src/arch/x86_64/copy.h), and each stub's room has an unwind entry saying the
 * stack is the caller's (src/arch/stubs.inc, STUB_CFI).  So when altmem_memcpy
 * faults on a bad source, a backtrace taken in the SIGSEGV handler (glibc's
 * backtrace(), libgcc's unwinder: what a crash reporter or a sanitizer uses)
 * must pass through the copy and find the function that called it.
 *
 *   test_entry_unwind            the fault inside altmem_memcpy's copy: the
 *                                caller must be in the trace (77: the fault was
 *                                not in the copy, e.g. bind=patch)
 *   test_entry_unwind control    the same fault in a function with no unwind
 *                                entry: the caller must be missing, so this
 *                                exits 1 (its negative control: the check can fail)
 */
#define _GNU_SOURCE
#if !__has_include(<execinfo.h>)
/* musl has no backtrace(), and its signal trampoline no unwind entry to
   unwind from a handler through: nothing this test can check there. */
#include <stdio.h>
int main(void)
{
    printf("no backtrace() in this C library: skipped\n");
    return 77;
}
#else
#include <execinfo.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>
#include <unwind.h>

#include <altmem.h>

static sigjmp_buf back;
static void *frames[64];
static volatile int nframes;
static volatile uintptr_t fault_pc;

static void on_segv(int sig, siginfo_t *si, void *ctx)
{
    (void)sig;
    (void)si;
    fault_pc = (uintptr_t)((ucontext_t *)ctx)->uc_mcontext.gregs[REG_RIP];
    nframes = backtrace(frames, 64);
    siglongjmp(back, 1);
}

/* A load from (%rdi) with no unwind entry at all (the control's fault). */
__asm__(".text\n"
        ".globl test_unwind_nocfi_load\n"
        ".type test_unwind_nocfi_load, @function\n"
        "test_unwind_nocfi_load:\n"
        "\tmovq (%rdi), %rax\n"
        "\tret\n"
        ".size test_unwind_nocfi_load, . - test_unwind_nocfi_load\n");
uint64_t test_unwind_nocfi_load(const void *p);

static size_t sink;

/* The callers the trace must show; noinline and with work after the call, so
   that neither is inlined nor ends in a tail jump. */
__attribute__((noinline)) static void call_entry(void *dst, const void *src)
{
    sink += (size_t)altmem_memcpy(dst, src, 64);
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) static void call_nocfi(const void *src)
{
    sink += test_unwind_nocfi_load(src);
    __asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
    int control = argc > 1 && !strcmp(argv[1], "control");
    long page = sysconf(_SC_PAGESIZE);
    unsigned char *guard = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (guard == MAP_FAILED || mprotect(guard + page, (size_t)page, PROT_NONE) != 0) {
        perror("mmap/mprotect");
        return 2;
    }
    static unsigned char dst[128];
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &old);
    void *caller = control ? (void *)call_nocfi : (void *)call_entry;
    if (!sigsetjmp(back, 1)) {
        if (control)
            call_nocfi(guard + page);
        else
            call_entry(dst, guard + page);       /* the first load faults */
        printf("no fault\n");
        return 2;
    }
    sigaction(SIGSEGV, &old, NULL);

    struct altmem_binding_info b;
    altmem_binding(ALTMEM_MEMCPY, &b);
    uintptr_t entry = (uintptr_t)(void *)altmem_memcpy;
    int in_copy = fault_pc >= entry && fault_pc < entry + 4096;
    printf("memcpy bound to %s by %s; fault at %#lx (%s)\n", b.variant, b.bound_by, (unsigned long)fault_pc,
           control ? "the function without an unwind entry"
                   : in_copy ? "inside the entry's copy" : "outside the entry");
    if (!control && (strcmp(b.bound_by, "copied") || !in_copy)) {
        printf("not a fault inside a copied entry: nothing to check here\n");
        return 77;
    }
    int found = 0;
    for (int i = 0; i < nframes; i++) {
        void *fn = _Unwind_FindEnclosingFunction((char *)frames[i] - 1);
        printf("  #%d %p (function %p)%s\n", i, frames[i], fn, fn == caller ? "  <- the caller" : "");
        found |= fn == caller;
    }
    printf("the caller is %s the trace\n", found ? "in" : "NOT in");
    return found ? 0 : 1;
}
#endif
