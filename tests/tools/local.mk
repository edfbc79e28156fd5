## SPDX-License-Identifier: GPL-3.0-or-later
## tests/tools/local.mk: the developer tools (tools/vm-demo), the
## tree's licence lines, the one-way layers of lib/ (layers.test) and
## make check's own needs in a build in place (inplace.test).
TESTS += tests/tools/vm-demo.test tests/tools/licence.test \
	tests/tools/layers.test tests/tools/inplace.test
EXTRA_DIST += tests/tools/vm-demo.test tests/tools/licence.test \
	tests/tools/layers.test tests/tools/inplace.test
clean-local: clean-local-tools
clean-local-tools:
	-rm -rf tests/tools/vm-demo.work
.PHONY: clean-local-tools
