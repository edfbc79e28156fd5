# SPDX-License-Identifier: GPL-3.0-or-later
"""bench/prod-table.py RAW COUNTS MD REPS RUNNOTE [FUSEMD]: the tables of `bench/run-insn --prod`.

RAW: the PROD- lines of the VM (bench/vm-prod-bench.sh: kernel, entries,
variants, filesystems, times, strace line and thread counts, RPC and
FUSE request counts, Zadok sizes); COUNTS: the instruction counter's file ("LABEL
USER KERNEL" per window).  Writes the Markdown page MD (issue 20 point
4: the side-by-side table, and the Zadok experiment when it ran) and
prints it; the FUSE rows, when there are any, go to the page FUSEMD
instead (with the FUSE requests per entry and by opcode).
"""
import statistics
import sys

NAMES = {"GNU": "GNU ls 9.1", "sync": "lsplus sync", "statx": "statx attributes",
         "uring-stock": "io_uring stock (punted)", "uring": "io_uring inline",
         "getdentsplus": "getdentsplus.ko (module)", "intree": "getdentsplus(2) in-tree"}


def med(values):
    """The median of VALUES, or None when there are none."""
    values = list(values)
    return statistics.median(values) if values else None


def spread(values):
    """(max - min) / median of VALUES, 0 when empty or the median is 0."""
    values = list(values)
    m = med(values)
    return (max(values) - min(values)) / m if values and m else 0.0


class Run:
    """What the VM and the counter reported: windows, times, traces."""

    def __init__(self, raw, cnt, reps):
        """Parse RAW's PROD- lines and COUNTS' windows."""
        self.reps = reps
        self.kernel, self.entries, self.variants, self.fs = "?", {}, [], []
        self.times, self.strace, self.errors = {}, {}, []
        self.zsizes, self.zfs, self.same = [], [], []
        self.rpc, self.nfsdelay = {}, None
        self.fusereq, self.fuseops, self.fusedaemon, self.fstime = {}, {}, None, {}
        self.tasks = {}
        for line in open(raw):
            f = line.split()
            if not f:
                continue
            if f[0] == "PROD-KERNEL":
                self.kernel = f[1]
            elif f[0] == "PROD-ENTRIES":
                self.entries[f[1]] = int(f[2])
            elif f[0] == "PROD-VARIANTS":
                self.variants = f[1:]
            elif f[0] == "PROD-FS":
                self.fs = f[1:]
            elif f[0] == "PROD-TIME" and len(f) == 5:
                self.times[f[1]] = tuple(float(x) for x in f[2:])
            elif f[0] == "PROD-STRACE" and len(f) == 3:
                self.strace[f[1]] = int(f[2])
            elif f[0] == "PROD-ZADOK-SIZES":
                self.zsizes = [int(x) for x in f[1:]]
            elif f[0] == "PROD-ZADOK-FS":
                self.zfs = f[1:]
            elif f[0] == "PROD-RPC" and len(f) == 3:
                self.rpc[f[1]] = int(f[2])
            elif f[0] == "PROD-NFSDELAY":
                self.nfsdelay = f[1]
            elif f[0] == "PROD-SAME" and len(f) == 3:
                self.same.append((f[1], f[2]))
            elif f[0] == "PROD-FUSEREQ" and len(f) == 3:
                self.fusereq[f[1]] = int(f[2])
            elif f[0] == "PROD-FUSEOPS" and len(f) >= 2:
                self.fuseops[f[1]] = {k: int(v) for k, v in (x.split("=", 1) for x in f[2:])}
            elif f[0] == "PROD-FUSE-DAEMON":
                self.fusedaemon = " ".join(f[1:])
            elif f[0] == "PROD-TASKS" and len(f) == 4:
                self.tasks[f[1]] = (int(f[2]), int(f[3]))
            elif f[0] == "PROD-FSTIME" and len(f) == 3:
                self.fstime[f[1]] = int(f[2])
            elif f[0] == "PROD-ERROR":
                self.errors.append(" ".join(f[1:]))
        self.counts = {}
        for line in open(cnt):
            f = line.split()
            if len(f) == 3:
                self.counts[f[0]] = (int(f[1]), int(f[2]))

    def labels(self, prefix):
        """The labels PREFIX-1..REPS."""
        return [f"{prefix}-{r}" for r in range(1, self.reps + 1)]

    def insn(self, prefix):
        """Median user and kernel instructions of PREFIX's windows and
        their spread, or None."""
        rows = [self.counts[x] for x in self.labels(prefix) if x in self.counts]
        if not rows:
            return None
        u, k = [x for x, _ in rows], [y for _, y in rows]
        return med(u), med(k), max(spread(u), spread(k))

    def time(self, prefix):
        """Median wall, user and system seconds of PREFIX's runs, or None."""
        rows = [self.times[x] for x in self.labels(prefix) if x in self.times]
        if not rows:
            return None
        return tuple(med(r[i] for r in rows) for i in range(3))


def main_table(run, out, fslist, extra=None):
    """Append the side-by-side table (one block per filesystem of FSLIST
    and cache); EXTRA: (column title, {label: count}) for a per-entry
    column after the syscalls (RPCs, FUSE requests)."""
    out += ["| fs | cache | variant | syscalls/entry | " + (f"{extra[0]} | " if extra else "")
            + "user insn/entry | kernel insn/entry | "
            "total insn/entry | vs GNU | wall ms | vs GNU | user+sys ms | spread |",
            "|---|---|---|---:|" + ("---:|" if extra else "")
            + "---:|---:|---:|---:|---:|---:|---:|---:|"]
    for fs in fslist:
        n = run.entries.get(fs)
        if not n:
            continue
        for cache in ("warm", "cold"):
            gnu = None
            for v in run.variants:
                t = run.insn(f"{v}-{fs}-{cache}")
                e = run.insn(f"{v}-empty")
                if not t or not e:
                    continue
                u, k = (t[0] - e[0]) / n, (t[1] - e[1]) / n
                tm = run.time(f"{v}-{fs}-{cache}")
                sc = run.strace.get(f"{v}-{fs}-{cache}")
                sc0 = run.strace.get(f"{v}-empty")
                scs = f"{(sc - sc0) / n:.3f}" if sc is not None and sc0 is not None else "-"
                if v == "GNU":
                    gnu = (u + k, tm[0] if tm else None)
                ratio = f"{(u + k) / gnu[0]:.2f}x" if gnu and gnu[0] else "-"
                wall = f"{1000 * tm[0]:,.0f}" if tm else "-"
                wr = f"{tm[0] / gnu[1]:.2f}x" if tm and gnu and gnu[1] else "-"
                cpu = f"{1000 * (tm[1] + tm[2]):,.0f}" if tm else "-"
                rp = extra[1].get(f"{v}-{fs}-{cache}") if extra else None
                rps = ((f"{rp / n:.3f} | " if rp is not None else "- | ") if extra else "")
                out.append(f"| {fs} | {cache} | {NAMES.get(v, v)} | {scs} | {rps}{u:,.0f} | {k:,.0f} | "
                           f"{u + k:,.0f} | {ratio} | {wall} | {wr} | {cpu} | {100 * t[2]:.1f} % |")


def startup_table(run, out):
    """Append each variant's startup (ls -lR of an empty directory)."""
    base = run.insn("base")
    out += ["", "Startup (ls -lR of an empty directory, warm, minus the empty command "
            f"`/bin/true`: {base[0]:,.0f} user, {base[1]:,.0f} kernel instructions), "
            "subtracted from every row above:", "",
            "| variant | user insn | kernel insn | syscalls |", "|---|---:|---:|---:|"]
    for v in run.variants:
        e = run.insn(f"{v}-empty")
        if e:
            out.append(f"| {NAMES.get(v, v)} | {e[0] - base[0]:,.0f} | {e[1] - base[1]:,.0f} | "
                       f"{run.strace.get(f'{v}-empty', '-')} |")


def pct(a, b):
    """Improvement of B over A in percent (positive: B is smaller)."""
    return f"{100 * (a - b) / a:.1f} %" if a else "-"


def zsys(run, fs, n, mode):
    """System calls per entry of a Zadok run (strace lines minus the empty directory's)."""
    c, c0 = run.strace.get(f"zk-{fs}-{n}-{mode}"), run.strace.get("zk-base")
    return f"{(c - c0) / n:.3f}" if c is not None and c0 is not None else "-"


def zadok_table(run, out):
    """Append the Zadok experiment: readdir+stat against the batch call."""
    if not run.zsizes:
        return
    base = run.insn("zk-base")
    tb = run.time("zk-base")
    out += ["", "## readdir + stat against the batch call (Zadok et al.'s experiment)", "",
            "`bench/vm-zadok.c` in the same boot: `stat` is readdir(3) + fstatat(2) of every "
            "entry (glibc's 32 KiB getdents64), `plus` is getdentsplus(2) with "
            "STATX_BASIC_STATS and a 512 KiB buffer; one directory of N empty files, warm "
            "(created just before; an unmeasured check run of each first). Improvement = "
            "(stat - plus) / stat of the medians; times and instructions are net of the same "
            "program over an empty directory (startup: "
            f"{1000 * tb[0]:.1f} ms wall, {base[0]:,.0f} user + {base[1]:,.0f} kernel "
            "instructions). The paper (Linux 2.6.10, ext3, real hardware) reports elapsed "
            "60.6-63.8 %, system 55.7-59.3 %, user 82.8-84.0 % improvement.", "",
            "| fs | files | elapsed stat ms | elapsed plus ms | elapsed | system | user | "
            "insn/entry stat | insn/entry plus | instructions | kernel insn | user insn | "
            "syscalls/entry stat | syscalls/entry plus |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for fs in run.zfs:
        for n in run.zsizes:
            s, p = run.insn(f"zk-{fs}-{n}-stat"), run.insn(f"zk-{fs}-{n}-plus")
            ts, tp = run.time(f"zk-{fs}-{n}-stat"), run.time(f"zk-{fs}-{n}-plus")
            if not (s and p and ts and tp):
                continue
            su, sk = s[0] - base[0], s[1] - base[1]
            pu, pk = p[0] - base[0], p[1] - base[1]
            ws, wp = ts[0] - tb[0], tp[0] - tb[0]
            out.append(
                f"| {fs} | {n:,} | {1000 * ws:,.1f} | {1000 * wp:,.1f} | {pct(ws, wp)} | "
                f"{pct(ts[2], tp[2])} | {pct(ts[1], tp[1])} | {(su + sk) / n:,.0f} | "
                f"{(pu + pk) / n:,.0f} | {pct(su + sk, pu + pk)} | {pct(sk, pk)} | "
                f"{pct(su, pu)} | {zsys(run, fs, n, 'stat')} | {zsys(run, fs, n, 'plus')} |")
    out += ["", "System and user time are the guest kernel's tick-sampled rusage "
            "(not net of startup; at 10-1,000 files they are a few ticks or none, so their "
            "percentages there mean little); elapsed is TCG wall time."]


def fuse_ops_table(run, out, fs):
    """Append the FUSE requests of each traced run by opcode."""
    ops = {}
    for v in run.variants:
        for cache in ("warm", "cold"):
            for k, c in run.fuseops.get(f"{v}-{fs}-{cache}", {}).items():
                ops[k] = ops.get(k, 0) + c
    if not ops:
        return
    cols = sorted(ops, key=lambda k: (-ops[k], k))
    n = run.entries[fs]
    out += ["", f"FUSE requests of each row's traced run by opcode ({n:,} entries), and "
            "the threads and processes in that run's strace (ls, its threads, and any process "
            "it ran) with their futex calls:", "",
            "| cache | variant | " + " | ".join(cols) + " | total | per entry | tasks | futex/entry |",
            "|---|---|" + "---:|" * (len(cols) + 4)]
    for cache in ("warm", "cold"):
        for v in run.variants:
            o = run.fuseops.get(f"{v}-{fs}-{cache}")
            if o is None:
                continue
            t = run.fusereq.get(f"{v}-{fs}-{cache}", sum(o.values()))
            tk = run.tasks.get(f"{v}-{fs}-{cache}")
            tks = f"{tk[0]} | {tk[1] / n:.3f}" if tk else "- | -"
            out.append(f"| {cache} | {NAMES.get(v, v)} | "
                       + " | ".join(f"{o.get(k, 0):,}" for k in cols)
                       + f" | {t:,} | {t / n:.3f} | {tks} |")


def header(run, fslist, note, calnote):
    """The page's title and first paragraphs, for the rows of FSLIST."""
    ents = ", ".join(f"{fs} {run.entries[fs]:,}" for fs in fslist if fs in run.entries)
    same = sum(1 for fs, _ in run.same if fs in fslist)
    over = " over FUSE" if fslist == ["fuse"] else ""
    out = ["<!-- SPDX-License-Identifier: GPL-3.0-or-later -->",
           f"# ls -lR side by side{over} on the production-configuration kernel "
           "(issue 20, point 4)",
           "",
           f"Generated by `bench/run-insn --prod` from one boot. Kernel {run.kernel} (the rig's "
           "target amd64:prod: Debian's linux-source-7.2 with upstream/'s three series, "
           "no debug option; tests/kmod/qemu/prod-kernel.config) under QEMU 7.2 TCG with the "
           "instruction counter (tests/kmod/qemu/insn-count.c, one TCG thread, 2 vCPUs), "
           "getdentsplus.ko loaded. `ls -lR` of the rig's fixture tree (entries without the "
           f"top: {ents}; every file type, ACLs, labels, capabilities, a 1000-file "
           "directory), output to /dev/null, LC_ALL=C, lsplus with LSPLUS_THREADS=0 and "
           "built against the kernel's headers (tests/kmod/qemu/build-lsrc). "
           f"Medians of {run.reps} runs per row; warm: one unmeasured run first; cold: "
           "`sync; echo 3 > drop_caches` before each run (tmpfs keeps its pages and "
           "dentries: its cold rows are warm ones plus the drop). Host: "
           f"{note}.{calnote}",
           "",
           "Columns: syscalls/entry from a separate `strace -f -o` run (every line counted, "
           "minus the same variant's empty listing); instructions per entry, user space and "
           "kernel apart, of every vCPU during the run's window (fork, exec, run, exit, "
           "wait; io-wq workers included), minus the same variant's ls -lR of an empty "
           "directory; wall ms is the guest's monotonic clock around the whole run under "
           "TCG on a shared host (startup included), user+sys the run's rusage (tick-sampled). "
           "Spread: the largest (max - min) / median of the row's user or kernel counts.",
           "",
           "io_uring stock is `LSPLUS_URING_STOCK=1` (a benchmark knob of lib/: IOSQE_ASYNC "
           "on every statx and xattr SQE, the io-wq hand-off that a kernel without "
           "upstream/io_uring-statx/ forces on those opcodes, and xattr probes in the ring "
           "instead of the statx attributes) on this same kernel, so that only the punting "
           "differs; io_uring inline is the same backend without the knob.", "",
           f"Output: each lsplus variant's `ls -lR` was compared with GNU's once per "
           f"filesystem (warm): {same} of {len(fslist) * (len(run.variants) - 1)} "
           "byte-identical.", ""]
    if run.nfsdelay is not None:
        out[4:4] = [f"NFS rows: the fixture's /mnt/ext4 exported by the kernel NFS server "
                    "of the same VM and mounted over loopback as NFSv3 (/mnt/nfs3) and NFSv4.2 "
                    f"(/mnt/nfs4), netem delaying every packet on lo by {run.nfsdelay} ms "
                    f"(round trips {2 * int(run.nfsdelay)} ms); RPCs/entry from "
                    "/proc/self/mountstats around the traced run (every RPC sent, GETACL "
                    "included); cold is drop_caches in the VM (client and server).", ""]
    if "fuse" in fslist:
        took = run.fstime.get("fuse")
        out[4:4] = [f"FUSE rows: {run.fusedaemon or 'bindfs'} (Debian 12's binary from the host) "
                    "serving the fixture's /mnt/ext4/tree on /mnt/bench-fuse in the same VM, "
                    "its default single thread, the kernel's attribute, entry and negative "
                    "caches kept 3600 s (a run here takes seconds under TCG, on hardware well "
                    "under libfuse's default 1 s: the warm rows are what a machine sees with "
                    "the default, and no count depends on the host's speed); no POSIX ACL "
                    "support negotiated (libfuse 2): the kernel asks the daemon for every "
                    "xattr. The daemon runs in the window: its user and kernel instructions "
                    "are in the row's. FUSE req/entry: the requests the kernel queued for the "
                    "daemon during the traced run (the tracepoint fuse:fuse_request_send, "
                    "counted in the VM from tracefs, enabled around that run only; every "
                    "request that waits for a reply, FORGETs are not in it); cold is "
                    "drop_caches in the VM (the FUSE inodes and dentries and the ext4 below). "
                    "LSPLUS_THREADS=0 does not stop lsplus's remote pool, which on FUSE "
                    "overlaps the per-entry calls on threads within its call budget "
                    "(LSPLUS_REMOTE_THREADS unset: the width measured, up to 64; README, "
                    "\"Remote and distributed filesystems\"); its threads' calls are in "
                    "the syscalls and instructions."
                    + (f" The FUSE rows took {took} s of the boot." if took is not None else ""),
                    ""]
    return out


FOOTER = ("What this shows and what it does not: the instruction counts are exact for "
          "user space and repeat across runs (the kernel's include the timer ticks of the "
          "window), so the ratios between rows are the CPU work each way of listing "
          "costs on this kernel and this emulated CPU. They are not cycles: no cache "
          "misses, branch mispredictions, TLB or I/O latency are modelled (QEMU TCG, no "
          "real hardware), a cold row's disk is a host file behind virtio, and wall time "
          "under TCG on a shared host says little beyond the order of magnitude.")


def write(md, out, run):
    """Finish the page OUT (errors), write it to MD and print it."""
    if run.errors:
        out += ["", "Errors in the run: " + "; ".join(run.errors)]
    text = "\n".join(out) + "\n"
    with open(md, "w") as f:
        f.write(text)
    sys.stdout.write(text)


def main():
    """Read the inputs, write and print the page(s)."""
    raw, cnt, md, reps, note = sys.argv[1:6]
    fusemd = sys.argv[6] if len(sys.argv) > 6 else None
    run = Run(raw, cnt, int(reps))
    if not run.insn("base") or not run.entries:
        sys.exit("prod-table: no baseline windows or no entries")
    cal = [run.counts.get(f"cal-getpid-{n}-a") for n in (40000, 80000)]
    calnote = (f" getpid() costs {(cal[1][1] - cal[0][1]) / 40000:.1f} kernel instructions "
               "per call in this boot (slope from 40,000 to 80,000 calls)." if all(cal) else "")
    fuse = [fs for fs in run.fs if fs == "fuse"] if fusemd else []
    local = [fs for fs in run.fs if fs not in fuse]
    if local or run.zsizes or not fuse:
        out = header(run, local, note, calnote)
        main_table(run, out, local, ("RPCs/entry", run.rpc) if run.rpc else None)
        startup_table(run, out)
        zadok_table(run, out)
        out += ["", FOOTER]
        write(md, out, run)
    if fuse:
        out = header(run, fuse, note, calnote)
        main_table(run, out, fuse, ("FUSE req/entry", run.fusereq))
        fuse_ops_table(run, out, "fuse")
        startup_table(run, out)
        out += ["", FOOTER]
        write(fusemd, out, run)


main()
