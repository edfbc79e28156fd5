## SPDX-License-Identifier: GPL-3.0-or-later
## tests/unit/local.mk: unit tests of our own library code (lib/dirplus)
## and of src/ls-collkey.c.
check_PROGRAMS += tests/unit/dirplus-test
tests_unit_dirplus_test_SOURCES = tests/unit/dirplus.c tests/unit/unit-check.h
tests_unit_dirplus_test_LDADD = lib/libdirplus.a lib/libgnu.a $(URING_LIBS)
TESTS += tests/unit/dirplus-test
check_PROGRAMS += tests/unit/dirplus-pool-test
tests_unit_dirplus_pool_test_SOURCES = tests/unit/dirplus-pool.c tests/unit/unit-check.h
tests_unit_dirplus_pool_test_LDADD = lib/libdirplus.a lib/libgnu.a $(URING_LIBS)
TESTS += tests/unit/dirplus-pool-test
check_PROGRAMS += tests/unit/dirplus-statxattr-test
tests_unit_dirplus_statxattr_test_SOURCES = tests/unit/dirplus-statxattr.c tests/unit/unit-check.h
tests_unit_dirplus_statxattr_test_LDADD = lib/libdirplus.a lib/libgnu.a $(URING_LIBS)
TESTS += tests/unit/dirplus-statxattr-test
## src/ls over an LD_PRELOAD emulation of the statx attributes (the VM
## section vm-statxattr-tests.sh's part A, on this host).
check_PROGRAMS += tests/unit/statxattr-shim.so
tests_unit_statxattr_shim_so_SOURCES = tests/unit/statxattr-shim.c
tests_unit_statxattr_shim_so_CPPFLAGS = -D_GNU_SOURCE
tests_unit_statxattr_shim_so_CFLAGS = -fPIC -O2
tests_unit_statxattr_shim_so_LDFLAGS = -shared
tests_unit_statxattr_shim_so_LDADD = -ldl
TESTS += tests/unit/statxattr-ls.test
EXTRA_DIST += tests/unit/statxattr-ls.test
check_PROGRAMS += tests/unit/collkey-test
tests_unit_collkey_test_SOURCES = tests/unit/collkey.c src/ls-collkey.c
tests_unit_collkey_test_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src
tests_unit_collkey_test_LDADD = lib/libgnu.a $(LIB_HARD_LOCALE) $(LIBINTL)
TESTS += tests/unit/collkey-test
