## tests/syscalls/local.mk: syscall-count tests (strace).
TESTS += tests/syscalls/ls-l.sh
EXTRA_DIST += tests/syscalls/lib.sh tests/syscalls/ls-l.sh
TESTS += tests/syscalls/ls-lR-backends.sh
EXTRA_DIST += tests/syscalls/ls-lR-backends.sh
TESTS += tests/syscalls/ls-remote.sh
EXTRA_DIST += tests/syscalls/ls-remote.sh
