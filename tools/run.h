/* `altmem run` (tools/run.c). */
#ifndef ALTMEM_TOOLS_RUN_H
#define ALTMEM_TOOLS_RUN_H

/* argv0: how altmem was invoked (a fallback when /proc/self/exe is missing);
   argv[0] is "run".  Returns only when the command could not be started: the
   exit status for altmem (2 usage, 126 not executable, 127 not found or no
   library). */
int altmem_run_main(const char *argv0, int argc, char **argv);

/* Finds libaltmem-preload.so as `altmem run` does (its absolute path in out,
   PATH_MAX bytes); on failure prints why, prefixed "who: ", and returns -1. */
int altmem_run_find_library(const char *argv0, const char *who, char *out);
/* Is lib one of the entries of the LD_PRELOAD list (split at ':' and ' ')? */
int altmem_run_listed(const char *list, const char *lib);

#endif
