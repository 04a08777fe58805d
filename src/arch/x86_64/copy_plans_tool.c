/*
 * Build tool: plans, once per build, the copy of every memcpy, memmove and
 * memset variant into its entry's room (copy.h), from the compiled objects,
 * and writes them as a C table the library links (src/CMakeLists.txt).  So a
 * process start-up decodes no instruction: the engine checks a variant's bytes
 * against the plan's digest and copies (src/arch/x86_64/patch.c).
 *
 *   altmem-copy-plans OUT.c OBJECT.o...
 *
 * From each object, read as an ELF64 relocatable file: every global function
 * named altmem_<memcpy|memmove|memset>_<variant>, its bytes and size, and the
 * relocations inside it.  A PC-relative relocation (PC32, PLT32, GOTPCREL*)
 * marks a field whose value the link decides: it moves with the copy.  A
 * function with any other relocation inside, or a relocated field the decoder
 * does not find as a displacement, is not planned (its entry keeps the branch,
 * and a line on stderr says so).  Exit status 0, or 1 with a one-line error
 * (an unreadable object, an unwritable output).
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "copy.h"
#include "stub_rooms.h"

#define FUNCS_MAX 64
#define RELOCATED_MAX 256

struct planned {
    char name[96];
    unsigned room;
    uint64_t digest;
    struct altmem__copy_plan plan;
};

static struct planned planned[FUNCS_MAX];
static size_t nplanned;

static unsigned char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    *size = n;
    return buf;
}

static unsigned room_of(const char *name)
{
    if (!strncmp(name, "altmem_memcpy_", 14))
        return ALTMEM_STUB_ROOM_memcpy;
    if (!strncmp(name, "altmem_memmove_", 15))
        return ALTMEM_STUB_ROOM_memmove;
    if (!strncmp(name, "altmem_memset_", 14))
        return ALTMEM_STUB_ROOM_memset;
    return 0;
}

static int cmp_u16(const void *a, const void *b)
{
    return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

static int plan_object(const char *path)
{
    size_t size;
    unsigned char *f = read_file(path, &size);
    if (!f) {
        fprintf(stderr, "altmem-copy-plans: cannot read %s\n", path);
        return -1;
    }
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)f;
    if (size < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_type != ET_REL || eh->e_shoff + (size_t)eh->e_shnum * sizeof(Elf64_Shdr) > size) {
        free(f);
        return 0;                                   /* not an x86_64 object: nothing here */
    }
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(f + eh->e_shoff);
    for (unsigned s = 0; s < eh->e_shnum; s++) {
        if (sh[s].sh_type != SHT_SYMTAB || sh[s].sh_link >= eh->e_shnum)
            continue;
        const Elf64_Sym *sym = (const Elf64_Sym *)(f + sh[s].sh_offset);
        const char *str = (const char *)(f + sh[sh[s].sh_link].sh_offset);
        size_t nsym = sh[s].sh_size / sizeof *sym;
        for (size_t k = 0; k < nsym; k++) {
            const char *name = str + sym[k].st_name;
            unsigned room = room_of(name);
            if (!room || ELF64_ST_TYPE(sym[k].st_info) != STT_FUNC || ELF64_ST_BIND(sym[k].st_info) != STB_GLOBAL ||
                strchr(name, '.') || sym[k].st_shndx == SHN_UNDEF || sym[k].st_shndx >= eh->e_shnum ||
                sh[sym[k].st_shndx].sh_type != SHT_PROGBITS)
                continue;
            const Elf64_Shdr *text = &sh[sym[k].st_shndx];
            size_t start = sym[k].st_value, len = sym[k].st_size;
            if (start + len > text->sh_size || len == 0)
                continue;
            uint16_t relocated[RELOCATED_MAX];
            size_t nrel = 0;
            int plannable = 1;
            for (unsigned r = 0; r < eh->e_shnum; r++) {
                if (sh[r].sh_type != SHT_RELA || sh[r].sh_info != sym[k].st_shndx)
                    continue;
                const Elf64_Rela *ra = (const Elf64_Rela *)(f + sh[r].sh_offset);
                for (size_t i = 0; i < sh[r].sh_size / sizeof *ra; i++) {
                    if (ra[i].r_offset < start || ra[i].r_offset >= start + len)
                        continue;
                    unsigned type = (unsigned)ELF64_R_TYPE(ra[i].r_info);
                    if ((type == R_X86_64_PC32 || type == R_X86_64_PLT32 || type == R_X86_64_GOTPCREL ||
                         type == R_X86_64_GOTPCRELX || type == R_X86_64_REX_GOTPCRELX) &&
                        nrel < RELOCATED_MAX && ra[i].r_offset - start <= UINT16_MAX)
                        relocated[nrel++] = (uint16_t)(ra[i].r_offset - start);
                    else
                        plannable = 0;
                }
            }
            if (!plannable) {
                fprintf(stderr, "altmem-copy-plans: %s: a relocation that cannot move: not planned\n", name);
                continue;
            }
            qsort(relocated, nrel, sizeof relocated[0], cmp_u16);
            const unsigned char *code = f + text->sh_offset + start;
            struct planned *p = &planned[nplanned];
            if (nplanned == FUNCS_MAX) {
                fprintf(stderr, "altmem-copy-plans: more than %d variants\n", FUNCS_MAX);
                free(f);
                return -1;
            }
            if (!altmem__x86_copy_plan((uintptr_t)code, code, len, room, relocated, nrel, &p->plan))
                continue;                           /* e.g. opens with a push: the branch */
            /* Every relocated field in the copy must be one the copy moves (one
               the decoder does not see as a displacement: not planned). */
            int all_moved = 1;
            for (size_t i = 0; i < nrel; i++) {
                int moved = 0;
                for (unsigned x = 0; x < p->plan.nfix; x++)
                    moved |= p->plan.fix[x] == relocated[i];
                if (relocated[i] < p->plan.len && !moved) {
                    fprintf(stderr, "altmem-copy-plans: %s: relocated field at %u not moved: not planned\n", name,
                            relocated[i]);
                    all_moved = 0;
                    break;
                }
            }
            if (!all_moved)
                continue;
            snprintf(p->name, sizeof p->name, "%s", name);
            p->room = room;
            p->digest = altmem__x86_copy_digest(code, &p->plan);
            nplanned++;
        }
    }
    free(f);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: altmem-copy-plans OUT.c OBJECT.o...\n");
        return 1;
    }
    for (int i = 2; i < argc; i++)
        if (plan_object(argv[i]) != 0)
            return 1;
    FILE *out = fopen(argv[1], "w");
    if (!out) {
        fprintf(stderr, "altmem-copy-plans: cannot write %s\n", argv[1]);
        return 1;
    }
    fprintf(out, "/* Generated by altmem-copy-plans (src/arch/x86_64/copy_plans_tool.c) from this\n"
                 "   build's variant objects: the copy of each into its entry's room. */\n"
                 "#include \"patch/copy_plan.h\"\n\n");
    for (size_t i = 0; i < nplanned; i++)
        fprintf(out, "extern char %s[];\n", planned[i].name);
    fprintf(out, "\n__attribute__((visibility(\"hidden\"))) const struct altmem__copy_plan_entry "
                 "altmem__copy_plans[] = {\n");
    for (size_t i = 0; i < nplanned; i++) {
        const struct altmem__copy_plan *p = &planned[i].plan;
        fprintf(out, "    {%s, %u, 0x%016llxull, {%u, %u, %u, {", planned[i].name, planned[i].room,
                (unsigned long long)planned[i].digest, p->len, p->tail, p->nfix);
        for (unsigned x = 0; x < p->nfix; x++)
            fprintf(out, "%s%u", x ? ", " : "", p->fix[x]);
        if (!p->nfix)
            fprintf(out, "0");
        fprintf(out, "}}},\n");
    }
    if (!nplanned)
        fprintf(out, "    {0, 0, 0, {0, 0, 0, {0}}},\n");
    fprintf(out, "};\n__attribute__((visibility(\"hidden\"))) const unsigned altmem__copy_plans_count = %zu;\n",
            nplanned);
    fclose(out);
    printf("altmem-copy-plans: %zu variants planned\n", nplanned);
    return 0;
}
