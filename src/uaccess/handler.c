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

/*
 * The search, as the kernel's sort_extable / search_extable: the table is
 * sorted once, when the handler is installed, and each fault is a binary
 * search.
 *
 * Where the sorted table lives.  The section is read-only (and may share pages
 * with code: sorting it in place would need it made writable, maybe with the
 * code that sorts it), and sorting it when the library is built is not
 * possible for the static library: the program's link concatenates the
 * objects' tables in an order of its own (LTO, .text.unlikely first...), so
 * only a pass over the linked program (the kernel's scripts/sorttable) could,
 * and a program linked with libaltmem.a would need it in its own build.  So the
 * entries are decoded, once, into an array of this module (two addresses per
 * entry: in its own writable array the sorted copy needs no PC-relative form)
 * and sorted there.  The array is mapped when the handler is first installed
 * (altmem__os_map_anon), as large as the table (when this was written: 434
 * entries on x86_64, 277 on aarch64, 203 on riscv64, 328 on loongarch64, 16
 * bytes each; two pages; decode and sort about 1 us as linked, already in
 * order, 8 us shuffled, on x86_64): as a 64 KiB static array it lay in .bss
 * between the variables every start-up writes, one page fault more in every
 * process (docs/dropin.md, "Start-up cost").  Where the mapping fails, or the
 * table holds more than EXTABLE_SORTED_MAX entries, faults keep the linear
 * search, which is also what a fault sees while the sort is not finished
 * (another thread's first call, or a signal handler's copy_user interrupting
 * it): never a wait, never a lock.
 *
 * The bounds are this module's (hidden __start_/__stop_): a program with two
 * copies of altmem (a static one and libaltmem-preload.so, say) has two
 * tables, two sorted arrays and two handlers, each chaining to the one before
 * it for the faults that are not in its own table.
 */
#define EXTABLE_SORTED_MAX 4096

static struct altmem__extable_pair *extable_sorted;
static size_t extable_sorted_n;
/* 0 not sorted yet, 1 being sorted, 2 sorted (extable_sorted_n entries), 3
   could not (too large): linear search. */
static int extable_state;

void altmem__extable_decode(struct altmem__extable_pair *dst, const struct altmem__extable_entry *begin,
                            const struct altmem__extable_entry *end)
{
    for (const struct altmem__extable_entry *e = begin; e < end; e++, dst++) {
        dst->insn = ALTMEM__EXTABLE_ADDR(e, insn);
        dst->fixup = ALTMEM__EXTABLE_ADDR(e, fixup);
    }
}

/* a before b: by instruction address, then fix-up address (entries for the
   same instruction, never emitted, would still sort the same way each time). */
static int extable_before(const struct altmem__extable_pair *a, const struct altmem__extable_pair *b)
{
    if (a->insn != b->insn)
        return a->insn < b->insn;
    return a->fixup < b->fixup;
}

static void extable_swap(struct altmem__extable_pair *a, struct altmem__extable_pair *b)
{
    const struct altmem__extable_pair t = *a;
    *a = *b;
    *b = t;
}

static void extable_sift(struct altmem__extable_pair *t, size_t root, size_t n)
{
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n)
            return;
        if (child + 1 < n && extable_before(&t[child], &t[child + 1]))
            child++;
        if (!extable_before(&t[root], &t[child]))
            return;
        extable_swap(&t[root], &t[child]);
        root = child;
    }
}

/* Heapsort: in place, no allocation, O(n log n) whatever the order; a table
   already in order (the linker's, usually) costs one pass. */
void altmem__extable_sort(struct altmem__extable_pair *begin, struct altmem__extable_pair *end)
{
    const size_t n = (size_t)(end - begin);
    size_t i = 1;
    while (i < n && !extable_before(&begin[i], &begin[i - 1]))
        i++;
    if (i >= n)
        return;
    for (i = n / 2; i-- > 0;)
        extable_sift(begin, i, n);
    for (i = n - 1; i > 0; i--) {
        extable_swap(&begin[0], &begin[i]);
        extable_sift(begin, 0, i);
    }
}

uintptr_t altmem__extable_search(const struct altmem__extable_pair *begin, const struct altmem__extable_pair *end,
                                 uintptr_t pc)
{
    size_t lo = 0, hi = (size_t)(end - begin);
    const size_t n = hi;
    while (lo < hi) {   /* the first entry whose instruction is at or above pc */
        const size_t mid = lo + (hi - lo) / 2;
        if (begin[mid].insn < pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < n && begin[lo].insn == pc)
        return begin[lo].fixup;
    return 0;
}

/* Once per process (per module), on the installation path, before the
   handler is installed: the first caller sorts, the others go on at once. */
static void extable_prepare(void)
{
    int expected = 0;
    if (!__atomic_compare_exchange_n(&extable_state, &expected, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
        return;
    const size_t n = ((uintptr_t)__stop_altmem_extable - (uintptr_t)__start_altmem_extable) /
                     sizeof(struct altmem__extable_entry);
    if (n > EXTABLE_SORTED_MAX || !(extable_sorted = altmem__os_map_anon(n * sizeof *extable_sorted))) {
        __atomic_store_n(&extable_state, 3, __ATOMIC_RELEASE);
        return;
    }
    altmem__extable_decode(extable_sorted, __start_altmem_extable, __stop_altmem_extable);
    altmem__extable_sort(extable_sorted, extable_sorted + n);
    extable_sorted_n = n;
    __atomic_store_n(&extable_state, 2, __ATOMIC_RELEASE);
}

long altmem__extable_sorted(void)
{
    return __atomic_load_n(&extable_state, __ATOMIC_ACQUIRE) == 2 ? (long)extable_sorted_n : -1;
}

uintptr_t altmem__extable_fixup(uintptr_t pc)
{
    if (__atomic_load_n(&extable_state, __ATOMIC_ACQUIRE) == 2)
        return altmem__extable_search(extable_sorted, extable_sorted + extable_sorted_n, pc);
    for (const struct altmem__extable_entry *e = __start_altmem_extable; e < __stop_altmem_extable; e++)
        if (ALTMEM__EXTABLE_ADDR(e, insn) == pc)
            return ALTMEM__EXTABLE_ADDR(e, fixup);
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
    extable_prepare();
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
