## SPDX-License-Identifier: GPL-3.0-or-later
## tests/unit/local.mk: unit tests of our own library code (lib/dirplus).
check_PROGRAMS += tests/unit/dirplus-test
tests_unit_dirplus_test_SOURCES = tests/unit/dirplus.c
tests_unit_dirplus_test_LDADD = lib/libdirplus.a lib/libgnu.a $(URING_LIBS)
TESTS += tests/unit/dirplus-test
