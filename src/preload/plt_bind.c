/*
 * The preload's binding: each caller's PLT slot for memcpy (and the other
 * routines) is given the bound variant's address, so a program's call takes
 * the path a call of the C library's memcpy takes (`call memcpy@PLT` ->
 * `jmp *slot` -> the variant) and no code is rewritten.  The entry stubs stay
 * on their pointers for every call that does not come through a PLT slot.
 *
 * Assumptions: an ELF64 dynamic loader with dl_iterate_phdr and dlsym (glibc,
 * musl); PLT relocations of type RELA (every architecture with an entry.S);
 * called once, from altmem_init(), after the pointers are bound and before
 * any other thread can be running code of this library for the first time.
 *
 * What a slot may be given, and why it is the same call:
 * - a slot that holds this library's stub: the loader bound it here already
 *   (BIND_NOW, or a lazy slot called once): the stub jumps to the variant;
 * - a lazy slot not yet resolved (it holds an address inside its own object's
 *   PLT): the loader would resolve it to whatever dlsym(RTLD_DEFAULT) finds
 *   for its name, so it is given the variant only when that is this library's
 *   stub (not when the program or an earlier preload defines it first, nor
 *   when this library was dlopen()ed);
 * - nothing else: a slot of an object that defines the name itself, a slot
 *   bound elsewhere, the other relocation types.  GLOB_DAT slots (-fno-plt
 *   calls, and function pointers) stay too: they are also a function's
 *   address, which must be the same in every object.
 * Slots in a page the loader made read-only (RELRO, BIND_NOW objects) are
 * written inside one mprotect round per object; where that is refused the slot
 * stays, and is still right.  Under LD_AUDIT, LD_PROFILE or LD_BIND_NOT no
 * slot is written: the loader reports or re-resolves the calls there, as asked.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>

#include <arch.h> /* ALTMEM__ARCH_PLT_SLOT_RELOC */

#include "altmem.h"
#include "lib/text.h"
#include "os/os.h"
#include "registry.h"
#include "select.h"

/* The names whose PLT slots are bound: per routine its own name and the C
   library's (registry.def: "none" where it has none). */
struct plt_name {
    const char *name;
    int routine;
    void *stub;        /* this library's definition: the stub             */
    int lazy;          /* a lazy slot asks for it: look it up              */
    int ours;          /* dlsym(RTLD_DEFAULT) finds the stub               */
};

#define ROUTINE(routine, libc_name, access, reads) +2
enum { NAME_COUNT = 0
#include "registry.def"
};
#undef ROUTINE

struct plt_bind {
    int writing;                               /* 0: only note the lazy slots' names */
    struct plt_name names[NAME_COUNT];
    int count;
    void *variant[ALTMEM_ROUTINE_COUNT];
    const void *self;                          /* an address inside this library */
    unsigned slots[ALTMEM_ROUTINE_COUNT];      /* slots given the variant         */
    unsigned objects, relro_rounds, refused;
};

static int same_name(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

/* The flags of the loaded segment that holds addr, or -1: not this object's. */
static long segment_flags(const struct dl_phdr_info *info, uintptr_t addr)
{
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && addr >= start && addr - start < ph->p_memsz)
            return (long)ph->p_flags;
    }
    return -1;
}

/* One object's PLT relocations: which of its slots to give which variant. */
static int bind_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct plt_bind *b = data;
    const ElfW(Dyn) *dyn = NULL;
    uintptr_t relro_start = 0, relro_end = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_DYNAMIC)
            dyn = (const ElfW(Dyn) *)(info->dlpi_addr + ph->p_vaddr);
        if (ph->p_type == PT_GNU_RELRO) {
            /* What the loader protects: whole pages, the last partial one not. */
            relro_start = (info->dlpi_addr + ph->p_vaddr) & ~(uintptr_t)4095;
            relro_end = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz) & ~(uintptr_t)4095;
        }
    }
    if (!dyn || segment_flags(info, (uintptr_t)b->self) >= 0)
        return 0;
    const ElfW(Rela) *rel = NULL;
    const ElfW(Sym) *symtab = NULL;
    const char *strtab = NULL;
    size_t relsz = 0;
    long pltrel = 0;
    for (; dyn->d_tag != DT_NULL; dyn++) {
        switch (dyn->d_tag) {
        case DT_JMPREL: rel = (const ElfW(Rela) *)dyn->d_un.d_ptr; break;
        case DT_PLTRELSZ: relsz = dyn->d_un.d_val; break;
        case DT_PLTREL: pltrel = (long)dyn->d_un.d_val; break;
        case DT_SYMTAB: symtab = (const ElfW(Sym) *)dyn->d_un.d_ptr; break;
        case DT_STRTAB: strtab = (const char *)dyn->d_un.d_ptr; break;
        }
    }
    if (!rel || !symtab || !strtab || pltrel != DT_RELA)
        return 0;
    /* glibc relocates these entries to run-time addresses where the dynamic
       section is writable; musl, and glibc where it is read-only (riscv64),
       leave them as link-time addresses, which lie below the load address. */
    if ((uintptr_t)rel < info->dlpi_addr) {
        rel = (const ElfW(Rela) *)((uintptr_t)rel + info->dlpi_addr);
        symtab = (const ElfW(Sym) *)((uintptr_t)symtab + info->dlpi_addr);
        strtab += info->dlpi_addr;
    }

    int opened = 0, refused = 0, bound = 0;
    for (size_t i = 0; i < relsz / sizeof *rel; i++) {
        if (ELF64_R_TYPE(rel[i].r_info) != ALTMEM__ARCH_PLT_SLOT_RELOC)
            continue;
        const ElfW(Sym) *sym = &symtab[ELF64_R_SYM(rel[i].r_info)];
        if (sym->st_shndx != SHN_UNDEF)
            continue; /* the object's own definition may be bound to itself */
        const char *name = strtab + sym->st_name;
        struct plt_name *n = NULL;
        for (int k = 0; k < b->count && !n; k++)
            if (same_name(b->names[k].name, name))
                n = &b->names[k];
        if (!n)
            continue;
        void **slot = (void **)(info->dlpi_addr + rel[i].r_offset);
        long flags = segment_flags(info, (uintptr_t)slot);
        if (flags < 0 || !(flags & PF_W) || ((uintptr_t)slot & (sizeof *slot - 1)))
            continue;
        void *now = __atomic_load_n(slot, __ATOMIC_RELAXED);
        if (now != n->stub && segment_flags(info, (uintptr_t)now) < 0)
            continue; /* bound elsewhere */
        if (now != n->stub && !b->writing)
            n->lazy = 1; /* not yet resolved: where would the loader bind it? */
        if (!b->writing || (now != n->stub && !n->ours))
            continue;
        uintptr_t page = (uintptr_t)slot & ~(uintptr_t)4095;
        if (page >= relro_start && page < relro_end && !opened) {
            /* One round for all the object's read-only slots: the loader
               left its RELRO span read-only as a whole. */
            if (refused)
                continue;
            if (altmem__os_mprotect((void *)relro_start, relro_end - relro_start, PROT_READ | PROT_WRITE) != 0) {
                refused = 1;
                b->refused++;
                continue;
            }
            opened = 1;
            b->relro_rounds++;
        }
        __atomic_store_n(slot, b->variant[n->routine], __ATOMIC_RELAXED);
        b->slots[n->routine]++;
        bound = 1;
    }
    if (opened)
        altmem__os_mprotect((void *)relro_start, relro_end - relro_start, PROT_READ);
    b->objects += bound;
    return 0;
}

static int is_set(const char *name)
{
    const char *v = altmem__os_getenv(name);
    return v && v[0];
}

int altmem__plt_bind(const void *const *variant, struct altmem__plt_report *out)
{
    if (is_set("LD_AUDIT") || is_set("LD_PROFILE") || is_set("LD_BIND_NOT"))
        return -1;
    struct plt_bind b = {.count = 0};
    int r = 0;
#define ROUTINE(routine, libc_name, access, reads)                                                 \
    b.variant[r] = (void *)variant[r];                                                                \
    b.names[b.count++] = (struct plt_name){"altmem_" #routine, r, (void *)altmem_##routine, 0, 0}; \
    if (!same_name(#libc_name, "none"))                                                            \
        b.names[b.count++] = (struct plt_name){#libc_name, r, (void *)altmem_##routine, 0, 0};     \
    r++;
#include "registry.def"
#undef ROUTINE
    b.self = (const void *)altmem__plt_bind;
    /* First which names lazy slots ask for, then the lookups, outside
       dl_iterate_phdr: it holds a loader lock that dlopen takes after the one
       dlsym takes, so dlsym inside its callback could deadlock against a
       dlopen in another thread. */
    dl_iterate_phdr(bind_object, &b);
    for (int k = 0; k < b.count; k++)
        b.names[k].ours = b.names[k].lazy && dlsym(RTLD_DEFAULT, b.names[k].name) == b.names[k].stub;
    b.writing = 1;
    dl_iterate_phdr(bind_object, &b);
    for (int i = 0; i < ALTMEM_ROUTINE_COUNT; i++)
        out->slots[i] = b.slots[i];
    out->objects = b.objects;
    out->relro_rounds = b.relro_rounds;
    out->refused = b.refused;
    return 0;
}
