# SPDX-License-Identifier: GPL-3.0-or-later
"""fusecheck.py -- what the FUSE tests (juicefs-check.py, cephfs-check.py)
share: the request-count trees, running ls with a backend, the table of
requests GNU vs ours with its verdict, and main(): options, the backends
that work here, a work directory, the file system started, mounted and
always stopped (also on SIGTERM), exit 0/1/77.
"""

import sys
sys.dont_write_bytecode = True

import argparse                      # noqa: E402
import os                            # noqa: E402
import shutil                        # noqa: E402
import signal                        # noqa: E402
import subprocess                    # noqa: E402
import tempfile                      # noqa: E402
import time                          # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "gnu"))
import difftest                      # noqa: E402
import fixture                       # noqa: E402
import fuserig                       # noqa: E402


class CountCase:
    """What difftest.case_diff needs of a case: its id."""

    def __init__(self, id):
        self.id = id


# (title, ls arguments, tree): the runs whose requests are counted.
COUNT_CMDS = (("ls -l flat", ["-l", "flat"], "flat"),
              ("ls -lR", ["-lR"], "tree"))


def build_count_tree(top, what, acl, dacl):
    """WHAT is "flat" (TOP/flat: 300 entries) or "tree" (TOP/tree: 10
    directories of 30); TOP is made if it does not exist.  Some ACLs, default ACLs, user xattrs, labels and
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
    os.makedirs(top, exist_ok=True)
    if what == "flat":
        fill(os.path.join(top, "flat"), 300, 0)
    else:
        os.mkdir(os.path.join(top, "tree"))
        for d in range(10):
            fill(os.path.join(top, "tree", "d%02d" % d), 30, d)


def set_acls(acl, dacl):
    """An ACL on every file of ACL, a default ACL on every directory of
    DACL: a few setfacl runs, not one a file."""
    for i in range(0, len(acl), 500):
        subprocess.run(["setfacl", "-m", "u:12345:r"] + acl[i:i + 500],
                       check=True)
    if dacl:
        subprocess.run(["setfacl", "-d", "-m", "u:12345:rx"] + dacl,
                       check=True)


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
    """The suite's environment, with LSPLUS_BACKEND=BACKEND if given."""
    env = difftest.base_env()
    if backend:
        env["LSPLUS_BACKEND"] = backend
    return env


def run_ls(exe, backend, args, cwd):
    """EXE as ls with ARGS in CWD: a difftest.Result."""
    p = subprocess.run(["ls"] + args, executable=exe, cwd=cwd,
                       env=ls_env(backend), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                       timeout=120)
    return difftest.Result(p.stdout, p.stderr, p.returncode)


def judge_counts(title, args, n, runs, unit, least, extra=()):
    """RUNS: [(label, {op: requests}, Result)] of ls ARGS over N entries,
    GNU's first.  Prints the table of requests per op (and the rows of
    EXTRA: (row, [one value a run]), checked the same way); ours must
    print what GNU printed and need no more requests in total.  GNU needs
    at least LEAST requests, or the counters are not what the test thinks.
    Returns True if all is so."""
    ok = True
    notes = []
    glabel, gops, gres = runs[0]
    if sum(gops.values()) < least or gres.status != 0:
        ok = False
        notes.append("FAIL: GNU: %d requests for %d entries, exit %s: "
                     "counters broken?" % (sum(gops.values()), n,
                                           gres.status))
    for j, (label, ops, res) in enumerate(runs[1:], 1):
        if res != gres:
            ok = False
            notes.append("FAIL: %s: output differs from GNU's\n%s" % (
                label, difftest.case_diff(
                    CountCase("ls " + " ".join(args)), gres, res)))
        if sum(ops.values()) > sum(gops.values()):
            ok = False
            notes.append("FAIL: %s: %d %s > GNU's %d" % (
                label, sum(ops.values()), unit, sum(gops.values())))
        for row, vals in extra:
            if vals[j] > vals[0]:
                ok = False
                notes.append("FAIL: %s: %s %d > GNU's %d" % (
                    label, row, vals[j], vals[0]))
    names = sorted(set().union(*[set(o) for _, o, _ in runs]))
    print("\n%s for `%s` (%d entries), cold:" % (unit, title, n))
    print("  %-12s" % "op" + "".join("%9s" % c for c, _, _ in runs))
    for op in names + ["total"]:
        vals = [sum(o.values()) if op == "total" else o.get(op, 0)
                for _, o, _ in runs]
        print("  %-12s" % op + "".join("%9d" % v for v in vals))
    for row, vals in extra:
        print("  %-12s" % row + "".join("%9d" % v for v in vals))
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


def parser(doc):
    """The options every FUSE check takes."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--ls", default=os.environ.get("LSPLUS_LS"))
    ap.add_argument("--gnu", default="/bin/ls")
    ap.add_argument("--backends", default="sync,uring,auto")
    ap.add_argument("--no-diff", action="store_true")
    ap.add_argument("--no-counts", action="store_true")
    ap.add_argument("--keep", action="store_true",
                    help="keep the work directory (logs, not the mount)")
    ap.add_argument("--subset", action="store_true",
                    help="fewer cases (default for a sanitizer build)")
    return ap


def main(name, a, make_fs, check):
    """The test NAME with options A: a work directory, our ls copied
    there (the unprivileged cases exec it as uid 65534), the file system
    make_fs(dir) started and mounted, check(a, fs, ours, backends) ->
    True if it passed; everything stopped and removed whatever happens.
    Returns the exit status."""
    why = fuserig.fuse_unavailable()
    if why:
        print("SKIP:", why)
        return 77
    ours = os.path.abspath(a.ls or "src/ls")
    if not os.access(ours, os.X_OK):
        print("%s: ls under test not found: %s" % (name, ours))
        return 1
    if not a.subset and os.environ.get("LSPLUS_CHECK_SCOPE") == "short":
        # tools/run-tests: the sanitizer and distcheck passes, after the
        # normal build ran every case.
        print("note: LSPLUS_CHECK_SCOPE=short: case subset")
        a.subset = True
    if not a.subset and sanitized(ours):
        # ASan makes every ls start ~5x slower.
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
        print("%s: no backend available" % name)
        return 1

    # make check's timeout (or a user) sends SIGTERM: unwind through the
    # finally clause so the mount and the daemons are stopped.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    work = tempfile.mkdtemp(prefix="lsplus-fuse.",
                            dir=difftest.fixture_parent())
    fs = make_fs(work)
    ok = True
    t0 = time.time()
    try:
        bindir = os.path.join(work, "bin")
        os.mkdir(bindir)
        ours_copy = os.path.join(bindir, "ls-ours")
        shutil.copy2(ours, ours_copy)
        os.chmod(bindir, 0o755)
        os.chmod(ours_copy, 0o755)
        fs.start()
        fs.mount()
        print("%s: up and mounted in %.1fs" % (name, time.time() - t0))
        ok = check(a, fs, ours_copy, backends)
    except fixture.Skip as e:
        print("%s: cannot build the fixture: %s" % (name, e.args[0]))
        ok = False
    except fuserig.Unavailable as e:
        print("SKIP:", e.args[0])
        return 77
    except (RuntimeError, OSError, subprocess.SubprocessError) as e:
        print("%s: FAIL: %s" % (name, e))
        ok = False
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        fs.stop()
        print("%s: %d mounts, %.1fs" % (name, fs.mounts, time.time() - t0))
        if a.keep:
            print("work directory kept:", work)
        else:
            fs.cleanup()
    return 0 if ok else 1
