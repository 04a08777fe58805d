/*
 * truncate_demo — read a file through a mapping while another process truncates
 * it, with altmem_copy_user, and report how much was read instead of dying of
 * SIGBUS.
 *
 * A mapping outlives the file's size: once another process truncates the file,
 * touching a mapped page that lies wholly past the new end of file raises SIGBUS
 * (the bytes of the last partial page past the end read as zeros).  memcpy from
 * such a mapping kills the reader; altmem_copy_user returns the number of bytes it
 * could not copy, exact to the byte, and copies everything before them.
 *
 * What it does: creates a temporary file of 64 pages with a known pattern, maps
 * it, and reads it in 3000-byte chunks, pausing a millisecond between chunks.  After
 * the first chunk it tells a forked child to truncate the file to 100000 bytes,
 * which the child does while the parent goes on reading (should the child not
 * have run by the time the reader reaches that offset, the reader waits for it).
 * The read stops at the first short chunk.  It then checks what it got: the pattern up to the new end of
 * file, zeros to the end of that page, and a total that ends exactly there.
 * Exit status 0 when all of that holds, 1 otherwise (2: set-up error).
 *
 *   ./truncate_demo            (see CMakeLists.txt and Makefile for building it)
 *   ./truncate_demo --memcpy   the same read with memcpy: the process dies of SIGBUS
 */
#define _POSIX_C_SOURCE 200809L
#include <altmem.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGES 64
#define CHUNK 3000 /* not a multiple of the page size: the short chunk ends mid-chunk */
#define NEW_SIZE 100000

static unsigned char pattern(size_t i)
{
    return (unsigned char)(i * 131u + i / 251u + 7u);
}

static void die(const char *what)
{
    perror(what);
    exit(2);
}

int main(int argc, char **argv)
{
    int use_memcpy = argc > 1 && strcmp(argv[1], "--memcpy") == 0;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t size = PAGES * page;

    /* The file: PAGES pages of a known pattern, unlinked at once (the mapping
       and the descriptors keep it alive). */
    const char *tmpdir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/truncate-demo-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0)
        die("mkstemp");
    unlink(path);
    unsigned char *buf = malloc(size);
    if (!buf)
        die("malloc");
    for (size_t i = 0; i < size; i++)
        buf[i] = pattern(i);
    if (write(fd, buf, size) != (ssize_t)size)
        die("write");
    const unsigned char *map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED)
        die("mmap");
    printf("truncate_demo: mapped a %zu-byte file (%d pages of %zu)\n", size, PAGES, page);

    /* The truncating process: waits for the go-ahead, truncates, exits. */
    int go[2];
    if (pipe(go))
        die("pipe");
    fflush(stdout);
    pid_t child = fork();
    if (child < 0)
        die("fork");
    if (child == 0) {
        char c;
        close(go[1]);
        if (read(go[0], &c, 1) != 1)
            _exit(2);
        _exit(ftruncate(fd, NEW_SIZE) == 0 ? 0 : 2);
    }
    close(go[0]);

    /* The reader. */
    memset(buf, 0xEE, size);
    size_t got = 0;
    int short_read = 0, child_done = 0, st;
    while (got < size) {
        size_t n = size - got < CHUNK ? size - got : CHUNK;
        size_t left;
        if (!child_done && got + n > NEW_SIZE) {
            /* A loaded machine may not have run the child yet: the demo is about
               reading after the truncation, so make sure it happened. */
            if (waitpid(child, &st, 0) != child)
                die("waitpid");
            child_done = 1;
        }
        if (use_memcpy) {
            memcpy(buf + got, map + got, n); /* SIGBUS past the new end */
            left = 0;
        } else {
            left = altmem_copy_user(buf + got, map + got, n);
        }
        got += n - left;
        if (left) {
            printf("truncate_demo: altmem_copy_user stopped %zu bytes short in the chunk at offset %zu: "
                   "the rest of the mapping is gone (a memcpy would have died of SIGBUS here)\n",
                   left, got - (n - left));
            short_read = 1;
            break;
        }
        if (got == n && write(go[1], "t", 1) != 1) /* after the first chunk: truncate now */
            die("write");
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    if ((!child_done && waitpid(child, &st, 0) != child) || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "truncate_demo: the truncating child failed\n");
        return 2;
    }
    printf("truncate_demo: the child truncated the file to %d bytes while we were reading\n", NEW_SIZE);
    printf("truncate_demo: read %zu of %zu bytes\n", got, size);

    /* What must have arrived: the file up to its new end, zeros to the end of
       that page (the kernel's rule for the last partial page), nothing after. */
    size_t end = (NEW_SIZE + page - 1) / page * page;
    size_t bad = 0;
    for (size_t i = 0; i < got; i++)
        bad += buf[i] != (i < NEW_SIZE ? pattern(i) : 0);
    int ok = short_read && got == end && bad == 0;
    if (!short_read)
        printf("truncate_demo: FAIL: the whole mapping was read; the truncation came too late\n");
    else if (got != end)
        printf("truncate_demo: FAIL: expected to read exactly %zu bytes (the end of the last page of the file)\n", end);
    if (bad)
        printf("truncate_demo: FAIL: %zu bytes differ from the file\n", bad);
    if (ok)
        printf("truncate_demo: bytes 0..%d are the file's, %d..%zu are zero (the rest of its last page): ok\n",
               NEW_SIZE - 1, NEW_SIZE, end - 1);
    free(buf);
    close(fd);
    return ok ? 0 : 1;
}
