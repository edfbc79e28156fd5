## SPDX-License-Identifier: GPL-2.0
## kernel-module/local.mk: the module is built by kbuild (see
## kernel-module/Makefile and tests/kmod/qemu/build-module); automake only ships it.
## The uapi header is installed too (programs using the module need it).
linuxincludedir = $(includedir)/linux
linuxinclude_HEADERS = kernel-module/include/uapi/linux/getdentsplus.h
EXTRA_DIST += kernel-module/Kbuild kernel-module/Makefile \
	kernel-module/dkms.conf kernel-module/README.md \
	kernel-module/getdentsplus-main.c kernel-module/getdentsplus-walk.c \
	kernel-module/getdentsplus-attr.c kernel-module/getdentsplus-compat.h \
	kernel-module/getdentsplus-internal.h kernel-module/compat/gen-compat.sh \
	kernel-module/compat/HAVE_DIR_CONTEXT_COUNT.c \
	kernel-module/compat/HAVE_FD_FILE.c \
	kernel-module/compat/HAVE_FILLDIR_BOOL.c \
	kernel-module/compat/HAVE_VFS_PATH_LOOKUP_DECL.c \
	kernel-module/compat/HAVE_GET_INODE_ACL.c \
	kernel-module/compat/HAVE_MNT_IDMAP.c \
	kernel-module/compat/HAVE_VFS_GET_ACL.c
