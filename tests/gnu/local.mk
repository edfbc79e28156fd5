## SPDX-License-Identifier: GPL-3.0-or-later
## tests/gnu/local.mk: the GNU differential test (/bin/ls vs src/ls),
## one test script per directory-reading backend.
GNU_DIFF_TESTS = \
	tests/gnu/diff-sync.test \
	tests/gnu/diff-uring.test \
	tests/gnu/diff-getdentsplus.test
TESTS += $(GNU_DIFF_TESTS) tests/gnu/empty-label.test tests/gnu/diff-cold.test \
	tests/gnu/collate.test
EXTRA_DIST += $(GNU_DIFF_TESTS) tests/gnu/empty-label.test \
	tests/gnu/diff-cold.test \
	tests/gnu/collate.test \
	tests/gnu/collate.py \
	tests/gnu/cases.py \
	tests/gnu/diff-backend.sh \
	tests/gnu/difftest.py \
	tests/gnu/fixture.py \
	tests/gnu/README.md
