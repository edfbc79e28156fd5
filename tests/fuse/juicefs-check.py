#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""juicefs-check.py -- GNU ls vs ours on a JuiceFS (FUSE) mount.

Starts redis-server on a free loopback port and a private JuiceFS file
system with POSIX ACLs (juicefs.py), then

1. the differential check: builds the GNU suite's fixture (tests/gnu/
   fixture.py: ACLs, default ACLs, labels, capabilities, user xattrs,
   symlinks, odd names, unreadable directories...) on the mount and runs a
   subset of the suite's cases (tests/gnu/cases.py) there, GNU ls once and
   ours once per backend: stdout, stderr and exit status must be identical;
2. FUSE request counts: for `ls -l` of a directory of 300 entries and
   `ls -lR` of a tree of 310, cold (each run lists its own copy, untouched
   since a fresh mount), the requests the daemon served, per op, GNU vs
   each backend; ours must not serve more in total than GNU (and print
   the same bytes).

Always unmounts and stops redis-server, even on failure or SIGTERM.
Exit 0 pass, 1 fail, 77 only when FUSE is unavailable here.

  juicefs-check.py [--ls PATH] [--gnu PATH] [--backends LIST] [-j JOBS]
                   [--no-diff] [--no-counts] [--subset] [--keep]
"""

import sys
sys.dont_write_bytecode = True

import argparse
import concurrent.futures
import os
import shutil
import signal
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "gnu"))
import juicefs                       # noqa: E402
import cases as casesmod             # noqa: E402
import difftest                      # noqa: E402
import fixture                       # noqa: E402

# Fixture parts built on the mount: all but 'chain' (300 nested
# directories, only for the descriptor-limit cases) and 'big' (3,000
# entries: 25 s to create through FUSE; the count tree below has a
# 300-entry directory with ACLs, xattrs and symlinks instead).
PARTS = tuple(p for p in fixture.PARTS if p not in ("chain", "big"))

# Case groups run on the mount: long formats over every content directory
# (ACL '+', label '.', -Z, capabilities, symlink targets, owners), the
# ACL and label groups, recursion, and the unprivileged ones (EACCES from
# the daemon, not from a local inode).
GROUPS = ("format", "acl", "context", "owners", "recursive",
          "recursive-all", "unpriv")

class CountCase:
    """What difftest.case_diff needs of a case: its id."""

    def __init__(self, id):
        self.id = id


COUNT_CMDS = (("ls -l flat", ["-l", "flat"], "flat"),
              ("ls -lR", ["-lR"], "tree"))


def build_count_tree(top, what, acl, dacl):
    """WHAT is "flat" (TOP/flat: 300 entries) or "tree" (TOP/tree: 10
    directories of 30).  Some ACLs, default ACLs, user xattrs, labels and
    symlinks, as a real tree has (the files to get an ACL are added to
    ACL, DACL)."""

    def fill(d, n, seed):
        os.mkdir(d)
        for i in range(n):
            k = (i + seed) % 30
            p = os.path.join(d, "e%03d" % i)
            if k == 9 or k == 19:
                os.symlink("e000" if k == 9 else "gone", p)
                continue
            if k == 4:
                os.mkdir(p)
                if i % 2:
                    dacl.append(p)
                continue
            with open(p, "wb") as f:
                f.write(b"x" * (i % 5))
            if k % 7 == 3:
                acl.append(p)
            if k % 11 == 5:
                os.setxattr(p, "user.note", b"1")
            if k == 23:
                os.setxattr(p, "security.selinux",
                            b"system_u:object_r:etc_t:s0")
    os.mkdir(top)
    if what == "flat":
        fill(os.path.join(top, "flat"), 300, 0)
    else:
        os.mkdir(os.path.join(top, "tree"))
        for d in range(10):
            fill(os.path.join(top, "tree", "d%02d" % d), 30, d)


def same_mtime(top, stamp):
    """Set the atime and mtime of everything under TOP (symlinks
    themselves, TOP too) to STAMP, deepest first."""
    for d, ds, fs in os.walk(top, topdown=False):
        for n in fs + ds:
            os.utime(os.path.join(d, n), (stamp, stamp),
                     follow_symlinks=False)
    os.utime(top, (stamp, stamp))


def entries(top):
    """Entries under TOP (not TOP itself)."""
    return sum(len(fs) + len(ds) for _, ds, fs in os.walk(top))


def ls_env(backend):
    env = difftest.base_env()
    if backend:
        env["LSPLUS_BACKEND"] = backend
    return env


def differential(a, fs, ours, backends):
    parent = os.path.join(fs.mnt, "gnu")
    os.mkdir(parent)
    t0 = time.time()
    root, _ = fixture.build(parent, parts=PARTS)
    subprocess.run([a.gnu, "-laRL"], cwd=root, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    built = time.time() - t0
    pats = ["^%s: " % g for g in GROUPS]
    cs = [c for c in difftest.select_cases(casesmod.all_cases(), pats)
          if not any("@SHM@" in x for x in c.args)]
    if a.subset:
        # Every 5th case, and all of the ACL and label groups.
        cs = [c for k, c in enumerate(cs)
              if k % 5 == 0 or c.group in ("acl", "context")]
    t0 = time.time()

    def one(c):
        g = difftest.run_ls(a.gnu, c, root, {})
        return c, g, [(be, difftest.run_ls(ours, c, root,
                                           {"LSPLUS_BACKEND": be}))
                      for be in backends]

    same = {be: 0 for be in backends}
    fails = []
    with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
        for c, g, res in ex.map(one, cs):
            for be, o in res:
                if o == g:
                    same[be] += 1
                else:
                    fails.append((be, c, g, o))
    for i, (be, c, g, o) in enumerate(fails):
        if i < 20:
            print("[%s] %s" % (be, difftest.case_diff(c, g, o)))
        else:
            print("  [%s] FAIL %s" % (be, c.id))
    print("differential on JuiceFS (fixture %.1fs, %d cases x (GNU + %d "
          "backends) %.1fs): %s" % (
              built, len(cs), len(backends), time.time() - t0,
              ", ".join("%s %d/%d identical" % (be, same[be], len(cs))
                        for be in backends)))
    return not fails


def run_counted(a, fs, top, exe, backend, args):
    before = fs.ops()
    p = subprocess.run(["ls"] + args, executable=exe, cwd=top,
                       env=ls_env(backend), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                       timeout=120)
    ops = fs.settled_ops(before)
    return ops, difftest.Result(p.stdout, p.stderr, p.returncode)


def counts(a, fs, ours, backends):
    """Every (command, variant) lists its own identical copy of the tree,
    untouched since a fresh mount: all cold, with one remount."""
    top = os.path.join(fs.mnt, "count")
    os.mkdir(top)
    who = [("GNU", a.gnu, None)] + [(be, ours, be) for be in backends]
    jobs = [(i, j, what) for i, (_, _, what) in enumerate(COUNT_CMDS)
            for j in range(len(who))]
    acl, dacl = [], []
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(4) as ex:
        list(ex.map(lambda job: build_count_tree(
            os.path.join(top, "c%d-%d" % job[:2]), job[2], acl, dacl), jobs))
    for i in range(0, len(acl), 500):     # a few setfacl runs, not one a file
        subprocess.run(["setfacl", "-m", "u:12345:r"] + acl[i:i + 500],
                       check=True)
    subprocess.run(["setfacl", "-d", "-m", "u:12345:rx"] + dacl, check=True)
    # One timestamp for every entry of every copy: built over a few
    # seconds (many under load), copies straddling a minute printed
    # different times in ls -l.
    stamp = int(t0) - 3600
    for i, j, _ in jobs:
        same_mtime(os.path.join(top, "c%d-%d" % (i, j)), stamp)
    built = time.time() - t0
    # Counted now: a walk between the runs would leak its asynchronous
    # RELEASEDIRs into the next run's counts.
    sizes = [entries(os.path.join(top, "c%d-0" % i, what))
             for i, (_, _, what) in enumerate(COUNT_CMDS)]
    fs.remount(cache=3600)    # cold, and no cache timeout expires mid-run
    for i, j, _ in jobs:      # the copies' roots, as the cwd of ls
        os.stat(os.path.join(top, "c%d-%d" % (i, j)))
    print("count trees: %d copies built in %.1fs" % (len(jobs), built))
    ok = True
    for i, (title, args, what) in enumerate(COUNT_CMDS):
        cols = []
        notes = []
        for j, (label, exe, be) in enumerate(who):
            ops, res = run_counted(a, fs, os.path.join(top, "c%d-%d" % (i, j)),
                                   exe, be, args)
            cols.append((label, ops))
            if j == 0:
                gops, gres = ops, res
                n = sizes[i]
                if sum(ops.values()) < n or gres.status != 0:
                    # GNU probes every entry: fewer requests than entries
                    # means the counters are not what this test thinks.
                    ok = False
                    notes.append("FAIL: GNU: %d requests for %d entries, "
                                 "exit %s: counters broken?" % (
                                     sum(ops.values()), n, gres.status))
                continue
            if res != gres:
                ok = False
                notes.append("FAIL: %s: output differs from GNU's\n%s" % (
                    be, difftest.case_diff(CountCase("ls " + " ".join(args)),
                                           gres, res)))
            if sum(ops.values()) > sum(gops.values()):
                ok = False
                notes.append("FAIL: %s: %d FUSE requests > GNU's %d" % (
                    be, sum(ops.values()), sum(gops.values())))
        names = sorted(set().union(*[set(o) for _, o in cols]))
        print("\nFUSE requests for `%s` (%d entries), cold:" % (title, n))
        print("  %-12s" % "op" + "".join("%9s" % c for c, _ in cols))
        for op in names + ["total"]:
            vals = [sum(o.values()) if op == "total" else o.get(op, 0)
                    for _, o in cols]
            print("  %-12s" % op + "".join("%9d" % v for v in vals))
        for m in notes:
            print(m)
    return ok


def sanitized(exe):
    """True if EXE is linked with ASan or UBSan."""
    try:
        out = subprocess.run(["ldd", exe], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True).stdout
    except OSError:
        return False
    return "libasan" in out or "libubsan" in out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ls", default=os.environ.get("LSPLUS_LS"))
    ap.add_argument("--gnu", default="/bin/ls")
    ap.add_argument("--backends", default="sync,uring,auto")
    ap.add_argument("-j", type=int, default=2 * (os.cpu_count() or 1))
    ap.add_argument("--no-diff", action="store_true")
    ap.add_argument("--no-counts", action="store_true")
    ap.add_argument("--keep", action="store_true",
                    help="keep the work directory (logs, not the mount)")
    ap.add_argument("--subset", action="store_true",
                    help="every 5th case (default for a sanitizer build)")
    a = ap.parse_args()

    why = juicefs.fuse_unavailable()
    if why:
        print("SKIP:", why)
        return 77
    ours = os.path.abspath(a.ls or "src/ls")
    if not os.access(ours, os.X_OK):
        print("juicefs-check: ls under test not found: %s" % ours)
        return 1
    if not a.subset and os.environ.get("LSPLUS_CHECK_SCOPE") == "short":
        # tools/run-tests: the sanitizer and distcheck passes, after the
        # normal build ran every case.
        print("note: LSPLUS_CHECK_SCOPE=short: case subset")
        a.subset = True
    if not a.subset and sanitized(ours):
        # ASan makes every ls start ~5x slower: 896 cases x 4 runs would
        # take ~6 minutes on 2 loaded cores.
        print("note: sanitizer build of %s: case subset" % ours)
        a.subset = True
    backends = []
    for be in a.backends.split(","):
        usable, why = difftest.backend_available(ours, be)
        if usable:
            backends.append(be)
        else:
            print("note: backend %s unavailable here: %s" % (be, why))
    if not backends:
        print("juicefs-check: no backend available")
        return 1

    work = tempfile.mkdtemp(prefix="lsplus-fuse.",
                            dir=difftest.fixture_parent())
    fs = juicefs.JuiceFS(work)
    ok = True
    t0 = time.time()
    try:
        # The unprivileged cases exec our copy as uid 65534.
        bindir = os.path.join(work, "bin")
        os.mkdir(bindir)
        ours_copy = os.path.join(bindir, "ls-ours")
        shutil.copy2(ours, ours_copy)
        os.chmod(bindir, 0o755)
        os.chmod(ours_copy, 0o755)
        fs.start()
        fs.mount()
        if not a.no_diff:
            ok = differential(a, fs, ours_copy, backends) and ok
        if not a.no_counts:
            ok = counts(a, fs, ours_copy, backends) and ok
    except fixture.Skip as e:
        print("juicefs-check: cannot build the fixture: %s" % e.args[0])
        ok = False
    except juicefs.Unavailable as e:
        print("SKIP:", e.args[0])
        return 77
    except (RuntimeError, OSError, subprocess.SubprocessError) as e:
        print("juicefs-check: FAIL: %s" % e)
        ok = False
    finally:
        fs.stop()
        print("juicefs-check: %d mounts, %.1fs" % (fs.mounts,
                                                   time.time() - t0))
        if a.keep:
            print("work directory kept:", work)
        else:
            fs.cleanup()
    return 0 if ok else 1


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    # make check's timeout (or a user) sends SIGTERM: unwind through the
    # finally clauses so the mount and redis-server are stopped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    sys.exit(main())
