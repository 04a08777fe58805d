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
 *   when this library was dlopen()ed).  Loaded at start-up ahead of the C
 *   library, this library is first in the lookup scope after the objects
 *   dl_iterate_phdr lists before it, so their GNU hash tables answer without
 *   dlsym; anywhere else (an object before it that defines memcpy, or has no
 *   GNU hash table) dlsym is asked;
 * - nothing else: a slot of an object that defines the name itself, a slot
 *   bound elsewhere, the other relocation types, any slot of an object after
 *   this library that defines memcpy (the C library, whose own calls do not
 *   come through its PLT: walking its relocations cost more than all the rest
 *   of start-up's binding).  GLOB_DAT slots (-fno-plt
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
    int other;         /* a relocation outside the PLT names it            */
    int ours;          /* dlsym(RTLD_DEFAULT) finds the stub               */
    int shadowed;      /* an object before this library defines it         */
    uint32_t hash;     /* its GNU hash                                     */
};

#define ROUTINE(routine, libc_name, access, reads) +2
enum { NAME_COUNT = 0
#include "registry.def"
};
#undef ROUTINE

struct plt_bind {
    int writing;                               /* 0: only note the lazy slots' names */
    int debug;                                 /* a line per slot written (debug=1)  */
    uintptr_t page_size;                       /* the loader's RELRO granule: AT_PAGESZ */
    unsigned object;                           /* the callback's object number      */
    uint64_t to_write;                         /* objects 0-63 with slots to write  */
    struct plt_name names[NAME_COUNT];
    int count;
    uint32_t first_letters;                    /* bit (c & 31) for each name's first c */
    const void *const *variant;                /* per routine, the bound variant  */
    const void *self;                          /* an address inside this library */
    int self_seen;                             /* the walk has passed this library */
    int ask_dlsym;                             /* the hash tables cannot answer    */
    const struct plt_name *memcpy_name;        /* defined by C libraries           */
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

/* The name a relocation refers to, when it is one of ours and undefined in
   the object (an object's own definition may be bound to itself), or NULL. */
static struct plt_name *our_name(struct plt_bind *b, const ElfW(Sym) *symtab, const char *strtab, uint64_t info)
{
    const ElfW(Sym) *sym = &symtab[ELF64_R_SYM(info)];
    if (!ELF64_R_SYM(info) || sym->st_shndx != SHN_UNDEF)
        return NULL;
    const char *name = strtab + sym->st_name;
    if (!(b->first_letters >> (name[0] & 31) & 1))
        return NULL; /* most names: no string compared */
    for (int k = 0; k < b->count; k++)
        if (same_name(b->names[k].name, name))
            return &b->names[k];
    return NULL;
}

static uint32_t gnu_hash(const char *name)
{
    uint32_t h = 5381;
    for (; *name; name++)
        h = h * 33 + (unsigned char)*name;
    return h;
}

/* Whether the object's GNU hash table holds a definition of n (any version:
   where that is not the one dlsym would take, "defined" only makes the caller
   ask dlsym or leave a slot, both right). */
static int gnu_defines(const uint32_t *table, const ElfW(Sym) *symtab, const char *strtab, const struct plt_name *n)
{
    const unsigned word_bits = 8 * sizeof(ElfW(Addr));
    uint32_t nbuckets = table[0], symoffset = table[1], bloom_words = table[2], shift = table[3];
    if (!nbuckets || !bloom_words)
        return 0;
    const ElfW(Addr) *bloom = (const ElfW(Addr) *)&table[4];
    const uint32_t *buckets = (const uint32_t *)&bloom[bloom_words];
    const uint32_t *chain = &buckets[nbuckets];
    ElfW(Addr) word = bloom[(n->hash / word_bits) % bloom_words];
    ElfW(Addr) mask = (ElfW(Addr))1 << (n->hash % word_bits) | (ElfW(Addr))1 << ((n->hash >> shift) % word_bits);
    if ((word & mask) != mask)
        return 0;
    uint32_t i = buckets[n->hash % nbuckets];
    if (i < symoffset)
        return 0;
    for (;; i++) {
        uint32_t h = chain[i - symoffset];
        if ((h | 1) == (n->hash | 1) && symtab[i].st_shndx != SHN_UNDEF && same_name(strtab + symtab[i].st_name, n->name))
            return 1;
        if (h & 1)
            return 0;
    }
}

static void debug_slot(const struct dl_phdr_info *info, const struct plt_name *n, void **slot, void *now,
                       const void *variant)
{
    char line[400];
    struct altmem__text t = {line, sizeof line, 0};
    altmem__text_puts(&t, "altmem: PLT slot ");
    altmem__text_puts(&t, n->name);
    altmem__text_puts(&t, " in ");
    altmem__text_puts(&t, info->dlpi_name && info->dlpi_name[0] ? info->dlpi_name : "(the program)");
    altmem__text_puts(&t, " at ");
    altmem__text_puthex(&t, (uintptr_t)slot);
    altmem__text_puts(&t, ": ");
    altmem__text_puthex(&t, (uintptr_t)now);
    altmem__text_puts(&t, now == n->stub ? " (the stub)" : " (not yet resolved)");
    altmem__text_puts(&t, " -> ");
    altmem__text_puthex(&t, (uintptr_t)variant);
    altmem__text_puts(&t, "\n");
    altmem__os_write_err(t.buf, t.len);
}

/* One object's relocations: which of its PLT slots to give which variant, and
   (first pass) whether anything else in it refers to our names. */
static int bind_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct plt_bind *b = data;
    unsigned object = b->object++;
    uint64_t bit = object < 64 ? (uint64_t)1 << object : 0;
    if (b->writing && bit && !(b->to_write & bit))
        return 0; /* the first pass found nothing to write here */
    const ElfW(Dyn) *dyn = NULL;
    uintptr_t relro_start = 0, relro_end = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_DYNAMIC)
            dyn = (const ElfW(Dyn) *)(info->dlpi_addr + ph->p_vaddr);
        if (ph->p_type == PT_GNU_RELRO) {
            /* What the loader protects: whole pages, the last partial one not. */
            relro_start = (info->dlpi_addr + ph->p_vaddr) & ~(b->page_size - 1);
            relro_end = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz) & ~(b->page_size - 1);
        }
    }
    if (!dyn)
        return 0;
    if (segment_flags(info, (uintptr_t)b->self) >= 0) {
        b->self_seen = 1;
        return 0;
    }
    uintptr_t jmprel = 0, rela = 0, symtab_at = 0, strtab_at = 0, gnu_hash_at = 0;
    size_t jmprelsz = 0, relasz = 0, relacount = 0;
    long pltrel = 0;
    for (; dyn->d_tag != DT_NULL; dyn++) {
        switch (dyn->d_tag) {
        case DT_JMPREL: jmprel = dyn->d_un.d_ptr; break;
        case DT_PLTRELSZ: jmprelsz = dyn->d_un.d_val; break;
        case DT_PLTREL: pltrel = (long)dyn->d_un.d_val; break;
        case DT_RELA: rela = dyn->d_un.d_ptr; break;
        case DT_RELASZ: relasz = dyn->d_un.d_val; break;
        case DT_RELACOUNT: relacount = dyn->d_un.d_val; break;
        case DT_SYMTAB: symtab_at = dyn->d_un.d_ptr; break;
        case DT_STRTAB: strtab_at = dyn->d_un.d_ptr; break;
        case DT_GNU_HASH: gnu_hash_at = dyn->d_un.d_ptr; break;
        }
    }
    if (!symtab_at || !strtab_at) {
        b->ask_dlsym |= !b->writing && !b->self_seen;
        return 0;
    }
    /* glibc relocates these entries to run-time addresses where the dynamic
       section is writable; musl, and glibc where it is read-only (riscv64),
       leave them as link-time addresses, which lie below the load address. */
    uintptr_t bias = symtab_at < info->dlpi_addr ? info->dlpi_addr : 0;
    const ElfW(Sym) *symtab = (const ElfW(Sym) *)(symtab_at + bias);
    const char *strtab = (const char *)(strtab_at + bias);
    const uint32_t *table = gnu_hash_at ? (const uint32_t *)(gnu_hash_at + bias) : NULL;

    if (!b->writing) {
        int c_library = table && b->memcpy_name && gnu_defines(table, symtab, strtab, b->memcpy_name);
        if (!b->self_seen) {
            if (!table || (c_library && object > 0))
                b->ask_dlsym = 1; /* no table, or a C library first: dlopen()ed */
            for (int k = 0; table && k < b->count; k++)
                b->names[k].shadowed |= gnu_defines(table, symtab, strtab, &b->names[k]);
        }
        if (c_library && b->self_seen)
            return 0; /* the C library: its own calls do not come through its PLT */
    }

    /* First pass: the relocations outside the PLT that name ours (GOT slots of
       -fno-plt calls, function pointers) reach the stub, which the caller then
       patches; the RELATIVE ones at the front (DT_RELACOUNT) name nothing. */
    if (!b->writing && rela) {
        const ElfW(Rela) *r = (const ElfW(Rela) *)(rela + bias);
        for (size_t i = relacount; i < relasz / sizeof *r; i++) {
            struct plt_name *n;
            if (ELF64_R_TYPE(r[i].r_info) != ALTMEM__ARCH_PLT_SLOT_RELOC &&
                (n = our_name(b, symtab, strtab, r[i].r_info)))
                n->other = 1;
        }
    }
    if (!jmprel || pltrel != DT_RELA)
        return 0;
    const ElfW(Rela) *rel = (const ElfW(Rela) *)(jmprel + bias);
    int opened = 0, refused = 0, bound = 0;
    for (size_t i = 0; i < jmprelsz / sizeof *rel; i++) {
        if (ELF64_R_TYPE(rel[i].r_info) != ALTMEM__ARCH_PLT_SLOT_RELOC)
            continue;
        struct plt_name *n = our_name(b, symtab, strtab, rel[i].r_info);
        if (!n)
            continue;
        void **slot = (void **)(info->dlpi_addr + rel[i].r_offset);
        long flags = segment_flags(info, (uintptr_t)slot);
        if (flags < 0 || !(flags & PF_W) || ((uintptr_t)slot & (sizeof *slot - 1)))
            continue;
        void *now = __atomic_load_n(slot, __ATOMIC_RELAXED);
        if (now != n->stub && segment_flags(info, (uintptr_t)now) < 0)
            continue; /* bound elsewhere */
        if (!b->writing) {
            if (now != n->stub)
                n->lazy = 1; /* not yet resolved: where would the loader bind it? */
            b->to_write |= bit;
            continue;
        }
        if (now != n->stub && !n->ours)
            continue;
        uintptr_t page = (uintptr_t)slot & ~(b->page_size - 1);
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
        if (b->debug)
            debug_slot(info, n, slot, now, b->variant[n->routine]);
        __atomic_store_n(slot, (void *)b->variant[n->routine], __ATOMIC_RELAXED);
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

int altmem__plt_bind(const void *const *variant, int debug, struct altmem__plt_report *out)
{
    if (is_set("LD_AUDIT") || is_set("LD_PROFILE") || is_set("LD_BIND_NOT"))
        return -1;
    struct plt_bind b = {.count = 0, .debug = debug};
    b.page_size = altmem__os_page_size();
    b.variant = variant;
    int r = 0;
#define ROUTINE(routine, libc_name, access, reads)                                                 \
    b.names[b.count++] = (struct plt_name){"altmem_" #routine, r, (void *)altmem_##routine, 0, 0, 0, 0, 0}; \
    if (!same_name(#libc_name, "none"))                                                            \
        b.names[b.count++] = (struct plt_name){#libc_name, r, (void *)altmem_##routine, 0, 0, 0, 0, 0};  \
    r++;
#include "registry.def"
#undef ROUTINE
    for (int k = 0; k < b.count; k++) {
        b.first_letters |= (uint32_t)1 << (b.names[k].name[0] & 31);
        b.names[k].hash = gnu_hash(b.names[k].name);
        if (same_name(b.names[k].name, "memcpy"))
            b.memcpy_name = &b.names[k];
    }
    b.self = (const void *)altmem__plt_bind;
    /* First which names lazy slots ask for, then the lookups, outside
       dl_iterate_phdr: it holds a loader lock that dlopen takes after the one
       dlsym takes, so dlsym inside its callback could deadlock against a
       dlopen in another thread. */
    dl_iterate_phdr(bind_object, &b);
    out->other_refs = 0;
    for (int k = 0; k < b.count; k++) {
        struct plt_name *n = &b.names[k];
        if (n->lazy || n->other)
            n->ours = b.ask_dlsym || !b.self_seen ? dlsym(RTLD_DEFAULT, n->name) == n->stub : !n->shadowed;
        out->other_refs += n->other && n->ours;
    }
    b.writing = 1;
    b.object = 0;
    if (b.to_write)
        dl_iterate_phdr(bind_object, &b);
    for (int i = 0; i < ALTMEM_ROUTINE_COUNT; i++)
        out->slots[i] = b.slots[i];
    out->objects = b.objects;
    out->relro_rounds = b.relro_rounds;
    out->refused = b.refused;
    return 0;
}
