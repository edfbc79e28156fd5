# SPDX-License-Identifier: GPL-3.0-or-later
# tests/kmod/qemu/build-srcdir.sh: the source tree that build-ls32 and
# build-lsrc configure their second build of these sources from (sourced
# after vm-lib.sh).
#
# build_srcdir DIR: prints the tree to run configure from; status 1 (the
# reason on stderr) when the copy below cannot be made.  A clean tree (a
# checkout built in a separate directory, the unpacked tarball of make
# distcheck) is used as it is.  A tree configured in place (the README's
# ./configure && make: config.status, objects and generated headers
# beside the sources) cannot host a VPATH build (configure refuses:
# "source directory already configured"), and its build products are no
# sources.  For it: a copy in DIR/source of the files make dist packs
# (its Makefile's DISTFILES, the list make distcheck proves enough to
# build from), those that exist (a generated one not made yet, man/ls.1,
# the copy's build makes), copied with their times (tar), anew at every
# call, so that the build in DIR remakes only what changed.  Not the
# tree's `make distdir`: that first remakes what those files depend on
# (man/ls.1, so src/ls) in the tree, which two callers (build-ls32 and
# build-lsrc under make -j check) could then do at once after an edit.
# Call it holding DIR's lock.
build_srcdir() { # DIR
	if [ ! -f "$vm_topsrc/config.status" ]; then
		echo "$vm_topsrc"
		return 0
	fi
	bs_copy=$1/source
	bs_list=$1/source.list
	# Not the caller's make's flags (make check's jobserver, TESTS=...).
	printf 'lsplus-distfiles:\n\t@printf "%%s\\n" $(DISTFILES)\n' |
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory \
			-C "$vm_topsrc" -f Makefile -f - lsplus-distfiles >"$bs_list" 2>"$1/source.err" || {
		cat "$1/source.err" >&2
		vm_log "error: no list of the distributed files from $vm_topsrc/Makefile (configured in place)"
		return 1
	}
	rm -rf "$bs_copy"
	mkdir -p "$bs_copy"
	(
		cd "$vm_topsrc" &&
			sed 's|^\./||' "$bs_list" | sort -u | while read -r f; do
				if [ -f "$f" ]; then echo "$f"; fi
			done | tar -cf - -T - | (cd "$bs_copy" && tar -xf -)
	) || {
		vm_log "error: cannot copy the distributed files of $vm_topsrc to $bs_copy"
		return 1
	}
	[ -f "$bs_copy/configure" ] && [ ! -f "$bs_copy/config.status" ] || {
		vm_log "error: $bs_copy: not a clean copy of the sources"
		return 1
	}
	echo "$bs_copy"
}
