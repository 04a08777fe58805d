/*
 * What the benchmarks ask of a routine, answered from the registry
 * (src/registry.def: each ROUTINE's C-library name, access and reads fields),
 * never from where it stands in enum altmem_routine.
 */
#ifndef ALTMEM_BENCH_ROUTINES_H
#define ALTMEM_BENCH_ROUTINES_H

/* r has a C-library counterpart (memcpy, memmove, memset): what `altmem bench`
   times against the C library.  0 for copy_user, clear_user and out of range. */
int bench_routine_in_libc(int r);

/* r is fault-tolerant (copy_user, clear_user; access "fault" in the registry):
   it returns the bytes it did not do, where the others return dst. */
int bench_routine_uaccess(int r);

/* r reads a source buffer (memcpy, memmove, copy_user; reads "src" in the
   registry).  0 for memset, clear_user and out of range. */
int bench_routine_reads_src(int r);

#endif
