#!/usr/bin/python3
"""Synthetic cephbench-result/1 files with known differences, for
compare-cli.sh. usage: compare_gen.py DIR

Per-second ops are IOPS x (1 + e), e drawn from N(0, noise) and then
centred (their mean made 0), so each phase's sample mean is its true rate
exactly and a verdict does not hinge on a lucky or unlucky draw (the seed
is fixed anyway); the spread is still the noise's. Latency follows Little's
law (concurrency / rate). Each phase ends with a partial second (duration_s
is whole seconds + 0.4), as real results do. Repeats (iterations.iops) are
drawn the same way around their own rate, independently of the samples: a
file may say one thing per second and another per repeat, which is how the
test knows which the comparison used."""
import json
import math
import os
import random
import sys

rng = random.Random(20261130)
CONC, BS = 16, 4096


def hist_index(v, b=10):
    if v < 2 << b:
        return v
    s = v.bit_length() - 1 - b
    return ((s + 1) << b) + (v >> s) - (1 << b)


def centred(n, sd):
    e = [rng.gauss(0, sd) for _ in range(n)]
    m = sum(e) / n
    return [x - m for x in e]


def phase(name, iops, noise, nsec, reps=None, rep_noise=0.01, **extra):
    ops_s = [max(1, round(iops * (1 + e))) for e in centred(nsec, noise)]
    ops_s.append(round(0.4 * iops))  # the trailing partial second
    samples = []
    for t, ops in enumerate(ops_s):
        lat = CONC / ops * 1e6 if t < nsec else CONC / iops * 1e6
        samples.append({"t": t, "ops": ops, "bytes": ops * BS,
                        "lat_mean_us": lat, "lat_max_us": 3 * lat})
    ops, dur = sum(ops_s), nsec + 0.4
    mean = sum(s["ops"] * s["lat_mean_us"] for s in samples) / ops
    p = {"name": name, "layer": "rados", "op": "write", "pool": "bench",
         "block_size": BS, "concurrency": CONC, "clients": 1, "duration_s": dur,
         "ops": ops, "bytes": ops * BS, "read_ops": 0, "read_bytes": 0,
         "write_ops": ops, "write_bytes": ops * BS,
         "iops": ops / dur, "bw_bytes_per_s": ops * BS / dur, "errors": 0,
         "interrupted": False, "failed": False,
         "latency_us": {"min": int(mean / 2), "mean": mean, "max": int(mean * 5),
                        "stddev": mean / 3, "p50": int(mean), "p90": int(mean * 1.8),
                        "p99": int(mean * 2.5), "p99.9": int(mean * 4),
                        "p99.99": int(mean * 5)},
         "histogram": {"layout": "log-linear", "unit": "ns", "sub_bucket_bits": 10,
                       "max_exponent": 43, "count": ops,
                       "buckets": [[hist_index(int(mean * 1000)), ops]]},
         "samples": samples}
    if reps:
        r = [reps * (1 + e) for e in centred(5, rep_noise)]
        m = sum(r) / len(r)
        p["iterations"] = {"count": len(r), "iops_max": max(r), "iops_min": min(r),
                           "iops_mean": m,
                           "iops_stddev": math.sqrt(sum((x - m) ** 2 for x in r) / len(r)),
                           "iops": r}
    p.update(extra)
    return p


def result(phases, schema="cephbench-result/1"):
    return {"schema": schema, "tool": {"name": "cephbench", "version": "0.1.0"},
            "cluster": {"fsid": "00000000-0000-0000-0000-000000000000",
                        "ceph_version": "16.2.15"},
            "host": "synthetic", "started": "2026-11-30T12:00:00Z", "run_name": "syn",
            "profile": {"name": "syn", "sha256": "0" * 64},
            "interrupted": any(p["interrupted"] for p in phases),
            "phases": phases}


def write(d, name, doc):
    with open(os.path.join(d, name), "w") as f:
        json.dump(doc, f, indent=1)


def main(d):
    # (a) +10 % IOPS, 1 % noise, 60 s; a phase each side alone; a phase of
    # one whole second, too short to test
    write(d, "base.json", result([phase("w", 10000, 0.01, 60), phase("only-a", 100, 0.01, 10),
                                  phase("short", 100, 0.01, 1)]))
    write(d, "up10.json", result([phase("w", 11000, 0.01, 60), phase("only-b", 100, 0.01, 10),
                                  phase("short", 200, 0.01, 1)]))
    write(d, "down10.json", result([phase("w", 9000, 0.01, 60)]))
    # (b) +1 % within 5 % noise, 20 s
    write(d, "noisy-base.json", result([phase("w", 10000, 0.05, 20)]))
    write(d, "noisy-up1.json", result([phase("w", 10100, 0.05, 20)]))
    # (c) repeats: the per-second samples say nothing (same rate, 5 % noise);
    # the 5 repeats' rates carry the shift, so a verdict proves they were used
    write(d, "rep-base.json", result([phase("w", 10000, 0.05, 20, reps=10000)]))
    write(d, "rep-up10.json", result([phase("w", 10000, 0.05, 20, reps=11000)]))
    write(d, "rep-up1.json", result([phase("w", 10000, 0.05, 20, reps=10100, rep_noise=0.05)]))
    # (e) a matrix run: pool x block_size, a prefill step, rows alone
    def row(name, iops, pool, bs, step=None, workload="w"):
        extra = {"workload": workload, "matrix": {"pool": pool, "block_size": bs}}
        if bs is None:
            del extra["matrix"]["block_size"]
        if step:
            extra["step"] = step
        return phase(name, iops, 0.01, 30, **extra)
    write(d, "matrix.json", result([
        row("w-ssd-4K.prefill", 500, "ssd", "4K", step="prefill"),
        row("w-ssd-4K", 10000, "ssd", "4K"),
        row("w-hdd-4K", 5000, "hdd", "4K"),
        row("w-nvme-4K", 20000, "nvme", "4K"),
        row("w-hdd-64K", 3000, "hdd", "64K"),
        row("w-ssd-64K", 6000, "ssd", "64K"),
        row("w-hdd-4K.prefill", 250, "hdd", "4K", step="prefill"),
        phase("plain", 100, 0.01, 10),
        row("solo-ssd", 100, "ssd", None, workload="solo"),
    ]))
    # (g) phases cut short: B interrupted after 20 s at half the rate (a drop
    # --fail-if-worse must not judge), A failed on errors, and a 10 % drop
    # with op errors within max_errors (still judged)
    write(d, "intr-down50.json", result([phase("w", 5000, 0.01, 20, interrupted=True)]))
    write(d, "failed-a.json", result([phase("w", 10000, 0.01, 60, errors=1001, failed=True)]))
    write(d, "errs-down10.json", result([phase("w", 9000, 0.01, 60, errors=12)]))
    # (f) bad inputs
    write(d, "wrong-schema.json", result([phase("w", 100, 0.01, 5)], schema="x"))
    with open(os.path.join(d, "not.json"), "w") as f:
        f.write("rados bench output, not JSON\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else sys.exit("usage: compare_gen.py DIR"))
