# gdb script of scripts/small-cost.sh --width W: single-steps bench/stepcost.c's
# calls and prints, per "ROUTINE IMPL SIZE", the instructions executed between
# stepcost_begin's return and the call of stepcost_end, the taken jumps among them
# (a jump whose next pc is not the next instruction), and the transfers between
# general-purpose and vector registers (movd/movq either way, pinsr/pextr,
# vpbroadcast from a GPR) and from a GPR to an opmask (kmov), and the stores
# (instructions whose destination is memory) with the bytes they write (the
# source register's width; a masked store counts whole).  Output lines:
#   COST ROUTINE IMPL SIZE INSNS TAKEN XFER KMOV STORES BYTES
# With STEPCOST_TRACE=1 in the environment, also each instruction stepped:
#   T ROUTINE IMPL SIZE PC INSTRUCTION
import os
import re

import gdb

gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("set disassembly-flavor att")

GPR = r"%(?:[re]?[a-d]x|[re]?[sd]i|[re]?[sb]p|r[0-9]+[dwb]?|[a-d][lh]|[sd]il)"
VEC = r"%[xyz]mm[0-9]+"
TO_VEC = re.compile(r"^\s*(?:v?movd|v?movq|vpbroadcast[bwdq]|v?pinsr[bwdq])\s+" + GPR + r"\s*,.*" + VEC + r"\s*$")
FROM_VEC = re.compile(r"^\s*(?:v?movd|v?movq|v?pextr[bwdq]|v?pmovmskb|v?movmskp[sd])\s+(?:\$[^,]+,)?" + VEC +
                      r"\s*,\s*" + GPR + r"\s*$")
# AT&T: the destination is the last operand; memory when it has a base/index.
STORE = re.compile(r"^\s*(\S+)\s+(?:\$[^,]+,)?(%[a-z0-9]+)\s*,\s*[^,%]*\([^)]*\)\s*(?:\{%k[0-7]\})?\s*$")
REG_BYTES = [(r"^%zmm", 64), (r"^%ymm", 32), (r"^%r[0-9]+d$", 4), (r"^%r[0-9]+w$", 2), (r"^%r[0-9]+b$", 1),
             (r"^%r", 8), (r"^%e", 4), (r"^%[a-d]l$|^%[sd]il$", 1), (r"^%[a-d]x$|^%[sd]i$", 2)]


def store_bytes(op, reg):
    if reg.startswith("%xmm"):
        if re.match(r"^v?movq$|^v?movlp[sd]$|^v?movhp[sd]$", op):
            return 8
        if re.match(r"^v?movd$|^v?movss$", op):
            return 4
        if op.endswith("sd"):
            return 8
        return 16
    for pat, n in REG_BYTES:
        if re.match(pat, reg):
            return n
    return 0


KMOV = re.compile(r"^\s*kmov[bwdq]\s+" + GPR + r"\s*,\s*%k[0-7]\s*$")

TRACE = os.environ.get("STEPCOST_TRACE") == "1"

gdb.Breakpoint("stepcost_begin", internal=True)
done = [False]
gdb.events.exited.connect(lambda ev: done.__setitem__(0, True))
gdb.execute("run", to_string=True)
# After run: a PIE's addresses are known only once it is loaded.
end_addr = int(gdb.parse_and_eval("(long)&stepcost_end"))
while not done[0]:
    tag = gdb.parse_and_eval("tag").string()
    gdb.execute("finish", to_string=True)
    arch = gdb.selected_frame().architecture()
    pc = int(gdb.parse_and_eval("$pc"))
    insns = taken = xfer = kmov = stores = nbytes = 0
    while pc != end_addr:
        ins = arch.disassemble(pc)[0]
        asm = ins["asm"]
        gdb.execute("stepi", to_string=True)
        npc = int(gdb.parse_and_eval("$pc"))
        insns += 1
        op = asm.split()[0] if asm.split() else ""
        if op.startswith("j") and npc != pc + ins["length"]:
            taken += 1
        if TO_VEC.match(asm) or FROM_VEC.match(asm):
            xfer += 1
        if KMOV.match(asm):
            kmov += 1
        st = STORE.match(asm)
        if st and not op.startswith(("cmp", "test", "j", "call", "push", "lea")):
            stores += 1
            nbytes += store_bytes(st.group(1), st.group(2))
        if TRACE:
            print("T %s %x %s" % (tag, pc, asm))
        pc = npc
    print("COST %s %d %d %d %d %d %d" % (tag, insns, taken, xfer, kmov, stores, nbytes))
    gdb.execute("continue", to_string=True)
