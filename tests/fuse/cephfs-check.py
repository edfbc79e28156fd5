#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""cephfs-check.py -- GNU ls vs ours on a CephFS mount (ceph-fuse).

Starts a private one-node Ceph cluster (one monitor, one OSD on memstore,
one MDS, all on 127.0.0.1) and mounts it with ceph-fuse, POSIX ACLs on
(cephfs.py), builds the request-count trees of the FUSE tests there
(fusecheck.py: a directory of 300 entries and a tree of 310 in 10
directories: files, directories, symlinks, dangling ones too, ACLs,
default ACLs, user xattrs, labels), then

1. the differential check: ls with each of OPTION_SETS, GNU once and ours
   once per backend: stdout, stderr and exit status must be identical;
2. MDS request counts: for `ls -l` of the directory and `ls -lR` of the
   tree, each run by a fresh client (ceph-fuse mounted again: nothing
   cached in it or in the kernel), the requests the MDS served, per op,
   and the replies the client counted; ours must print the same and need
   no more requests than GNU, by either count.

Under LSPLUS_CHECK_SCOPE=short (or --subset) the differential check runs
two option sets; the counts run in full.  Always unmounts, stops the
daemons and removes the cluster, even on failure or SIGTERM.
Exit 0 pass, 1 fail, 77 only when FUSE is unavailable here.

  cephfs-check.py [--ls PATH] [--gnu PATH] [--backends LIST]
                  [--no-diff] [--no-counts] [--subset] [--keep]
"""

import sys
sys.dont_write_bytecode = True

import os                            # noqa: E402
import time                          # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cephfs                        # noqa: E402
import fusecheck                     # noqa: E402
from fusecheck import COUNT_CMDS, difftest  # noqa: E402

# ls arguments, run in the top directory: the trees are flat/flat and
# tree/tree there, each in a directory of its own as the count runs list
# them.  The first two also under LSPLUS_CHECK_SCOPE=short.
OPTION_SETS = (
    ["-lR", "tree"],
    ["-la", "flat/flat"],
    ["-laR", "tree"],
    ["-lRZ", "tree"],                # labels (security.selinux)
    ["-lRL", "tree"],                # follow links: dangling ones fail
    ["-lRnis", "--full-time", "tree"],
    ["-1RF", "--color=always", "tree"],   # capabilities, file types
    ["-lRtr", "--time=ctime", "tree"],
    ["-lShd", "flat/flat/e004", "flat/flat/e009", "flat/flat/e019",
     "tree/tree/d01", "flat/flat"],
)


def build(top):
    """Both count trees under TOP, ACLs set, one timestamp for all."""
    acl, dacl = [], []
    t0 = time.time()
    os.mkdir(top)
    for _, _, what in COUNT_CMDS:
        fusecheck.build_count_tree(os.path.join(top, what), what, acl, dacl)
    fusecheck.set_acls(acl, dacl)
    fusecheck.same_mtime(top, int(t0) - 3600)
    print("trees: %d entries, %d ACLs, %d default ACLs, built in %.1fs" % (
        fusecheck.entries(top), len(acl), len(dacl), time.time() - t0))


def differential(a, top, ours, backends):
    sets = OPTION_SETS[:2] if a.subset else OPTION_SETS
    fails = []
    t0 = time.time()
    for args in sets:
        g = fusecheck.run_ls(a.gnu, None, args, top)
        for be in backends:
            o = fusecheck.run_ls(ours, be, args, top)
            if o != g:
                fails.append(be)
                print("[%s] %s" % (be, difftest.case_diff(
                    fusecheck.CountCase("ls " + " ".join(args)), g, o)))
    print("differential on CephFS: %d option sets x (GNU + %d backends) "
          "in %.1fs: %d differ" % (len(sets), len(backends),
                                   time.time() - t0, len(fails)))
    return not fails


def counts(a, fs, top, ours, backends):
    """Each run by a fresh client: cold, and none sees another's caps."""
    who = [("GNU", a.gnu, None)] + [(be, ours, be) for be in backends]
    ok = True
    for title, args, what in COUNT_CMDS:
        cwd = os.path.join(top, what)
        n = fusecheck.entries(cwd)
        dirs = 1 + sum(len(ds) for _, ds, _ in os.walk(cwd))
        # At least one readdir a directory listed (ls -lR lists them all).
        least = dirs if "-lR" in args else 1
        runs, client = [], []
        for label, exe, be in who:
            fs.remount()
            os.stat(cwd)                 # the path to ls's cwd: not counted
            before, cl = fs.ops(), fs.client_requests()
            res = fusecheck.run_ls(exe, be, args, cwd)
            runs.append((label, fs.settled_ops(before), res))
            client.append(fs.client_requests() - cl)
        ok = fusecheck.judge_counts(title, args, n, runs, fs.REQUESTS,
                                    least, [("client", client)]) and ok
    return ok


def check(a, fs, ours, backends):
    top = os.path.join(fs.mnt, "t")
    build(top)
    ok = True
    if not a.no_diff:
        ok = differential(a, top, ours, backends) and ok
    if not a.no_counts:
        ok = counts(a, fs, top, ours, backends) and ok
    return ok


def main():
    a = fusecheck.parser(__doc__).parse_args()
    return fusecheck.main("cephfs-check", a, cephfs.CephFS, check)


if __name__ == "__main__":
    sys.exit(main())
