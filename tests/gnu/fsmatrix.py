#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""fsmatrix.py -- the GNU differential suite on other filesystems (issue 21).

  fsmatrix.py [--ls PATH] [--gnu PATH] [--backends LIST] [--no-variants]
              [-j JOBS] [--sample N] [--keep] [-k PATTERN]... [--dump]
              [--cases SET] FS

Mounts FS in a fresh directory, puts the suite's fixture (fixture.py:
ACLs, default ACLs, security.selinux labels, capabilities, user xattrs,
hard links, odd names, unreadable directories, unknown owners, devices,
sockets, fifos, a 3,000-entry directory, ...) on it as far as the
filesystem holds them, and runs difftest.py's "fs" set of cases
(cases.py's fs_cases(): about 430, C and C.UTF-8, as root and as uid
65534) there: GNU ls once per view and case, ours once per backend
(auto, sync, uring, getdentsplus, intree: those that work here) and,
in the first view, with the read-ahead, helper and remote-pool threads
forced (VARIANTS): stdout, stderr and exit status byte for byte.  The
loop images and FUSE mounts are undone whatever happens (also on
SIGTERM).

FS (one make check test each, tests/gnu/fs-FS.test) and its views:
  xfs, ext2-nofiletype (mke2fs -O ^filetype: every d_type is unknown),
  ramfs (no xattrs at all: the fixture goes without its ACLs, labels
  and capabilities), tmpfs: the fixture built on the mount;
  btrfs: a subvolume holding the fixture and a nested subvolume inside
  it (deep/subvol), a nested subvolume holding a snapshot of it, a
  snapshot and a read-only snapshot (without deep/subvol);
  erofs: default, without xattrs (-x -1), lz4hc with compact inodes
  wherever they fit (--ignore-mtime);
  squashfs: with and without xattrs;
  overlay: upper and lower on one ext4 image, and a squashfs lower with a
  tmpfs upper; in both, files removed (whiteouts), a directory removed
  and made again (opaque), files copied up (chmod, chown, a write, an
  ACL, a user xattr, a rename, a hard link);
  fuse2fs (an ext4 image, without big/ and chain/), squashfuse, bindfs
  (over a tmpfs): FUSE, mounted allow_other for the unprivileged cases.
The image builders (mkfs.erofs, mksquashfs) take the fixture from a
tmpfs, without the 5 GiB and 999 GiB sparse files (they would read them
all) and, for mkfs.erofs 1.5, with 254-byte names for 255.

Exit 0 every case identical, 1 a difference or a setup failure (a tool
missing: tools/install-deps installs them), 77 only when the running
kernel lacks FS (or FUSE), or not root.  LSPLUS_CHECK_SCOPE=short runs
every 3rd case (--sample 3), a sanitizer build every 6th in the first
view only.
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
import difftest                      # noqa: E402
import fixture                       # noqa: E402

BACKENDS = "auto,sync,uring,getdentsplus,intree"
# The threads forced on (unless --no-variants): on a local filesystem the cold-tree
# read-ahead on every directory with the helper thread, and the
# filesystem taken for a network one (GNU's probes, through io_uring
# under auto, from the remote pool with read-ahead under sync); on FUSE
# the remote pool and read-ahead at 8, and the network rules.
VARIANTS = {
    "local": ("sync+LSPLUS_COLD_USEC=0+LSPLUS_THREADS=1",
              "auto+LSPLUS_REMOTE=net",
              "sync+LSPLUS_REMOTE=net+LSPLUS_REMOTE_THREADS=8"
              "+LSPLUS_AHEAD=8"),
    "fuse": ("sync+LSPLUS_REMOTE_THREADS=8+LSPLUS_AHEAD=8",
             "auto+LSPLUS_REMOTE=net"),
}
FUSE = ("fuse2fs", "squashfuse", "bindfs")
IMG_SIZE = "600M"                    # loop images (sparse files)


class Skip(Exception):
    """FS cannot be tried here (reason in args[0]): exit 77."""


class Rig:
    """A work directory, the mounts made in it (undone in reverse order)
    and the FUSE daemons' mounts."""

    def __init__(self, keep):
        self.work = tempfile.mkdtemp(prefix="lsplus-fsm.",
                                     dir=difftest.fixture_parent())
        os.chmod(self.work, 0o755)
        self.mounts = []
        self.keep = keep
        self.exclude = []           # case id regexes a setup leaves out

    def path(self, name):
        return os.path.join(self.work, name)

    def dir(self, name):
        """WORK/NAME, made, reachable by uid 65534."""
        p = self.path(name)
        os.makedirs(p, exist_ok=True)
        os.chmod(p, 0o755)
        return p

    def run(self, *argv):
        """Run ARGV; its output only if it fails (then RuntimeError)."""
        p = subprocess.run(argv, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT)
        if p.returncode != 0:
            raise RuntimeError("%s: exit %d: %s" % (
                " ".join(argv), p.returncode,
                p.stdout.decode(errors="replace").strip()[-2000:]))

    def mount(self, target, *argv):
        """mount ARGV... TARGET (or, with ARGV[0] a FUSE daemon, that
        command), remembered for unmounting."""
        if argv and not argv[0].startswith("-"):
            self.run(*argv)
        else:
            self.run("mount", *argv, target)
        self.mounts.append(target)

    def image(self, name, mkfs):
        """A sparse IMG_SIZE file WORK/NAME formatted by MKFS + [file]."""
        img = self.path(name)
        with open(img, "wb") as f:
            f.truncate(parse_size(IMG_SIZE))
        self.run(*mkfs, img)
        return img

    def staging(self, **kw):
        """The fixture on a tmpfs of its own, for the image builders:
        WORK/stage/fx (returns WORK/stage)."""
        st = self.dir("stage")
        self.mount(st, "-t", "tmpfs", "-o", "mode=755", "tmpfs")
        fixture.build(st, **kw)
        return st

    def close(self):
        for m in reversed(self.mounts):
            if subprocess.run(["umount", m], stderr=subprocess.DEVNULL
                              ).returncode != 0:
                time.sleep(0.5)
                if subprocess.run(["umount", m]).returncode != 0:
                    subprocess.run(["umount", "-l", m])
        self.mounts = []
        if self.keep:
            print("work directory kept:", self.work)
        else:
            fixture.remove(self.work)


def parse_size(s):
    return int(s[:-1]) << {"K": 10, "M": 20, "G": 30}[s[-1]]


def need_kernel(fs):
    """Skip unless the kernel has FS (loading its module if it is one)."""
    def have():
        with open("/proc/filesystems") as f:
            return any(line.split()[-1] == fs for line in f if line.strip())
    if not have():
        subprocess.run(["modprobe", fs], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    if not have():
        raise Skip("the running kernel has no %s filesystem" % fs)
    if fs == "fuse" and not os.path.exists("/dev/fuse"):
        raise Skip("no /dev/fuse")


def need_progs(*progs):
    missing = [p for p in progs if shutil.which(p) is None]
    if missing:
        raise RuntimeError("%s not installed (tools/install-deps installs "
                           "it)" % ", ".join(missing))


def pin(path, mtime_ns):
    """MTIME_NS and a far-future atime (relatime never rewrites it)."""
    os.utime(path, ns=(fixture._ns(fixture.T_ATIME_FUT), mtime_ns),
             follow_symlinks=False)


# Each setup function makes the filesystem in RIG and returns (DIR,
# VIEWS): DIR is difftest's --fixture directory (ours is copied there),
# VIEWS its --view arguments (empty: the fixture is DIR/fx itself).

def fs_local(rig, fstype, mkfs=None, opts=(), **kw):
    """FSTYPE mounted on WORK/mnt (a loop image made by MKFS, or a
    memory filesystem), the fixture built on it."""
    mnt = rig.dir("mnt")
    if mkfs:
        img = rig.image("img", mkfs)
        rig.mount(mnt, "-o", ",".join(("loop",) + tuple(opts)), img)
    else:
        rig.mount(mnt, "-t", fstype, fstype)
    os.chmod(mnt, 0o755)
    fixture.build(mnt, **kw)
    return mnt, []


def setup_xfs(rig):
    need_kernel("xfs")
    need_progs("mkfs.xfs")
    return fs_local(rig, "xfs", ["mkfs.xfs", "-q"])


def setup_ext2_nofiletype(rig):
    need_kernel("ext2")
    need_progs("mke2fs")
    return fs_local(rig, "ext2", ["mke2fs", "-q", "-F", "-t", "ext2",
                                  "-O", "^filetype"])


def setup_ramfs(rig):
    need_kernel("ramfs")
    return fs_local(rig, "ramfs", lenient=True)


def setup_tmpfs(rig):
    need_kernel("tmpfs")
    return fs_local(rig, "tmpfs")


def setup_btrfs(rig):
    need_kernel("btrfs")
    need_progs("mkfs.btrfs", "btrfs")
    mnt = rig.dir("mnt")
    img = rig.image("img", ["mkfs.btrfs", "-q"])
    rig.mount(mnt, "-o", "loop", img)
    os.chmod(mnt, 0o755)
    sv = os.path.join(mnt, "sv")
    rig.run("btrfs", "-q", "subvolume", "create", sv)
    os.chmod(sv, 0o755)
    root, _ = fixture.build(sv)
    # A nested subvolume inside the fixture: another st_dev, inode 256
    # (getdents says otherwise), crossed by -R, in deep/.
    sub = os.path.join(root, "deep", "subvol")
    rig.run("btrfs", "-q", "subvolume", "create", sub)
    with open(os.path.join(sub, "inside"), "wb") as f:
        f.write(b"abc")
    pin(os.path.join(sub, "inside"), fixture._ns(fixture.T_2023, 7))
    pin(sub, fixture._ns(fixture.T_2023 - 3600))
    pin(os.path.join(root, "deep"), fixture._ns(fixture.T_2023 - 7200))
    # Snapshots of sv (deep/subvol in them is btrfs's empty placeholder
    # whose times are "now" at every lookup, so GNU differs from itself
    # there: it is removed from the writable ones, and the read-only
    # snapshot is taken of a snapshot without it).
    views = [(sv, sv)]
    rig.run("btrfs", "-q", "subvolume", "snapshot", sv,
            os.path.join(mnt, "snap"))
    os.rmdir(os.path.join(mnt, "snap", "fx", "deep", "subvol"))
    pin(os.path.join(mnt, "snap", "fx", "deep"),
        fixture._ns(fixture.T_2023 - 7200))
    rig.run("btrfs", "-q", "subvolume", "snapshot", "-r",
            os.path.join(mnt, "snap"), os.path.join(mnt, "rosnap"))
    rig.run("btrfs", "-q", "subvolume", "snapshot",
            os.path.join(mnt, "snap"), os.path.join(sv, "nested"))
    views += [(sv, os.path.join(sv, "nested")),
              (sv, os.path.join(mnt, "snap")),
              (sv, os.path.join(mnt, "rosnap"))]
    return sv, views


def setup_erofs(rig):
    need_kernel("erofs")
    need_progs("mkfs.erofs")
    st = rig.staging(huge=False, name_max=254)
    views = []
    for name, opts in (("default", []), ("noxattr", ["-x-1"]),
                       ("lz4hc-compact", ["-zlz4hc", "--ignore-mtime"])):
        img = rig.path("erofs-" + name)
        rig.run("mkfs.erofs", "--quiet", *opts, img, st)
        mnt = rig.dir(name)
        rig.mount(mnt, "-t", "erofs", "-o", "loop,ro", img)
        views.append((st, mnt))
    return st, views


def setup_squashfs(rig):
    need_kernel("squashfs")
    need_progs("mksquashfs")
    st = rig.staging(huge=False)
    views = []
    for name, opts in (("xattrs", []), ("noxattrs", ["-no-xattrs"])):
        img = rig.path("squashfs-" + name)
        rig.run("mksquashfs", st, img, "-quiet", "-no-progress", *opts)
        mnt = rig.dir(name)
        rig.mount(mnt, "-t", "squashfs", "-o", "loop,ro", img)
        views.append((st, mnt))
    return st, views


def overlay_changes(root):
    """Through the overlay mounted with the fixture ROOT: whiteouts, an
    opaque directory, copied-up files; the times pinned again."""
    def p(rel):
        return os.path.join(root, rel)

    for rel in ("types/README", "sort/makefile", "names/plain",
                "many/a0", "big/e00010xxxxxxxxxx"):
        if os.path.lexists(p(rel)):
            os.unlink(p(rel))
    os.rmdir(p("deep/a/empty"))
    shutil.rmtree(p("deep/z"))                      # opaque when made again
    os.mkdir(p("deep/z"))
    with open(p("deep/z/new"), "wb") as f:
        f.write(b"new")
    os.symlink("new", p("deep/z/to-new"))
    os.chmod(p("types/regular"), 0o600)             # copy-up, metadata
    os.chown(p("owners/unknown"), 12346, 54322)
    with open(p("sizes/s1000"), "ab") as f:         # copy-up, data
        f.write(b"y")
    subprocess.run(["setfacl", "-m", "u:12345:rw", p("attrs/plain")],
                   stderr=subprocess.DEVNULL)
    try:
        os.setxattr(p("attrs/label"), "user.note", b"copied up")
    except OSError:
        pass
    os.rename(p("sort/a1"), p("sort/a1-renamed"))
    os.link(p("types/exec"), p("types/exec-link"))
    t = fixture._ns(fixture.T_2023 + 11)
    for rel in ("deep/z/new", "deep/z/to-new", "deep/z", "types/regular",
                "sizes/s1000", "types/exec"):
        pin(p(rel), t)
    for rel in ("types", "sort", "names", "many", "big", "deep", "deep/a",
                "sizes", "owners", "attrs"):
        pin(p(rel), fixture._ns(fixture.T_2023 - 86400))


def setup_overlay(rig):
    need_kernel("overlay")
    need_kernel("squashfs")
    need_progs("mke2fs", "mksquashfs")
    # 1. upper and lower on one ext4.
    e = rig.dir("ext4")
    img = rig.image("img", ["mke2fs", "-q", "-F", "-t", "ext4"])
    rig.mount(e, "-o", "loop", img)
    for d in ("lower", "upper", "work"):
        os.mkdir(os.path.join(e, d), 0o755)
    fixture.build(os.path.join(e, "lower"))
    o1 = rig.dir("ovl-ext4")
    rig.mount(o1, "-t", "overlay", "-o",
              "lowerdir=%s/lower,upperdir=%s/upper,workdir=%s/work"
              % (e, e, e), "overlay")
    overlay_changes(os.path.join(o1, "fx"))
    # 2. a squashfs lower (an image layer), a tmpfs upper.
    st = rig.staging(huge=False)
    sq = rig.dir("sq")
    rig.run("mksquashfs", st, rig.path("sq.img"), "-quiet", "-no-progress")
    rig.mount(sq, "-t", "squashfs", "-o", "loop,ro", rig.path("sq.img"))
    up = rig.dir("upper")
    rig.mount(up, "-t", "tmpfs", "-o", "mode=755", "tmpfs")
    for d in ("upper", "work"):
        os.mkdir(os.path.join(up, d), 0o755)
    o2 = rig.dir("ovl-squashfs-tmpfs")
    rig.mount(o2, "-t", "overlay", "-o",
              "lowerdir=%s,upperdir=%s/upper,workdir=%s/work"
              % (sq, up, up), "overlay")
    overlay_changes(os.path.join(o2, "fx"))
    return st, [(st, o1), (st, o2)]


def setup_fuse2fs(rig):
    need_kernel("fuse")
    need_progs("fuse2fs", "mke2fs")
    e = rig.dir("ext4")
    img = rig.image("img", ["mke2fs", "-q", "-F", "-t", "ext4"])
    rig.mount(e, "-o", "loop", img)
    os.chmod(e, 0o755)
    # Without big/ and chain/: fuse2fs looks a name up by reading its
    # whole directory (ls -l of big/'s 3,000 entries took 2 s) and asks
    # the daemon again for every component of a path (GNU's ls -lR of
    # the 300 levels of chain/ took 2.7 s).
    fixture.build(e, parts=tuple(p for p in fixture.PARTS
                                 if p not in ("big", "chain")))
    rig.exclude.append(r"\b(big|chain)\b")
    rig.run("umount", e)
    rig.mounts.remove(e)
    mnt = rig.dir("mnt")
    rig.mount(mnt, "fuse2fs", "-o", "ro,allow_other", img, mnt)
    return rig.dir("bin-only"), [(rig.path("bin-only"), mnt)]


def setup_squashfuse(rig):
    need_kernel("fuse")
    need_progs("squashfuse", "mksquashfs")
    st = rig.staging(huge=False)
    img = rig.path("img")
    rig.run("mksquashfs", st, img, "-quiet", "-no-progress")
    mnt = rig.dir("mnt")
    rig.mount(mnt, "squashfuse", "-o", "allow_other", img, mnt)
    # squashfuse (libfuse's high-level API, no use_ino) numbers inodes in
    # the order the kernel looks them up, and again after the kernel
    # forgets them: a drop_caches anywhere on the machine between GNU's
    # run and ours (the CI rehearsal's parallel tests did) renumbers
    # them, so GNU's numbers and ours differ without either being wrong.
    # The cases that print inode numbers (-i) are left out here;
    # squashfuse_ll and the others keep the archive's numbers.
    rig.exclude.append(r" -[A-Za-z0-9]*i[A-Za-z0-9]*\b")
    return st, [(st, mnt)]


def setup_bindfs(rig):
    need_kernel("fuse")
    need_progs("bindfs")
    st = rig.dir("stage")
    rig.mount(st, "-t", "tmpfs", "-o", "mode=755", "tmpfs")
    fixture.build(st)
    mnt = rig.dir("mnt")
    rig.mount(mnt, "bindfs", st, mnt)
    return st, [(st, mnt)]


SETUPS = {"xfs": setup_xfs, "btrfs": setup_btrfs, "erofs": setup_erofs,
          "squashfs": setup_squashfs, "overlay": setup_overlay,
          "ext2-nofiletype": setup_ext2_nofiletype, "ramfs": setup_ramfs,
          "tmpfs": setup_tmpfs, "fuse2fs": setup_fuse2fs,
          "squashfuse": setup_squashfuse, "bindfs": setup_bindfs}


def sanitized(exe):
    out = subprocess.run(["ldd", exe], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True).stdout
    return "libasan" in out or "libubsan" in out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("fs", choices=sorted(SETUPS))
    ap.add_argument("--ls", default=os.environ.get("LSPLUS_LS"))
    ap.add_argument("--gnu", default="/bin/ls")
    ap.add_argument("--backends", default=BACKENDS,
                    help="backends of ours, each with variables if wanted "
                    "(difftest.py; default %s)" % BACKENDS)
    ap.add_argument("--no-variants", action="store_true",
                    help="not also the backends with threads forced "
                    "(VARIANTS)")
    ap.add_argument("-j", type=int, default=None)
    ap.add_argument("--sample", type=int, default=None,
                    help="every Nth case (default 1; 3 with "
                    "LSPLUS_CHECK_SCOPE=short, 6 for a sanitizer build)")
    ap.add_argument("--keep", action="store_true",
                    help="keep the work directory (unmounted)")
    ap.add_argument("--show", type=int, default=30)
    ap.add_argument("-k", action="append", default=[], metavar="PATTERN",
                    help="only cases whose id matches (difftest.py -k)")
    ap.add_argument("--cases", default="fs",
                    help="difftest.py's set of cases (default fs; all: the "
                    "whole suite, by hand)")
    ap.add_argument("--dump", action="store_true",
                    help="print both outputs of every case (difftest.py)")
    a = ap.parse_args()
    ours = os.path.abspath(a.ls or "src/ls")
    if not os.access(ours, os.X_OK):
        print("fsmatrix: ls under test not found: %s" % ours)
        return 1
    if os.geteuid() != 0:
        print("SKIP: mounting %s needs root" % a.fs)
        return 77
    # tools/run-tests: the sanitizer and distcheck passes after the
    # normal build ran every case; ASan makes every ls start several
    # times slower, so there the first view alone.
    sample, one_view = a.sample, sanitized(ours)
    if sample is None:
        sample = 6 if one_view else 1
        if os.environ.get("LSPLUS_CHECK_SCOPE") == "short" and not one_view:
            sample = 3
    if sample > 1 or one_view:
        print("note: %s: every %scase%s" % (
            "sanitizer build" if one_view else "LSPLUS_CHECK_SCOPE=short",
            {1: "", 2: "2nd ", 3: "3rd "}.get(sample, "%dth " % sample),
            ", the first view only" if one_view else ""))
    variants = () if a.no_variants else VARIANTS[
        "fuse" if a.fs in FUSE else "local"]
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    t0 = time.time()
    rig = Rig(a.keep)
    try:
        try:
            fxdir, views = SETUPS[a.fs](rig)
        except Skip as e:
            print("SKIP:", e.args[0])
            return 77
        except (RuntimeError, OSError, subprocess.SubprocessError,
                fixture.Skip) as e:
            print("fsmatrix: FAIL: cannot set up %s: %s" % (a.fs, e))
            return 1
        setup = time.time() - t0
        if one_view:
            views = views[:1]
        print("%s: set up in %.1fs%s" % (a.fs, setup, "".join(
            "\n  view %s" % new for _, new in views)))
        argv = [sys.executable, os.path.join(HERE, "difftest.py"),
                "--ls", ours, "--gnu", a.gnu, "--fixture", fxdir,
                "--no-shm", "--no-deep", "--gnu-once", "--cases", a.cases,
                "--sample", str(sample), "--backends", a.backends,
                "--show", str(a.show)]
        # The variants in the first view only: the threads meet the same
        # filesystem in the others.
        if variants:
            argv += ["--first-view-backends", ",".join(variants)]
        if a.j:
            argv += ["-j", str(a.j)]
        for k in a.k:
            argv += ["-k", k]
        if a.dump:
            argv.append("--dump")
        for old, new in views:
            argv += ["--view", "%s=%s" % (old, new)]
        for x in rig.exclude:
            argv += ["--exclude", x]
        sys.stdout.flush()
        rc = subprocess.run(argv).returncode
        print("%s: %.1fs in all (setup %.1fs)" % (a.fs, time.time() - t0,
                                                 setup))
        return rc
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        rig.close()


if __name__ == "__main__":
    sys.exit(main())
