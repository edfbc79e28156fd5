#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""fixture.py -- build the awkward file tree the GNU differential test lists.

Usage (as root):  fixture.py DIR     builds DIR/fx (DIR must exist)

Every directory of the tree is one concern (types/, names/, links/, ...);
cases.py lists them by those names.  Timestamps are pinned: old ones are
absolute, recent ones are relative to the NOW given to build() (the time
the fixture was built), never close to the six-month boundary.  Access
times of directories and symlinks are set in the future so that reading
them (relatime) does not change them between the two ls runs.

Raises Skip(reason) when the fixture cannot be built here (not root, a
tool missing); the caller turns that into exit status 77.
"""

import errno
import os
import shutil
import socket
import stat
import subprocess
import sys
import time


class Skip(Exception):
    """The test cannot run on this machine (reason in args[0])."""


DAY = 86400
T_OLD = 946684800 + 3 * 3600          # 2000-01-01 03:00:00 UTC
T_2023 = 1686830400                   # 2023-06-15 12:00:00 UTC
T_FUTURE = 4102444800 + 12 * 3600     # 2100-01-01 12:00:00 UTC
T_1960 = -315619200 + 5 * 3600        # 1960-01-01 05:00:00 UTC
T_ATIME_FUT = 4070908800              # 2099-01-01 00:00:00 UTC

# Tools the fixture needs (Debian packages acl, libcap2-bin).
TOOLS = ("setfacl", "setcap")


def _ns(sec, frac=0):
    return int(sec) * 1000000000 + frac


class Builder:
    """Creates files under ROOT and remembers the times to pin at the end."""

    def __init__(self, root, now, lenient=False, huge=True, name_max=255):
        self.root = root
        self.now = now
        self.times = []         # (path, atime_ns, mtime_ns), applied last
        self.seq = 0
        self.lenient = lenient  # ACLs, labels, capabilities where they go
        self.huge = huge        # the 5 GiB and 999 GiB sparse files
        self.name_max = name_max

    def attr(self, *argv):
        """Run setfacl/setcap ARGV; where the filesystem refuses it and
        the build is lenient, the file goes without."""
        try:
            subprocess.run(argv, check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL if self.lenient
                           else None)
        except subprocess.CalledProcessError:
            if not self.lenient:
                raise

    def xattr(self, rel, name, value):
        """Set the xattr NAME of REL (or not, the same way as attr)."""
        try:
            os.setxattr(self.p(rel), name, value)
        except OSError:
            if not self.lenient:
                raise

    def p(self, rel):
        return os.path.join(self.root, rel)

    def when(self, rel, mtime_ns, atime_ns=None):
        """Pin REL's mtime (and atime; default: one hour before mtime).
        A later call for the same REL wins."""
        if atime_ns is None:
            atime_ns = mtime_ns - 3600 * 10**9
        self.times = [t for t in self.times if t[0] != rel]
        self.times.append((rel, atime_ns, mtime_ns))

    def _default_time(self, rel):
        # Distinct, old, deterministic: 2023-06-15 + 37 minutes per file.
        self.seq += 1
        self.when(rel, _ns(T_2023 + self.seq * 37 * 60, self.seq * 1000))

    def file(self, rel, size=0, mode=0o644, data=None, mtime=None):
        with open(self.p(rel), "wb") as f:
            if data is not None:
                f.write(data)
            elif size:
                f.write(b"x" * size)
        os.chmod(self.p(rel), mode)
        if mtime is None:
            self._default_time(rel)
        else:
            self.when(rel, mtime)
        return rel

    def dir(self, rel, mode=0o755, mtime=None):
        os.mkdir(self.p(rel))
        os.chmod(self.p(rel), mode)
        if mtime is None:
            self._default_time(rel)
        else:
            self.when(rel, mtime)
        return rel

    def link(self, rel, target, mtime=None):
        os.symlink(target, self.p(rel))
        if mtime is None:
            self._default_time(rel)
        else:
            self.when(rel, mtime)

    def pin_times(self):
        """Apply the pinned times, deepest paths first (directories last)."""
        for rel, at, mt in sorted(self.times, key=lambda t: -t[0].count("/")):
            path = self.p(rel)
            st = os.lstat(path)
            if stat.S_ISDIR(st.st_mode) or stat.S_ISLNK(st.st_mode):
                # Future atime: relatime never rewrites it when ls reads
                # the directory or the link; distinct per entry.
                at = _ns(T_ATIME_FUT + (abs(mt) // 10**9) % (300 * DAY))
            os.utime(path, ns=(at, mt), follow_symlinks=False)


def run(*argv):
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)


def build_sizes(b):
    b.dir("sizes")
    for name, size in (("zero", 0), ("one", 1), ("s999", 999),
                       ("s1000", 1000), ("s1001", 1001), ("s1023", 1023),
                       ("s1024", 1024), ("s1025", 1025), ("s4096", 4096),
                       ("s4097", 4097), ("s10239", 10239),
                       ("s999999", 999999), ("s1048575", 1048575),
                       ("s1MiB", 1048576), ("s1048577", 1048577),
                       ("s1500000", 1500000)):
        b.file("sizes/" + name, size)
    if b.huge:                  # image builders would read them all
        with open(b.p("sizes/sparse5G"), "wb") as f:
            f.truncate(5 * 1024**3)
        b._default_time("sizes/sparse5G")
    with open(b.p("sizes/sparse-tail"), "wb") as f:
        f.truncate(3 * 1024**2)
        f.write(b"tail" * 3000)
    b._default_time("sizes/sparse-tail")
    # Large size on a 'big' but non-sparse-looking entry for -h rounding.
    if b.huge:
        with open(b.p("sizes/sparse999G"), "wb") as f:
            f.truncate(999 * 1024**3 + 12345)
        b._default_time("sizes/sparse999G")


def build_types(b, nobody):
    d = b.dir("types")
    b.file(d + "/regular", 10)
    b.file(d + "/empty", 0)
    b.file(d + "/exec", 20, mode=0o755, mtime=_ns(b.now - 3600))
    b.file(d + "/exec-user-only", 5, mode=0o700)
    b.file(d + "/setuid", 3, mode=0o4755)
    b.file(d + "/setuid-noexec", 3, mode=0o4644)
    b.file(d + "/setgid", 3, mode=0o2755)
    b.file(d + "/setgid-noexec", 3, mode=0o2644)
    b.file(d + "/sticky-file", 3, mode=0o1644)
    b.file(d + "/all-bits", 3, mode=0o7777)
    b.file(d + "/no-perms", 3, mode=0o000)
    b.file(d + "/write-only", 3, mode=0o222)
    b.file(d + "/hardlink1", 7, mtime=_ns(b.now - 7200))
    os.link(b.p(d + "/hardlink1"), b.p(d + "/hardlink2"))
    b.dir(d + "/dir")
    b.file(d + "/dir/inside", 1)
    b.dir(d + "/sticky-dir", mode=0o1755)
    b.dir(d + "/ow-dir", mode=0o777)
    b.dir(d + "/ow-sticky-dir", mode=0o1777)
    b.dir(d + "/setgid-dir", mode=0o2755)
    b.dir(d + "/empty-dir", mode=0o700, mtime=_ns(b.now - 1800))
    b.dir(d + "/dir.ext")
    os.mkfifo(b.p(d + "/fifo"))
    b._default_time(d + "/fifo")
    cwd = os.getcwd()
    os.chdir(b.p(d))
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind("socket")
        s.close()
    finally:
        os.chdir(cwd)
    b._default_time(d + "/socket")
    for name, kind, ma, mi in (("null-like", stat.S_IFCHR, 1, 3),
                               ("chr-big", stat.S_IFCHR, 4095, 1048575),
                               ("blk-small", stat.S_IFBLK, 8, 0),
                               ("blk-big", stat.S_IFBLK, 259, 1048575),
                               ("blk-mid", stat.S_IFBLK, 254, 16)):
        try:
            os.mknod(b.p(d + "/" + name), kind | 0o640, os.makedev(ma, mi))
        except OSError as e:    # xfs keeps 14-bit majors, 18-bit minors
            if e.errno != errno.EINVAL:
                raise
            continue
        b._default_time(d + "/" + name)
    b.file(d + "/capable", 4, mode=0o755)
    b.attr("setcap", "cap_net_raw+ep", b.p(d + "/capable"))
    b.file(d + "/archive.tar.gz", 100)
    b.file(d + "/src.c", 12)
    b.file(d + "/README", 12)
    b.link(d + "/link-reg", "regular")
    b.link(d + "/link-dir", "dir")
    b.link(d + "/link-dangling", "nowhere")
    b.link(d + "/link-fifo", "fifo")
    b.link(d + "/link-exec", "exec")
    b.link(d + "/link-chr", "null-like")
    b.link(d + "/link-sock", "socket")


def build_links(b, root_abs):
    d = b.dir("links")
    b.file(d + "/target", 42)
    b.dir(d + "/tdir")
    b.file(d + "/tdir/f1", 1)
    b.file(d + "/tdir/f2", 2)
    b.link(d + "/to-file", "target")
    b.link(d + "/to-dir", "tdir")
    b.link(d + "/to-dir-slash", "tdir/")
    b.link(d + "/dangling", "does-not-exist")
    b.link(d + "/loop-a", "loop-b")
    b.link(d + "/loop-b", "loop-a")
    b.link(d + "/self", "self")
    b.link(d + "/long", "x" * 60 + "/" + "y" * 70 + "/" + "z" * 90)
    b.link(d + "/abs-file", os.path.join(root_abs, "links", "target"))
    b.link(d + "/abs-dir", os.path.join(root_abs, "links", "tdir"))
    b.link(d + "/rel-up", "../types/regular")
    b.link(d + "/chain", "to-file")
    b.link(d + "/chain-dir", "to-dir")
    b.link(d + "/to-dev", "/dev/null")
    b.link(d + "/weird target", "a\nb\tc 'd\" \\e")
    b.link(d + "/empty-ish", ".")


def build_owners(b):
    d = b.dir("owners")
    for name, uid, gid in (("unknown", 12345, 54321), ("root", 0, 0),
                           ("nobody", 65534, 65534), ("mixed", 0, 54321),
                           ("big-id", 4000000000, 4000000001),
                           ("daemon", 1, 1), ("bin", 2, 2), ("sys", 3, 4),
                           ("uid100", 100, 100), ("uid999", 999, 5),
                           ("uid1000", 1000, 1000)):
        b.file(d + "/" + name, 5)
        os.chown(b.p(d + "/" + name), uid, gid)
    b.dir(d + "/unknown-dir")
    os.chown(b.p(d + "/unknown-dir"), 12345, 54321)
    b.link(d + "/unknown-link", "unknown")
    os.chown(b.p(d + "/unknown-link"), 12345, 54321, follow_symlinks=False)


def build_attrs(b):
    d = b.dir("attrs")
    label = b"system_u:object_r:etc_t:s0"
    b.file(d + "/plain", 3)
    b.file(d + "/acl", 3)
    b.attr("setfacl", "-m", "u:12345:r", b.p(d + "/acl"))
    b.file(d + "/acl-mask-only", 3)
    b.attr("setfacl", "-m", "m::r", b.p(d + "/acl-mask-only"))
    b.dir(d + "/default-acl")
    b.attr("setfacl", "-d", "-m", "u:12345:rx", b.p(d + "/default-acl"))
    b.file(d + "/default-acl/inherited", 1)
    b.dir(d + "/acl-dir")
    b.attr("setfacl", "-m", "g:54321:rwx", b.p(d + "/acl-dir"))
    b.file(d + "/label", 3)
    b.xattr(d + "/label", "security.selinux", label)
    b.file(d + "/label-nul", 3)
    b.xattr(d + "/label-nul", "security.selinux",
            b"user_u:object_r:tmp_t:s0\0")
    b.file(d + "/acl-and-label", 3)
    b.attr("setfacl", "-m", "u:12345:rw", b.p(d + "/acl-and-label"))
    b.xattr(d + "/acl-and-label", "security.selinux", label)
    b.dir(d + "/label-dir")
    b.xattr(d + "/label-dir", "security.selinux", label)
    b.file(d + "/cap", 3, mode=0o755)
    b.attr("setcap", "cap_net_raw+ep", b.p(d + "/cap"))
    b.file(d + "/cap-noexec", 3)
    b.attr("setcap", "cap_chown=ep", b.p(d + "/cap-noexec"))
    b.file(d + "/user-xattr", 3)
    try:                        # tmpfs before Linux 6.6 refuses user.*
        os.setxattr(b.p(d + "/user-xattr"), "user.comment", b"hello")
    except OSError:
        pass
    b.link(d + "/link-to-acl", "acl")
    b.link(d + "/link-to-label", "label")


NAMES = [
    "plain", "with space", "two  spaces", "trailing space ", " leading",
    "single'quote", 'double"quote', "both'\"quotes", "new\nline",
    "tab\there", "back\\slash", "dollar$sign", "star*", "quest?",
    "-dash", "--double", ".hidden", "..dots", "...three", "é-accent",
    "日本語", "e\u0301-combining", "invalid-\xff", "lone-\xc3",
    "ctrl-\x01", "del-\x7f", "esc-\x1b[31m", "bell\a", "semi;colon",
    "amp&", "pipe|", "paren(x)", "brace{a,b}", "bracket[1]", "tilde~",
    "~home", "hash#", "#start", "eq=sign", "percent%", "at@", "comma,",
    "caret^", "bang!", "back`tick", "<lt>", "cr\rret", "UPPER", "lower",
    "Mixed", "a", "B", "_under", "9nine", "10ten", "smile\U0001F600",
    "zero\u200bwidth", "fullwidth\uff21", "a:colon",
]


def _fsname(s):
    """Names use surrogateescape for invalid bytes (\\xff, lone \\xc3)."""
    raw = s.encode("utf-8")
    raw = raw.replace("\xff".encode(), b"\xff").replace(
        "\xc3".encode(), b"\xc3")
    return os.fsdecode(raw)


def build_names(b):
    d = b.dir("names")
    for i, n in enumerate(NAMES):
        b.file(d + "/" + _fsname(n), i % 7, mode=0o755 if i % 11 == 3 else 0o644)
    b.dir(d + "/dir with space")
    b.dir(d + "/dir\nnewline")
    b.file(d + "/dir\nnewline/x", 1)
    b.link(d + "/link to 'q'", "new\nline")
    b.link(d + "/link-\xff", _fsname("invalid-\xff"))


def build_times(b):
    d = b.dir("times")
    now = b.now
    b.file(d + "/old-2000", 1, mtime=_ns(T_OLD))
    b.file(d + "/recent-1h", 2, mtime=_ns(now - 3600))
    b.file(d + "/recent-5min", 3, mtime=_ns(now - 300, 123456789))
    b.file(d + "/recent-2months", 4, mtime=_ns(now - 60 * DAY))
    b.file(d + "/old-8months", 5, mtime=_ns(now - 240 * DAY))
    b.file(d + "/future-2100", 6, mtime=_ns(T_FUTURE))
    b.file(d + "/future-1day", 7, mtime=_ns(now + DAY))
    b.file(d + "/pre1970", 8, mtime=_ns(T_1960))
    b.file(d + "/epoch", 9, mtime=0)
    b.file(d + "/epoch-minus-1", 9, mtime=_ns(-1))
    b.file(d + "/y2038", 9, mtime=_ns(2147483647 + 100))
    b.file(d + "/ns-a", 1, mtime=_ns(T_2023, 1))
    b.file(d + "/ns-b", 1, mtime=_ns(T_2023, 2))
    b.file(d + "/ns-c", 1, mtime=_ns(T_2023, 999999999))
    b.file(d + "/ns-same1", 1, mtime=_ns(T_2023, 5))
    b.file(d + "/ns-same2", 1, mtime=_ns(T_2023, 5))
    b.file(d + "/atime-new", 1, mtime=_ns(T_OLD))
    b.when(d + "/atime-new", _ns(T_OLD), _ns(now - 7200, 42))
    b.file(d + "/atime-old", 1, mtime=_ns(now - 7200))
    b.when(d + "/atime-old", _ns(now - 7200), _ns(T_OLD))
    half_year = 31556952 // 2             # GNU's six-month rule
    b.file(d + "/six-months-minus-1day", 1, mtime=_ns(now - half_year + DAY))
    b.file(d + "/six-months-plus-1day", 1, mtime=_ns(now - half_year - DAY))
    b.file(d + "/future-1h", 1, mtime=_ns(now + 3600))
    b.file(d + "/y2400", 1, mtime=_ns(13569465600 + 7 * 3600))
    b.file(d + "/pre1970-ns", 1, mtime=_ns(-2, 500000000))
    b.file(d + "/dst-boundary", 1, mtime=_ns(1679792400))  # 2023-03-26 01:00 UTC
    b.file(d + "/leap-day", 1, mtime=_ns(1709164800 + 3723))  # 2024-02-29


def build_many(b):
    d = b.dir("many")
    words = ["a", "bb", "ccc", "dddd", "eeeee", "ffffffffff", "g" * 17,
             "hh", "i" * 25, "jjj", "k" * 9, "l" * 32, "mm", "n" * 12]
    for i in range(62):
        name = "%s%d" % (words[i % len(words)], i)
        if i % 9 == 4:
            name += ".txt"
        if i % 13 == 6:
            name = name.upper()
        b.file(d + "/" + name, (i * 997) % 5000,
               mode=0o755 if i % 10 == 7 else 0o644)
    b.dir(d + "/subdir")


def build_deep(b):
    d = b.dir("deep")
    b.dir(d + "/a")
    b.dir(d + "/a/b")
    b.dir(d + "/a/b/c")
    b.dir(d + "/a/b/c/d")
    b.file(d + "/a/b/c/d/leaf", 5)
    b.file(d + "/a/b/c/cfile", 4)
    b.file(d + "/a/afile", 3)
    b.dir(d + "/a/empty")
    b.dir(d + "/z")
    b.file(d + "/z/zfile", 1)
    b.link(d + "/z/up", "..")
    b.file(d + "/top", 2)
    b.dir(d + "/.hid")
    b.file(d + "/.hid/inner", 1)
    b.dir(d + "/dir with space")
    b.file(d + "/dir with space/f", 1)


def build_chain(b, depth=300):
    """chain/c/c/... (DEPTH levels): GNU lists it with few descriptors,
    so must we (cases run it under 'ulimit -n 20')."""
    rel = b.dir("chain")
    for i in range(depth):
        rel += "/c"
        b.dir(rel)
        if i % 50 == 7:
            b.file(rel + "/f%d" % i, i)


def build_rloop(b):
    d = b.dir("rloop")
    b.dir(d + "/sub")
    b.file(d + "/sub/f", 1)
    b.link(d + "/sub/back", "..")
    b.link(d + "/self", ".")
    b.dir(d + "/other")
    b.link(d + "/other/to-sub", "../sub")


def build_sort(b):
    d = b.dir("sort")
    names = ["a1", "a2", "a10", "a02", "a1.5", "x.tar.gz", "x.tar", "y.gz",
             "b.c", "a.c", ".c", "c", "c.", "Makefile", "makefile",
             "file-1.2.10", "file-1.2.9", "file-1.10", "file-1.9~",
             "file-1.9", "foo.1", "foo.10", "foo.2", "zz.C", "aa.B",
             "noext", "dots.a.b", ".dotfile.z", "a.tar.xz", "1", "01", "001"]
    for i, n in enumerate(names):
        b.file(d + "/" + n, (i * 7) % 5 * 100)   # many equal sizes
    b.dir(d + "/dir1")
    b.dir(d + "/Dir2")
    b.dir(d + "/dir.ext")
    b.link(d + "/link-to-dir1", "dir1")
    b.link(d + "/link-big", "x" * 150)
    # Equal mtimes for -t tie breaks.
    for n in ("same-t1", "same-t3", "same-t2"):
        b.file(d + "/" + n, 100, mtime=_ns(T_2023))


def build_big(b, n=3000):
    """A directory larger than any batch a backend reads at once: files,
    directories, symlinks (some dangling), fifos, 255-byte names."""
    d = b.dir("big")
    for i in range(n):
        name = "%s/e%05d%s" % (d, (i * 7919) % n, "x" * (i % 37))
        k = i % 50
        if k == 7:
            b.dir(name, mtime=_ns(T_2023 - i * 61))
        elif k == 11:
            b.link(name, "e%05d" % ((i * 31) % n) if i % 3 else "gone",
                   mtime=_ns(T_2023 - i * 61))
        elif k == 13:
            os.mkfifo(b.p(name))
            b.when(name, _ns(T_2023 - i * 61))
        else:
            b.file(name, (i * 104729) % 70000, mode=0o755 if k == 5 else 0o644,
                   mtime=_ns(T_2023 - i * 61, i))
    for c in "abcdefgh":
        b.file(d + "/" + c * b.name_max, 1)
    b.file(d + "/" + "\u00e9" * 127, 1)


def build_perm(b):
    d = b.dir("perm")
    b.dir(d + "/noread")
    b.file(d + "/noread/hidden", 1)
    b.dir(d + "/unsearch")
    b.file(d + "/unsearch/f1", 1)
    b.file(d + "/unsearch/f2", 2)
    b.dir(d + "/unsearch/subd")
    b.link(d + "/unsearch/lnk", "f1")
    b.dir(d + "/ok")
    b.file(d + "/ok/f", 1)
    b.dir(d + "/ok/noread2")
    b.file(d + "/unreadable-file", 1, mode=0o000)
    b.link(d + "/link-into-noread", "noread/hidden")
    b.link(d + "/link-into-unsearch", "unsearch/f1")
    b.dir(d + "/unsearch-big")
    for i in range(700):
        name = "%s/unsearch-big/u%04d%s" % (d, (i * 337) % 700, "y" * (i % 23))
        if i % 40 == 3:
            b.dir(name)
        elif i % 40 == 9:
            b.link(name, "u0001")
        else:
            b.file(name, i % 5)
    b.dir(d + "/writeonly")
    b.file(d + "/writeonly/x", 1)


def build_top(b):
    b.file("top-file", 5)
    b.file("top-exec", 5, mode=0o755)
    b.link("top-link", "types")
    b.link("top-dangling", "gone")
    b.dir("emptydir")


def set_final_modes(b):
    """Modes that would stop us from creating entries come last."""
    for rel, mode in (("perm/noread", 0o000), ("perm/unsearch", 0o644),
                      ("perm/unsearch-big", 0o755 & ~0o111),
                      ("perm/ok/noread2", 0o300),
                      ("perm/writeonly", 0o333)):
        os.chmod(b.p(rel), mode)


def check_env():
    if os.geteuid() != 0:
        raise Skip("must run as root (mknod, chown, setcap, setpriv)")
    for t in TOOLS:
        if shutil.which(t) is None:
            raise Skip("tool %s missing (install acl and libcap2-bin)" % t)


PARTS = ("sizes", "types", "links", "owners", "attrs", "names", "times",
         "many", "deep", "chain", "rloop", "sort", "perm", "big", "top")

# The subset built a second time on a tmpfs (other getdents order, sizes,
# no d_type surprises): see difftest.py's @SHM@ cases.
SHM_PARTS = ("sizes", "types", "links", "attrs", "names", "times", "many",
             "sort", "big")


def build(parent, now=None, parts=PARTS, **kw):
    """Build the fixture in PARENT/fx; returns (root, now).  KW goes to
    Builder: lenient=True leaves out the ACLs, labels and capabilities a
    filesystem refuses (ramfs), huge=False the two giant sparse files,
    name_max=254 shortens the 255-byte names (mkfs.erofs 1.5 cannot
    format those)."""
    check_env()
    if now is None:
        now = int(time.time())
    os.chmod(parent, 0o755)      # the unprivileged cases must get in
    root = os.path.join(parent, "fx")
    os.mkdir(root, 0o755)
    b = Builder(root, now, **kw)
    builders = {"sizes": build_sizes, "types": lambda b: build_types(b, 65534),
                "links": lambda b: build_links(b, root),
                "owners": build_owners, "attrs": build_attrs,
                "names": build_names, "times": build_times,
                "many": build_many, "deep": build_deep, "chain": build_chain,
                "rloop": build_rloop,
                "sort": build_sort, "perm": build_perm, "big": build_big,
                "top": build_top}
    for part in parts:
        builders[part](b)
    if "perm" in parts:
        set_final_modes(b)
    b.pin_times()
    os.utime(root, ns=(_ns(T_ATIME_FUT), _ns(T_2023 - DAY)))
    return root, now


def make_deep_chain(parent, depth, name="d"):
    """PARENT/deepchain/d/d/.../d (DEPTH levels), built with *at() calls
    so that no path ever exceeds PATH_MAX."""
    top = os.path.join(parent, "deepchain")
    os.mkdir(top)
    fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(depth):
            os.mkdir(name, 0o755, dir_fd=fd)
            nfd = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = nfd
    finally:
        os.close(fd)
    return top


def remove_deep_chain(top, name="d"):
    """Undo make_deep_chain one level at a time without deep paths."""
    tmp = "tmp-up"
    while os.path.isdir(os.path.join(top, name)):
        child = os.path.join(top, name)
        grand = os.path.join(child, name)
        if os.path.isdir(grand):
            os.rename(grand, os.path.join(top, tmp))
            os.rmdir(child)
            os.rename(os.path.join(top, tmp), child)
        else:
            os.rmdir(child)
    os.rmdir(top)


def remove(parent):
    """Remove everything build() made under PARENT."""
    for dirpath, dirnames, _ in os.walk(parent):
        for dn in dirnames:
            p = os.path.join(dirpath, dn)
            if not os.path.islink(p):
                try:
                    os.chmod(p, 0o755)
                except OSError:
                    pass
    shutil.rmtree(parent, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: fixture.py DIR")
    try:
        r, _ = build(sys.argv[1])
    except Skip as e:
        print("SKIP:", e.args[0], file=sys.stderr)
        sys.exit(77)
    print(r)
