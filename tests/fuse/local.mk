## SPDX-License-Identifier: GPL-3.0-or-later
## tests/fuse/local.mk: ls on FUSE mounts whose daemons the tests start
## and stop: JuiceFS (redis-server as the metadata engine) and CephFS (a
## one-node cluster, ceph-fuse).
TESTS += tests/fuse/juicefs.test tests/fuse/cephfs.test
EXTRA_DIST += tests/fuse/juicefs.test \
	tests/fuse/juicefs-check.py \
	tests/fuse/juicefs.py \
	tests/fuse/cephfs.test \
	tests/fuse/cephfs-check.py \
	tests/fuse/cephfs.py \
	tests/fuse/fusecheck.py \
	tests/fuse/fuserig.py \
	tests/fuse/run-check \
	tests/fuse/README.md
## bench/run-fuse (ls -lR on this rig's JuiceFS or CephFS; a benchmark,
## not a test).
EXTRA_DIST += bench/run-fuse bench/results-fuse.md
