/*
 * A tiny runtime for test programs that run without a C library (-ffreestanding
 * -nostdlib): the freestanding flavour of altmem must be tested the way its users
 * run it, and Debian has no LoongArch C library at all.  fs_start.c is the
 * start-up code (_start, per architecture); this is the rest: system calls
 * through src/os/raw_syscall.h, a small formatted print, guarded mappings, a
 * fault reporter, fork/wait for tests that must die, and the memcpy/memset/
 * memmove/memcmp that compilers may call even in freestanding code.
 */
#ifndef ALTMEM_FS_RT_H
#define ALTMEM_FS_RT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* Defined by the test program; fs_start.c calls it with what the kernel put on
   the initial stack and exits with its return value. */
int fs_main(int argc, char **argv, char **envp, unsigned long *auxv);

/* Exit status of a process whose fault handler reported a SIGSEGV or SIGBUS. */
#define FS_EXIT_FAULT 86

__attribute__((noreturn)) void fs_exit(int status);
long fs_write(int fd, const void *buf, size_t n);

/* printf subset to standard output: %d %i %u %x %s %c %p %%, with flags '-', '+'
   and '0', a width, and the l, ll, z length modifiers.  fs_eprintf: the same to
   standard error. */
__attribute__((format(printf, 1, 2))) void fs_printf(const char *fmt, ...);
__attribute__((format(printf, 1, 2))) void fs_eprintf(const char *fmt, ...);
void fs_vprintf(int fd, const char *fmt, va_list ap);

size_t fs_strlen(const char *s);
int fs_strcmp(const char *a, const char *b);
int fs_strncmp(const char *a, const char *b, size_t n);
/* Position of needle in hay, or NULL. */
const char *fs_strstr(const char *hay, const char *needle);

/* Set by fs_start.c before fs_main runs. */
extern char **fs_envp;
extern unsigned long *fs_auxv;
const char *fs_getenv(const char *name);
/* Value of auxv entry `type`, or 0. */
unsigned long fs_getauxval(unsigned long type);
/* AT_PAGESZ (the emulated page size under qemu-user: 16 KiB for loongarch64). */
size_t fs_page_size(void);

/* Milliseconds of CLOCK_MONOTONIC. */
uint64_t fs_now_ms(void);

/* An anonymous read-write mapping of at least `size` bytes (a multiple of the
   page size) with a PROT_NONE page right before and right after it: an access
   one byte outside faults.  Exits on failure. */
unsigned char *fs_map_guarded(size_t size);
/* mprotect with Linux PROT_* values (R 1, W 2); exits on failure. */
void fs_protect(void *addr, size_t len, int prot);
#define FS_PROT_NONE 0
#define FS_PROT_READ 1
#define FS_PROT_WRITE 2

/* SIGSEGV and SIGBUS print "FAULT (...) at <address>", then call `describe`
   (which may print the case in flight; it must only use fs_printf), then exit
   with FS_EXIT_FAULT. */
void fs_catch_faults(void (*describe)(uintptr_t addr));

/* fork(2) and wait4(2).  fs_wait returns the raw status word: exited with code
   (status >> 8) & 0xff when (status & 0x7f) == 0, else killed by signal
   status & 0x7f. */
int fs_fork(void);
int fs_wait(int pid, int *status);

/* What compilers may emit calls to, even with -ffreestanding (GCC's manual says
   so): plain byte loops, never altmem's routines, which are under test. */
void *memcpy(void *__restrict dst, const void *__restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);

#endif
