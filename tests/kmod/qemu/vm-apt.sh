# SPDX-License-Identifier: GPL-3.0-or-later
# tests/kmod/qemu/vm-apt.sh: a private apt state per Debian suite and
# architecture, for the targets other than the host's own kernel (sourced
# by vm-lib.sh).
#
# $CACHE/apt/SUITE-ARCH/ holds a sources file (sources/debian.sources), the
# package lists (lists/), the downloaded packages (cache/) and empty
# preferences (prefs/).  apt-get and apt-cache run with -o options that
# point there and at an empty dpkg status: /etc/apt is only read (for the
# mirror URL), never written, and nothing is installed on the host.  The
# lists are refreshed when missing, older than a day, or when a download
# fails (a stale list names packages the mirror no longer has).
# Acquire::Check-Valid-Until is off: a snapshot mirror's sid Release file
# is expired.

# The first .../debian URI of the host's apt sources (deb822 or one-line).
vm_mirror() {
	if [ -n "${LSPLUS_VM_MIRROR-}" ]; then
		echo "$LSPLUS_VM_MIRROR"
		return
	fi
	m=$( { sed -n 's/^URIs://p' /etc/apt/sources.list.d/*.sources 2>/dev/null
		sed -n 's/^deb[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]*\)\{0,1\}//p' \
			/etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null
	} | tr ' \t' '\n\n' | grep -E '^(https?|file):.*/debian/?$' | head -n 1)
	echo "${m:-http://deb.debian.org/debian}"
}

vm_apt_dir() { # SUITE ARCH
	echo "$(vm_cache_dir)/apt/$1-$2"
}

# The -o options of apt-get/apt-cache for SUITE ARCH (one per line).
vm_apt_opts() { # SUITE ARCH
	d=$(vm_apt_dir "$1" "$2")
	printf '%s\n' -o Dir::Etc::sourcelist=/dev/null \
		-o "Dir::Etc::sourceparts=$d/sources" \
		-o Dir::Etc::preferences=/dev/null \
		-o "Dir::Etc::preferencesparts=$d/prefs" \
		-o "Dir::State::Lists=$d/lists" \
		-o "Dir::Cache=$d/cache" \
		-o Dir::State::status=/dev/null \
		-o "APT::Architecture=$2" -o "APT::Architectures=$2" \
		-o Acquire::Check-Valid-Until=false \
		-o Acquire::Languages=none \
		-o APT::Sandbox::User=root \
		-o Acquire::IndexTargets::deb::DEP-11::DefaultEnabled=false \
		-o Acquire::IndexTargets::deb::DEP-11-icons::DefaultEnabled=false \
		-o Acquire::IndexTargets::deb::DEP-11-icons-small::DefaultEnabled=false \
		-o Acquire::IndexTargets::deb::CNF::DefaultEnabled=false
}

# vm_apt SUITE ARCH apt-get|apt-cache ARGS...
vm_apt() {
	s=$1 a=$2 cmd=$3
	shift 3
	# Word splitting of the options is intended: none contains a blank
	# unless the cache path does, which vm_apt_init refuses.
	# shellcheck disable=SC2046
	"$cmd" $(vm_apt_opts "$s" "$a") "$@"
}

vm_apt_init() { # SUITE ARCH
	d=$(vm_apt_dir "$1" "$2")
	case $d in *[[:space:]]*) vm_die "the VM cache path has a blank: $d" ;; esac
	mkdir -p "$d/sources" "$d/prefs" "$d/lists/partial" "$d/cache/archives/partial"
	key=/usr/share/keyrings/debian-archive-keyring.gpg
	{
		echo "Types: deb"
		echo "URIs: $(vm_mirror)"
		echo "Suites: $1"
		echo "Components: main"
		[ -f "$key" ] && echo "Signed-By: $key"
	} >"$d/sources/debian.sources.new"
	if ! cmp -s "$d/sources/debian.sources.new" "$d/sources/debian.sources"; then
		mv "$d/sources/debian.sources.new" "$d/sources/debian.sources"
		rm -f "$d/lists/"*_Packages* 2>/dev/null || true
	else
		rm -f "$d/sources/debian.sources.new"
	fi
	fresh=$(find "$d/lists" -maxdepth 1 -name '*_Packages*' -mmin -1440 2>/dev/null | head -n 1)
	[ -n "$fresh" ] || vm_apt_update "$1" "$2"
}

vm_apt_update() { # SUITE ARCH
	vm_log "apt-get update ($1 $2, private state)"
	vm_apt "$1" "$2" apt-get -q update >&2 ||
		vm_die "apt-get update of $1/$2 failed (mirror $(vm_mirror))"
}

# The direct dependencies of PKG whose names match the sed pattern PAT.
vm_apt_depends() { # SUITE ARCH PKG PAT
	vm_apt "$1" "$2" apt-cache depends "$3" 2>/dev/null |
		sed -n "s/^ *|\{0,1\}Depends: \($4\)\$/\1/p"
}

# The newest kernel ABI name of the target (what linux-image-ARCH needs).
vm_apt_kver() {
	s=$(vm_suite) a=$(vm_arch)
	vm_apt_init "$s" "$a"
	v=$(vm_apt_depends "$s" "$a" "linux-image-$a" "linux-image-[0-9][^ ]*-$a" |
		sed 's/^linux-image-//' | sort -V | tail -n 1)
	[ -n "$v" ] || return 1
	echo "$v"
}

# Download PKG... of SUITE ARCH into DIR (cwd of apt-get download); on
# failure refresh the lists once and retry.
vm_apt_download() { # SUITE ARCH DIR PKG...
	s=$1 a=$2 dir=$3
	shift 3
	vm_apt_init "$s" "$a"
	mkdir -p "$dir"
	vm_log "downloading $* ($s $a)"
	(cd "$dir" && vm_apt "$s" "$a" apt-get download -q "$@" >&2) ||
		{ vm_apt_update "$s" "$a" &&
		  (cd "$dir" && vm_apt "$s" "$a" apt-get download -q "$@" >&2); }
}

# The .deb of PKG in DIR (downloaded first if absent).
vm_apt_deb() { # SUITE ARCH DIR PKG
	f=$(ls "$3/$4"_*.deb 2>/dev/null | head -n 1)
	if [ -z "$f" ]; then
		vm_apt_download "$1" "$2" "$3" "$4" || return 1
		f=$(ls "$3/$4"_*.deb 2>/dev/null | head -n 1)
	fi
	[ -n "$f" ] && echo "$f"
}
