/*
 * What the benchmarks ask of a routine, answered from the registry
 * (src/registry.def: each ROUTINE's C-library name, access and reads fields),
 * never from where it stands in enum altmem_routine.
 */
#ifndef ALTMEM_BENCH_ROUTINES_H
#define ALTMEM_BENCH_ROUTINES_H

#include <altmem.h>
#include <stddef.h>

/* r's counterpart in the C library (its memcpy for memcpy, ...), named by the
   registry's libc_name: what the benchmarks time altmem against.  Every member
   null for copy_user, clear_user and out of range.  Read back from a volatile
   object, so that no compiler, even over the whole program, knows which
   function a timing loop calls through it: it can neither inline the C
   library's routine nor replace the calls by its own copy of known size. */
union altmem_routine_fn bench_routine_libc(int r);

/* altmem's public entry for r (altmem_memcpy, ...); null out of range. */
union altmem_routine_fn bench_routine_entry(int r);

/* fn's address whatever the routine: every member of the union is a function
   pointer held in the same place, so one member reads them all. */
static inline void *bench_fn_address(union altmem_routine_fn fn)
{
    return (void *)fn.memcpy;
}

/* r has a C-library counterpart (memcpy, memmove, memset): what `altmem bench`
   times against the C library.  0 for copy_user, clear_user and out of range. */
int bench_routine_in_libc(int r);

/* r is fault-tolerant (copy_user, clear_user; access "fault" in the registry):
   it returns the bytes it did not do, where the others return dst. */
int bench_routine_uaccess(int r);

/* r reads a source buffer (memcpy, memmove, copy_user; reads "src" in the
   registry).  0 for memset, clear_user and out of range. */
int bench_routine_reads_src(int r);

/* The best time per call, in ns, over SAMPLES samples of CALLS calls of fn, a
   memcpy/memmove (from s) or memset (0xa5) of r's kind, on d and n: the small
   probes' one loop (altmem-pagecross, altmem-untouched).  Called through a
   volatile pointer, so that no compiler knows the function. */
double bench_routine_best_ns(int r, void *fn, unsigned char *d, const unsigned char *s, size_t n, int samples,
                             int calls);

#endif
