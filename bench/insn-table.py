# SPDX-License-Identifier: GPL-3.0-or-later
"""bench/insn-table.py RAW COUNTS MD KVER REPS RUNNOTE: bench/run-insn's table.

RAW: the INSN- lines of the VM (entries, variants); COUNTS: the counter's
file ("LABEL USER KERNEL" per window, bench/vm-insn-bench.sh names the
labels).  Writes the Markdown table MD and prints it.
"""
import statistics
import sys


def medians(counts, prefix, reps):
    """Median user and kernel counts of the windows PREFIX-1..REPS, and their spread."""
    rows = [counts[f"{prefix}-{r}"] for r in range(1, reps + 1) if f"{prefix}-{r}" in counts]
    if not rows:
        return None
    u = statistics.median(x for x, _ in rows)
    k = statistics.median(y for _, y in rows)
    spread = max((max(c) - min(c)) / statistics.median(c) if statistics.median(c) else 0
                 for c in ([x for x, _ in rows], [y for _, y in rows]))
    return u, k, spread


def main():
    """Read the inputs, write and print the table."""
    raw, cnt, md, kver, reps, note = sys.argv[1:]
    reps = int(reps)
    entries, variants = 0, []
    for line in open(raw):
        f = line.split()
        if f[0] == "INSN-ENTRIES":
            entries = int(f[1])
        elif f[0] == "INSN-VARIANTS":
            variants = f[1:]
    counts = {}
    for line in open(cnt):
        f = line.split()
        if len(f) == 3:
            counts[f[0]] = (int(f[1]), int(f[2]))
    base = medians(counts, "base", reps)
    if not base or not entries:
        sys.exit("insn-table: no baseline windows or no entries")
    names = {"GNU": "GNU ls 9.1", "sync": "lsplus sync", "getdentsplus": "lsplus getdentsplus",
             "uring": "lsplus uring"}
    out = ["<!-- SPDX-License-Identifier: GPL-3.0-or-later -->",
           "# ls -lR in guest instructions: GNU ls 9.1 vs lsplus backends",
           "",
           f"QEMU TCG with the instruction counter (tests/kmod/qemu/insn-count.c), Debian kernel "
           f"{kver} with getdentsplus.ko loaded; `ls -lR` of the rig's ext4 fixture tree "
           f"(/mnt/ext4/tree, {entries:,} entries, -o acl), output to /dev/null, LC_ALL=C, warm "
           f"(one unmeasured run each first); medians of {reps} alternating rounds. lsplus runs "
           "with LSPLUS_THREADS=0. Instructions of every vCPU between the window's marks "
           "(fork, exec, the run, exit, wait), minus the empty command's window "
           f"(`/bin/true`: {base[0]:,.0f} user, {base[1]:,.0f} kernel). 'startup' is the same "
           "ls -lR of an empty directory minus the empty command; 'net' divides by the entries "
           "after subtracting the startup too. Spread: the largest (max - min) / median of the "
           f"tree windows' user or kernel counts. Boot: {note}.",
           "",
           "| variant | user/entry | kernel/entry | total/entry | vs GNU | net user/entry | "
           "net kernel/entry | startup user | startup kernel | spread |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    gnu_total = None
    for v in variants:
        t = medians(counts, f"{v}-tree", reps)
        e = medians(counts, f"{v}-empty", reps)
        if not t or not e:
            continue
        u = (t[0] - base[0]) / entries
        k = (t[1] - base[1]) / entries
        if gnu_total is None and v == "GNU":
            gnu_total = u + k
        ratio = f"{(u + k) / gnu_total:.2f}x" if gnu_total else "-"
        out.append(f"| {names.get(v, v)} | {u:,.0f} | {k:,.0f} | {u + k:,.0f} | {ratio} | "
                   f"{(t[0] - e[0]) / entries:,.0f} | {(t[1] - e[1]) / entries:,.0f} | "
                   f"{e[0] - base[0]:,.0f} | {e[1] - base[1]:,.0f} | {100 * t[2]:.2f} % |")
    cal = {k: v for k, v in counts.items() if k.startswith("cal-getpid-")}
    if len(cal) == 3:
        k1, k2 = cal["cal-getpid-40000-a"][1], cal["cal-getpid-80000-a"][1]
        out += ["", f"Calibration in the same boot: getpid() costs {(k2 - k1) / 40000:.1f} kernel "
                "instructions per call (slope from 40,000 to 80,000 calls); a user loop of 3 "
                "instructions counts 3 per iteration exactly."]
    text = "\n".join(out) + "\n"
    with open(md, "w") as f:
        f.write(text)
    sys.stdout.write(text)


main()
