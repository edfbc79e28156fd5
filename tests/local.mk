## tests/local.mk: everything "make check" runs.
include tests/unit/local.mk
include tests/gnu/local.mk
include tests/syscalls/local.mk
include tests/fuse/local.mk
include tests/kmod/local.mk
