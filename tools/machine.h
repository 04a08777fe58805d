/*
 * The machine as `altmem index` and `altmem compare` describe it in their
 * reports (tools/machine.c): the CPU model, an emulator if there is one, the
 * load.  Their clock and statistics are the measuring kit's (bench/benchlib.h,
 * bench/stats.h).
 */
#ifndef ALTMEM_TOOLS_MACHINE_H
#define ALTMEM_TOOLS_MACHINE_H

#include <stddef.h>

/* "AMD EPYC (family 26 model 2 stepping 1), 2 online CPUs" from /proc/cpuinfo
   (the arch name where it has no model name). */
void machine_cpu_model(char *buf, size_t len);

/* 1 when this process runs under an emulator (qemu-user), its path in buf:
   qemu shows the guest program as /proc/self/exe but not as
   /proc/thread-self/exe, which is the emulator itself.  0 otherwise. */
int machine_emulator(char *buf, size_t len);

/* "0.52 0.61 0.70" (1, 5, 15 min), or "unknown". */
void machine_load(char *buf, size_t len);

#endif
