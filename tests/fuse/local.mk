## SPDX-License-Identifier: GPL-3.0-or-later
## tests/fuse/local.mk: ls on a JuiceFS (FUSE) mount, redis-server as the
## metadata engine, both started and stopped by the test.
TESTS += tests/fuse/juicefs.test
EXTRA_DIST += tests/fuse/juicefs.test \
	tests/fuse/juicefs-check.py \
	tests/fuse/juicefs.py \
	tests/fuse/README.md
## bench/run-fuse (ls -lR on this rig's JuiceFS; a benchmark, not a test).
EXTRA_DIST += bench/run-fuse bench/results-fuse.md
