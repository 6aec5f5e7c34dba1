# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
"""Writes docs/bench-moe.md and its plot from what bench/moe/run.sh collected: the key=value
lines of moe_gpu --bench and nccl_moe.py, the commands that printed them and the machine.

    python3 bench/moe/report.py WORKDIR DOC PNG

WORKDIR holds results.txt, commands.txt, machine.txt and note.txt. The plot is drawn with
matplotlib where it imports, else with gnuplot where it is on PATH, else left out."""

import os
import shutil
import subprocess
import sys
import tempfile


def lines(path):
    try:
        with open(path) as f:
            return [l.rstrip("\n") for l in f]
    except OSError:
        return []


def block(title, path):
    """A section holding a file's lines as a code block."""
    return ["## %s\n\n```" % title] + lines(path) + ["```\n"]


def parse(results):
    symm, nccl = {}, {}
    for l in results:
        for tag, into in (("moe_gpu bench:", symm), ("nccl_moe bench:", nccl)):
            if l.startswith(tag):
                kv = dict(p.split("=", 1) for p in l[len(tag):].split())
                into[int(kv["tokens"])] = kv
    return symm, nccl


def num(kv, key):
    return float(kv[key]) if kv and key in kv else None


def fmt(v, spec, unit=""):
    return "-" if v is None else format(v, spec) + unit


def rows(symm, nccl):
    out = []
    for t in sorted(set(symm) | set(nccl)):
        s, n = symm.get(t), nccl.get(t)
        d, c = num(s, "dispatch_us"), num(s, "combine_us")
        dg, cg = num(s, "dispatch_gbs"), num(s, "combine_gbs")
        cdg, ccg = num(s, "ceiling_dispatch_gbs"), num(s, "ceiling_combine_gbs")
        nt = num(n, "total_us")
        e2e = d + c if d is not None and c is not None else None
        out.append({
            "tokens": t, "d": d, "dg": dg, "c": c, "cg": cg, "cdg": cdg, "ccg": ccg,
            "dr": dg / cdg if dg is not None and cdg else None,
            "cr": cg / ccg if cg is not None and ccg else None,
            "e2e": e2e, "nd": num(n, "dispatch_us"), "nc": num(n, "combine_us"), "nt": nt,
            "speedup": nt / e2e if nt is not None and e2e else None,
        })
    return out


def plot_matplotlib(table, png):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    t = [r["tokens"] for r in table]
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2))
    for key, label in (("dg", "symm dispatch"), ("cg", "symm combine"),
                       ("cdg", "peer-store ceiling")):
        a.plot(t, [r[key] for r in table], marker="o", label=label)
    a.set(xscale="log", xlabel="tokens per PE", ylabel="GB/s leaving each GPU",
          title="Bandwidth")
    a.set_xticks(t, [str(v) for v in t], rotation=45)
    a.legend()
    for key, label in (("e2e", "symm dispatch + combine"), ("nt", "NCCL all_to_all path")):
        b.plot(t, [r[key] for r in table], marker="o", label=label)
    b.set(xscale="log", yscale="log", xlabel="tokens per PE", ylabel="µs",
          title="End to end")
    b.set_xticks(t, [str(v) for v in t], rotation=45)
    b.legend()
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    return True


def plot_gnuplot(table, png):
    if shutil.which("gnuplot") is None:
        return False
    with tempfile.TemporaryDirectory() as d:
        data = os.path.join(d, "moe.dat")
        with open(data, "w") as f:
            for r in table:
                f.write(" ".join("NaN" if r[k] is None else str(r[k])
                                 for k in ("tokens", "dg", "cg", "cdg", "e2e", "nt")) + "\n")
        script = (
            "set terminal pngcairo size 1100,420\n"
            "set output '%s'\n"
            "set multiplot layout 1,2\n"
            "set logscale x 2\nset key top left\nset xlabel 'tokens per PE'\n"
            "set ylabel 'GB/s leaving each GPU'\nset title 'Bandwidth'\n"
            "plot '%s' u 1:2 w lp t 'symm dispatch', '' u 1:3 w lp t 'symm combine', "
            "'' u 1:4 w lp t 'peer-store ceiling'\n"
            "set logscale y\nset ylabel 'us'\nset title 'End to end'\n"
            "plot '%s' u 1:5 w lp t 'symm dispatch + combine', "
            "'' u 1:6 w lp t 'NCCL all_to_all path'\n"
            "unset multiplot\n" % (png, data, data))
        return subprocess.run(["gnuplot"], input=script, text=True).returncode == 0


def main():
    work, doc, png = sys.argv[1:4]
    symm, nccl = parse(lines(os.path.join(work, "results.txt")))
    table = rows(symm, nccl)
    any_s = next(iter(symm.values()), None)
    pes = int(any_s["pes"]) if any_s else int(next(iter(nccl.values()), {"pes": 0})["pes"])
    plotted = bool(table) and (plot_matplotlib(table, png) or plot_gnuplot(table, png))
    w = []
    w.append("# MoE dispatch and combine on GPUs: symm against the peer-store ceiling and NCCL\n")
    w.append("Written by `bench/moe/run.sh` from one run; every figure below was measured in it.\n")
    for l in lines(os.path.join(work, "note.txt")):
        w.append("**%s**\n" % l)
    w += block("Machine", os.path.join(work, "machine.txt"))
    w.append("## What is measured\n")
    if any_s:
        w.append("DeepSeek-V3 shapes: hidden %s, bfloat16, top-%s of %s experts, %d PEs (one GPU "
                 "each), %s channels (thread blocks) in symm's kernels; %s warm-up rounds, then "
                 "the mean of %s.\n" % (any_s["hidden"], any_s["topk"], any_s["experts"], pes,
                                         any_s["channels"], any_s["warmup"], any_s["iters"]))
    w.append(
        "- **symm**: `moe_gpu --bench` (`examples/moe/moe_gpu.cu`): rounds of dispatch, experts "
        "and combine on one stream with no host synchronisation, timed by CUDA events between "
        "the kernels; the largest time over the PEs. Bytes are those stored into other PEs' "
        "slots: a record (indices, weights and the token) per (token, destination PE) in "
        "dispatch, a bfloat16 row per (token, destination PE) in combine. GB/s = bytes / time.\n"
        "- **Ceiling**: in the same job, a kernel on every SM that only stores the same number "
        "of bytes into the next PE's device memory through symm's view of the device heap "
        "(NVLink), every PE at once.\n"
        "- **NCCL path**: `bench/moe/nccl_moe.py`, what a PyTorch user writes: "
        "`torch.distributed` on NCCL, the destination mask and the sort of tokens by PE, "
        "`all_to_all_single` of the counts (read on the host to size the buffers), "
        "`all_to_all_single` of the tokens and of their indices and weights, the grouping by "
        "local expert; combine weighs the expert outputs, sends the partial sums back with "
        "`all_to_all_single` and adds them in token order. Same traffic as symm; timed by "
        "events end to end (dispatch + combine), the largest over the ranks.\n")
    w += block("Commands", os.path.join(work, "commands.txt"))
    w.append("## Results\n")
    if table:
        w.append("| tokens | symm dispatch µs | GB/s | symm combine µs | GB/s | ceiling GB/s "
                 "| dispatch / ceiling | combine / ceiling | symm end to end µs | NCCL path µs "
                 "| NCCL / symm |")
        w.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for r in table:
            w.append("| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                r["tokens"], fmt(r["d"], ".1f"), fmt(r["dg"], ".1f"), fmt(r["c"], ".1f"),
                fmt(r["cg"], ".1f"), fmt(r["cdg"], ".1f"),
                fmt(None if r["dr"] is None else 100 * r["dr"], ".0f", "%"),
                fmt(None if r["cr"] is None else 100 * r["cr"], ".0f", "%"),
                fmt(r["e2e"], ".1f"), fmt(r["nt"], ".1f"), fmt(r["speedup"], ".2f", "x")))
        w.append("\nCeiling GB/s: the store kernel on the dispatch's bytes (on the combine's bytes: "
                 + ", ".join("%d: %s" % (r["tokens"], fmt(r["ccg"], ".1f")) for r in table)
                 + "). NCCL path split into dispatch / combine µs: "
                 + ", ".join("%d: %s / %s" % (r["tokens"], fmt(r["nd"], ".1f"),
                                              fmt(r["nc"], ".1f")) for r in table) + ".\n")
        if plotted:
            w.append("![bandwidth and end-to-end time over tokens per PE](%s)\n"
                     % os.path.basename(png))
        head = next((r for r in table if r["tokens"] == 4096), None)
        if head and None not in (head["dr"], head["cr"], head["speedup"]):
            ok = head["dr"] >= 0.7 and head["cr"] >= 0.7 and head["speedup"] >= 2
            w.append("## Targets at 4096 tokens per PE\n")
            w.append("Dispatch and combine each at least 70%% of the ceiling, and at least 2x "
                     "faster than the NCCL path end to end: dispatch %.0f%%, combine %.0f%%, "
                     "%.2fx: **%s**%s.\n" % (
                         100 * head["dr"], 100 * head["cr"], head["speedup"],
                         "met" if ok else "not met",
                         "" if pes >= 2 else " (1 PE: a smoke test, no bytes cross a link)"))
    else:
        w.append("No results: see the run's output.\n")
    with open(doc, "w") as f:
        f.write("\n".join(w))
    print("report: wrote %s%s" % (doc, " and " + png if plotted else " (no plotter found)"))


if __name__ == "__main__":
    main()
