/*
 * plt_slots EXPECT LATE_LIB
 *
 * Run under libaltmem-preload.so: what the program's and its libraries' PLT
 * slots for memcpy, memmove and memset hold after start-up
 * (src/preload/plt_bind.c), and that every call through them is right.
 *
 *   EXPECT variant   the program's slots and those of libaltmem-plt-lib.so
 *                    (linked) hold the bound variant; the slots of LATE_LIB,
 *                    dlopen()ed now, are resolved by the loader to the stub;
 *                    altmem_binding says "PLT slots".  Where the program's
 *                    slot lies in its RELRO span (BIND_NOW on x86_64 and
 *                    aarch64; riscv64's linker leaves the GOT after it), its
 *                    page must be read-only again.
 *          stub      every slot holds the stub (bind=patch, bind=pointer);
 *          refused   the program is BIND_NOW and mprotect(PROT_WRITE) is
 *                    refused: its read-only slots keep the stub, the (lazy)
 *                    library's hold the variant, the note says "refused";
 *          noplt     the program is built with -fno-plt: no PLT slots of its own,
 *                    its GOT slots keep the stub, so the stubs must be patched
 *                    to the variant (x86_64: the jmp read back), the library's
 *                    PLT slots still hold the variant;
 *          dlopened  LATE_LIB is libaltmem-preload.so itself, dlopen()ed
 *                    (RTLD_GLOBAL) before any call: it must write no slot,
 *                    every slot resolves to the C library's routines;
 *          own       the program defines memcpy itself (built with
 *                    -DOWN_MEMCPY -rdynamic): the library's memcpy slot must
 *                    reach the program's, never a variant, and the calls
 *                    counted there prove it.
 * Then memcpy, memmove and memset through each object's slots, at sizes 0-600
 * and 8 alignments each, against byte loops, with sentinels around.
 * Prints "plt_slots EXPECT: passed" or the failures.
 */
#define _GNU_SOURCE
#include <altmem.h>
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *plt_lib_copy(void *dst, const void *src, size_t n);
void *plt_lib_move(void *dst, const void *src, size_t n);
void *plt_lib_set(void *dst, int c, size_t n);

static int failures;
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            printf("FAIL: " __VA_ARGS__);                                                          \
            printf("\n");                                                                          \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

#ifdef OWN_MEMCPY
static unsigned own_calls;
/* Exported (-rdynamic): the library's memcpy slot must come here. */
void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    own_calls++;
    unsigned char *d = dst;
    const unsigned char *s = src;
    while (n--)
        *d++ = *s++;
    return dst;
}
#endif

/* The PLT slot for NAME in the object that contains ADDR, or NULL. */
struct slot_query {
    uintptr_t inside;
    const char *name;
    void **slot;
    int in_relro; /* the slot's page lies in what the loader made read-only */
};

static int find_slot(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct slot_query *q = data;
    int mine = 0;
    const ElfW(Dyn) *dyn = NULL;
    uintptr_t relro_lo = 0, relro_hi = 0, page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && q->inside >= lo && q->inside < lo + ph->p_memsz)
            mine = 1;
        if (ph->p_type == PT_DYNAMIC)
            dyn = (const ElfW(Dyn) *)(info->dlpi_addr + ph->p_vaddr);
        if (ph->p_type == PT_GNU_RELRO) {
            relro_lo = lo & ~(page - 1);
            relro_hi = (lo + ph->p_memsz) & ~(page - 1);
        }
    }
    if (!mine || !dyn)
        return 0;
    uintptr_t jmprel = 0, symtab = 0, strtab = 0;
    size_t relsz = 0;
    for (; dyn->d_tag != DT_NULL; dyn++) {
        if (dyn->d_tag == DT_JMPREL)
            jmprel = dyn->d_un.d_ptr;
        else if (dyn->d_tag == DT_PLTRELSZ)
            relsz = dyn->d_un.d_val;
        else if (dyn->d_tag == DT_SYMTAB)
            symtab = dyn->d_un.d_ptr;
        else if (dyn->d_tag == DT_STRTAB)
            strtab = dyn->d_un.d_ptr;
    }
    if (jmprel < info->dlpi_addr) { /* not relocated by this loader */
        jmprel += info->dlpi_addr;
        symtab += info->dlpi_addr;
        strtab += info->dlpi_addr;
    }
    const ElfW(Rela) *rel = (const ElfW(Rela) *)jmprel;
    const ElfW(Sym) *sym = (const ElfW(Sym) *)symtab;
    for (size_t i = 0; i < relsz / sizeof *rel; i++)
        if (!strcmp((const char *)strtab + sym[ELF64_R_SYM(rel[i].r_info)].st_name, q->name))
            q->slot = (void **)(info->dlpi_addr + rel[i].r_offset);
    uintptr_t slot_page = (uintptr_t)q->slot & ~(page - 1);
    q->in_relro = q->slot && slot_page >= relro_lo && slot_page < relro_hi;
    return 1;
}

static struct slot_query slot_of(const void *inside, const char *name)
{
    struct slot_query q = {(uintptr_t)inside, name, NULL, 0};
    dl_iterate_phdr(find_slot, &q);
    return q;
}

/* "r--p" or "rw-p" of the mapping that holds addr (/proc/self/maps). */
static void page_perms(const void *addr, char out[5])
{
    strcpy(out, "????");
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        char perms[5];
        if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) == 3 && (uintptr_t)addr >= lo && (uintptr_t)addr < hi) {
            memcpy(out, perms, 5);
            break;
        }
    }
    fclose(f);
}

typedef void *copy_fn(void *, const void *, size_t);
typedef void *set_fn(void *, int, size_t);

static void *main_copy(void *d, const void *s, size_t n)
{
    return memcpy(d, s, n);
}
static void *main_move(void *d, const void *s, size_t n)
{
    return memmove(d, s, n);
}
static void *main_set(void *d, int c, size_t n)
{
    return memset(d, c, n);
}

enum { SPAN = 640 + 64, PAD = 32 };

static void fill(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        p[i] = (unsigned char)(seed >> 16);
    }
}

/* Sizes 0-600 x alignments 0-7 through one object's three calls. */
static void sweep(const char *who, copy_fn *cpy, copy_fn *mov, set_fn *set)
{
    static unsigned char buf[PAD + SPAN + PAD], want[PAD + SPAN + PAD], src[SPAN];
    unsigned bad = 0;
    for (size_t n = 0; n <= 600; n += n < 70 ? 1 : 29) {
        for (size_t al = 0; al < 8; al++) {
            unsigned char *d = buf + PAD + al;
            fill(src, sizeof src, (unsigned)(n * 8 + al));
            fill(buf, sizeof buf, (unsigned)(n + 77));
            for (size_t i = 0; i < sizeof buf; i++)
                want[i] = buf[i];
            for (size_t i = 0; i < n; i++)
                want[PAD + al + i] = src[(al * 3) % 8 + i];
            if (cpy(d, src + (al * 3) % 8, n) != d)
                bad |= 1;
            for (size_t i = 0; i < sizeof buf; i++)
                bad |= (buf[i] != want[i]) << 1;
            /* overlapping, both directions */
            for (size_t i = 0; i < n; i++)
                want[PAD + al + 3 + i] = buf[PAD + al + i];
            if (mov(d + 3, d, n) != d + 3)
                bad |= 4;
            for (size_t i = 0; i < sizeof buf; i++)
                bad |= (buf[i] != want[i]) << 3;
            for (size_t i = 0; i < n; i++)
                want[PAD + al + i] = want[PAD + al + 5 + i];
            if (mov(d, d + 5, n) != d)
                bad |= 16;
            for (size_t i = 0; i < sizeof buf; i++)
                bad |= (buf[i] != want[i]) << 5;
            for (size_t i = 0; i < n; i++)
                want[PAD + al + i] = (unsigned char)(0xa5 + n);
            if (set(d, (int)(0xa5 + n) | 0x300, n) != d)
                bad |= 64;
            for (size_t i = 0; i < sizeof buf; i++)
                bad |= (buf[i] != want[i]) << 7;
        }
    }
    CHECK(!bad, "%s: calls wrong (bits %#x: 1/4/16/64 return value, 2/8/32/128 bytes or sentinels)", who, bad);
}

/* The preload dlopen()ed (RTLD_GLOBAL), not preloaded: the C library's memcpy
   stays first in the global scope, so no lazy slot may be given a variant. */
static int dlopened(const char *preload)
{
    void *h = dlopen(preload, RTLD_NOW | RTLD_GLOBAL);
    if (!h) {
        printf("FAIL: dlopen %s: %s\n", preload, dlerror());
        return 1;
    }
    __typeof__(altmem_binding) *binding = (__typeof__(altmem_binding) *)dlsym(h, "altmem_binding");
    struct altmem_binding_info info;
    CHECK(binding && binding(ALTMEM_MEMCPY, &info) == 0, "no altmem_binding in %s", preload);
    static unsigned char a[64], b[64];
    main_copy(a, b, 8), main_move(a, b, 8), main_set(a, 0, 8);
    plt_lib_copy(a, b, 8), plt_lib_move(a, b, 8), plt_lib_set(a, 0, 8);
    static const char *const names[3] = {"memcpy", "memmove", "memset"};
    for (int r = 0; r < 3; r++) {
        void *libc = dlsym(RTLD_DEFAULT, names[r]);
        struct slot_query in_main = slot_of((const void *)main_copy, names[r]);
        struct slot_query in_lib = slot_of((const void *)plt_lib_copy, names[r]);
        void *m = in_main.slot ? *in_main.slot : NULL, *l = in_lib.slot ? *in_lib.slot : NULL;
        printf("%-8s %s: global %p (%s); slots: program %p, library %p\n", names[r], binding ? info.bound_note : "-",
               libc, libc == dlsym(h, names[r]) ? "the preload's" : "not the preload's", m, l);
        CHECK(libc != dlsym(h, names[r]), "%s: the global scope finds the dlopened preload first", names[r]);
        CHECK(m == libc && l == libc, "%s: a slot is not the C library's", names[r]);
    }
    if (binding)
        CHECK(!strncmp(info.bound_note, "0 PLT slots", 11), "the dlopened preload wrote slots: %s", info.bound_note);
    sweep("program", main_copy, main_move, main_set);
    sweep("library", plt_lib_copy, plt_lib_move, plt_lib_set);
    printf("plt_slots dlopened: %s\n", failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: plt_slots variant|stub|refused|own|noplt|dlopened LATE_LIB\n");
        return 2;
    }
    const char *expect = argv[1];
    if (!strcmp(expect, "dlopened"))
        return dlopened(argv[2]);
    __typeof__(altmem_binding) *binding = (__typeof__(altmem_binding) *)dlsym(RTLD_DEFAULT, "altmem_binding");
    __typeof__(altmem_variant) *variant = (__typeof__(altmem_variant) *)dlsym(RTLD_DEFAULT, "altmem_variant");
    __typeof__(altmem_variant_count) *count =
        (__typeof__(altmem_variant_count) *)dlsym(RTLD_DEFAULT, "altmem_variant_count");
    if (!binding || !variant || !count) {
        printf("FAIL: no altmem_binding: not run under libaltmem-preload.so\n");
        return 1;
    }

    /* Calls first: a lazy slot is resolved by its first call. */
    static unsigned char a[64], b[64];
    main_copy(a, b, 8), main_move(a, b, 8), main_set(a, 0, 8);
    plt_lib_copy(a, b, 8), plt_lib_move(a, b, 8), plt_lib_set(a, 0, 8);
    void *late = dlopen(argv[2], RTLD_NOW);
    CHECK(late, "dlopen %s: %s", argv[2], dlerror());
    copy_fn *late_copy = late ? (copy_fn *)dlsym(late, "plt_lib_copy") : NULL;
    copy_fn *late_move = late ? (copy_fn *)dlsym(late, "plt_lib_move") : NULL;
    set_fn *late_set = late ? (set_fn *)dlsym(late, "plt_lib_set") : NULL;
    if (late_copy && late_move && late_set)
        late_copy(a, b, 8), late_move(a, b, 8), late_set(a, 0, 8);

    static const char *const names[3] = {"memcpy", "memmove", "memset"};
    for (int r = 0; r < 3; r++) {
        struct altmem_binding_info info;
        binding((enum altmem_routine)r, &info);
        void *want_variant = NULL;
        for (size_t i = 0; i < count(); i++) {
            struct altmem_variant_info v;
            if (variant(i, &v) == 0 && (int)v.routine == r && !strcmp(v.name, info.variant))
                want_variant = (void *)v.fn.memcpy;
        }
        void *stub = dlsym(RTLD_DEFAULT, names[r]);
        struct slot_query in_main = slot_of((const void *)main_copy, names[r]);
        struct slot_query in_lib = slot_of((const void *)plt_lib_copy, names[r]);
        struct slot_query in_late = slot_of(late_copy ? (const void *)late_copy : NULL, names[r]);
        void *m = in_main.slot ? *in_main.slot : NULL, *l = in_lib.slot ? *in_lib.slot : NULL;
        void *t = in_late.slot ? *in_late.slot : NULL;
        printf("%-8s bound to %s at %p by %s (%s); stub %p; slots: program %p, library %p, dlopened %p\n",
               names[r], info.variant, want_variant, info.bound_by, info.bound_note, stub, m, l, t);
        CHECK(in_lib.slot && in_late.slot, "%s: a library has no PLT slot for it", names[r]);
#ifdef OWN_MEMCPY
        CHECK(t == (r == 0 ? (void *)memcpy : stub), "%s: the dlopened library's slot is not %s", names[r],
              r == 0 ? "the program's memcpy" : "the stub");
#else
        CHECK(t == stub, "%s: the dlopened library's slot is not the stub", names[r]);
#endif
        if (!strcmp(expect, "variant")) {
            CHECK(!strcmp(info.bound_by, "PLT slots"), "%s: bound by %s, not PLT slots", names[r], info.bound_by);
            CHECK(want_variant && m == want_variant, "%s: the program's slot is not the variant", names[r]);
            CHECK(want_variant && l == want_variant, "%s: the library's slot is not the variant", names[r]);
            if (in_main.in_relro) {
                char perms[5];
                page_perms(in_main.slot, perms);
                CHECK(perms[1] == '-', "%s: the program's slot page is %s after binding, not read-only", names[r],
                      perms);
            }
        } else if (!strcmp(expect, "stub")) {
            CHECK(m == stub && l == stub, "%s: a slot is not the stub", names[r]);
        } else if (!strcmp(expect, "refused")) {
            /* The program (BIND_NOW) keeps the stub; the library (lazy) needs no mprotect. */
            CHECK(m == stub, "%s: the program's read-only slot is not the stub", names[r]);
            CHECK(want_variant && l == want_variant, "%s: the library's slot is not the variant", names[r]);
            CHECK(strstr(info.bound_note, "refused"), "%s: the note does not say refused", names[r]);
        } else if (!strcmp(expect, "noplt")) {
            /* Built with -fno-plt: its calls go through GOT slots, which keep
               the stub (a function's address), so the stubs are patched too. */
            CHECK(!in_main.slot, "%s: the -fno-plt program has a PLT slot for it", names[r]);
            CHECK(want_variant && l == want_variant, "%s: the library's slot is not the variant", names[r]);
            CHECK(strstr(info.bound_note, "stubs patched too"), "%s: the note does not say the stubs were patched",
                  names[r]);
#if defined(__x86_64__)
            /* A jmp to the variant, or (copied, src/arch/x86_64/copy.h) the
               variant's own first instruction bytes: every x86_64 entry opens
               with a register move or compare, which a copy keeps as it is. */
            const unsigned char *st = stub, *var = want_variant;
            int32_t rel32;
            memcpy(&rel32, st + 1, 4);
            CHECK((st[0] == 0xe9 && (void *)(st + 5 + rel32) == want_variant) ||
                      (var && !memcmp(st, var, 3) && st[0] != 0xe9),
                  "%s: the stub neither jumps to the variant nor holds its code (%02x)", names[r], st[0]);
#endif
        } else if (!strcmp(expect, "own")) {
#ifdef OWN_MEMCPY
            if (r == 0) {
                CHECK(l == (void *)memcpy, "memcpy: the library's slot is not the program's memcpy");
                CHECK(l != want_variant, "memcpy: the library's slot is the variant");
            } else {
                CHECK(l == want_variant, "%s: the library's slot is not the variant", names[r]);
            }
#else
            CHECK(0, "own: build with -DOWN_MEMCPY");
#endif
        } else {
            fprintf(stderr, "plt_slots: unknown expectation %s\n", expect);
            return 2;
        }
    }

    sweep("program", main_copy, main_move, main_set);
    sweep("library", plt_lib_copy, plt_lib_move, plt_lib_set);
    if (late_copy && late_move && late_set)
        sweep("dlopened library", late_copy, late_move, late_set);
#ifdef OWN_MEMCPY
    unsigned before = own_calls;
    plt_lib_copy(a, b, 3);
    CHECK(own_calls == before + 1, "own: the library's memcpy did not reach the program's");
#endif
    printf("plt_slots %s: %s\n", expect, failures ? "FAILED" : "passed");
    return failures ? 1 : 0;
}
