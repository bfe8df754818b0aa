#!/usr/bin/python3
"""What every row of a block layer's every-op run must show (rbd.sh, krbd.sh).

usage: block_phases.py RESULT.json LAYER TARGET FILL_BYTES NAME:OP...

The rows are exactly NAME:OP..., in order; each ran on LAYER against TARGET
(the pool, or the device) with no error; its reads and writes add up to its
ops and bytes; a prefill row wrote FILL_BYTES once in 4M writes; the others
moved 4K per op, reading only (read, randread), writing only (write,
randwrite), or both (rw, randrw). Exit 1 with the first broken rule.
"""
import json
import sys


def main():
    path, layer, target, fill = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    want = [tuple(a.split(":")) for a in sys.argv[5:]]
    ph = json.load(open(path))["phases"]
    got = [(p["name"], p["op"]) for p in ph]
    assert got == want, "phases: %s" % got
    for p in ph:
        n = p["name"]
        print(f"{n}: {p['ops']} ops, {p['read_ops']} reads, {p['write_ops']} writes, {p['errors']} errors")
        assert p["layer"] == layer and p["pool"] == target, \
            n + ": layer/target " + p["layer"] + " " + p["pool"]
        assert p["ops"] > 0 and p["bytes"] > 0, n + ": nothing done"
        assert p["errors"] == 0 and not p["failed"], n + ": errors"
        assert p["read_ops"] + p["write_ops"] == p["ops"], n + ": read_ops + write_ops != ops"
        assert p["read_bytes"] + p["write_bytes"] == p["bytes"], n + ": read_bytes + write_bytes != bytes"
        if p["op"] == "prefill":
            # every byte of the target once, in 4M writes
            assert p["block_size"] == 4 << 20, n + ": prefill block_size %d" % p["block_size"]
            assert p["write_bytes"] == fill and p["write_ops"] == fill // (4 << 20), \
                n + ": prefill wrote %d bytes in %d ops" % (p["write_bytes"], p["write_ops"])
            continue
        assert p["block_size"] == 4096, n + ": block_size %d" % p["block_size"]
        assert p["bytes"] == 4096 * p["ops"], n + ": bytes != 4K * ops"
        if p["op"] in ("read", "randread"):
            assert p["write_ops"] == 0, n + ": a read op wrote"
        elif p["op"] in ("write", "randwrite"):
            assert p["read_ops"] == 0, n + ": a write op read"
        else:
            assert p["read_ops"] > 0 and p["write_ops"] > 0, n + ": rw did not mix"


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        print(f"FAIL: {e}", file=sys.stderr)
        sys.exit(1)
