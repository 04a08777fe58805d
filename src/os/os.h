/*
 * The few things altmem asks of the operating system, behind one interface.
 *
 * Everything else in src/ (entry points, selection, tunables, detection, the
 * variants) calls no C library function, so a freestanding build only has to
 * provide this file's functions.  Flavours: os_libc.c (getauxval, environ,
 * write(2), syscall(2)).
 */
#ifndef ALTMEM_OS_H
#define ALTMEM_OS_H

#include <stddef.h>

/* Value of auxv entry `type`; *found is set to 0 if there is no such entry. */
unsigned long altmem__os_getauxval(unsigned long type, int *found);

/* Value of environment variable `name`, or NULL. */
const char *altmem__os_getenv(const char *name);

/* Writes n bytes to standard error; errors ignored (diagnostics only). */
void altmem__os_write_err(const char *buf, size_t n);

/* riscv_hwprobe(2): 0 or -errno (-ENOSYS where the syscall does not exist). */
long altmem__os_riscv_hwprobe(void *pairs, size_t pair_count);

/* mprotect(2) with Linux PROT_* values (R 1, W 2, X 4): 0 or -errno. */
int altmem__os_mprotect(void *addr, size_t len, int prot);

/* riscv_flush_icache(2) over [start, end) for all threads: 0 or -errno. */
long altmem__os_riscv_flush_icache(void *start, void *end);

#endif
