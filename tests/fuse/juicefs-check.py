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

import concurrent.futures
import os
import subprocess
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fusecheck                     # noqa: E402
from fusecheck import (build_count_tree, COUNT_CMDS, difftest,  # noqa: E402
                       entries, fixture, same_mtime, set_acls)
import juicefs                       # noqa: E402
import cases as casesmod             # noqa: E402

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


def run_counted(fs, top, exe, backend, args):
    before = fs.ops()
    res = fusecheck.run_ls(exe, backend, args, top)
    return fs.settled_ops(before), res


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
    set_acls(acl, dacl)
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
        runs = []
        for j, (label, exe, be) in enumerate(who):
            ops, res = run_counted(fs, os.path.join(top, "c%d-%d" % (i, j)),
                                   exe, be, args)
            runs.append((label, ops, res))
        # GNU probes every entry: at least one request each.
        ok = fusecheck.judge_counts(title, args, sizes[i], runs,
                                    fs.REQUESTS, sizes[i]) and ok
    return ok


def check(a, fs, ours, backends):
    ok = True
    if not a.no_diff:
        ok = differential(a, fs, ours, backends) and ok
    if not a.no_counts:
        ok = counts(a, fs, ours, backends) and ok
    return ok


def main():
    ap = fusecheck.parser(__doc__)
    ap.add_argument("-j", type=int, default=2 * (os.cpu_count() or 1))
    return fusecheck.main("juicefs-check", ap.parse_args(), juicefs.JuiceFS,
                          check)


if __name__ == "__main__":
    sys.exit(main())
