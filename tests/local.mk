## tests/local.mk: everything "make check" runs.
include tests/gnu/local.mk
