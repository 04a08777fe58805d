/*
 * Entry points in C, for builds without patch sites: ALTMEM_BINDING=pointer
 * (and architectures without src/arch/<arch>/entry.S) and ALTMEM_BINDING=ifunc
 * (whose static library is built from this file in pointer mode).
 * The default build uses the patched-branch stubs of src/arch/<arch>/entry.S.
 */
#include "altmem.h"
#include "bind_mode.h"
#include "registry.h"

#if defined(ALTMEM_IFUNC_ENTRIES)
/* The shared library of the default build: the public names are IFUNC entries
   over the patched-branch stubs (src/arch/stubs.inc, assembled with
   ALTMEM_STUBS_HIDDEN as altmem__stub_<routine>).  The dynamic loader asks each
   resolver once per object that calls the routine and writes the answer into
   that object's GOT, so a call through the PLT reaches the variant itself: the
   same path as a call to any function of a shared library, with no stub jump.
   ALTMEM_TUNABLES=bind=patch or bind=pointer hands out the stub instead. */
#include "select.h"

#define ROUTINE(routine, libc_name, access, reads)                                                \
    extern char altmem__stub_##routine[] __attribute__((visibility("hidden")));                   \
    static altmem_##routine##_fn *resolve_##routine(void)                                          \
    {                                                                                              \
        return (altmem_##routine##_fn *)altmem__ifunc_resolve(ALTMEM__ID_##routine,                \
                                                              altmem__stub_##routine);            \
    }                                                                                              \
    ALTMEM__RET_##routine altmem_##routine ALTMEM__PARAMS_##routine __attribute__((ifunc("resolve_" #routine)));
#include "registry.def"
#undef ROUTINE

/* Overrides src/select.c's weak 0: this library has IFUNC entries. */
int altmem__ifunc_entries = 1;

#else

/* One per routine of the registry (src/registry.def). */
#define ROUTINE(routine, libc_name, access, reads) extern altmem_##routine##_fn *altmem__##routine##_impl;
#include "registry.def"
#undef ROUTINE

/* What `altmem info` reports as "bound by" (src/select.c). */
#if ALTMEM_BIND_MODE == ALTMEM_BIND_IFUNC
const char altmem__entry_binding[] = "ifunc";
#else
const char altmem__entry_binding[] = "pointer";
#endif

#if ALTMEM_BIND_MODE == ALTMEM_BIND_IFUNC
/* The dynamic loader asks once, while relocating, and writes the answer into
   the callers' GOT: the entry is then as direct as a PLT call can be.  The
   resolver runs before constructors, so it initialises the library itself. */
/* copy_user / clear_user too: their variants check the lazy installation of
   the fault handler themselves (src/uaccess/extable.h). */
#define ROUTINE(routine, libc_name, access, reads)                                                 \
    static altmem_##routine##_fn *resolve_##routine(void)                                          \
    {                                                                                              \
        altmem_init();                                                                             \
        return altmem__##routine##_impl;                                                           \
    }                                                                                              \
    ALTMEM__RET_##routine altmem_##routine ALTMEM__PARAMS_##routine __attribute__((ifunc("resolve_" #routine)));
#include "registry.def"
#undef ROUTINE

#else
/* One indirect jump each: a sibling call the compiler emits as `jmp *ptr`.  The
   pointers start at the generic variants, correct before altmem_init().  The
   copy_user / clear_user variants check the lazy installation of the fault
   handler themselves (src/uaccess/extable.h). */
#define ROUTINE(routine, libc_name, access, reads)                                                 \
    ALTMEM__RET_##routine altmem_##routine ALTMEM__PARAMS_##routine                                \
    {                                                                                              \
        return __atomic_load_n(&altmem__##routine##_impl, __ATOMIC_RELAXED) ALTMEM__ARGS_##routine; \
    }
#include "registry.def"
#undef ROUTINE
#endif
#endif
