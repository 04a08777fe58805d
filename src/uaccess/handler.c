/*
 * The fault handler behind altmem_copy_user / altmem_clear_user, and its lazy
 * installation.
 *
 * A SIGSEGV or SIGBUS raised by the kernel at an instruction listed in the
 * exception table resumes at that entry's fix-up (the interrupted PC is
 * rewritten; nothing else changes).  Anything else goes to the handler that was
 * installed before ours, with its flags honoured, or, if there was none, to the
 * default action: the process dies of that signal as it would have without us.
 *
 * No locks, no allocation, nothing but async-signal-safe system calls: the
 * handler may run in any thread, on an alternate stack, while copy_user is itself
 * running inside another signal handler.
 *
 * Installed lazily, by the first call of copy_user or clear_user (or
 * altmem_uaccess_install()), not at load: a program that never uses them keeps
 * its signal dispositions untouched.  The public entry points are the
 * patched-branch stubs (src/arch/stubs.inc) or the C entries of src/entry.c;
 * the first-use check is at the top of every variant (extable.h: one load and a
 * predictable branch), its slow path the cold functions at the end of this
 * file.  A program that replaces our handler afterwards gets its own behaviour;
 * calling altmem_uaccess_install() again puts ours in front of it and chains
 * to it.
 */
#include "altmem.h"
#include "os/os.h"
#include "extable.h"

extern const struct altmem__extable_entry __start_altmem_extable[] __attribute__((weak, visibility("hidden")));
extern const struct altmem__extable_entry __stop_altmem_extable[] __attribute__((weak, visibility("hidden")));

uintptr_t altmem__extable_fixup(uintptr_t pc)
{
    for (const struct altmem__extable_entry *e = __start_altmem_extable; e < __stop_altmem_extable; e++)
        if ((uintptr_t)&e->insn + (intptr_t)e->insn == pc)
            return (uintptr_t)&e->fixup + (intptr_t)e->fixup;
    return 0;
}

static void fault_handler(int sig, void *info, void *ucontext)
{
    /* Only faults the kernel raised for an access: a SIGSEGV sent with kill()
       while we happen to be at a listed instruction is not ours. */
    if (altmem__os_fault_code(info) > 0) {
        uintptr_t *pc = altmem__os_fault_pc(ucontext);
        uintptr_t fixup = altmem__extable_fixup(*pc);
        if (fixup) {
            altmem__os_fault_keep(info);
            *pc = fixup;
            return;
        }
    }
    altmem__os_fault_chain(sig, info, ucontext);
}

/* 0 not yet, 1 installed (by any thread); read by every variant (extable.h). */
int altmem__uaccess_installed;

int altmem_uaccess_install(void)
{
    int r = altmem__os_fault_install(fault_handler);
    if (r == 0)
        __atomic_store_n(&altmem__uaccess_installed, 1, __ATOMIC_RELEASE);
    return r == 0 ? 0 : -1;
}

/* A variant's first call (its flag check failed): install, then run the
   variant again, which now finds the flag set.  No waiting: a first call racing
   another, or interrupting one from a signal handler, installs too; the OS
   layer keeps one copy of ours and the handler that was there before it.  If
   sigaction refused, copy anyway, with the byte-wise fix-up (it needs no
   check), rather than call the variant into the same check again. */
__attribute__((noinline, cold)) size_t altmem__copy_user_first(void *dst, const void *src, size_t n,
                                                               size_t (*self)(void *, const void *, size_t))
{
    if (altmem_uaccess_install() == 0)
        return self(dst, src, n);
    return altmem__uaccess_bytes((uintptr_t)dst, (uintptr_t)src, n, 0, 0);
}

__attribute__((noinline, cold)) size_t altmem__clear_user_first(void *dst, size_t n, size_t (*self)(void *, size_t))
{
    if (altmem_uaccess_install() == 0)
        return self(dst, n);
    return altmem__uaccess_bytes((uintptr_t)dst, 0, n, 0, 1);
}
