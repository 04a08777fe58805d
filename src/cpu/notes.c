/*
 * The notes the architectures' decoders write (src/arch/<arch>/decode.c): what
 * `altmem info` prints after "cpu:", one item per source of a feature.
 */
#include "cpu.h"
#include "lib/text.h"

void altmem__cpu_note(char *notes, size_t len, const char *a, unsigned long long v, const char *b)
{
    struct altmem__text t = {notes, len, altmem__strlen(notes)};
    if (t.len)
        altmem__text_puts(&t, "; ");
    altmem__text_puts(&t, a);
    if (b) {
        altmem__text_putu(&t, v);
        altmem__text_puts(&t, b);
    }
}

/* Appends without a separator (altmem__cpu_note starts a new item). */
void altmem__cpu_note_more(char *notes, size_t len, const char *a)
{
    struct altmem__text t = {notes, len, altmem__strlen(notes)};
    altmem__text_puts(&t, a);
}
