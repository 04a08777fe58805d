/*
 * The profile (src/profile.c): the file `altmem tune` writes, parsed for the
 * decision (src/decide.c); where selection (src/select.c) looks for it.
 */
#ifndef ALTMEM_PROFILE_H
#define ALTMEM_PROFILE_H

#include <stddef.h>

#define ALTMEM_PROFILE_ENV "ALTMEM_PROFILE"
#define ALTMEM__PROFILE_MAX (64 * 1024)   /* bytes; a larger file is not a profile */
#ifndef ALTMEM_PROFILE_PATH
#define ALTMEM_PROFILE_PATH "/usr/local/etc/altmem/profile"
#endif

struct altmem__cpu;                       /* cpu.h */
struct altmem__text;                      /* lib/text.h */
struct altmem__tunables;                  /* tunables.h */

/* This CPU's identity as the profile's cpu: line holds it (without "cpu: "). */
void altmem__cpu_identity(const struct altmem__cpu *cpu, struct altmem__text *t);
/* Parses a profile's text for this CPU into *out (settings only).  1: apply
   it; 0: ignore it, why_buf says why (which line, what). */
int altmem__profile_parse(const char *text, size_t len, const struct altmem__cpu *cpu,
                          struct altmem__tunables *out, char *why_buf, size_t why_len);

#endif
