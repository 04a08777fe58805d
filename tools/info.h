/* altmem info (tools/info.c). */
#ifndef ALTMEM_TOOLS_INFO_H
#define ALTMEM_TOOLS_INFO_H

/* argv[0] is "info"; --help or -h prints its usage. */
int altmem_info_main(const char *self, int argc, char **argv);

#endif
