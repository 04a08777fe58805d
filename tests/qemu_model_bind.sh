#!/usr/bin/env bash
# The CPU-model matrix's binding check for the hosted library (tests/qemu_models.cmake):
# runs `altmem info` under one qemu CPU model and fails unless every routine is bound
# to the expected variant and the features that must (must not) be detected are
# (are not).  Prints what bound, why, and the detection notes (the HWCAP bits).
#
#   qemu_model_bind.sh "QEMU [OPTIONS]" ALTMEM "routine=variant ..." HAS,.. LACKS,..
#
# HAS and LACKS may be empty.  Exit status 0 as expected, 1 not, 2 usage.
set -u
if [ $# -ne 5 ]; then
    echo "usage: qemu_model_bind.sh \"QEMU [OPTIONS]\" ALTMEM \"routine=variant ...\" HAS LACKS" >&2
    exit 2
fi
qemu=$1 altmem=$2 bind=$3 has=$4 lacks=$5
echo "model: $qemu"
# shellcheck disable=SC2086 # QEMU [OPTIONS] is a command line
out=$($qemu "$altmem" info 2>&1)
rc=$?
if [ $rc -ne 0 ]; then
    printf '%s\n' "$out"
    echo "FAIL: altmem info exited $rc under this model"
    exit 1
fi
fails=0
detected=$(printf '%s\n' "$out" | sed -n 's/^features detected: *//p')
notes=$(printf '%s\n' "$out" | sed -n 's/^cpu: *//p')
echo "features detected: $detected"
echo "notes: ${notes:-(none)}"
for pair in $bind; do
    r=${pair%%=*} want=${pair#*=}
    line=$(printf '%s\n' "$out" | grep -E "^$r +[a-z0-9_]+ +[a-z]+ " | head -n 1)
    got=$(printf '%s\n' "$line" | awk '{print $2}')
    if [ "$got" = "$want" ]; then
        echo "ok   $line"
    else
        echo "FAIL $r bound to '${got:-?}', expected $want: $line"
        fails=$((fails + 1))
    fi
done
for f in ${has//,/ }; do
    if [[ " $detected " != *" $f "* ]]; then
        echo "FAIL feature $f not detected (must be)"
        fails=$((fails + 1))
    fi
done
for f in ${lacks//,/ }; do
    if [[ " $detected " == *" $f "* ]]; then
        echo "FAIL feature $f detected (must not be)"
        fails=$((fails + 1))
    fi
done
# The vector length the SVE variants use is in the notes wherever the SVE bit is;
# where the model sets it (sve-default-vector-length=N), it must be N.
if [[ $notes == *"SVE (AT_HWCAP bit 22)"* ]]; then
    vl=$(printf '%s\n' "$notes" | sed -nE 's/.*SVE VL ([0-9]+) B.*/\1/p')
    want_vl=$(printf '%s\n' "$qemu" | sed -nE 's/.*sve-default-vector-length=([0-9]+).*/\1/p')
    if [ -z "$vl" ]; then
        echo "FAIL the notes do not give the SVE vector length"
        fails=$((fails + 1))
    elif [ -n "$want_vl" ] && [ "$vl" != "$want_vl" ]; then
        echo "FAIL SVE VL $vl B, the model sets $want_vl"
        fails=$((fails + 1))
    else
        echo "ok   SVE VL $vl B${want_vl:+ (the model sets $want_vl)}"
    fi
fi
if [ $fails -ne 0 ]; then
    echo "--- altmem info:"
    printf '%s\n' "$out"
    echo "binding: $fails check(s) FAILED"
    exit 1
fi
echo "binding: as expected (${bind// /, }${has:+; has $has}${lacks:+; lacks $lacks})"
