# SPDX-License-Identifier: BSD-3-Clause
# scale_plot.py: the plots of bench/scale.sh's page. Reads the run's summary lines (one per
# launch: key=value words, layout= and pes= naming the run, done=1 where it gave figures) and
# draws, against the PE count on a log-2 axis, one line per layout (symm under symmrun, Open
# MPI's OpenSHMEM under oshrun, symm over K test hosts): the time from launch to the first
# barrier; the resident memory per PE after the first barrier; the TCP connections per PE
# after the first barrier and at the end, and the UCX endpoints per PE; the latencies of the
# barrier, the 8-B alltoall and the 1-MiB fcollect. Each plot is PREFIX-NAME.png.
#
# Usage: python3 bench/scale_plot.py RESULTS PREFIX
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FixedLocator, NullLocator, ScalarFormatter  # noqa: E402


def plotted(layout):
    """symmrun, oshrun and hK (symm over K test hosts); the floor's runs (fK) and the target's
    alternating runs (rhK, rfK) are the page's tables, not its curves."""
    return layout in ("symmrun", "oshrun") or (layout[:1] == "h" and layout[1:].isdigit())


def read(path):
    """Every run that gave figures: {layout: {pes: {key: value}}}."""
    runs = {}
    with open(path) as f:
        for line in f:
            kv = dict(w.split("=", 1) for w in line.split() if "=" in w)
            if kv.get("done") != "1" or not plotted(kv.get("layout", "")):
                continue
            runs.setdefault(kv["layout"], {})[int(kv["pes"])] = kv
    return runs


def order(layout):
    """symmrun, oshrun, then the test-host layouts by their count of hosts."""
    if layout == "symmrun":
        return (0, 0)
    if layout == "oshrun":
        return (1, 0)
    return (2, int(layout[1:]))


def label(layout):
    if layout == "symmrun":
        return "symm, symmrun (this host)"
    if layout == "oshrun":
        return "OSHMEM, oshrun (this host)"
    h = int(layout[1:])
    return f"symm, mpirun over {h} test host{'s' if h > 1 else ''}"


def style(layout):
    """OSHMEM dashed in black; symm's one-host run solid; test hosts in a sequence of colours."""
    if layout == "oshrun":
        return dict(color="black", linestyle="--", marker="s")
    if layout == "symmrun":
        return dict(color="tab:blue", linestyle="-", marker="o")
    colours = {1: "tab:orange", 2: "tab:green", 4: "tab:red", 8: "tab:purple", 16: "tab:brown"}
    return dict(color=colours.get(int(layout[1:]), "tab:gray"), linestyle="-", marker="^")


def pe_axis(ax, pes):
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(FixedLocator(pes))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_major_formatter(ScalarFormatter())
    ax.set_xlabel("PEs")
    ax.grid(True, which="both", alpha=0.3)


def lines(ax, runs, key, scale=1.0, only=None, faint=False):
    """One line per layout of KEY against PEs; faint: dotted, thinner and unlabelled."""
    drawn = False
    for layout in sorted(runs, key=order):
        if only and not only(layout):
            continue
        pts = [(n, float(kv[key]) * scale) for n, kv in sorted(runs[layout].items()) if key in kv]
        if not pts:
            continue
        st = style(layout)
        if faint:
            st.update(linestyle=":", linewidth=1, markersize=3)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], label=None if faint else label(layout),
                **st)
        drawn = True
    return drawn


def save(fig, prefix, name, legend_from=None):
    """Writes PREFIX-NAME.png; a figure of several plots gets one legend below them."""
    if legend_from is not None:
        handles, labels = legend_from.get_legend_handles_labels()
        fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=8, frameon=False)
        fig.tight_layout(rect=(0, 0.1, 1, 1))
    else:
        fig.tight_layout()
    fig.savefig(f"{prefix}-{name}.png", dpi=110)
    plt.close(fig)


def main():
    runs = read(sys.argv[1])
    prefix = sys.argv[2]
    pes = sorted({n for r in runs.values() for n in r})
    if not pes:
        return

    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    lines(ax, runs, "launch")
    pe_axis(ax, pes)
    ax.axhline(3, color="gray", linestyle=":", linewidth=1)
    ax.annotate("target: 3 s at 64 PEs over 16 hosts", (pes[0], 3), xytext=(0, 4),
                textcoords="offset points", fontsize=8, color="gray")
    ax.set_ylim(bottom=0)
    ax.set_ylabel("seconds")
    ax.set_title("Launch to the first shmem_barrier_all (PE 0)")
    ax.legend(fontsize=8)
    save(fig, prefix, "launch")

    fig, axs = plt.subplots(1, 2, figsize=(11, 5.0))
    lines(axs[0], runs, "first_rss_mean", 1 / 1024)
    axs[0].set_title("Resident memory per PE after the first barrier")
    axs[0].set_ylabel("MiB (mean over PEs)")
    lines(axs[1], runs, "first_anon_mean", 1 / 1024)
    axs[1].set_title("... of which private (RssAnon)")
    axs[1].set_ylabel("MiB (mean over PEs)")
    for ax in axs:
        pe_axis(ax, pes)
        ax.set_ylim(bottom=0)
    save(fig, prefix, "rss", axs[0])

    fig, axs = plt.subplots(1, 2, figsize=(11, 5.0))
    lines(axs[0], runs, "end_tcp_mean")
    lines(axs[0], runs, "first_tcp_mean", faint=True)
    axs[0].set_title("TCP connections per PE: at the end; dotted, after the first barrier",
                     fontsize=10)
    axs[0].set_ylabel("sockets, not listening (mean over PEs)")
    if not lines(axs[1], runs, "eps_mean", only=lambda l: l.startswith("h")):
        axs[1].text(0.5, 0.5, "no endpoints line", ha="center", transform=axs[1].transAxes)
    axs[1].set_title("UCX endpoints per PE at finalize")
    axs[1].set_ylabel("endpoints (mean over PEs)")
    for ax in axs:
        pe_axis(ax, pes)
        ax.set_ylim(bottom=0)
    save(fig, prefix, "connections", axs[0])

    fig, axs = plt.subplots(1, 3, figsize=(15, 5.2))
    for ax, key, title in (
        (axs[0], "bar", "shmem_barrier_all"),
        (axs[1], "a2a", "alltoall, 8 B per pair"),
        (axs[2], "fc", "fcollect, 1 MiB per PE"),
    ):
        lines(ax, runs, key)
        pe_axis(ax, pes)
        ax.set_yscale("log")
        ax.set_ylabel("µs per call (median)")
        ax.set_title(title)
    save(fig, prefix, "latency", axs[0])


if __name__ == "__main__":
    main()
