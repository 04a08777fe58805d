#!/bin/sh
# An `nm -S --defined-only` stand-in for entry_pages_misaligned (tests/selection.cmake):
# two entries inside one page each, one aligned to the power of two at or above its
# size (581 bytes at 0x10000) and one not (581 bytes at 0x10a00, inside its page but
# only 512-aligned: what check_entry_pages.sh's alignment clause alone must refuse).
printf '%s\n' \
    '0000000000010000 0000000000000245 T altmem_memset_avx2' \
    '0000000000010a00 0000000000000245 T altmem_memset_evex'
