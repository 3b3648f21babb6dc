#!/usr/bin/env python3
"""fatbin_mutants.py TKSIM PROGRAM N: issue 29's experiment as a test. The
.hip_fatbin section of a plain HIP program (its offload bundle, which
__hipRegisterFatBinary gets by pointer alone) is mutated N times - bit flips,
overwritten bytes, zeroed runs, and 8-byte fields (bundle entry offsets and
sizes, ELF header offsets) set to all ones, half of them in the bundle's
header and entry table - and each mutant runs under tksim. A mutant may fail
(a refused image, a wrong result) but must not die by a signal or hang.
Exit 0 when none did; prints the counts either way."""
import os, random, struct, subprocess, sys, tempfile

def main():
    tksim, prog, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    data = open(prog, 'rb').read()
    shoff = struct.unpack_from('<Q', data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    sh = lambda i: struct.unpack_from('<IIQQQQIIQQ', data, shoff + i * shentsize)
    stro = sh(shstrndx)[4]
    fat = None
    for i in range(shnum):
        s = sh(i)
        if data[stro + s[0]: data.index(b'\0', stro + s[0])] == b'.hip_fatbin':
            fat = (s[4], s[5])
    if not fat:
        print(f"fatbin_mutants: {prog} has no .hip_fatbin section")
        return 2
    off, size = fat
    rng = random.Random(29)
    died, codes = {}, {}
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'mutant')
        for k in range(n):
            m = bytearray(data)
            kind = k % 4
            if kind == 0:
                for _ in range(rng.randint(1, 8)):
                    o = off + rng.randrange(size); m[o] ^= 1 << rng.randrange(8)
            elif kind == 1:
                for _ in range(rng.randint(1, 16)):
                    m[off + rng.randrange(size)] = rng.randrange(256)
            elif kind == 2:
                o = off + rng.randrange(size); L = min(rng.randint(1, 64), off + size - o); m[o:o + L] = bytes(L)
            else:
                span = 256 if k % 8 == 3 else size
                o = off + rng.randrange(max(span // 8, 1)) * 8
                m[o:o + 8] = b'\xff' * 8
            open(path, 'wb').write(m)
            os.chmod(path, 0o755)
            try:
                rc = subprocess.run([tksim, '--quiet', path], capture_output=True, timeout=120).returncode
            except subprocess.TimeoutExpired:
                rc = 'timeout'
            if rc == 'timeout' or rc < 0 or rc >= 128:
                died[rc] = died.get(rc, 0) + 1
            else:
                codes[rc] = codes.get(rc, 0) + 1
    print(f"fatbin_mutants: {n} mutants of {os.path.basename(prog)}'s {size}-byte .hip_fatbin: "
          f"{sum(died.values())} died by a signal or hung {died}; exit codes {codes}")
    return 1 if died else 0

if __name__ == '__main__':
    sys.exit(main())
