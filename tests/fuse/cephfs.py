#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""cephfs.py -- a private one-node CephFS on this host, mounted with
ceph-fuse, for tests/fuse and bench/run-fuse.

  with CephFS(workdir) as fs:       # mon, osd, pools, fs, mds
      fs.mount()                    # ceph-fuse, POSIX ACLs on
      ... fs.mnt ...
      before = fs.ops()             # MDS requests served, per op
      fs.remount()                  # a fresh client: nothing cached
  # leaving the block unmounts and stops everything, even on an exception

As a program it starts the cluster in a fresh temporary directory, says
how long it took, runs COMMAND there (in the mount, with CEPHFS_MNT set)
or, without one, waits for SIGINT or SIGTERM; then it unmounts, stops
the daemons and removes the directory:

  cephfs.py [--dir PARENT] [--keep] [COMMAND [ARG]...]

Everything lives under WORKDIR (which must exist and be empty): ceph.conf,
the monitor's store, the logs, pid files and admin sockets (run/), and the
mount point.  No systemd, no block device, no key: one monitor, one OSD
on memstore (its objects live in its memory and are gone when it stops),
pools of size 1, one MDS, all on 127.0.0.1 (the monitor on two free
ports, the others on ports of their choosing); no manager (the file
system serves without one; health turns to ERR after ~2 minutes).  The
daemons and ceph-fuse are children of this process, in the foreground;
stop() ends exactly those named by the pid files in run/ (each checked to
be a ceph program reading this WORKDIR's ceph.conf) and this process's
own children, so an interrupted run's WORKDIR can be stopped again.

ceph-fuse runs as client.fuse with --client_acl_type=posix_acl (else no
ACL shows: no '+'), --fuse_default_permissions=0 (ceph-fuse checks
permissions itself, with the ACLs) and --client_dirsize_rbytes=false
(else a directory's size is the recursive byte count of its tree, which
changes as it propagates).

Request counts come from the admin sockets, read directly (no `ceph`
program to start, and no FUSE request): ops() is the MDS's requests per
op (mds_server's req_*_latency counts), client_requests() the client's
MDS requests answered (client.reply).
"""

import json
import os
import signal
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import uuid

import fuserig
from fuserig import Rig, Unavailable, free_port, fuse_unavailable

FSTYPE = "fuse.ceph-fuse"
PROGRAMS = ("ceph", "ceph-mon", "ceph-osd", "ceph-mds", "ceph-fuse",
            "monmaptool")
# The daemons whose pid files stop() reads, besides ceph-fuse's.
DAEMONS = ("mds.a", "osd.0", "mon.a")
FUSE_NAME = "client.fuse"

CONF = """\
[global]
fsid = {fsid}
mon host = {mon}
mon initial members = a
public addr = 127.0.0.1
auth cluster required = none
auth service required = none
auth client required = none
run dir = {dir}/run
pid file = {dir}/run/$name.pid
admin socket = {dir}/run/$name.asok
log file = {dir}/log/$name.log
mon data = {dir}/mon
osd data = {dir}/osd
mds data = {dir}/mds
osd objectstore = memstore
memstore device bytes = 1073741824
osd pool default size = 1
osd pool default min size = 1
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon allow pool size one = true
mon warn on pool no redundancy = false
mon data avail warn = 1
mon data avail crit = 0
mon warn on insecure global id reclaim allowed = false
[client.admin]
admin socket =
"""


def asok(path, prefix):
    """The JSON answer of the admin socket PATH to the command PREFIX."""
    with socket.socket(socket.AF_UNIX) as s:
        s.settimeout(10)
        s.connect(path)
        s.sendall(json.dumps({"prefix": prefix}).encode() + b"\0")
        head = b""
        while len(head) < 4:
            b = s.recv(4 - len(head))
            if not b:
                raise OSError("admin socket %s: short answer" % path)
            head += b
        n = struct.unpack(">I", head)[0]
        buf = b""
        while len(buf) < n:
            b = s.recv(n - len(buf))
            if not b:
                raise OSError("admin socket %s: short answer" % path)
            buf += b
    return json.loads(buf)


def mounted(path):
    """True if PATH is a ceph-fuse mount point."""
    return fuserig.mounted(path, FSTYPE)


def alive(pid):
    """True if PID exists and is not a zombie."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


class CephFS(Rig):
    REQUESTS = "MDS requests"

    def __init__(self, workdir):
        super().__init__(workdir)
        self.conf = os.path.join(self.dir, "ceph.conf")
        self.run_dir = os.path.join(self.dir, "run")
        self.children = []          # Popen of every daemon we started
        self.fuse = None            # Popen of ceph-fuse
        self.mon_port = None
        self.timings = []           # (step, seconds since start())

    # -- life cycle ---------------------------------------------------
    def start(self):
        """Create and start the cluster and its file system."""
        t0 = time.monotonic()

        def step(what):
            self.timings.append((what, time.monotonic() - t0))
        why = fuse_unavailable()
        if why:
            raise Unavailable(why)
        for tool in PROGRAMS:
            if shutil.which(tool) is None:
                raise RuntimeError("%s not found (tools/install-deps "
                                   "installs Ceph)" % tool)
        # sun_path holds 108 bytes; the longest socket is client.fuse.asok.
        if len(os.path.join(self.run_dir, "client.fuse.asok")) > 100:
            raise RuntimeError("work directory %s: path too long for the "
                               "admin sockets" % self.dir)
        for d in ("mon", "osd", "mds", "run", "log", "mnt"):
            os.makedirs(os.path.join(self.dir, d), exist_ok=True)
        os.chmod(self.dir, 0o755)
        fsid = str(uuid.uuid4())
        p2, p1 = free_port(), free_port()
        self.mon_port = p2
        mon = "[v2:127.0.0.1:%d,v1:127.0.0.1:%d]" % (p2, p1)
        with open(self.conf, "w") as f:
            f.write(CONF.format(fsid=fsid, mon=mon, dir=self.dir))
        monmap = os.path.join(self.dir, "monmap")
        self._run(["monmaptool", "--create", "--fsid", fsid, "--addv", "a",
                   mon, monmap], "setup.log")
        self._run(["ceph-mon", "-c", self.conf, "--mkfs", "-i", "a",
                   "--monmap", monmap], "setup.log")
        self._daemon(["ceph-mon", "-i", "a"])
        self._wait(lambda: self._state("mon.a", "mon_status") == "leader",
                   60, "ceph-mon did not come up; see %s/log" % self.dir)
        step("mon")
        osd_uuid = str(uuid.uuid4())
        self.ceph("osd new " + osd_uuid)
        self._run(["ceph-osd", "-c", self.conf, "-i", "0", "--mkfs",
                   "--osd-uuid", osd_uuid], "setup.log")
        self._daemon(["ceph-osd", "-i", "0"])
        # While the OSD boots: one ceph program for the rest (each start
        # of it costs ~0.3 s idle, seconds on a loaded machine).
        self.ceph("osd pool create cephfs_data 8",
                  "osd pool create cephfs_metadata 8",
                  "fs new cephfs cephfs_metadata cephfs_data")
        step("osd, pools, fs")
        self._daemon(["ceph-mds", "-i", "a"])
        self._wait(lambda: self._state("mds.a", "status") == "up:active",
                   120, "ceph-mds did not become active; see %s/log"
                   % self.dir)
        step("mds active")

    def ceph(self, *commands):
        """Run the ceph program on COMMANDS (lines it reads from its
        standard input) against this cluster."""
        log = os.path.join(self.dir, "setup.log")
        r = subprocess.run(["ceph", "-c", self.conf, "--connect-timeout",
                            "30"], input="\n".join(commands).encode() + b"\n",
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        with open(log, "ab") as f:
            f.write(r.stdout)
        if r.returncode != 0 or b"Error" in r.stdout:
            raise RuntimeError("ceph %s failed (exit %d); see %s" % (
                "; ".join(commands), r.returncode, log))

    def _daemon(self, cmd):
        """Start the daemon CMD in the foreground, reading our ceph.conf
        (_state() notices if it exits)."""
        self.children.append(self._spawn(
            [cmd[0], "-f", "-c", self.conf] + cmd[1:], "daemons.log"))

    def _state(self, name, prefix):
        """The 'state' the admin socket of NAME reports, or None."""
        for p in self.children:
            if p.poll() is not None:
                raise RuntimeError("%s exited with %s; see %s/log" % (
                    p.args[0], p.returncode, self.dir))
        try:
            return asok(self._asok(name), prefix).get("state")
        except (OSError, ValueError):
            return None

    def _asok(self, name):
        return os.path.join(self.run_dir, name + ".asok")

    def mount(self, cache=None):
        """Mount at self.mnt with ceph-fuse (a fresh client).  CACHE is
        ignored: ceph-fuse keeps its own cache, coherent through the MDS's
        capabilities, and sets the kernel's timeouts itself."""
        if self.fuse is not None:
            raise RuntimeError("already mounted")
        cmd = ["ceph-fuse", "-f", "-c", self.conf, "--name", FUSE_NAME,
               "-m", "127.0.0.1:%d" % self.mon_port,
               "--client_acl_type=posix_acl", "--fuse_default_permissions=0",
               "--client_dirsize_rbytes=false", self.mnt]
        self.fuse = self._spawn(cmd, "fuse.log")
        # ceph-fuse in the foreground writes no pid file: ours, for stop().
        with open(os.path.join(self.run_dir, FUSE_NAME + ".pid"), "w") as f:
            f.write("%d\n" % self.fuse.pid)
        self.mounts += 1

        def up():
            if self.fuse.poll() is not None:
                raise RuntimeError("ceph-fuse exited with %s; see %s" % (
                    self.fuse.returncode, os.path.join(self.dir, "fuse.log")))
            return mounted(self.mnt) and self._client_up()
        self._wait(up, 60, "ceph-fuse did not mount")

    def _client_up(self):
        try:
            self.client_requests()
            return True
        except OSError:
            return False

    def umount(self):
        """Unmount and wait for ceph-fuse to exit (kill it if it lingers).
        A ceph-fuse of an interrupted run is left to stop()."""
        if self.fuse is None:
            if mounted(self.mnt):
                subprocess.run(["umount", "-l", self.mnt],
                               stderr=subprocess.DEVNULL)
            return
        self._unmount(self.fuse, FSTYPE)
        self.fuse = None

    def _ours(self, pid):
        """True if PID is a ceph program reading our ceph.conf."""
        try:
            with open("/proc/%d/cmdline" % pid, "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            return False
        return (os.path.basename(argv[0]).startswith(b"ceph") and
                self.conf.encode() in argv)

    def stop(self):
        """Unmount, stop every daemon of the pid files in run/ (and our
        children); SIGKILL what still runs 2 s later (an OSD or MDS
        takes ~5 s to stop, and memstore keeps nothing anyway).  Safe to
        call more than once."""
        try:
            self.umount()
        finally:
            pids = set()
            for name in (FUSE_NAME,) + DAEMONS:
                try:
                    with open(os.path.join(self.run_dir, name + ".pid")) as f:
                        pid = int(f.read().strip() or 0)
                except (OSError, ValueError):
                    continue
                if pid > 0 and self._ours(pid):
                    pids.add(pid)
            pids |= {p.pid for p in self.children if p.poll() is None}
            for sig, grace in ((signal.SIGTERM, 2), (signal.SIGKILL, 10)):
                for pid in pids:
                    try:
                        os.kill(pid, sig)
                    except ProcessLookupError:
                        pass
                deadline = time.monotonic() + grace
                while time.monotonic() < deadline:
                    for p in self.children:
                        p.poll()              # reap our own
                    pids = {pid for pid in pids if alive(pid)}
                    if not pids:
                        break
                    time.sleep(0.05)
            for p in self.children:
                p.wait()
            self.children = []

    def cleanup(self):
        """stop(), then remove WORKDIR."""
        self.stop()
        if not mounted(self.mnt):
            shutil.rmtree(self.dir, ignore_errors=True)

    # -- counters -----------------------------------------------------
    def ops(self):
        """MDS requests served since the MDS started: {op: count}."""
        d = asok(self._asok("mds.a"), "perf dump")["mds_server"]
        out = {}
        for k, v in d.items():
            if k.startswith("req_") and k.endswith("_latency"):
                if v["avgcount"]:
                    out[k[4:-8]] = v["avgcount"]
        return out

    def client_requests(self):
        """MDS requests the mounted client has had answered."""
        return asok(self._asok(FUSE_NAME),
                    "perf dump")["client"]["reply"]["avgcount"]

    def settled_ops(self, before, timeout=10):
        """ops() once two readings 50 ms apart are equal (requests of a
        finished ls may still be in flight); the difference to BEFORE."""
        deadline = time.monotonic() + timeout
        prev = None
        while True:
            now = self.ops()
            if now == prev or time.monotonic() > deadline:
                return fuserig.diff(now, before)
            prev = now
            time.sleep(0.05)

    def server_pid(self):
        """The FUSE server: ceph-fuse."""
        return self.fuse.pid

    def cpu_pids(self):
        """(label, pid) of the processes whose CPU time a benchmark
        reports beside the FUSE server's."""
        return [(p.args[0][len("ceph-"):], p.pid) for p in self.children
                if p.args[0] in ("ceph-mds", "ceph-osd")]


def main():
    import argparse
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n")[0].split(" -- ")[1])
    ap.add_argument("--dir", default=None,
                    help="parent of the temporary work directory")
    ap.add_argument("--keep", action="store_true",
                    help="keep the work directory (logs)")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    if a.command[:1] == ["--"]:
        a.command = a.command[1:]
    # SIGTERM and SIGINT unwind through the finally below.
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda s, _: sys.exit(128 + s))
    work = tempfile.mkdtemp(prefix="lsplus-ceph.", dir=a.dir)
    fs = CephFS(work)
    status = 0
    try:
        t0 = time.monotonic()
        fs.start()
        fs.mount()
        fs.timings.append(("mounted", time.monotonic() - t0))
        print("cephfs: %s; mounted at %s" % (", ".join(
            "%s %.1f s" % t for t in fs.timings), fs.mnt), flush=True)
        if a.command:
            status = subprocess.run(a.command, cwd=fs.mnt, env=dict(
                os.environ, CEPHFS_MNT=fs.mnt)).returncode
        else:
            print("cephfs: ^C or SIGTERM stops it", flush=True)
            signal.pause()
    except (Unavailable, RuntimeError, OSError) as e:
        print("cephfs: %s" % e, file=sys.stderr)
        status = 1
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)
        t0 = time.monotonic()
        if a.keep:
            fs.stop()
            print("cephfs: kept %s" % work)
        else:
            fs.cleanup()
        print("cephfs: stopped in %.1f s" % (time.monotonic() - t0))
    return status


if __name__ == "__main__":
    sys.exit(main())
