/*
 * startup_pages LIBRARY [--touch]
 *
 * Run under libaltmem-preload.so, or linked with libaltmem.so (built with
 * -DLINKED): after start-up, which pages of LIBRARY's writable segment past
 * RELRO and the page after it have been written (/proc/self/pagemap: present
 * and no longer the file's page, or an anonymous page of .bss).  The loader
 * writes RELRO (relocations) and the first page after it (the relocated
 * .data, the tail of .bss it zeroes); start-up must write nothing else: each
 * such page is one more page fault in every process (docs/dropin.md,
 * "Start-up cost").
 *
 *   --touch  first calls altmem_copy_user once, which installs the fault
 *            handler and writes the state kept past the start-up's (the
 *            negative control: must fail).
 *
 * Prints what it checked and "startup_pages: passed", or the pages found.
 */
#define _GNU_SOURCE
#ifdef LINKED
#include <altmem.h> /* so that the link keeps libaltmem.so (--as-needed) */
#endif
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct found {
    const char *name;
    uintptr_t start, end, relro_end; /* the writable segment; where RELRO ends */
    int seen;
};

static int find(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct found *f = data;
    const char *slash = strrchr(info->dlpi_name, '/');
    const char *base = slash ? slash + 1 : info->dlpi_name;
    if (strcmp(base, f->name) != 0)
        return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_W)) {
            f->start = info->dlpi_addr + ph->p_vaddr;
            f->end = f->start + ph->p_memsz;
            f->seen = 1;
        }
        if (ph->p_type == PT_GNU_RELRO)
            f->relro_end = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || (argc == 3 && strcmp(argv[2], "--touch") != 0) || argc > 3) {
        fprintf(stderr, "usage: startup_pages LIBRARY [--touch]\n");
        return 2;
    }
    if (argc == 3) {
#ifdef LINKED
        size_t (*copy_user)(void *, const void *, size_t) = altmem_copy_user;
#else
        size_t (*copy_user)(void *, const void *, size_t) =
            (size_t(*)(void *, const void *, size_t))dlsym(RTLD_DEFAULT, "altmem_copy_user");
#endif
        if (!copy_user) {
            printf("FAIL: altmem_copy_user not found\n");
            return 1;
        }
        char a[16] = "start-up", b[16];
        if (copy_user(b, a, sizeof a) != 0) {
            printf("FAIL: altmem_copy_user of a readable buffer left bytes\n");
            return 1;
        }
    }
    struct found f = {.name = argv[1]};
    dl_iterate_phdr(find, &f);
    if (!f.seen) {
        printf("FAIL: %s is not loaded in this process (run it under the preload, or linked)\n", f.name);
        return 1;
    }
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    /* The loader's pages: RELRO, and the one after it (or the segment's first). */
    uintptr_t from = ((f.relro_end > f.start ? f.relro_end : f.start) & ~(page - 1)) + page;
    uintptr_t to = (f.end + page - 1) & ~(page - 1);
    printf("%s: writable segment %#lx-%#lx, RELRO to %#lx; pages from %#lx checked: %lu\n", f.name,
           (unsigned long)f.start, (unsigned long)f.end, (unsigned long)f.relro_end, (unsigned long)from,
           (unsigned long)(to > from ? (to - from) / page : 0));
    int fd = open("/proc/self/pagemap", O_RDONLY);
    if (fd < 0) {
        perror("/proc/self/pagemap");
        return 1;
    }
    int written = 0;
    for (uintptr_t a = from; a < to; a += page) {
        uint64_t e;
        if (pread(fd, &e, sizeof e, (off_t)(a / page * sizeof e)) != (ssize_t)sizeof e) {
            perror("pread /proc/self/pagemap");
            return 1;
        }
        int present = (int)(e >> 63 & 1), file_page = (int)(e >> 61 & 1);
        if (present && !file_page) {
            printf("FAIL: page %#lx is written (a private copy or an anonymous page): by %s\n", (unsigned long)a,
                   argc == 3 ? "altmem_copy_user" : "start-up");
            written++;
        }
    }
    close(fd);
    if (written)
        return 1;
    printf("startup_pages: passed (none written)\n");
    return 0;
}
