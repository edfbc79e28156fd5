# SPDX-License-Identifier: GPL-3.0-or-later
"""fuserig.py -- what the FUSE file systems of tests/fuse share
(juicefs.py, cephfs.py): is FUSE usable here, a free loopback port, is a
path mounted, per-op counter differences, and Rig, the base of a file
system whose daemons live under one work directory.

A Rig is a context manager: entering calls start() (stop() if that
fails), leaving calls stop(), even on an exception.  Subclasses give
start(), mount(), umount(), stop(), ops() and say what ops() counts in
REQUESTS.
"""

import os
import signal
import socket
import subprocess
import time


class Unavailable(Exception):
    """This host cannot run the file system (reason in args[0])."""


def fuse_unavailable():
    """The reason FUSE cannot work here, or None."""
    if not os.path.exists("/dev/fuse"):
        return "/dev/fuse is missing (no FUSE in this kernel or container)"
    try:
        fd = os.open("/dev/fuse", os.O_RDWR)
        os.close(fd)
    except OSError as e:
        return "cannot open /dev/fuse: %s" % e.strerror
    return None


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on just now."""
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
    finally:
        s.close()


def mounted(path, fstype):
    """True if PATH is a mount point of FSTYPE (per /proc/self/mountinfo)."""
    want = os.path.realpath(path)
    with open("/proc/self/mountinfo") as f:
        for line in f:
            a = line.split()
            sep = a.index("-")
            mp = a[4].replace("\\040", " ")
            if mp == want and a[sep + 1] == fstype:
                return True
    return False


def diff(after, before):
    """Per-op AFTER - BEFORE, zero entries dropped."""
    out = {}
    for k in set(after) | set(before):
        v = after.get(k, 0) - before.get(k, 0)
        if v:
            out[k] = v
    return out


class Rig:
    """Daemons and a mount under the work directory WORKDIR."""

    REQUESTS = "requests"     # what ops() counts, for tables

    def __init__(self, workdir):
        self.dir = os.path.abspath(workdir)
        self.mnt = os.path.join(self.dir, "mnt")
        self.mounts = 0

    def __enter__(self):
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    def remount(self, cache=None):
        """A fresh mount: nothing cached in the kernel or the client."""
        self.umount()
        self.mount(cache)

    def _spawn(self, cmd, logname):
        """Start CMD in a session of its own (a terminal's ^C does not
        reach it: stop() ends it in order), its output to LOGNAME."""
        with self._log(logname) as log:
            return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL,
                                    start_new_session=True)

    def _unmount(self, server, fstype):
        """Unmount self.mnt if it is an FSTYPE mount (lazily if it is
        busy), then wait for SERVER, the Popen of the FUSE server, to exit;
        SIGKILL its process group if it lingers 30 s."""
        if mounted(self.mnt, fstype):
            r = subprocess.run(["umount", self.mnt], stderr=subprocess.PIPE)
            if r.returncode != 0 and mounted(self.mnt, fstype):
                subprocess.run(["umount", "-l", self.mnt],
                               stderr=subprocess.DEVNULL)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()

    def _log(self, name):
        return open(os.path.join(self.dir, name), "ab")

    def _wait(self, pred, secs, msg):
        deadline = time.monotonic() + secs
        while not pred():
            if time.monotonic() > deadline:
                raise RuntimeError(msg)
            time.sleep(0.05)

    def _run(self, cmd, logname):
        with self._log(logname) as log:
            r = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL)
        if r.returncode != 0:
            raise RuntimeError("%s failed (exit %d); see %s" % (
                " ".join(cmd[:2]), r.returncode,
                os.path.join(self.dir, logname)))
