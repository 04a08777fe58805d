#!/usr/bin/env bash
# Instructions executed per call and per byte by every variant the emulated CPU
# can run (and the C library's memcpy/memmove/memset on hosted builds), counted
# under qemu-user: where timing means nothing, the count is exact and repeatable.
#
#   scripts/qemu-cost.sh ARCH [QEMU OPTIONS...]      e.g.  aarch64 -cpu max
#
# ARCH: aarch64, riscv64 (glibc, dynamic) or loongarch64 (freestanding).  The
# driver is bench/qemucost.c (see there for what one segment is); it prints its
# segments, and the instructions between the marker's hits are counted by
#   METHOD=plugin  tests/qemu-plugin/insncount.c in a qemu that loads TCG plugins
#                  (Debian's dynamic qemu 7.2, /usr/bin/qemu-ARCH): the default there
#   METHOD=log     one instruction per TB (-one-insn-per-tb, 7.2: -singlestep) and
#                  -d exec,nochain: one "Trace" line per executed instruction, counted
#                  between the marker's lines (the static qemu 10 cannot load plugins)
# Instructions per call = (segment - the same loop around a one-return function) /
# calls + 1 (the routine's own return included).
#
# Environment:
#   QEMU     the emulator: a path, or "bpo" for /opt/altmem/qemu-bpo/usr/bin/qemu-ARCH
#            (default /usr/bin/qemu-ARCH)
#   METHOD   plugin | log (default: plugin when QEMU can load plugins, else log)
#   BUILD    the cross build to use or make (default build-cost-ARCH in the source
#            tree: configured with the toolchain file, only the driver built)
#   DRIVER   a built driver to run instead (then nothing is built)
#   SIZES CALLS ROUTINE IMPL OFFSETS EXTRA   passed to the driver (--sizes ...)
#   FORMAT   table (default: markdown, one row per implementation and size, then
#            the goals), wide (a table per routine: a row per size, a column per
#            implementation; then the goals), raw (one line per segment: routine
#            impl size calls count nop per_call), or both (raw, then table)
#   HOST_CC  the host compiler for the plugin (default cc)
#   RAWOUT   also save the run (header, rows) to this file; FROM_RAW=FILE renders
#            such a file instead of running anything
# Exit status 0, 1 on failure (a message on stderr), 77 when the emulator or the
# cross compiler is missing.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/.." && pwd)

die() { echo "qemu-cost.sh: $*" >&2; exit 1; }
skip() { echo "qemu-cost.sh: SKIPPED: $*" >&2; exit 77; }

[ $# -ge 1 ] || die "usage: qemu-cost.sh ARCH [QEMU OPTIONS...] (ARCH: aarch64, riscv64, loongarch64)"
arch=$1
shift
case $arch in
aarch64 | riscv64) toolchain=$arch-linux-gnu.cmake; sysroot=/usr/$arch-linux-gnu ;;
loongarch64) toolchain=loongarch64-freestanding.cmake; sysroot="" ;;
*) die "unknown ARCH '$arch' (aarch64, riscv64, loongarch64)" ;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ -n "${FROM_RAW:-}" ]; then
    # Render a run saved with RAWOUT: its header, its "skip" lines, its rows.
    [ -f "$FROM_RAW" ] || die "no file $FROM_RAW"
    header=$(sed -n 's/^# //p' "$FROM_RAW" | head -n 1)
    grep '^skip ' "$FROM_RAW" >"$tmp/out" || true
    grep -v '^# \|^skip ' "$FROM_RAW" >"$tmp/raw"
else
qemu=${QEMU:-/usr/bin/qemu-$arch}
[ "$qemu" = bpo ] && qemu=/opt/altmem/qemu-bpo/usr/bin/qemu-$arch
[ -x "$qemu" ] || skip "no emulator $qemu"
qemu_version=$("$qemu" --version | head -n1)
help=$("$qemu" -h 2>&1 || true)
if [ -z "${METHOD:-}" ]; then
    if grep -q -- '^-plugin' <<<"$help"; then METHOD=plugin; else METHOD=log; fi
fi
case $METHOD in plugin | log) ;; *) die "METHOD must be plugin or log, not '$METHOD'" ;; esac
if [ "$METHOD" = plugin ] && ! grep -q -- '^-plugin' <<<"$help"; then
    die "$qemu cannot load TCG plugins (a static build?): use METHOD=log"
fi

# ---- The driver ------------------------------------------------------------------------
unset MAKEFLAGS MFLAGS MAKELEVEL
if [ -n "${DRIVER:-}" ]; then
    drv=$DRIVER
else
    build=${BUILD:-$src/build-cost-$arch}
    if [ ! -f "$build/CMakeCache.txt" ]; then
        mkdir -p "$build"
        cmake -S "$src" -B "$build" -DCMAKE_TOOLCHAIN_FILE="$src/cmake/toolchains/$toolchain" \
            -DCMAKE_BUILD_TYPE=Release -DALTMEM_NESTED=ON >"$build/cost-configure.log" 2>&1 ||
            { tail -n 20 "$build/cost-configure.log" >&2; skip "configuring the $arch cross build failed (cross compiler missing?)"; }
    fi
    cmake --build "$build" --target altmem_qemucost -j "${JOBS:-2}" >"$build/cost-build.log" 2>&1 ||
        { tail -n 30 "$build/cost-build.log" >&2; die "building altmem_qemucost in $build failed"; }
    drv=$build/tests/altmem-qemucost
fi
[ -x "$drv" ] || die "no driver $drv"

drv_args=()
[ -n "${SIZES:-}" ] && drv_args+=(--sizes "$SIZES")
[ -n "${CALLS:-}" ] && drv_args+=(--calls "$CALLS")
[ -n "${ROUTINE:-}" ] && drv_args+=(--routine "$ROUTINE")
[ -n "${IMPL:-}" ] && drv_args+=(--impl "$IMPL")
[ -n "${OFFSETS:-}" ] && drv_args+=(--offsets "$OFFSETS")
[ -n "${EXTRA:-}" ] && drv_args+=(--extra "$EXTRA")

qargs=("$@")
if [ -n "$sysroot" ] && ! printf '%s\n' "${qargs[@]+"${qargs[@]}"}" | grep -qx -- -L; then
    qargs=(-L "$sysroot" "${qargs[@]+"${qargs[@]}"}")
fi

# ---- Count -------------------------------------------------------------------------------
# Both methods leave $tmp/hits: "hit INDEX COUNT" per marker hit, in order.
if [ "$METHOD" = plugin ]; then
    so=$tmp/libaltmem-insncount.so
    "${HOST_CC:-cc}" -std=gnu11 -O2 -Wall -Wextra -Werror -fPIC -shared -fvisibility=hidden \
        -o "$so" "$src/tests/qemu-plugin/insncount.c" || die "building the plugin"
    "$qemu" "${qargs[@]+"${qargs[@]}"}" -plugin "$so,out=$tmp/report" "$drv" "${drv_args[@]+"${drv_args[@]}"}" \
        >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err" >&2; die "the driver failed under $qemu"; }
    [ -f "$tmp/report" ] || { cat "$tmp/err" >&2; die "the plugin wrote no report"; }
    grep '^hit ' "$tmp/report" >"$tmp/hits" || true
    summary=$(grep '^marks ' "$tmp/report")
    mark_pc=$(awk '{ print $4 }' <<<"$summary")
    entries=$(awk '{ print $6 }' <<<"$summary")
    [ "$entries" = 1 ] || die "the marker was entered at $entries addresses (want 1): $summary"
    how="TCG plugin tests/qemu-plugin/insncount.c"
else
    if grep -q -- '^-one-insn-per-tb' <<<"$help"; then step=-one-insn-per-tb; else step=-singlestep; fi
    mkfifo "$tmp/log"
    # "Trace CPU: HOSTPTR [CSBASE/PC/FLAGS/CFLAGS] SYMBOL" before each TB; one
    # instruction per TB, no chaining, so one line per executed instruction.
    awk -v mark=altmem_cost_mark '
        /^Trace / {
            if ($NF == mark) {
                split($4, f, "/"); pc = f[2]
                if (!(pc in seen)) { seen[pc] = 1; npc++; markpc = pc }
                printf "hit %d %d\n", h++, n
                next
            }
            n++
            next
        }
        /^Stopped execution/ { stopped++ }
        END { printf "summary %d %s %d %d\n", npc, markpc, stopped, n > "/dev/stderr" }
    ' <"$tmp/log" >"$tmp/hits" 2>"$tmp/awk.err" &
    awk_pid=$!
    "$qemu" "${qargs[@]+"${qargs[@]}"}" $step -d exec,nochain -D "$tmp/log" "$drv" \
        "${drv_args[@]+"${drv_args[@]}"}" >"$tmp/out" 2>"$tmp/err" ||
        { kill "$awk_pid" 2>/dev/null; cat "$tmp/err" >&2; die "the driver failed under $qemu"; }
    wait "$awk_pid" || die "reading the exec log failed"
    read -r _ entries mark_pc stopped _ <"$tmp/awk.err"
    [ "$entries" = 1 ] || die "the marker appeared at $entries addresses in the log (want 1; a stripped driver has no symbol)"
    # A TB whose execution was cut before its instruction is logged and then run again.
    [ "$stopped" = 0 ] || die "the log has $stopped 'Stopped execution' lines: a count would include a replay"
    how="exec log ($step -d exec,nochain)"
fi

drv_pc=$(awk '/^qemucost: mark/ { print $3 }' "$tmp/out")
[ -n "$drv_pc" ] || die "the driver printed no marker address"
[ "$((16#${drv_pc#0x}))" = "$((16#${mark_pc#0x}))" ] || die "the counted marker $mark_pc is not the driver's $drv_pc"

# ---- Segments -> instructions per call ----------------------------------------------------
awk '
    FNR == NR { hit[$2] = $3; nh++; next }
    $1 == "seg" {
        i = $2; if (!((2 * i + 1) in hit)) { print "missing hits for segment " i > "/dev/stderr"; bad = 1; exit 1 }
        c = hit[2 * i + 1] - hit[2 * i]
        key = $3 SUBSEP $5
        if ($4 == "nop") { nop[key] = c; next }
        if (!(key in nop)) { print "no nop segment before " $0 > "/dev/stderr"; bad = 1; exit 1 }
        printf "%s %s %s %s %d %d %.2f\n", $3, $4, $5, $6, c, nop[key], (c - nop[key]) / $6 + 1
    }
    END { if (!bad && nh % 2) print "odd number of marker hits: " nh > "/dev/stderr" }
' "$tmp/hits" "$tmp/out" >"$tmp/raw" || die "pairing segments with marker hits failed"
[ -s "$tmp/raw" ] || die "no segment was measured"

# The planted loop must cost exactly 2n + 2 per call when nothing is added to it.
awk '$1 == "plant" && $2 == "loop" { want = 2 * $3 + 2; if ((ENVIRON["EXTRA"] + 0) == 0 && $7 + 0 != want)
        { printf "planted loop at %d: %s instructions per call, want %d\n", $3, $7, want; bad = 1 } }
     END { exit bad }' "$tmp/raw" >&2 || die "the planted loop was miscounted"

cpu="$*"
header="qemu: $qemu_version, options: ${cpu:-none}; counted by $how; ${CALLS:-4 (2 above 4 KiB)} calls per segment; dst and src 4096-aligned${OFFSETS:+ + $OFFSETS}"
if [ -n "${RAWOUT:-}" ]; then
    { echo "# $header"; grep '^skip ' "$tmp/out" || true; cat "$tmp/raw"; } >"$RAWOUT"
fi
fi # FROM_RAW

fmt=${FORMAT:-table}
if [ "$fmt" = raw ] || [ "$fmt" = both ]; then
    cat "$tmp/raw"
fi
[ "$fmt" = raw ] && exit 0

echo
echo "$header"
grep '^skip ' "$tmp/out" | sed 's/^skip /not runnable here: /' || true
echo
awk -v wide="$([ "$fmt" = wide ] && echo 1 || echo 0)" '
    function label(s) { return s == "avg" ? "0-64 (mean)" : s }
    # value, per byte and the ual and libc values of (r, v) at size label s
    function get(r, v, s) {
        if (s == "avg") {
            if (cnt[r, v] < 65) return 0
            X = sum[r, v] / cnt[r, v]; PB = sum[r, v] / bytes[r, v]
            U = cnt[r, "ual"] == 65 ? sum[r, "ual"] / cnt[r, "ual"] : ""
            L = cnt[r, "libc"] == 65 ? sum[r, "libc"] / cnt[r, "libc"] : ""
            return 1
        }
        if (!((r, v, s) in per)) return 0
        X = per[r, v, s]; PB = s > 0 ? X / s : ""
        U = ((r, "ual", s) in per) ? per[r, "ual", s] : ""
        L = ((r, "libc", s) in per) ? per[r, "libc", s] : ""
        return 1
    }
    $1 == "plant" { next }
    {
        r = $1; v = $2; n = $3; pc = $7
        if (!(r in rseen)) { rseen[r] = 1; rorder[++nr] = r }
        if (!((r, v) in vseen)) { vseen[r, v] = 1; vorder[r, ++nv[r]] = v }
        per[r, v, n] = pc
        if (n <= 64) { sum[r, v] += pc; cnt[r, v]++; bytes[r, v] += n }
        has[n] = 1
    }
    END {
        ns = split("avg 0 1 7 8 15 16 31 32 63 64 256 4096 65536", show, " ")
        if (wide) {
            # One table per routine: a row per size, a column per implementation;
            # a cell is instructions per call, per byte above 64 B, and the ratio
            # to ual (x ual) and to the C library (x libc).
            for (a = 1; a <= nr; a++) {
                r = rorder[a]
                printf "\n%s: instructions per call [per byte] (ratio to ual, to libc)\n\n| size (B) |", r
                for (b = 1; b <= nv[r]; b++) printf " %s |", vorder[r, b]
                printf "\n|---:|"
                for (b = 1; b <= nv[r]; b++) printf "---:|"
                printf "\n"
                for (k = 1; k <= ns; k++) {
                    s = show[k]
                    line = "| " label(s) " |"; any = 0
                    for (b = 1; b <= nv[r]; b++) {
                        v = vorder[r, b]
                        if (!get(r, v, s)) { line = line " - |"; continue }
                        any = 1
                        c = sprintf("%.1f", X)
                        if (s == "avg" || s > 64) c = c sprintf(" [%.3f]", PB)
                        q = ""
                        if (v != "ual" && U != "" && U > 0) q = sprintf("%.2f×ual", X / U)
                        if (v != "libc" && L != "" && L > 0) q = q (q == "" ? "" : " ") sprintf("%.2f×libc", X / L)
                        if (q != "") c = c " (" q ")"
                        line = line " " c " |"
                    }
                    if (any) print line
                }
            }
        } else {
        print "| routine | variant | size (B) | instructions per call | instructions per byte | ratio to ual | ratio to libc |"
        print "|---|---|---:|---:|---:|---:|---:|"
        for (a = 1; a <= nr; a++) {
            r = rorder[a]
            for (b = 1; b <= nv[r]; b++) {
                v = vorder[r, b]
                for (k = 1; k <= ns; k++) {
                    s = show[k]
                    if (!get(r, v, s)) continue
                    printf "| %s | %s | %s | %.1f | %s | %s | %s |\n", r, v, label(s), X,
                           PB == "" ? "-" : sprintf("%.3f", PB),
                           (U == "" || U == 0) ? "-" : sprintf("%.2f", X / U),
                           (L == "" || L == 0) ? "-" : sprintf("%.2f", X / L)
                }
            }
        }
        }
        # The goals: per byte at 4 KiB and 64 KiB against ual (<= 0.5), per call at
        # 0-64 B against the C library (<= 1).
        print ""
        print "| goal | routine | variant | measured | goal met |"
        print "|---|---|---|---:|---|"
        for (a = 1; a <= nr; a++) {
            r = rorder[a]
            for (b = 1; b <= nv[r]; b++) {
                v = vorder[r, b]
                if (v == "ual" || v == "generic" || v == "libc") continue
                for (k = 1; k <= 2; k++) {
                    s = k == 1 ? 4096 : 65536
                    if (!((r, v, s) in per) || !((r, "ual", s) in per)) continue
                    q = per[r, v, s] / per[r, "ual", s]
                    printf "| insns/byte vs ual at %d B <= 0.5 | %s | %s | %.3f | %s |\n", s, r, v, q,
                           q <= 0.5 ? "yes" : sprintf("no (%.1f%% over)", (q / 0.5 - 1) * 100)
                }
            }
            if (cnt[r, "libc"] != 65) continue
            for (b = 1; b <= nv[r]; b++) {
                v = vorder[r, b]
                # generic is the strict-alignment fallback, not a candidate here
                if (v == "libc" || v == "generic" || cnt[r, v] != 65) continue
                q = sum[r, v] / sum[r, "libc"]
                worse = 0
                for (s = 0; s <= 64; s++) if (per[r, v, s] > per[r, "libc", s]) worse++
                printf "| insns/call vs libc at 0-64 B <= 1 | %s | %s | %.2f (mean), more at %d of 65 sizes | %s |\n",
                       r, v, q, worse, q <= 1 ? (worse ? "on the mean" : "yes") : sprintf("no (%.1f%% over)", (q - 1) * 100)
            }
        }
    }
' "$tmp/raw"
