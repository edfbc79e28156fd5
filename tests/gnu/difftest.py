#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""difftest.py -- GNU differential test: run /bin/ls and ours, compare.

Builds the fixture (fixture.py) in a fresh temporary directory, runs every
case of the matrix (cases.py) through GNU ls and through the ls under
test -- both with argv[0] = "ls", the same working directory and the same
environment built from scratch -- and compares stdout, stderr and the
exit status byte for byte.  Prints a readable diff for the first failures,
then "N/M identical".  Exit status: 0 all identical, 1 some differ,
77 cannot run here (not root, tool missing, backend unavailable).

  difftest.py [--ls PATH] [--gnu PATH] [-k PATTERN]... [--backends LIST]
              [-j JOBS] [--show N] [--list] [--keep] [--no-deep]
              [--view OLD=NEW]... [--fixture DIR] [--no-shm] [--gnu-once]
              [--cases SET] [--exclude PATTERN]... [--sample N]
              [--first-view-backends LIST]

The ls under test: --ls, else $LSPLUS_LS, else ./src/ls (make check runs
from the top build directory).  LSPLUS_BACKEND (or each of --backends)
is passed to ours only (a backend of --backends may carry variables
of its own: sync+LSPLUS_THREADS=1).  The 10,000-level -R case is ours
only: GNU ls cannot list it, we must (a deliberate improvement).

Other filesystems (tests/kmod/nfs-vm.test): --view OLD=NEW runs the cases
on the fixture as seen under another path -- the fixture root with its
prefix OLD replaced by NEW, e.g. built on ext4 and listed through an NFS
mount of it -- once per view and backend.  --fixture DIR reuses the
fixture an earlier --keep run left in DIR (and keeps it; with views, the
fixture need only be in them, DIR still holds the copy of ours that the
unprivileged cases run), --no-shm builds
no tmpfs copy (its @SHM@ cases are dropped), --gnu-once runs GNU ls once
per view and case and compares every backend with that result;
--first-view-backends LIST runs those backends too, in the first view
only.
--cases fs runs the smaller set made for other filesystems (cases.py's
fs_cases(), tests/gnu/fsmatrix.py) instead of the whole suite, --exclude
leaves out the cases whose id matches a regex, --sample N keeps every Nth
of the cases selected.
"""

import sys
sys.dont_write_bytecode = True

import argparse
import concurrent.futures
import difflib
import fcntl
import os
import pty
import re
import select
import shutil
import signal
import struct
import subprocess
import tempfile
import termios
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases as casesmod            # noqa: E402
import fixture                      # noqa: E402

TIMEOUT = 30                         # seconds per ls run
CAP = 16 * 1024 * 1024               # bytes kept per stream
DEEP = 10000
PASS_VARS = ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS",
             "LSPLUS_COLD_USEC")


class Result:
    __slots__ = ("out", "err", "status")

    def __init__(self, out, err, status):
        self.out, self.err, self.status = out, err, status

    def __eq__(self, o):
        return (self.out, self.err, self.status) == (o.out, o.err, o.status)


def base_env():
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "TZ": "UTC",
           "LC_ALL": "C"}
    for v in PASS_VARS:
        if v in os.environ:
            env[v] = os.environ[v]
    return env


def case_env(case, root, extra):
    env = base_env()
    for k, v in case.env.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v.replace("@ROOT@", root)
    env.update(extra)
    return env


def drain(fds, proc, deadline):
    """Read FDS (name -> fd) until EOF on all; returns name -> bytes.
    Kills PROC on timeout or when a stream exceeds CAP."""
    bufs = {n: [] for n in fds}
    sizes = {n: 0 for n in fds}
    live = dict(fds)
    killed = None
    while live:
        left = deadline - time.monotonic()
        if left <= 0:
            killed = "TIMEOUT"
            proc.kill()
            break
        r, _, _ = select.select(list(live.values()), [], [], min(left, 1))
        for n, fd in list(live.items()):
            if fd not in r:
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:          # EIO: pty slave closed
                chunk = b""
            if not chunk:
                del live[n]
                continue
            sizes[n] += len(chunk)
            if sizes[n] <= CAP:
                bufs[n].append(chunk)
            else:
                killed = "OUTPUT CAP"
                proc.kill()
    return {n: b"".join(v) for n, v in bufs.items()}, killed


SHM = {"root": None}               # the tmpfs fixture, if any


def subst(a, root):
    a = a.replace("@ROOT@", root)
    if SHM["root"]:
        a = a.replace("@SHM@", SHM["root"])
    return a


def run_ls(exe, case, root, extra_env):
    """Run EXE as 'ls' for CASE; returns a Result."""
    args = ["ls"] + [subst(a, root) for a in case.args]
    env = case_env(case, root, extra_env)
    cwd = os.path.join(root, case.cwd)
    kw = dict(executable=exe, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
              stderr=subprocess.PIPE, close_fds=True)
    flags = set(case.mode.split("+"))     # e.g. "tty+unpriv"
    mode = (flags - {"unpriv"} or {"pipe"}).pop()
    if "unpriv" in flags:
        kw.update(user=65534, group=65534, extra_groups=[])
    fds = {}
    master = slave = None
    tofree = []
    if mode == "tty":
        master, slave = pty.openpty()
        cols, rows = case.win
        fcntl.ioctl(slave, termios.TIOCSWINSZ,
                    struct.pack("HHHH", rows, cols, 0, 0))
        kw["stdout"] = slave
        kw["start_new_session"] = True
        tofree.append(master)
    elif mode == "full":
        f = open("/dev/full", "wb")
        tofree.append(f)
        kw["stdout"] = f
    elif mode in ("closed", "closed-err", "closed-in", "lowfd", "rmcwd"):
        # bash closes fd 1 (2, 0), lowers the descriptor limit, or enters
        # a fresh directory of its own and removes it (its mtime fixed, so
        # that GNU's and ours show the same time even when a minute
        # passes between the two runs), and execs EXE as 'ls'.
        redir = {"closed": ">&-", "closed-err": "2>&-",
                 "closed-in": "<&-", "lowfd": "", "rmcwd": ""}[mode]
        pre = {"lowfd": "ulimit -n 20; ",
               "rmcwd": 'cd "$(mktemp -d)" && touch -d @946684800 . && '
                        'rmdir "$PWD" && '}.get(mode, "")
        args = ["bash", "-c", pre + 'exec -a ls "$0" "$@" ' + redir,
                exe] + args[1:]
        kw["executable"] = "/bin/bash"
        kw["stdout"] = subprocess.PIPE
    elif mode in ("epipe", "epipe-ign"):
        r, w = os.pipe()
        os.close(r)
        kw["stdout"] = w
        tofree.append(w)
        # Python ignores SIGPIPE; restore_signals=False keeps it ignored.
        kw["restore_signals"] = mode == "epipe"
    else:
        kw["stdout"] = subprocess.PIPE
    try:
        p = subprocess.Popen(args, **kw)
        if slave is not None:
            os.close(slave)
        if p.stdout is not None:
            fds["out"] = p.stdout.fileno()
        if master is not None:
            fds["out"] = master
        fds["err"] = p.stderr.fileno()
        got, killed = drain(fds, p, time.monotonic() + TIMEOUT)
        try:
            status = p.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            p.kill()
            status = p.wait()
            killed = "TIMEOUT"
        if p.stdout is not None:
            p.stdout.close()
        p.stderr.close()
    finally:
        for t in tofree:
            if isinstance(t, int):
                os.close(t)
            else:
                t.close()
    if killed:
        status = "%s (%s)" % (status, killed)
    return Result(got.get("out", b""), got["err"], status)


def show_bytes(label, data):
    lines = data.split(b"\n")
    return ["%s%s" % (label, repr(l)[1:]) for l in lines]


def case_diff(case, g, o):
    """Readable unified diff of GNU's (-) and ours (+) results."""
    out = ["=" * 72, "FAIL " + case.id]
    for what in ("out", "err"):
        a, b = getattr(g, what), getattr(o, what)
        if a == b:
            continue
        al = [repr(l)[1:] for l in a.split(b"\n")]
        bl = [repr(l)[1:] for l in b.split(b"\n")]
        d = list(difflib.unified_diff(al, bl, "gnu-" + what, "ours-" + what,
                                      n=2, lineterm=""))
        if len(d) > 60:
            d = d[:60] + ["... (%d more diff lines)" % (len(d) - 60)]
        out.extend(d)
    if g.status != o.status:
        out.append("exit status: gnu %s, ours %s" % (g.status, o.status))
    return "\n".join(out)


def dump(tag, c, g, o):
    print("#" * 72 + "\n" + tag + c.id)
    for who, r in (("gnu", g), ("ours", o)):
        print("--- %s: exit %s, stderr %r" % (who, r.status, r.err))
        sys.stdout.flush()
        sys.stdout.buffer.write(r.out)
        sys.stdout.buffer.flush()


def deep_parent(tmp):
    """A tmpfs (/dev/shm) is much faster for 10,000 mkdirs; else TMP."""
    try:
        return tempfile.mkdtemp(prefix="lsplus-deep.", dir="/dev/shm")
    except OSError:
        return tempfile.mkdtemp(prefix="lsplus-deep.", dir=tmp)


def deep_test(ours, tmp, extra_env):
    """ls -R on a DEEP-level chain: ours must list all levels, exit 0.
    The output (~100 MB) is scanned as it streams, never stored."""
    parent = deep_parent(tmp)
    top = fixture.make_deep_chain(parent, DEEP)
    try:
        env = dict(base_env(), **extra_env)
        p = subprocess.Popen(["ls", "-R"], executable=ours, cwd=top, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        headers = 0
        tail = b""
        while True:
            chunk = p.stdout.read(1 << 20)
            if not chunk:
                break
            data = tail[-1:] + chunk
            headers += data.count(b":\n")
            tail = (tail + chunk)[-(3 * DEEP):]
        err = p.stderr.read()
        status = p.wait()
        want_last = b"./" + b"/".join([b"d"] * DEEP) + b":\n"
        last_ok = tail.endswith(b"\n" + want_last)
        ok = status == 0 and not err and headers == DEEP + 1 and last_ok
        msg = ("deep -R (%d levels): exit %d, %d headers, stderr %r%s"
               % (DEEP, status, headers, err[:200],
                  "" if last_ok else ", last header wrong"))
        return ok, msg
    finally:
        fixture.remove_deep_chain(top)
        os.rmdir(parent)


def backend_available(ours, backend):
    """False (with the message) if ours refuses LSPLUS_BACKEND=backend."""
    env = dict(base_env(), LSPLUS_BACKEND=backend)
    p = subprocess.run(["ls", "-d", "/"], executable=ours, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode == 2 and p.stderr:
        return False, p.stderr.decode(errors="replace").strip()
    return True, ""


def backend_env(be):
    """The environment of ours for BE: a backend, or a backend and
    variables, BACKEND+VAR=VALUE+... (e.g. sync+LSPLUS_THREADS=1)."""
    if be is None:
        return {}
    name, *assigns = be.split("+")
    env = {"LSPLUS_BACKEND": name}
    for v in assigns:
        k, sep, val = v.partition("=")
        if not sep:
            raise SystemExit("difftest: --backends: %r is not VAR=VALUE" % v)
        env[k] = val
    return env


def build_shm_fixture():
    """Part of the fixture again on a tmpfs (/dev/shm): another getdents
    order, other directory sizes.  Returns its parent or None."""
    try:
        st = os.statvfs("/dev/shm")
        if st.f_bavail * st.f_frsize < 64 << 20:
            return None
        t = tempfile.mkdtemp(prefix="lsplus-gnu-shm.", dir="/dev/shm")
    except OSError:
        return None
    try:
        SHM["root"], _ = fixture.build(t, parts=fixture.SHM_PARTS)
    except (OSError, subprocess.CalledProcessError) as e:
        print("note: tmpfs fixture failed (%s): tmpfs cases skipped" % e)
        fixture.remove(t)
        return None
    subprocess.run(["/bin/ls", "-laRL"], cwd=SHM["root"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return t


def fixture_parent():
    """$TMPDIR if uid 65534 can reach it (the unprivileged cases exec our
    copy of ls from there), else /tmp."""
    d = os.path.realpath(tempfile.gettempdir())
    p = d
    while True:
        try:
            if not os.stat(p).st_mode & 0o001:
                return "/tmp"
        except OSError:
            return "/tmp"
        if p == "/":
            return d
        p = os.path.dirname(p)


def locale_translated(gnu, loc):
    """Does GNU ls speak LOC here (locale generated, coreutils' catalogue
    installed)?  Otherwise its cases would compare English with English."""
    def err(lc):
        env = dict(base_env(), LC_ALL=lc)
        return subprocess.run([gnu, "--sort=?"], env=env,
                              stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE).stderr
    return err(loc) != err("C")


def drop_untranslated(cs, gnu, required):
    """Drop the cases of translated locales GNU ls does not speak here;
    with REQUIRED, None (failure) instead."""
    for loc in casesmod.TRANSLATED:
        mine = [c for c in cs if loc in c.env.values()]
        if not mine or locale_translated(gnu, loc):
            continue
        print("%s: locale %s not generated or coreutils' catalogue missing "
              "(tools/install-deps generates it): its %d cases %s"
              % ("FAIL" if required else "note", loc, len(mine),
                 "cannot run" if required else "skipped"))
        if required:
            return None
        cs = [c for c in cs if loc not in c.env.values()]
    return cs


def select_cases(all_cases, patterns):
    if not patterns:
        return all_cases
    regs = [re.compile(p) for p in patterns]
    return [c for c in all_cases if any(r.search(c.id) for r in regs)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ls", default=os.environ.get("LSPLUS_LS"))
    ap.add_argument("--gnu", default="/bin/ls")
    ap.add_argument("-k", action="append", default=[], metavar="PATTERN",
                    help="only cases whose id matches this regex")
    ap.add_argument("--backends", default=None,
                    help="comma-separated backends for ours, each with "
                    "variables to set if wanted (BACKEND+VAR=VALUE...; "
                    "default: $LSPLUS_BACKEND or the program's choice)")
    ap.add_argument("-j", type=int, default=2 * (os.cpu_count() or 1))
    ap.add_argument("--show", type=int, default=30,
                    help="print full diffs of this many failures")
    ap.add_argument("--list", action="store_true", help="list cases")
    ap.add_argument("--keep", action="store_true",
                    help="keep the fixture directory")
    ap.add_argument("--no-deep", action="store_true")
    ap.add_argument("--dump", action="store_true",
                    help="print both outputs of every selected case")
    ap.add_argument("--require-locales", action="store_true",
                    help="fail if a translated locale of the cases "
                    "(cases.TRANSLATED) is unusable here, instead of "
                    "skipping its cases")
    ap.add_argument("--summary", metavar="FILE",
                    help="also write the failing case ids to FILE")
    ap.add_argument("--view", action="append", default=[],
                    metavar="OLD=NEW",
                    help="list the fixture under NEW (its root with the "
                    "prefix OLD replaced), once per view")
    ap.add_argument("--fixture", metavar="DIR",
                    help="reuse the fixture a --keep run left in DIR")
    ap.add_argument("--no-shm", action="store_true",
                    help="no tmpfs copy of the fixture, no @SHM@ cases")
    ap.add_argument("--gnu-once", action="store_true",
                    help="run GNU ls once per view and case, not once "
                    "per backend")
    ap.add_argument("--cases", choices=sorted(casesmod.CASE_SETS),
                    default="all", help="which set of cases (default all)")
    ap.add_argument("--first-view-backends", metavar="LIST",
                    help="more backends (as --backends), run in the first "
                    "view only")
    ap.add_argument("--exclude", action="append", default=[],
                    metavar="PATTERN",
                    help="leave out the cases whose id matches this regex")
    ap.add_argument("--sample", type=int, default=1, metavar="N",
                    help="only every Nth case of those selected")
    a = ap.parse_args()

    cs = select_cases(casesmod.CASE_SETS[a.cases](), a.k)
    if a.exclude:
        drop = [re.compile(p) for p in a.exclude]
        cs = [c for c in cs if not any(r.search(c.id) for r in drop)]
    cs = cs[::max(a.sample, 1)]
    if a.list:
        for c in cs:
            print(c.id)
        print("%d cases" % len(cs))
        return 0
    ours = a.ls or "src/ls"
    ours = os.path.abspath(ours)
    if not os.access(ours, os.X_OK):
        print("difftest: ls under test not found: %s" % ours,
              file=sys.stderr)
        return 1
    if not os.access(a.gnu, os.X_OK):
        print("SKIP: GNU ls not found at %s" % a.gnu)
        return 77
    cs = drop_untranslated(cs, a.gnu, a.require_locales)
    if cs is None:
        return 1
    if a.backends:
        backends = a.backends.split(",")
    elif os.environ.get("LSPLUS_BACKEND"):
        backends = [os.environ["LSPLUS_BACKEND"]]
    else:
        backends = [None]

    views = []
    for v in a.view:
        old, sep, new = v.partition("=")
        if not sep or not old or not new:
            ap.error("--view wants OLD=NEW, got %r" % v)
        views.append((os.path.abspath(old), os.path.abspath(new)))
    if a.fixture:
        tmp = os.path.abspath(a.fixture)
        a.keep = True
    else:
        tmp = tempfile.mkdtemp(prefix="lsplus-gnu.", dir=fixture_parent())
    try:
        os.chmod(tmp, 0o755)
        try:
            if a.fixture:
                fixture.check_env()
                root = os.path.join(tmp, "fx")
                # With views, only they need the fixture (a FUSE daemon or
                # an image may be the only place it is).
                there = [root] if not views else [
                    new + root[len(old):] for old, new in views]
                for r in there:
                    if not os.path.isdir(r):
                        print("difftest: no fixture in %s"
                              % os.path.dirname(r), file=sys.stderr)
                        return 1
            else:
                root, _ = fixture.build(tmp)
        except fixture.Skip as e:
            print("SKIP:", e.args[0])
            return 77
        for old, new in views:
            if root != old and not root.startswith(old + "/"):
                ap.error("--view: fixture root %s is not under %s"
                         % (root, old))
        shmtmp = None if a.no_shm else build_shm_fixture()
        if shmtmp is None:
            cs = [c for c in cs if not any("@SHM@" in x for x in c.args)]
            if not a.no_shm:
                print("note: no writable tmpfs at /dev/shm: "
                      "tmpfs cases skipped")
        # Private copies, reachable by the unprivileged cases, immune to
        # a rebuild during the run.
        bindir = os.path.join(tmp, "bin")
        os.makedirs(bindir, exist_ok=True)
        os.chmod(bindir, 0o755)
        ours_copy = os.path.join(bindir, "ls-ours")
        shutil.copy2(ours, ours_copy)
        os.chmod(ours_copy, 0o755)
        roots = [(root, "")]
        if views:
            roots = [(new + root[len(old):], "[%s] " % new)
                     for old, new in views]
        # Settle atimes (relatime) before comparing anything, in every
        # view (an overlay's or a snapshot's directories have their own),
        # and write the fixture back (block counts once showed 'total 96'
        # to GNU and 'total 100' to ours a moment later, under heavy load).
        for r in set([root] + [r for r, _ in roots]):
            if not os.path.isdir(r):
                continue
            subprocess.run([a.gnu, "-laRL"], cwd=r, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        try:
            subprocess.run(["sync", "-f", roots[0][0]])
        except OSError:
            pass
        first_only = a.first_view_backends.split(",") if \
            a.first_view_backends else ()
        return run_all(a, cs, roots, ours_copy, backends, tmp, first_only)
    finally:
        if SHM["root"]:
            fixture.remove(os.path.dirname(SHM["root"]))
        if a.keep:
            if not a.fixture:
                print("fixture kept in", tmp)
        else:
            fixture.remove(tmp)


def run_all(a, cs, roots, ours, backends, tmp, first_only=()):
    """Every case for every (root, view tag) in ROOTS and every backend,
    and in the first root with every backend of FIRST_ONLY too."""
    total = same = 0
    failures = []
    skipped = []
    per = []
    t0 = time.time()
    usable = []
    gnu_cache = {}               # (root, case id) -> Result, --gnu-once
    more = []
    for be in list(backends) + list(first_only):
        if be is not None:
            ok, why = backend_available(ours, be.split("+")[0])
            if not ok:
                print("backend %s unavailable: %s" % (be, why))
                skipped.append(be)
                continue
        (usable if be in backends else more).append(be)
    runs = [(r, be) for r in roots for be in usable]
    runs += [(roots[0], be) for be in more]
    for (root, vtag), be in runs:
        extra = backend_env(be)
        tag = vtag + ("" if be is None else "[%s] " % be)
        total0, same0 = total, same

        def one(c):
            g = gnu_cache.get((root, c.id)) if a.gnu_once else None
            if g is None:
                g = run_ls(a.gnu, c, root, {})
                if a.gnu_once:
                    gnu_cache[root, c.id] = g
            o = run_ls(ours, c, root, extra)
            return c, g, o

        with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
            for c, g, o in ex.map(one, cs):
                total += 1
                if a.dump:
                    dump(tag, c, g, o)
                if g == o:
                    same += 1
                else:
                    failures.append((tag, c, g, o))
        if not a.no_deep and not a.k:
            total += 1
            ok, msg = deep_test(ours, tmp, extra)
            if ok:
                same += 1
            else:
                failures.append((tag, None, msg, None))
        per.append("%s%d/%d identical" % (tag, same - same0, total - total0))
    if skipped and len(skipped) == len(backends) + len(first_only):
        print("SKIP: no requested backend available (%s)" % ",".join(skipped))
        return 77
    for i, (tag, c, g, o) in enumerate(failures):
        if i >= a.show:
            break
        if c is None:
            print("=" * 72 + "\nFAIL " + tag + g)
        else:
            print(tag + case_diff(c, g, o))
    if len(failures) > a.show:
        print("=" * 72)
        print("%d more failing cases:" % (len(failures) - a.show))
        for tag, c, g, o in failures[a.show:]:
            print("  " + tag + (c.id if c else g))
    if failures:
        by = {}
        for tag, c, g, o in failures:
            k = tag + (c.group if c else "deep")
            by[k] = by.get(k, 0) + 1
        print("failing cases by group: " + ", ".join(
            "%s %d" % kv for kv in sorted(by.items(), key=lambda kv: -kv[1])))
    if a.summary:
        with open(a.summary, "w") as f:
            for tag, c, g, o in failures:
                f.write(tag + (c.id if c else g) + "\n")
    if len(per) > 1:
        print("\n".join(per))
    print("%d/%d identical (%.1fs)" % (same, total, time.time() - t0))
    return 0 if same == total else 1


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.exit(main())
