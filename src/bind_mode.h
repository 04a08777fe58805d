/*
 * How calls reach the bound variants, a build setting (ALTMEM_BIND_MODE, set
 * by src/CMakeLists.txt), for the C entry points (src/entry.c), binding
 * (src/select.c) and the alternatives engine (src/alternative.c).
 */
#ifndef ALTMEM_BIND_MODE_H
#define ALTMEM_BIND_MODE_H

#define ALTMEM_BIND_PATCH 1   /* patched direct branch, pointer fallback (src/arch/<arch>/entry.S) */
#define ALTMEM_BIND_POINTER 2 /* C entry points through the pointer (src/entry.c)                  */
#define ALTMEM_BIND_IFUNC 3   /* GNU IFUNC resolved by the dynamic loader (src/entry.c)            */
#ifndef ALTMEM_BIND_MODE
#define ALTMEM_BIND_MODE ALTMEM_BIND_POINTER
#endif

#endif
