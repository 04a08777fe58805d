/*
 * Shared machinery of the copy_user / clear_user tests (tests/test_uaccess*.c).
 *
 * How a case is checked: a buffer of n bytes is placed relative to an arena
 * whose middle page is inaccessible (PROT_NONE, munmap'd, or read-only for a
 * destination), so that the first inaccessible byte is a known index k of the
 * buffer (or none).  The expected return value is then n - min(k_src, k_dst),
 * computed from the layout alone; the destination must hold src (or zeros) in
 * [0, n - r) and its resting byte UA_BG everywhere else it can be read: the
 * rest of the window, the accessible bytes past the hole, and UA_MARGIN bytes
 * on each side.  Source bytes never equal UA_BG, so a byte written where it
 * must not be (or not written where it must) always shows.
 */
#ifndef ALTMEM_UA_LIB_H
#define ALTMEM_UA_LIB_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "altmem.h"

#define UA_BG 0xEE     /* resting destination byte; never in source data */
#define UA_MARGIN 64   /* bytes checked on each side of a destination window */

extern size_t ua_page;  /* sysconf(_SC_PAGESIZE), set by ua_init */
extern int ua_quick;    /* --quick: narrower ranges for emulators */
extern int ua_verbose;  /* -v */

/* Page size and line-buffered stdout (a child's report is out before it dies). */
void ua_init(void);

/* The program's own fault reporter, to install before altmem's handler: it is
   then what altmem chains to for a fault outside its exception table.  It names
   the case in flight and lets the process die of the signal (SA_RESETHAND). */
void ua_install_reporter(void);

/* 1 when built with AddressSanitizer (which installs its own SIGSEGV handler
   before main, so "no handler" is not true there). */
int ua_sanitized(void);

/* Exit 77 with the reason as the last line of output (CTest SKIP_RETURN_CODE). */
__attribute__((noreturn)) void ua_skip(const char *why);

double ua_now(void);
__attribute__((noreturn)) void ua_die(const char *what); /* perror, exit 2 */

/* ---- What is tested ----------------------------------------------------------- */

struct ua_impl {
    const char *name;            /* "generic", "ual", "altmem_copy_user", "broken:..." */
    enum altmem_routine r;       /* ALTMEM_COPY_USER or ALTMEM_CLEAR_USER           */
    altmem_copy_user_fn *copy;
    altmem_clear_user_fn *clear;
};

/* Every runnable variant of r from the table, then the public entry point;
   only one when `only` names it.  Returns the count. */
size_t ua_impls(enum altmem_routine r, const char *only, struct ua_impl *out, size_t cap);

/* ---- Arenas: accessible pages around one inaccessible page ---------------------- */

enum ua_kind {
    UA_OPEN,      /* no hole: the middle page is like the others      */
    UA_PROT_NONE, /* the middle page is PROT_NONE                      */
    UA_UNMAPPED,  /* the middle page is munmap'd                       */
    UA_READONLY   /* the middle page is PROT_READ (destinations only)  */
};
const char *ua_kind_name(enum ua_kind k);

/* [guard][lo pages][hole: 1 page][hi pages][guard]; guards are PROT_NONE.
   A source arena holds random bytes (never UA_BG) and is read-only; a
   destination arena holds UA_BG. */
struct ua_arena {
    unsigned char *lo;    /* first accessible byte                       */
    unsigned char *hole;  /* the middle page                             */
    unsigned char *end;   /* one past the last accessible byte of hi     */
    enum ua_kind kind;
    int is_src;
    uint64_t seed;        /* of the source bytes, to make it again       */
};
/* Makes and registers the arena (at most UA_MAX_ARENAS per process; the struct
   must stay where it is, static or global, since ua_case may remake it). */
#define UA_MAX_ARENAS 512
void ua_arena_make(struct ua_arena *a, enum ua_kind kind, int is_src, size_t lo_pages, size_t hi_pages,
                   uint64_t seed);

/* ---- Holes that stay holes --------------------------------------------------------
   An unmapped hole is only a gap in the address space: any later mapping of the
   process without a fixed address (a thread stack, the sanitizer runtime, stdio,
   the emulator's own allocations) may be placed in it, and a copy through it then
   rightly succeeds.  So ua_case judges a case with an unmapped hole only if the
   hole is unmapped both before and after the call; otherwise it counts a refill,
   makes the arena again elsewhere (the refilled page is left to its new owner)
   and repeats the case at the same offsets in the new arena.  A case refilled
   UA_MAX_REFILLS times in a row is a set-up error (exit 2), never a pass.
   Left open: a mapping made and removed again while one call runs is not seen. */
#define UA_MAX_REFILLS 8
/* Holes found refilled and arenas made again, in this process (all threads). */
unsigned long ua_refills(void);
/* Self-test only: judge every case whatever became of its hole (the negative
   control that shows the check is what keeps a refill from looking like a bug). */
extern int ua_trust_holes;
/* Checks every destination arena made so far for bytes that are not UA_BG
   (a write outside every case's checked window), puts them back, and returns
   their count.  The arenas must stay where ua_arena_make put them (static). */
size_t ua_sweep(void);
/* 1 when the hole of an unmapped-hole arena is still unmapped (always 1 for
   the other kinds, whose hole is a mapping of ours). */
int ua_arena_intact(const struct ua_arena *a);
/* Makes a registered arena again at a new address, with the same kind, pages
   and bytes, leaving its hole page alone (it may now belong to someone else);
   counts a refill. */
void ua_arena_remake(struct ua_arena *a);
/* Index of the first byte of [p, p + n) that a read (write = 0) or write would
   fault on, or n. */
size_t ua_first_bad(const struct ua_arena *a, const unsigned char *p, size_t n, int write);

/* ---- Checking ------------------------------------------------------------------ */

struct ua_ctx {
    const struct ua_impl *im;
    const char *part;
    unsigned long cases, failures;
    unsigned long max_print;  /* failures reported in full            */
    int stop_on_failure;      /* self-test: the first failure is enough */
    int stop;
    int quiet;                /* report nothing (checker negative controls) */
};

/* One case: copy n bytes from s (in sa) to d (in da), or, when s is NULL,
   clear n bytes at d, with the expectation computed from the layout.  The
   report names c->part and the positions relative to each arena's hole.
   An unmapped hole found refilled is handled as above ("Holes that stay holes"):
   the arena is remade and the case repeated, so d and s may no longer point into
   da and sa when it returns.  Returns 1 if the case passed. */
int ua_case(struct ua_ctx *c, unsigned char *d, const struct ua_arena *da, const unsigned char *s,
            const struct ua_arena *sa, size_t n);

/* The destination check alone, for sources that are not arenas (file
   mappings): r must be n - done, d[0, done) must equal ref[0, done) (zeros when
   ref is NULL), every other readable byte of da within UA_MARGIN of [d, d + n)
   must be UA_BG; the window is put back to UA_BG.  `src_desc` describes the
   source for the report.  Returns 1 if the case passed. */
int ua_check_dst(struct ua_ctx *c, unsigned char *d, const struct ua_arena *da, const unsigned char *ref,
                 size_t n, size_t done, size_t r, const char *src_desc);

/* What the reporter prints if the case in flight faults for good. */
void ua_cur_begin(const struct ua_ctx *c, const void *d, const void *s, size_t n);
void ua_cur_end(void);

/* Called for every reported failure (counts, and honours stop_on_failure). */
void ua_fail(struct ua_ctx *c);

/* ---- Children ------------------------------------------------------------------ */

/* Flushes stdio, forks; the child runs fn(arg) and exits with its return value.
   Returns the wait status. */
int ua_run_child(int (*fn)(void *), void *arg);
/* "SIGSEGV", ... */
const char *ua_signame(int sig);
/* "exit status 0", "killed by SIGSEGV (core dumped)", ... */
const char *ua_status_str(int status, char *buf, size_t len);

#endif
