## tests/local.mk: everything "make check" runs.
