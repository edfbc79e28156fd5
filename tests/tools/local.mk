## SPDX-License-Identifier: GPL-3.0-or-later
## tests/tools/local.mk: the developer tools (tools/vm-demo).
TESTS += tests/tools/vm-demo.test
EXTRA_DIST += tests/tools/vm-demo.test
clean-local: clean-local-tools
clean-local-tools:
	-rm -rf tests/tools/vm-demo.work
.PHONY: clean-local-tools
