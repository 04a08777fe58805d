/* `altmem compare` (tools/compare.c). */
#ifndef ALTMEM_TOOLS_COMPARE_H
#define ALTMEM_TOOLS_COMPARE_H

/* argv0: how altmem was invoked (to find libaltmem-preload.so as `altmem run`
   does); argv[0] is "compare".  Returns the exit status: 0 when every run
   exited 0, else the status of the first run that did not (128 + signal for a
   signal), 2 on a usage error, 127 when CMD or the library is not found. */
int altmem_compare_main(const char *argv0, int argc, char **argv);

#endif
