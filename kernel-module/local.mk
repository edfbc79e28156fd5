## kernel-module/local.mk: the module is built by kbuild (see
## kernel-module/Makefile and tests/kmod); automake only ships it.
noinst_HEADERS += kernel-module/include/uapi/linux/getdentsplus.h
