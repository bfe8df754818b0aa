#!/usr/bin/python3
"""The block layers' prefill pattern, recomputed here from its definition and
not from cephbench's code: the 8-byte little-endian word at byte offset OFF
of device INDEX (its place in the device: list) is
splitmix64((INDEX << 48) ^ (OFF >> 3)).

  krbd_pattern.py check PATH INDEX             every byte of PATH holds it
  krbd_pattern.py has PATH INDEX OFFSET LEN    the range holds it (quiet)

Exit 0 when it does, 1 when it does not (check prints the first mismatch
and how many words differ), 2 on bad usage. PATH is read with O_DIRECT when
the file system allows it, so a block device is read past its page cache.
"""
import mmap
import os
import struct
import sys

MASK = (1 << 64) - 1
CHUNK = 1 << 20


def splitmix64(x):
    x = (x + 0x9E3779B97F4A7C15) & MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
    return x ^ (x >> 31)


def open_direct(path):
    try:
        return os.open(path, os.O_RDONLY | os.O_DIRECT)
    except OSError:
        return os.open(path, os.O_RDONLY)


def chunks(fd, start, end):
    """(offset, bytes) pieces of [start, end), read in aligned 1 MiB reads."""
    buf = mmap.mmap(-1, CHUNK)  # page-aligned, as O_DIRECT wants
    off = start - start % 4096
    while off < end:
        n = os.preadv(fd, [buf], off)
        if n <= 0:
            raise SystemExit("%d: short read at offset %d" % (fd, off))
        lo, hi = max(start - off, 0), min(end - off, n)
        yield off + lo, bytes(buf[lo:hi])
        off += n


def mismatches(fd, index, start, end):
    """(first mismatching offset or -1, number of mismatching words)."""
    base = index << 48
    first, bad = -1, 0
    for off, data in chunks(fd, start, end):
        words = struct.unpack("<%dQ" % (len(data) // 8), data[: len(data) // 8 * 8])
        k0 = off >> 3
        for k, w in enumerate(words):
            if w != splitmix64(base ^ (k0 + k)):
                if first < 0:
                    first = off + 8 * k
                bad += 1
    return first, bad


def main(argv):
    if len(argv) == 4 and argv[1] == "check":
        path, index = argv[2], int(argv[3])
        fd = open_direct(path)
        size = os.lseek(fd, 0, os.SEEK_END)
        first, bad = mismatches(fd, index, 0, size)
        if bad:
            print("%s: %d of %d words differ from the pattern of device %d, the first at offset %d"
                  % (path, bad, size // 8, index, first))
            return 1
        print("%s: all %d bytes hold the pattern of device %d" % (path, size, index))
        return 0
    if len(argv) == 6 and argv[1] == "has":
        path, index, off, n = argv[2], int(argv[3]), int(argv[4]), int(argv[5])
        fd = open_direct(path)
        return 1 if mismatches(fd, index, off, off + n)[1] else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
