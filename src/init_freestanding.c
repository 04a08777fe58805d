/*
 * The freestanding entry (docs/freestanding.md): a program without a C library
 * hands over its environment, auxiliary vector and, if it has one, a profile's
 * text, then selection runs as altmem_init() runs it in a hosted program.
 * Linked only into libaltmem-freestanding.a, beside the raw-syscall OS layer
 * (src/os/os_raw.c) that reads the vectors.
 */
#include "altmem.h"
#include "select.h"
#include "os/os.h"

static void init_with(char *const *envp, const unsigned long *auxv, const char *profile)
{
    /* Selection runs once.  If it has run already (a start-up that runs ELF
       constructors ran the library's, or altmem_init() was called first), it ran
       without these vectors; say so rather than pretend they were used.  Start-up
       code is single-threaded, so nothing races with the check. */
    if (altmem__selection_started()) {
        static const char msg[] = "altmem: altmem_init_freestanding() called after selection had run: "
                                  "environment and auxiliary vector not used\n";
        altmem__os_write_err(msg, sizeof msg - 1);
        return;
    }
    altmem__os_set_vectors(envp, auxv, profile);
    altmem_init();
}

void altmem_init_freestanding(char *const *envp, const unsigned long *auxv)
{
    init_with(envp, auxv, 0);
}

void altmem_init_freestanding_profile(char *const *envp, const unsigned long *auxv, const char *profile)
{
    init_with(envp, auxv, profile);
}
