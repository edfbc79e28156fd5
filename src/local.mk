## SPDX-License-Identifier: GPL-3.0-or-later
## src/local.mk: the ls program.
bin_PROGRAMS += src/ls
src_ls_SOURCES = \
	src/ls-collkey.c \
	src/ls-color.c \
	src/ls-gather.c \
	src/ls-layout.c \
	src/ls-long.c \
	src/ls-name.c \
	src/ls-out.c \
	src/ls-recurse.c \
	src/ls-sort.c \
	src/ls-time.c \
	src/ls.c \
	src/ls.h
src_ls_LDADD = lib/libdirplus.a lib/libgnu.a $(URING_LIBS) \
	$(LIB_ACL) $(LIB_HAS_ACL) $(LIB_CLOCK_GETTIME) $(LIBINTL) $(LIB_MBRTOWC) \
	$(LIB_SETLOCALE_NULL) $(LIB_NANOSLEEP) $(LIB_HARD_LOCALE)
