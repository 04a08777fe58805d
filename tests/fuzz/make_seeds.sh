#!/bin/bash
# Writes the seed corpora tests/fuzz/corpus/<target>/ (committed; run again after a
# change of an input layout).  Each seed is a few bytes in the layout documented at
# the top of tests/fuzz/<target>.c; the hex strings below follow those layouts field
# by field.  It also writes the self-test's inputs among the regression inputs
# (tests/fuzz/regress/<target>/): planted-* (each makes its target's planted bug
# report a finding with FUZZ_PLANT=1 and passes without; scripts/fuzz.sh --self-test)
# and fuzz_uaccess's refill-* (its FUZZ_UACCESS_REFILL control); only those files are
# rewritten there, never the other regression inputs (reproducers of real findings).
# Usage: tests/fuzz/make_seeds.sh [DIR [REGRESS_DIR]]
#        (defaults: tests/fuzz/corpus, tests/fuzz/regress)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${1:-$here/corpus}
reg=${2:-$here/regress}

# seed TARGET NAME HEX...: the bytes given in hex (spaces ignored).
seed() {
    local target=$1 name=$2
    shift 2
    local hex esc=""
    hex=$(echo "$*" | tr -d ' ')
    for ((i = 0; i < ${#hex}; i += 2)); do esc+="\\x${hex:i:2}"; done
    mkdir -p "$out/$target"
    printf "$esc" >"$out/$target/$name"
}
# text TARGET NAME HEADER-HEX STRING: a binary header, then a string verbatim.
text() {
    seed "$1" "$2" "$3"
    printf '%s' "$4" >>"$out/$1/$2"
}

# regress TARGET NAME HEX...: a self-test input in REGRESS_DIR.
regress() {
    local keep=$out
    out=$reg
    seed "$@"
    out=$keep
}

rm -rf "$out"
mkdir -p "$reg"
find "$reg" -type f \( -name 'planted-*' -o -name 'refill-*' \) -delete

# ---- fuzz_mem: op impl sizesel size(3) soff doff flags dmode dist(3) c(2)
#      ntmode detail(3) memset_nt movsb stosb short
seed fuzz_mem memcpy_5         00 00 00 050000 00 00 00 00 000000 0000 00 000000 00 00 00 00
seed fuzz_mem memcpy_33_flush  00 01 02 020000 00 00 03 00 000000 0000 00 000000 00 00 00 00
seed fuzz_mem memcpy_4097      00 02 0a 020000 07 09 00 00 000000 0000 03 000000 00 02 00 00
seed fuzz_mem memcpy_256k_nt   00 03 0d 110000 00 00 03 00 000000 0000 02 000000 00 00 00 00
seed fuzz_mem memcpy_movsb_n   00 00 0c 020000 00 00 00 00 000000 0000 00 000000 00 02 00 00
seed fuzz_mem memcpy_short     00 01 0d 010000 21 00 00 00 000000 0000 00 000000 00 01 00 02
seed fuzz_mem memcpy_same      00 04 07 010000 00 05 40 00 000000 0000 00 000000 00 00 00 00
seed fuzz_mem memcpy_n0_wild   00 05 00 000000 00 00 0c 00 000000 0000 00 000000 00 00 00 00
seed fuzz_mem memmove_fwd_1    01 00 03 000000 00 00 20 00 010000 0000 00 000000 00 00 00 00
seed fuzz_mem memmove_bwd_n1   01 01 05 010000 00 00 02 01 010000 0000 01 000000 00 00 00 00
seed fuzz_mem memmove_4k_alias 01 02 0c 010000 03 00 22 03 450000 0000 00 000000 00 03 00 03
seed fuzz_mem memmove_mid      01 03 0f 341200 11 00 01 02 990000 0000 07 000000 00 00 00 00
seed fuzz_mem memset_129_c1ab  02 00 04 020000 00 03 00 00 000000 ab01 01 000000 00 00 00 00
seed fuzz_mem memset_2112      02 01 09 010000 00 00 02 00 000000 7f00 00 000000 00 00 02 00
seed fuzz_mem memset_64k_nt1   02 02 0d 060000 00 01 00 00 000000 00ff 00 000000 04 00 00 00
seed fuzz_mem memset_stosb_n1  02 00 0c 020000 00 00 00 00 000000 5500 00 000000 00 00 04 00
seed fuzz_mem memset_huge_c    02 03 0e ffff03 00 00 02 00 000000 ff7f 05 000000 05 00 05 00

# Planted: impl 0xff is the broken one with FUZZ_PLANT=1 (fz_pick), the public entry
# without; n = 32 + 2 % 3 - 1 = 33.
regress fuzz_mem planted-memcpy-n33  00 ff 02 020000 00 00 00 00 000000 0000 00 000000 00 00 00 00
regress fuzz_mem planted-memmove-n33 01 ff 02 020000 00 00 00 00 050000 0000 00 000000 00 00 00 00
regress fuzz_mem planted-memset-n33  02 ff 02 020000 00 00 00 00 000000 ab00 00 000000 00 00 00 00

# ---- fuzz_uaccess: op impl dhole1(kind page) dhole2 shole1 shole2
#      dmode dpage doff(2) smode spage soff(2) nsel n(8) ntmode detail(3)
#      memset_nt movsb stosb short
seed fuzz_uaccess copy_100       00 00 0000 0000 0000 0000 00 00 0000 00 00 0000 0c 6400000000000000 00 000000 00 00 00 00
seed fuzz_uaccess clear_100      01 00 0000 0000 0000 0000 00 00 0000 00 00 0000 0c 6400000000000000 00 000000 00 00 00 00
seed fuzz_uaccess copy_dst_none  00 01 0105 0000 0000 0000 00 04 6400 00 00 0000 02 0400000000000000 00 000000 00 00 00 00
seed fuzz_uaccess copy_dst_unmap 00 02 0203 030a 0000 0000 03 00 1100 02 00 3300 0c 0040000000000000 01 000000 00 00 00 00
seed fuzz_uaccess copy_both      00 03 030c 0000 0106 0000 00 0b 0100 03 00 0700 0c 0030000000000000 00 000000 00 00 00 00
seed fuzz_uaccess copy_src_unmap 00 04 0000 0000 0609 0000 00 00 0000 07 00 0300 03 0200000000000000 02 000000 00 00 00 00
seed fuzz_uaccess clear_ro_run   01 01 0b08 0000 0000 0000 01 07 0500 00 00 0000 02 0500000000000000 00 000000 00 00 00 00
seed fuzz_uaccess copy_wild_dst  00 00 0000 0000 0000 0000 06 04 0000 00 00 0000 0c 6400000000000000 00 000000 00 00 00 00
seed fuzz_uaccess copy_null_src  00 01 0000 0000 0000 0000 00 00 0000 06 00 0000 0c 6400000000000000 00 000000 00 00 00 00
seed fuzz_uaccess copy_sizemax   00 02 0107 0000 0000 0000 00 05 0000 00 05 0000 04 0000000000000000 00 000000 00 00 00 00
seed fuzz_uaccess clear_sizemax  01 02 0107 0000 0000 0000 00 05 0000 00 00 0000 05 0c00000000000000 07 000000 00 00 00 00
seed fuzz_uaccess copy_wrap      00 03 0000 0000 0000 0000 05 00 ff0f 00 00 0000 06 1000000000000000 00 000000 00 00 00 00
seed fuzz_uaccess copy_32k       00 00 0112 0000 0000 0000 04 00 0100 04 00 0200 0a 0104000000000000 00 000000 00 00 00 00
seed fuzz_uaccess clear_4k_nt    01 03 020a 0000 0000 0000 00 08 0300 00 00 0000 0a 0101000000000000 02 000000 00 00 00 00
seed fuzz_uaccess copy_movsb_hole 00 02 0108 0000 0000 0000 00 00 4000 00 00 0000 0c 0040000000000000 05 000000 00 02 00 00
seed fuzz_uaccess clear_stosb_n   01 02 010a 0000 0000 0000 00 01 0000 00 00 0000 0c 0030000000000000 05 000000 05 00 03 00
seed fuzz_uaccess copy_never_huge 00 01 0109 0000 0000 0000 00 02 0000 00 00 0000 04 0000000000000000 05 000000 05 05 05 00
seed fuzz_uaccess copy_sigbus_dst 00 01 8006 0000 0000 0000 00 05 8000 00 00 0000 02 0400000000000000 00 000000 00 00 00 00
seed fuzz_uaccess copy_sigbus_src 00 02 0000 0000 8404 0000 00 00 0000 00 03 f00f 03 0400000000000000 00 000000 00 00 00 00
seed fuzz_uaccess clear_sigbus    01 00 800c 0000 0000 0000 03 00 2000 00 00 0000 0c 0030000000000000 00 000000 00 00 00 00
seed fuzz_uaccess copy_n0        00 00 0000 0000 0000 0000 00 00 0000 00 00 0000 00 0000000000000000 00 000000 00 00 00 00

# Planted: a copy (clear) that a fault cuts short 100 (64) bytes in, n = 4096 (8192):
# the broken one (impl 0xff) returns r - 1.
regress fuzz_uaccess planted-copy-r-minus-1  00 ff 0105 0000 0000 0000 03 00 6400 00 00 0000 0c 0010000000000000 00 000000 00 00 00 00
regress fuzz_uaccess planted-clear-r-minus-1 01 ff 0308 0000 0000 0000 03 00 4000 00 00 0000 0c 0020000000000000 00 000000 00 00 00 00
# The refill control: a copy across an unmapped destination page (3), 17 bytes in,
# n = 16384 (a page mapped there lets the copy go through: r wrong); then an input
# without holes, which re-maps page 3.
regress fuzz_uaccess refill-unmapped-dst-hole 00 ff 0203 0000 0000 0000 03 00 1100 02 00 3300 0c 0040000000000000 00 000000 00 00 00 00
regress fuzz_uaccess refill-no-hole           00 ff 0000 0000 0000 0000 00 00 0000 00 00 0000 00 6400000000000000 00 000000 00 00 00 00

# ---- fuzz_tunables: features(8) flags arch l2(4) l2shift l3(4) l3shift vendor family
#      model idflags, then the value
all=3f00000000000000
none=0000000000000000
caches="01000000 14 20000000 14"   # L2 1 MiB, L3 32 MiB
amd5="02 1a 02 02"                 # AMD family 0x1a model 2, hypervisor
zen4="02 19 11 02"                 # AMD family 0x19 model 0x11 (Zen 4), hypervisor
intel="01 06 55 00"                # Intel 6/0x55, no AVX-VNNI
unk="00 00 00 00"
text fuzz_tunables empty         "$all 00 00 $caches $unk" ""
text fuzz_tunables mask_ual      "$all 00 00 $caches $unk" "hwcaps=-UAL"
text fuzz_tunables mask_pin      "$all 00 00 $caches $intel" "hwcaps=-SIMD512,-ERMS:memcpy=avx2:verbose"
text fuzz_tunables all_generic   "$all 00 00 $caches $amd5" "all=generic:bind=pointer:debug=1"
text fuzz_tunables nt_force      "$none 00 01 $caches $unk" "nt_threshold=64K:memset=ual:hwcaps=+UAL"
text fuzz_tunables refuse_force  "$none 00 02 $caches $unk" "hwcaps=+SIMD512,+UAL,+ERMS"
text fuzz_tunables bad_items     "$all 00 00 $caches $unk" "bogus:memcpy=fast:=x:nt_threshold=12X:verbose=2:hwcaps=UAL,,:bind"
text fuzz_tunables refuse_pin    "$none 00 03 $caches $unk" "copy_user=avx512:clear_user=generic:all=sse2"
text fuzz_tunables secure        "$all 01 00 $caches $amd5" "all=generic:hwcaps=-UAL"
text fuzz_tunables nt_max        "$all 00 04 00000000 00 00000000 00 $unk" "nt_threshold=281474976710656:NT_THRESHOLD=0"
text fuzz_tunables case_empty    "$all 00 00 01000000 10 00000000 00 $unk" "Memmove=GENERIC::verbose=0:DEBUG:hwcaps=-fsrm,+ual"
text fuzz_tunables policy        "$all 00 00 $caches $amd5" "rep_movsb_threshold=4k:rep_stosb_threshold=never:memset_nt_threshold=1M:rep_movsb_short_distance=4095"
text fuzz_tunables policy_bad    "$all 00 00 $caches $intel" "rep_movsb_short_distance=4096:rep_stosb_threshold=-1:memset_nt_threshold=nev:nt_threshold=NEVER"
text fuzz_tunables intel_pin512  "$all 00 00 $caches $intel" "memset=avx512:copy_user=avx512_erms"
text fuzz_tunables zen4_halves   "$all 00 00 $caches $zen4" "memmove=avx512:rep_movsb_threshold=8k"
# Planted: a CPU without features must get the generic memcpy; the broken decision
# binds the table's first memcpy variant.
regress fuzz_tunables planted-memcpy-no-features "$none 00 00 $caches $unk"

# ---- fuzz_encode: arch mode site(8) detail(8) code(8); site 2^40
site=0000000000010000
for a in 00 01 02 03; do
    seed fuzz_encode edge_min_$a  $a 00 $site 2000000000000000
    seed fuzz_encode edge_max_$a  $a 00 $site 2001000000000000
    seed fuzz_encode past_max_$a  $a 00 $site 2008000000000000
done
seed fuzz_encode rv_lo_round  03 00 $site 2003000000000000
seed fuzz_encode x86_far      00 02 $site 0000000000800000
seed fuzz_encode x86_random   00 01 $site 1234567890abcdef
seed fuzz_encode dec_x86      00 03 $site 0000000000000000 e900000000000000
seed fuzz_encode dec_aarch64  01 03 $site 0000000000000000 0100001400000000
seed fuzz_encode dec_loong    02 03 $site 0000000000000000 0074115100000000
seed fuzz_encode dec_riscv    03 03 $site 0000000000000000 1703000067008300
seed fuzz_encode dec_junk     03 03 $site 0000000000000000 9090909013000000
# Planted: aarch64, edge mode, edge max (2^27 - 4: (x >> 8) % 9 == 1) + 4 (x % 64 == 36):
# exactly +2^27, one word out of reach, which the broken encoder accepts.
regress fuzz_encode planted-aarch64-plus-2p27 01 00 $site 2401000000000000
echo "make_seeds.sh: wrote $(find "$out" -type f | wc -l) seeds under $out and" \
    "$(find "$reg" -type f \( -name 'planted-*' -o -name 'refill-*' \) | wc -l) self-test inputs under $reg"
