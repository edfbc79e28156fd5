# SPDX-License-Identifier: GPL-3.0-or-later
# lsplus.m4 -- lsplus's own configure probes.

# LSPLUS_WARNINGS: -Wall -Wextra where the compiler takes them.
AC_DEFUN([LSPLUS_WARNINGS], [
  AC_ARG_ENABLE([werror],
    [AS_HELP_STRING([--enable-werror], [treat compiler warnings as errors])],
    [], [enable_werror=no])
  LSPLUS_CFLAGS="-Wall -Wextra -Wno-sign-compare -Wno-unused-parameter"
  AS_IF([test "x$enable_werror" = xyes],
        [LSPLUS_CFLAGS="$LSPLUS_CFLAGS -Werror"])
  AC_SUBST([LSPLUS_CFLAGS])
])

# LSPLUS_SANITIZERS: --enable-sanitizers builds everything with ASan+UBSan.
AC_DEFUN([LSPLUS_SANITIZERS], [
  AC_ARG_ENABLE([sanitizers],
    [AS_HELP_STRING([--enable-sanitizers],
                    [build with AddressSanitizer and UndefinedBehaviorSanitizer])],
    [], [enable_sanitizers=no])
  SANITIZER_CFLAGS=
  AS_IF([test "x$enable_sanitizers" = xyes], [
    SANITIZER_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
    AC_DEFINE([USE_SANITIZERS], [1], [Define if built with ASan+UBSan.])
  ])
  AC_SUBST([SANITIZER_CFLAGS])
  AM_CONDITIONAL([USE_SANITIZERS], [test "x$enable_sanitizers" = xyes])
])

# LSPLUS_LIBS: liburing (io_uring backend), libcap.
AC_DEFUN([LSPLUS_LIBS], [
  AC_ARG_WITH([liburing],
    [AS_HELP_STRING([--without-liburing], [do not build the io_uring backend])],
    [], [with_liburing=check])
  URING_LIBS=
  AS_IF([test "x$with_liburing" != xno], [
    AC_CHECK_HEADER([liburing.h], [
      AC_CHECK_LIB([uring], [io_uring_queue_init], [
        AC_DEFINE([HAVE_LIBURING], [1], [Define if liburing is available.])
        URING_LIBS=-luring
        have_liburing=yes])])
    AS_IF([test "x$with_liburing" = xyes && test "x$have_liburing" != xyes],
          [AC_MSG_ERROR([--with-liburing given but liburing not found])])
  ])
  AS_IF([test "x$have_liburing" = xyes],
        [AC_DEFINE([USE_URING], [1], [Define to build the io_uring backend.])])
  AM_CONDITIONAL([USE_URING], [test "x$have_liburing" = xyes])
  AC_SUBST([URING_LIBS])
])

# LSPLUS_NLS: translated diagnostics through the C library's gettext and
# GNU coreutils' message catalogues (the "coreutils" text domain), so that
# ls is byte-identical to GNU ls in translated locales.  Defines ENABLE_NLS
# (what gnulib's gettext.h and the imported modules test) and
# COREUTILS_LOCALEDIR (where coreutils.mo is installed).
AC_DEFUN([LSPLUS_NLS], [
  AC_ARG_ENABLE([nls],
    [AS_HELP_STRING([--disable-nls],
                    [do not use GNU coreutils' message catalogues])],
    [], [enable_nls=yes])
  AC_ARG_WITH([coreutils-localedir],
    [AS_HELP_STRING([--with-coreutils-localedir=DIR],
                    [where GNU coreutils' catalogues are
                     (DIR/LL/LC_MESSAGES/coreutils.mo) @<:@/usr/share/locale@:>@])],
    [], [with_coreutils_localedir=/usr/share/locale])
  use_nls=no
  AS_IF([test "x$enable_nls" != xno], [
    AC_CHECK_HEADER([libintl.h], [
      lsplus_save_LIBS=$LIBS
      AC_SEARCH_LIBS([dcgettext], [intl], [use_nls=yes])
      AS_CASE([$ac_cv_search_dcgettext],
              [no|"none required"], [], [LIBINTL="$LIBINTL $ac_cv_search_dcgettext"])
      LIBS=$lsplus_save_LIBS])
  ])
  AC_MSG_CHECKING([whether to use GNU coreutils' message catalogues])
  AC_MSG_RESULT([$use_nls])
  AS_IF([test "x$use_nls" = xyes], [
    AC_DEFINE([ENABLE_NLS], [1],
              [Define to translate messages with gettext.])
    AC_DEFINE_UNQUOTED([COREUTILS_LOCALEDIR], ["$with_coreutils_localedir"],
                       [Directory of GNU coreutils' message catalogues.])
  ])
  AC_SUBST([LIBINTL])
])

# LSPLUS_GETDENTSPLUS_SYSCALL: the in-tree getdentsplus(2) system call
# (upstream/'s series), for lib/dirplus-sys.c only.  Its number and its
# uapi header come from kernel headers: those of the C library's include
# path, or with --with-kernel-headers=DIR those of DIR (a kernel tree's
# usr/include after `make headers`), put first in the include path of
# that one file (GDP_SYS_CPPFLAGS); the module's own
# <linux/getdentsplus.h> has the same name and stays in everyone else's.
# Never a number written here: without headers that define
# __NR_getdentsplus next to struct getdentsplus_req, the call is not
# built at all (HAVE_GETDENTSPLUS_SYSCALL undefined); nor with the
# headers of a revision of the series before its records became statx
# replies (GETDENTSPLUS_ATTR_* defined, no STATX_XATTR_INFO).
AC_DEFUN([LSPLUS_GETDENTSPLUS_SYSCALL], [
  AC_ARG_WITH([kernel-headers],
    [AS_HELP_STRING([--with-kernel-headers=DIR],
                    [take the in-tree getdentsplus(2) call's number and
                     uapi header from the kernel headers in DIR (e.g. a
                     kernel tree's usr/include after make headers)])],
    [], [with_kernel_headers=])
  GDP_SYS_CPPFLAGS=
  AS_CASE([$with_kernel_headers],
    [""|no], [],
    [yes], [AC_MSG_ERROR([--with-kernel-headers needs a directory])],
    [AS_IF([test -d "$with_kernel_headers"], [],
           [AC_MSG_ERROR([--with-kernel-headers: no directory $with_kernel_headers])])
     GDP_SYS_CPPFLAGS="-I$with_kernel_headers"])
  AC_CACHE_CHECK([for the getdentsplus system call in the kernel headers],
    [lsplus_cv_getdentsplus_syscall], [
    lsplus_save_CPPFLAGS=$CPPFLAGS
    CPPFLAGS="$GDP_SYS_CPPFLAGS $CPPFLAGS"
    AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[
#include <sys/syscall.h>
#include <linux/getdentsplus.h>
#include <linux/version.h>
#ifndef LINUX_VERSION_CODE
# error no LINUX_VERSION_CODE
#endif
#ifndef __NR_getdentsplus
# error no __NR_getdentsplus
#endif
#ifndef GETDENTSPLUS_REQ_SIZE_VER0
# error not the in-tree uapi header
#endif
#if defined GETDENTSPLUS_ATTR_ACL_ACCESS || !defined STATX_XATTR_INFO
# error a revision of the series with attribute bits of its own
#endif
]], [[struct getdentsplus_req req = { .size = sizeof req };
      struct getdentsplus_entry e;
      long nr = __NR_getdentsplus;
      return (int) (nr + req.size + sizeof e.stx + GETDENTSPLUS_REC_UNRESOLVED);]])],
      [lsplus_cv_getdentsplus_syscall=yes],
      [lsplus_cv_getdentsplus_syscall=no])
    CPPFLAGS=$lsplus_save_CPPFLAGS])
  AS_IF([test "x$lsplus_cv_getdentsplus_syscall" = xyes],
    [AC_DEFINE([HAVE_GETDENTSPLUS_SYSCALL], [1],
       [Define if kernel headers give the in-tree getdentsplus(2) call.])],
    [AS_IF([test -n "$GDP_SYS_CPPFLAGS"],
       [AC_MSG_ERROR([--with-kernel-headers=$with_kernel_headers: no __NR_getdentsplus with the in-tree <linux/getdentsplus.h> there])])])
  AC_SUBST([GDP_SYS_CPPFLAGS])
])
