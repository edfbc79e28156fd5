# SPDX-License-Identifier: GPL-3.0-or-later
"""bench/flat.py -- bench/run's rows for one big directory (issue 22):
`ls -1` and `ls -l` of one directory of N files (500,000 by default) in
several locales, GNU ls 9.1 and ours alternating, medians and peak RSS,
ratios against GNU measured in the same run.

In a UTF-8 locale most of the time of such a listing is sorting the
names (GNU calls strcoll for every comparison; ours compares collation
keys, src/ls-collkey.c).  The names mix four kinds that a real big
directory might hold: numbered files, camera names with a long shared
start, names with spaces and an umlaut, and the same words in different
case and with or without an umlaut."""

import os
import statistics
import subprocess
import tempfile
import time

FORMATS = (("ls -1", ["-1"]), ("ls -l", ["-l"]))


def flat_name(i):
    """The name of file I of the big directory."""
    kind = i % 4
    if kind == 0:
        return f"file-{i:06d}.dat"
    if kind == 1:
        return f"IMG_2024{i % 12 + 1:02d}{i % 28 + 1:02d}_{i:06d}.jpg"
    if kind == 2:
        return f"Bericht Übersicht {i} (Kopie).pdf"
    return ("Notiz", "notiz", "Äpfel", "apfel")[i // 4 % 4] + f"_{i}.txt"


def make_flat(root, n, log):
    """Create directory ROOT with N empty files (kept between runs: a
    complete one is marked by ROOT/.complete, which ls does not list)."""
    stamp = os.path.join(root, ".complete")
    try:
        with open(stamp) as f:
            if f.read().strip() == str(n):
                return
    except OSError:
        pass
    log(f"flat: creating {n:,} files in {root}")
    os.makedirs(root, exist_ok=True)
    for name in os.listdir(root):
        os.unlink(os.path.join(root, name))
    for i in range(n):
        os.close(os.open(os.path.join(root, flat_name(i)),
                         os.O_CREAT | os.O_WRONLY, 0o644))
    with open(stamp, "w") as f:
        f.write(f"{n}\n")


def locale_available(loc):
    """Whether the C library knows locale LOC here."""
    if loc in ("C", "POSIX"):
        return True
    p = subprocess.run(["locale"], env={"LC_ALL": loc}, check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return not p.stderr


def run_timed(argv, env, cwd):
    """Run ARGV with output to /dev/null; return (wall seconds, CPU
    seconds (user + system), peak RSS KiB, exit status).  GNU time(1)
    measures the CPU time and RSS of the command alone (wait4's peak RSS
    would count the Python process the child was forked from).  On a
    busy machine the CPU time says more than the wall time."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as out:
        wrapped = ["/usr/bin/time", "-q", "-f", "%M %U %S", "-o", out.name]
        t0 = time.perf_counter()
        with open(os.devnull, "wb") as null:
            status = subprocess.run(wrapped + argv, env=env, cwd=cwd,
                                    stdout=null, stderr=subprocess.DEVNULL,
                                    check=False).returncode
        dt = time.perf_counter() - t0
        try:
            rss, user, sys_ = out.read().split()[-3:]
            return dt, float(user) + float(sys_), int(rss), status
        except ValueError:
            return dt, 0.0, 0, status


def measure_flat(root, gnu, ours, locales, reps, log):
    """Run GNU (argv0 path GNU) and ours (OURS, default backend) on ROOT
    for each locale and format, REPS alternating rounds after one
    unmeasured run each; return one result dict per locale and format."""
    parent, name = os.path.split(root)
    n = len(os.listdir(root)) - 1
    for loc in [loc for loc in locales if not locale_available(loc)]:
        log(f"flat: locale {loc} missing, skipped")
    locales = [loc for loc in locales if locale_available(loc)]
    combos = [(fmt, args, loc) for loc in locales for fmt, args in FORMATS]
    times = {}
    cpu = {}
    rss = {}

    def one(fmt, args, loc, who, argv0):
        env = dict(os.environ, LC_ALL=loc, TZ="UTC")
        env.pop("LS_COLORS", None)
        env.pop("LSPLUS_BACKEND", None)
        dt, cpu_s, maxrss, status = run_timed([argv0] + args + [name], env,
                                              parent)
        if status != 0:
            log(f"flat: {who} {fmt} in {loc} exited {status}")
        return dt, cpu_s, maxrss

    log(f"flat: {n:,} files, one unmeasured run per variant")
    for fmt, args, loc in combos:
        for who, argv0 in (("gnu", gnu), ("ours", ours)):
            one(fmt, args, loc, who, argv0)
    for rep in range(reps):
        log(f"flat: round {rep + 1}/{reps}")
        for fmt, args, loc in combos:
            for who, argv0 in (("gnu", gnu), ("ours", ours)):
                dt, cpu_s, maxrss = one(fmt, args, loc, who, argv0)
                key = (fmt, loc, who)
                times.setdefault(key, []).append(dt)
                cpu.setdefault(key, []).append(cpu_s)
                rss[key] = max(rss.get(key, 0), maxrss)

    results = []
    for fmt, args, loc in combos:
        g = statistics.median(times[(fmt, loc, "gnu")])
        o = statistics.median(times[(fmt, loc, "ours")])
        gr, orss = rss[(fmt, loc, "gnu")], rss[(fmt, loc, "ours")]
        gc = statistics.median(cpu[(fmt, loc, "gnu")])
        oc = statistics.median(cpu[(fmt, loc, "ours")])
        results.append({"listing": fmt, "locale": loc, "files": n,
                        "gnu_s": g, "ours_s": o, "ratio": o / g,
                        "gnu_cpu_s": gc, "ours_cpu_s": oc,
                        "cpu_ratio": oc / gc if gc else 0,
                        "gnu_rss_kib": gr, "ours_rss_kib": orss,
                        "rss_ratio": orss / gr if gr else 0,
                        "gnu_runs": times[(fmt, loc, "gnu")],
                        "ours_runs": times[(fmt, loc, "ours")],
                        "gnu_cpu_runs": cpu[(fmt, loc, "gnu")],
                        "ours_cpu_runs": cpu[(fmt, loc, "ours")]})
    return results


def markdown_flat(results, reps):
    """The rows of measure_flat as a markdown table."""
    lines = ["| one directory | locale | GNU ls 9.1 | lsplus | vs GNU "
             "| CPU vs GNU | GNU peak RSS | lsplus peak RSS | RSS vs GNU |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        lines.append(f"| `{r['listing']}`, {r['files']:,} files | "
                     f"{r['locale']} | {r['gnu_s'] * 1000:.0f} ms | "
                     f"{r['ours_s'] * 1000:.0f} ms | {r['ratio']:.2f}x | "
                     f"{r['cpu_ratio']:.2f}x | "
                     f"{r['gnu_rss_kib'] / 1024:.1f} MiB | "
                     f"{r['ours_rss_kib'] / 1024:.1f} MiB | "
                     f"{r['rss_ratio']:.2f}x |")
    lines.append("")
    lines.append(f"Medians of {reps} alternating runs each, output to "
                 "/dev/null, warm cache, our default backend; ratio = "
                 "median / GNU's median in the same run (wall time; CPU: "
                 "user + system time, which a busy machine disturbs less).")
    return "\n".join(lines) + "\n"
