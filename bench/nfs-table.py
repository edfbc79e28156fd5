#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""bench/nfs-table.py -- the markdown table of bench/run-nfs.

  nfs-table.py RAW KVER DIRS FILES REPS    (markdown on stdout)

RAW holds the VM's BENCH-ENTRIES and BENCH-NFS lines (bench/vm-nfs-bench.sh):
  BENCH-NFS DELAY VERSION VARIANT SECONDS STATUS SENDS REQ_U EXEC_MS OPS [CPU]
Per (delay, version, variant): the median wall time and its ratio to GNU's
median at the same delay and version, the median RPC count (and per
entry), the average number of RPCs in flight at each send (REQ_U / SENDS,
medians over runs), "busy" (EXEC_MS / wall: the per-op execute times
summed; NFSv3's GETACL has no per-op line and is left out there), and the
per-op breakdown of the median run.  CPU (when the lines carry it): the
VM's vCPUs busy during the run (median; 2.0 = both saturated).
"""

import statistics
import sys


def main():
    raw, kver, dirs, files, reps = sys.argv[1:6]
    entries = 0
    runs = {}                 # (delay, ver, variant) -> [run dict]
    order = []
    for line in open(raw, errors="replace"):
        f = line.split()
        if not f:
            continue
        if f[0] == "BENCH-ENTRIES" and len(f) >= 2:
            entries = int(f[1])
        elif f[0] == "BENCH-NFS" and len(f) >= 10:
            delay, ver, var = int(f[1]), f[2], f[3]
            if var not in order:
                order.append(var)
            runs.setdefault((delay, ver, var), []).append(dict(
                secs=float(f[4]), status=f[5], sends=int(f[6]),
                req=int(f[7]), ms=int(f[8]), ops=f[9],
                cpu=float(f[10]) if len(f) >= 11 else None))
    out = ["# ls -lR over NFS: GNU ls 9.1 vs lsplus backends", "",
           "QEMU TCG (no KVM), Debian kernel %s: the kernel NFS server exports "
           "the ext4 disk (-o acl) and the NFS client mounts it over loopback "
           "in the same VM; getdentsplus.ko loaded. Tree: %s dirs x %s files "
           "(%d entries; every 97th file has an ACL, every 89th a label). "
           "Every run cold (umount, drop_caches, mount), `ls -lR` to "
           "/dev/null; netem delays each packet on lo (a round trip waits "
           "twice the delay). Medians of %s alternating runs; ratio = median "
           "/ GNU's median at the same delay and version. RPCs: the "
           "transport's sends (NFSv3's GETACL included); in flight: average "
           "outstanding RPCs at each send (req_u/sends); busy: per-op execute "
           "time / wall (without NFSv3's GETACL). Under TCG every RPC also "
           "costs ~14 ms of emulated CPU, so small delays measure the CPU; "
           "VM CPUs: the vCPUs busy during the run (of 2)."
           % (kver, dirs, files, entries, reps), "",
           "| delay | NFS | variant | median | vs GNU | RPCs | RPCs/entry "
           "| in flight | busy | VM CPUs | exit |",
           "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    detail = []
    for delay in sorted({k[0] for k in runs}):
        for ver in sorted({k[1] for k in runs if k[0] == delay},
                          key=lambda v: float(v)):
            gnu = runs.get((delay, ver, "GNU"))
            gmed = statistics.median(r["secs"] for r in gnu) if gnu else None
            for var in order:
                rs = runs.get((delay, ver, var))
                if not rs:
                    continue
                med = statistics.median(r["secs"] for r in rs)
                sends = statistics.median(r["sends"] for r in rs)
                flight = statistics.median(r["req"] / r["sends"]
                                           for r in rs if r["sends"])
                busy = statistics.median(r["ms"] / 1000 / r["secs"]
                                         for r in rs if r["secs"] > 0)
                cpus = [r["cpu"] for r in rs if r["cpu"] is not None]
                cpu = "%.2f" % statistics.median(cpus) if cpus else "-"
                status = ",".join(sorted({r["status"] for r in rs}))
                ratio = "%.2fx" % (med / gmed) if gmed else "-"
                out.append("| %d ms | v%s | %s | %.2f s | %s | %d | %.3f | "
                           "%.1f | %.1f | %s | %s |"
                           % (delay, ver, var, med, ratio, sends,
                              sends / entries if entries else 0, flight,
                              busy, cpu, status))
                mid = sorted(rs, key=lambda r: r["secs"])[len(rs) // 2]
                ops = dict(kv.split("=", 1) for kv in mid["ops"].split(",")
                           if "=" in kv)
                other = mid["sends"] - sum(int(c) for c in ops.values())
                if other > 0:
                    ops["GETACL" if ver == "3" else "other"] = str(other)
                top = ", ".join("%s %s" % kv for kv in
                                sorted(ops.items(), key=lambda kv: -int(kv[1])))
                detail.append("- %d ms, NFSv%s, %s: %s" % (delay, ver, var,
                                                            top))
    out += ["", "RPCs per procedure (the median run):", ""] + detail
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
