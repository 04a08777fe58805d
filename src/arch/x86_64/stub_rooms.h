/*
 * The rooms the x86_64 entry stubs own, into which the engine copies the bound
 * variant's code (copy.h): one definition for entry.S, which lays the stubs
 * out, and for copy_plans_tool.c, which plans each variant's copy at build time.
 *
 * The three plain routines fill the stub page but 64 bytes, each room starting
 * 64-byte aligned as the variants do (-falign-functions=64), so a copied label
 * keeps its place in its line; the uaccess routines' variants carry exception-
 * table entries for their own addresses and keep the branch (0).  1600 bytes
 * hold every size class up to 128 bytes of every x86_64 copy entry (the avx2
 * entry reaches 868 bytes in for 65-128 B), 832 every memset entry's classes up
 * to 512 bytes: since every jump target is aligned (src/CMakeLists.txt,
 * align-threshold) the avx512 and evex entries are 907 and 937 bytes, and what
 * lies past the room is their paths to rep stosb and the loops, reached through
 * a jmp back or their own branches, which cost nothing beside those.
 */
#ifndef ALTMEM_X86_STUB_ROOMS_H
#define ALTMEM_X86_STUB_ROOMS_H

#define ALTMEM_STUB_ROOM_memcpy 1600
#define ALTMEM_STUB_ROOM_memmove 1600
#define ALTMEM_STUB_ROOM_memset 832
#define ALTMEM_STUB_ROOM_copy_user 0
#define ALTMEM_STUB_ROOM_clear_user 0

#endif
