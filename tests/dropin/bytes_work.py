"""A bytes/bytearray-heavy workload for tests/dropin/programs.sh.

CPython copies bytes objects with memcpy, grows and shrinks bytearrays with
memmove and fills with memset, so under `altmem run` nearly every line here
runs through altmem.  Everything printed is deterministic (fixed seeds,
digests of results): the output of a run with altmem must equal, byte for
byte, the output of a run without it.  Usage: python3 -I bytes_work.py [SCALE]
"""
import hashlib
import random
import struct
import sys
import zlib

scale = int(sys.argv[1]) if len(sys.argv) > 1 else 4
rng = random.Random(20240229)
out = []


def note(name, data):
    out.append("%-12s %10d %s" % (name, len(data), hashlib.sha256(data).hexdigest()[:32]))


# Building: join, concatenation, repetition of every size class.
pieces = [rng.randbytes(rng.randrange(0, 300)) for _ in range(4000 * scale)]
joined = b"".join(pieces)
note("join", joined)
note("repeat", b"ab\x00cd" * (50000 * scale) + pieces[7] * 1000)
acc = bytearray()
for p in pieces:
    acc += p
    if len(acc) > 70000:
        del acc[: len(acc) // 3]       # memmove of the tail down
note("append-del", bytes(acc))

# Slicing at every alignment, and slice assignment that resizes (memmove).
buf = bytearray(joined[: 200000 * scale])
for i in range(2000 * scale):
    a = rng.randrange(0, len(buf) - 600)
    n = rng.randrange(0, 512)
    chunk = bytes(buf[a : a + n])
    b = rng.randrange(0, len(buf) - 600)
    buf[b : b + n // 2] = chunk        # grows or shrinks the array in the middle
note("slice-asgn", bytes(buf))

# Insert and remove at the front: the whole array moves each time.
front = bytearray(rng.randbytes(20000))
for i in range(300 * scale):
    front[0:0] = pieces[i % len(pieces)][:50]
    del front[-25:]
    front.insert(3, i & 0xFF)
    front.pop(1)
note("front", bytes(front))

# memoryview copies, overlapping both ways.
mv_buf = bytearray(rng.randbytes(65536))
mv = memoryview(mv_buf)
for i in range(3000 * scale):
    n = rng.randrange(1, 4096)
    s = rng.randrange(0, 65536 - n)
    d = min(max(s + rng.randrange(-64, 65), 0), 65536 - n)
    mv[d : d + n] = mv_buf[s : s + n]
note("memoryview", bytes(mv_buf))

# Fills (memset) and multiplication of bytearrays.
fill = bytearray(100000 * scale)
for i in range(1000 * scale):
    a = rng.randrange(0, len(fill))
    n = rng.randrange(0, 2000)
    fill[a : a + n] = bytes([i & 0xFF]) * len(fill[a : a + n])
note("fill", bytes(fill))
note("zeros", bytes(123457) + bytearray(7) * 9999)

# Searching, replacing, translating, splitting.
text = joined.replace(b"\x00", b"NUL").replace(b"\n", b"\r\n")
table = bytes.maketrans(bytes(range(256)), bytes(range(255, -1, -1)))
note("replace", text)
note("translate", text.translate(table))
note("split", b"|".join(sorted(text.split(b"\xff")[: 5000 * scale])))
note("find", struct.pack("<%dq" % 64, *[joined.find(bytes([i, i + 1])) for i in range(64)]))

# Packing and compression: struct, int <-> bytes, zlib both ways.
packed = b"".join(struct.pack("<IqHd", i, -i * 977, i & 0xFFFF, i / 7) for i in range(20000 * scale))
note("struct", packed)
note("int-bytes", b"".join(rng.getrandbits(700).to_bytes(88, "little") for _ in range(3000)))
comp = zlib.compress(joined, 6)
note("zlib", comp)
assert zlib.decompress(comp) == joined
note("bytes-sort", b"".join(sorted(pieces)))

print("\n".join(out))
