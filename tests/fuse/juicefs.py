# SPDX-License-Identifier: GPL-3.0-or-later
"""juicefs.py -- a private JuiceFS file system on this host, for tests/fuse
and bench/run-fuse.

  with JuiceFS(workdir) as fs:      # redis-server + juicefs format
      fs.mount()                    # juicefs mount (foreground child)
      ... fs.mnt ...
      before = fs.ops()             # FUSE requests served, per op
      fs.remount(cache=3600)        # a cold kernel cache
  # leaving the block unmounts and stops everything, even on an exception

Everything lives under WORKDIR (which must exist and be empty): redis's
directory (no persistence: --save '' --appendonly no), the object store
(--storage file), JuiceFS's block cache, the logs and the mount point.
redis-server and the juicefs daemon are children of this process, on free
loopback ports, so stop() ends exactly them and nothing else.

Request counts come from the daemon's Prometheus endpoint
(juicefs_fuse_ops_total{method=...}), read over HTTP: reading them is not
itself a FUSE request (unlike the .stats file at the mount root).
"""

import os
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.request

import fuserig
# Unavailable, diff and fuse_unavailable are used through this module too.
from fuserig import (Rig, Unavailable, diff, free_port,  # noqa: F401
                     fuse_unavailable)

JUICEFS = os.environ.get("JUICEFS", "juicefs")
REDIS = os.environ.get("REDIS_SERVER", "redis-server")
FSTYPE = "fuse.juicefs"


def mounted(path):
    """True if PATH is a JuiceFS mount point."""
    return fuserig.mounted(path, FSTYPE)


_METRIC = re.compile(r'^juicefs_fuse_ops_total\{[^}]*method="([^"]+)"[^}]*\}'
                     r'\s+([0-9.e+]+)$')


class JuiceFS(Rig):
    REQUESTS = "FUSE requests"

    def __init__(self, workdir, name="lsplus-test", quiet=True):
        super().__init__(workdir)
        self.name = name
        self.quiet = quiet
        self.redis = None
        self.daemon = None
        self.redis_port = None
        self.metrics_port = None

    def start(self):
        """Start redis-server and format the file system (ACLs on)."""
        why = fuse_unavailable()
        if why:
            raise Unavailable(why)
        for tool in (JUICEFS, REDIS):
            if shutil.which(tool) is None:
                raise RuntimeError("%s not found (tools/install-deps "
                                   "installs it)" % tool)
        for d in ("redis", "bucket", "cache", "mnt"):
            os.makedirs(os.path.join(self.dir, d), exist_ok=True)
        os.chmod(self.dir, 0o755)     # the unprivileged cases must get in
        self.redis_port = free_port()
        with self._log("redis.log") as log:
            self.redis = subprocess.Popen(
                [REDIS, "--port", str(self.redis_port), "--bind", "127.0.0.1",
                 "--dir", os.path.join(self.dir, "redis"), "--save", "",
                 "--appendonly", "no", "--daemonize", "no",
                 "--protected-mode", "yes"],
                stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL)
        self._wait(self._redis_up, 20, "redis-server did not answer")
        self._run([JUICEFS, "format", "--storage", "file",
                   "--bucket", os.path.join(self.dir, "bucket") + "/",
                   "--enable-acl", "--trash-days", "0",
                   self.meta_url(), self.name], "format.log")

    def meta_url(self):
        return "redis://127.0.0.1:%d/1" % self.redis_port

    def mount(self, cache=None):
        """Mount at self.mnt with xattrs, security.selinux and
        security.capability enabled (the fixture sets them).  CACHE: the
        kernel's attribute/entry timeouts in seconds (None: JuiceFS's
        default, 1 s)."""
        if self.daemon is not None:
            raise RuntimeError("already mounted")
        self.metrics_port = free_port()
        cmd = [JUICEFS, "mount", "--no-usage-report", "--no-bgjob",
               "--enable-xattr", "--enable-selinux", "--enable-cap",
               "--cache-dir", os.path.join(self.dir, "cache"),
               "--metrics", "127.0.0.1:%d" % self.metrics_port]
        if cache is not None:
            c = "%ss" % cache
            cmd += ["--attr-cache", c, "--entry-cache", c,
                    "--dir-entry-cache", c]
        cmd += [self.meta_url(), self.mnt]
        # A process group of its own: 'juicefs mount' is a supervisor that
        # runs the FUSE server as its child; a kill must reach both.
        self.daemon = self._spawn(cmd, "mount.log")
        self.mounts += 1

        def up():
            if self.daemon.poll() is not None:
                raise RuntimeError("juicefs mount exited with %s; see %s"
                                   % (self.daemon.returncode, os.path.join(
                                       self.dir, "mount.log")))
            # The supervisor checks the new mount ("is ready at"), then its
            # watchdog reads .config there once, ~5 s later ("watching"):
            # FUSE requests of its own, over before any we count.
            with open(os.path.join(self.dir, "mount.log"), "rb") as f:
                log = f.read()
            return (log.count(b" is ready at ") >= self.mounts and
                    log.count(b" watching ") >= self.mounts and
                    mounted(self.mnt) and self._metrics_up())
        self._wait(up, 60, "juicefs mount did not come up")

    def umount(self):
        """Unmount and wait for the daemon to exit (kill it if it lingers)."""
        if self.daemon is None:
            return
        self._unmount(self.daemon, FSTYPE)
        self.daemon = None

    def server_pid(self):
        """The FUSE server: the supervisor's child (else the supervisor)."""
        pid = self.daemon.pid
        kids = []
        try:                          # any of its threads may have forked
            for tid in os.listdir("/proc/%d/task" % pid):
                with open("/proc/%d/task/%s/children" % (pid, tid)) as f:
                    kids += f.read().split()
        except OSError:
            pass
        return int(kids[0]) if kids else pid

    def cpu_pids(self):
        """(label, pid) of the processes whose CPU time a benchmark
        reports beside the FUSE server's."""
        return [("redis", self.redis.pid)]

    def stop(self):
        """Unmount, stop redis-server.  Safe to call more than once."""
        try:
            self.umount()
        finally:
            if self.redis is not None:
                self.redis.send_signal(signal.SIGTERM)
                try:
                    self.redis.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    self.redis.kill()
                    self.redis.wait()
                self.redis = None

    def cleanup(self):
        """stop(), then remove WORKDIR's contents made by us."""
        self.stop()
        if not mounted(self.mnt):
            shutil.rmtree(self.dir, ignore_errors=True)

    # -- counters -----------------------------------------------------
    def ops(self):
        """FUSE requests served since this mount: {op: count}."""
        url = "http://127.0.0.1:%d/metrics" % self.metrics_port
        with urllib.request.urlopen(url, timeout=10) as r:
            text = r.read().decode()
        out = {}
        for line in text.splitlines():
            m = _METRIC.match(line)
            if m:
                out[m.group(1)] = out.get(m.group(1), 0) + int(
                    float(m.group(2)))
        return out

    def settled_ops(self, before, timeout=10):
        """ops() once the kernel's asynchronous requests (RELEASEDIR,
        RELEASE after close) have arrived: every opendir released and two
        readings 50 ms apart equal.  Returns the difference to BEFORE."""
        deadline = time.monotonic() + timeout
        prev = None
        while True:
            now = self.ops()
            d = diff(now, before)
            balanced = (d.get("opendir", 0) == d.get("releasedir", 0) and
                        d.get("open", 0) == d.get("release", 0))
            if (balanced and now == prev) or time.monotonic() > deadline:
                return d
            prev = now
            time.sleep(0.05)

    # -- helpers ------------------------------------------------------
    def _redis_up(self):
        if self.redis.poll() is not None:
            raise RuntimeError("redis-server exited with %s; see %s" % (
                self.redis.returncode, os.path.join(self.dir, "redis.log")))
        try:
            with socket.create_connection(("127.0.0.1", self.redis_port),
                                          timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def _metrics_up(self):
        try:
            self.ops()
            return True
        except OSError:
            return False


