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
#include <stdint.h>

/* Value of auxv entry `type`; *found is set to 0 if there is no such entry. */
unsigned long altmem__os_getauxval(unsigned long type, int *found);

/* The kernel's page size (AT_PAGESZ: 4 KiB on x86_64; 4, 16 or 64 KiB on
   aarch64 kernels), 4096 where the vector does not give a power of two. */
static inline size_t altmem__os_page_size(void)
{
    int found;
    unsigned long p = altmem__os_getauxval(6 /* AT_PAGESZ */, &found);
    return found && p && !(p & (p - 1)) ? (size_t)p : 4096;
}

/* Value of environment variable `name`, or NULL. */
const char *altmem__os_getenv(const char *name);

/* Reads a whole small regular file into *buf (at most cap bytes): 0 and *len, or
   -errno (-ENOENT: not there; -ENOSYS: this flavour reads no file), or
   ALTMEM__READ_NOT_REGULAR (a directory, FIFO, device...), ALTMEM__READ_TOO_BIG
   (more than cap bytes), ALTMEM__READ_INSECURE (with secure set: not owned by
   root, or writable by group or others).  Never blocks on a FIFO.  With *buf
   NULL, cap bytes are mapped (altmem__os_map_anon) only once the file is open,
   and stay the caller's: most processes have no profile and map nothing. */
#define ALTMEM__READ_NOT_REGULAR 1
#define ALTMEM__READ_TOO_BIG 2
#define ALTMEM__READ_INSECURE 3
int altmem__os_read_file(const char *path, int secure, char **buf, size_t cap, size_t *len);

/* Zeroed private read-write pages for len bytes: their address, or NULL.  For
   the large buffers few processes touch (the profile's text, the sorted
   exception table): as static arrays they lay between the small variables every
   start-up writes and spread those over more pages, a page fault each. */
void *altmem__os_map_anon(size_t len);

/* A profile's text handed over by the program (altmem_init_freestanding_profile),
   or NULL: the hosted flavour has none. */
const char *altmem__os_profile_string(void);
/* Freestanding flavour only: the vectors and profile text the program's
   start-up code handed to altmem_init_freestanding*() (any may be NULL). */
void altmem__os_set_vectors(char *const *envp, const unsigned long *auxv, const char *profile);

/* Writes n bytes to standard error; errors ignored (diagnostics only). */
void altmem__os_write_err(const char *buf, size_t n);

/* riscv_hwprobe(2): 0 or -errno (-ENOSYS where the syscall does not exist). */
long altmem__os_riscv_hwprobe(void *pairs, size_t pair_count);

/* The kernel's release (uname(2)'s utsname.release, e.g. "6.8.0-45-generic")
   into buf, NUL-terminated: 0, or -errno. */
int altmem__os_uname_release(char *buf, size_t cap);

/* x86: the CPUID leaf (leaf, subleaf) as the C library read it at start-up, into
   regs (EAX, EBX, ECX, EDX): 1, or 0 where it keeps no such leaf (any other
   architecture, flavour or C library).  glibc >= 2.33 keeps leaves 1, 7.0, 7.1,
   0x80000001, 0x80000007 and 0x80000008 (__x86_get_cpuid_feature_leaf); in a
   virtual machine each CPUID instruction exits to the hypervisor (3.6 us on the
   Zen 4 guest, 7.1 us on the Intel 6/167 one). */
int altmem__os_x86_cpuid_kept(unsigned leaf, unsigned subleaf, unsigned regs[4]);

/* mprotect(2) with Linux PROT_* values (R 1, W 2, X 4): 0 or -errno. */
int altmem__os_mprotect(void *addr, size_t len, int prot);

/* riscv_flush_icache(2) over [start, end) for all threads: 0 or -errno. */
long altmem__os_riscv_flush_icache(void *start, void *end);

/* ---- Faults (src/uaccess/handler.c) ---- */

typedef void altmem__fault_fn(int sig, void *info, void *ucontext);

/* Installs fn for SIGSEGV and SIGBUS (SA_SIGINFO | SA_ONSTACK), remembering the
   disposition that was there, unless fn is installed already: 0 or -errno. */
int altmem__os_fault_install(altmem__fault_fn *fn);

/* A fault that is not ours: calls the remembered handler as the kernel would
   have (its mask, SA_SIGINFO, SA_RESETHAND), or restores the default action so
   that the re-executed access (or, for a signal sent by a process, the signal
   raised again) has the effect it would have had without us. */
void altmem__os_fault_chain(int sig, void *info, void *ucontext);

/* The interrupted program counter inside ucontext, to read and rewrite. */
uintptr_t *altmem__os_fault_pc(void *ucontext);

/* info's si_code: > 0 when the kernel raised the signal for an access. */
int altmem__os_fault_code(void *info);

/* The faulting address of one of ours (si_addr), kept for the fix-up of the
   calling thread: altmem__os_fault_keep records it (in the handler), and
   altmem__os_fault_kept returns the last one recorded and forgets it (0: none).
   Per thread in the hosted flavour (initial-exec TLS: no allocation in the
   handler); one slot for the process in the freestanding one, which sets up no
   thread pointer (a fault in another thread meanwhile can only make the fix-up
   claim fewer extra bytes, or bytes that already hold the right values:
   uaccess_bytes.c). */
void altmem__os_fault_keep(void *info);
uintptr_t altmem__os_fault_kept(void);

#endif
