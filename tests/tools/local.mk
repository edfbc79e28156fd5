## SPDX-License-Identifier: GPL-3.0-or-later
## tests/tools/local.mk: the developer tools (tools/vm-demo) and the
## tree's licence lines.
TESTS += tests/tools/vm-demo.test tests/tools/licence.test
EXTRA_DIST += tests/tools/vm-demo.test tests/tools/licence.test
clean-local: clean-local-tools
clean-local-tools:
	-rm -rf tests/tools/vm-demo.work
.PHONY: clean-local-tools
