/* `altmem run` (tools/run.c). */
#ifndef ALTMEM_TOOLS_RUN_H
#define ALTMEM_TOOLS_RUN_H

/* argv0: how altmem was invoked (a fallback when /proc/self/exe is missing);
   argv[0] is "run".  Returns only when the command could not be started: the
   exit status for altmem (2 usage, 126 not executable, 127 not found or no
   library). */
int altmem_run_main(const char *argv0, int argc, char **argv);

#endif
