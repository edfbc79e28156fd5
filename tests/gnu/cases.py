# SPDX-License-Identifier: GPL-3.0-or-later
"""cases.py -- the option matrix of the GNU differential test.

all_cases() returns a list of Case.  A case is one ls invocation: its
arguments, the directory it runs in (relative to the fixture root), the
environment variables it sets on top of the base environment (None =
explicitly unset), and how it runs:

  pipe     stdout and stderr are pipes (the default)
  tty      stdout is a pseudo-terminal of WIN = (columns, rows)
  unpriv   as uid/gid 65534 with no supplementary groups, pipes
  full     stdout is /dev/full
  epipe    stdout is a pipe whose reader is gone, SIGPIPE default
  epipe-ign  the same with SIGPIPE ignored
  closed   stdout is closed (bash execs ls with >&-); closed-err,
           closed-in: stderr, stdin closed
  lowfd    under 'ulimit -n 20'
  rmcwd    in a directory that was removed after ls's shell entered it
           (getdents fails with ENOENT: an empty listing, no error)
  A '+unpriv' suffix (tty+unpriv) also drops privileges.

'@ROOT@' in an argument or a variable stands for the fixture root,
'@SHM@' for the root of the copy on a tmpfs (those cases are skipped when
/dev/shm is not a usable tmpfs).
The tree itself is described in fixture.py.
"""

import random


class Case:
    __slots__ = ("group", "args", "cwd", "env", "mode", "win", "id")

    def __init__(self, group, args, cwd="", env=None, mode="pipe", win=None):
        self.group = group
        self.args = list(args)
        self.cwd = cwd
        self.env = dict(env or {})
        self.mode = mode
        self.win = win
        envs = " ".join("%s=%s" % (k, "<unset>" if v is None else repr(v))
                        for k, v in sorted(self.env.items()))
        where = ("cd %s; " % self.cwd) if self.cwd else ""
        how = "" if mode == "pipe" else " [%s%s]" % (
            mode, " %dx%d" % win if win else "")
        self.id = "%s: %s%s%s%s" % (
            group, where, (envs + " ") if envs else "",
            "ls " + " ".join(_shq(a) for a in self.args), how)


def _shq(a):
    if a and all(c.isalnum() or c in "-_=.,/:+%@" for c in a):
        return a
    return repr(a)


C = {"LC_ALL": "C"}
U = {"LC_ALL": "C.UTF-8"}
LOCALES = (C, U)

CONTENT_DIRS = ("types", "names", "links", "sizes", "times", "attrs",
                "owners", "sort")

LS_COLORS_FULL = (
    "rs=0:di=01;34:ln=01;36:mh=44;37:pi=40;33:so=01;35:do=01;35:"
    "bd=40;33;01:cd=40;33;01:or=40;31;01:mi=05;37;41:su=37;41:sg=30;43:"
    "ca=30;41:tw=30;42:ow=34;42:st=37;44:ex=01;32:no=02:fi=03:"
    "lc=\\e[:rc=m:ec=:"
    "*.tar=01;31:*.gz=01;31:*.tar.gz=04;31:*.c=33:*README=4;35:"
    "*.TXT=7:*.txt=32:*~=90")

LS_COLORS_VARIANTS = {
    "unset": None,
    "empty": "",
    "full": LS_COLORS_FULL,
    "ln-target": "ln=target:di=34:*.c=33:or=31",
    "no-or-mi": "di=01;34:ln=01;36:or=:mi=:ex=32",
    "mh-only": "mh=44;37:fi=0",
    "ca-su": "ca=30;41:su=37;41:sg=30;43:ex=32",
    "tw-ow-st": "tw=30;42:ow=34;42:st=37;44:di=1",
    "carets": "di=^[[1m:lc=^[[:rc=m:ec=^[[0m^[[K:ex=\\033[32m",
    "octal-hex": "di=\\x31;\\064:*.gz=\\061\\073\\063\\061",
    "invalid": "di=01;34:garbage",
    "invalid2": "*.c",
    "invalid3": "xx=1:di=4",
    "ext-case": "*.C=31:*.c=32:*.TAR.GZ=33",
    "ext-glob": "*a=31:*tar.gz=32:*.z=33:*=34",
    "rs-ec": "rs=1:ec=\\e[9m:fi=36",
    "ln-only": "ln=36",
    "dim-all": "di=0:fi=0:ln=0:ex=0",
    "escapes": "*.a\\=b=31:di=1\\:2:ln=^?:ex=\\a\\b\\f\\v\\_:pi=\\q",
    "long": "di=" + ";".join(["1"] * 60) + ":*." + "x" * 300 + "=31",
    "dup-keys": "di=31:di=32:*.c=33:*.c=34:*.C=35",
    "no-equals": "di",
    "trailing-colon": "di=33::ln=36:",
    "mi-or-ln": "ln=target:or=41:mi=45",
}


def group_format():
    opts = [
        [], ["-a"], ["-A"], ["-l"], ["-la"], ["-lA"], ["-1"], ["-C"],
        ["-x"], ["-m"], ["-g"], ["-o"], ["-lG"], ["-n"], ["-go"],
        ["-s"], ["-ls"], ["-i"], ["-li"], ["-lis"], ["-1si"], ["-Cs"],
        ["-lh"], ["-lsh"], ["-d", "."], ["-ld"], ["-F"], ["-lF"], ["-p"],
        ["--file-type"], ["-Z"], ["-lZ"], ["-l", "--author"], ["-Q"],
        ["-lb"], ["-lq"], ["-N"], ["-1U"], ["-lt"], ["-lS"], ["-lX"],
        ["-lv"], ["-lr"], ["-f"], ["-lc"], ["-lu"], ["--full-time"],
        ["-l", "--time-style=long-iso"], ["-lhF", "--si"],
        ["--group-directories-first"], ["--zero"], ["-l", "--zero"],
        ["-lD"], ["--dired"], ["-m", "-w", "60"], ["-x", "-w", "50"],
        ["-CFs", "-w", "100"], ["-lgGno"], ["-l", "--color=always"],
        ["--color=always"], ["-li", "--hyperlink=always"],
        ["-lZi", "--si", "-s"],
    ]
    out = []
    for o in opts:
        for d in CONTENT_DIRS:
            out.append(Case("format", o + [d], env=C))
    # The UTF-8 locale: fewer option sets, all directories.
    for o in opts[::2]:
        for d in CONTENT_DIRS:
            out.append(Case("format-utf8", o + [d], env=U))
    return out


QUOTING = ("literal", "shell", "shell-always", "shell-escape",
           "shell-escape-always", "c", "c-maybe", "escape", "locale",
           "clocale")


def group_quoting():
    out = []
    for loc in LOCALES:
        for q in QUOTING:
            for f in (["-1"], ["-l"], ["-C", "-w", "120"], ["-m"], ["-x"]):
                out.append(Case("quoting", f + ["--quoting-style=" + q,
                                                "names"], env=loc))
            out.append(Case("quoting", ["-1F", "--quoting-style=" + q,
                                        "links", "names/new\nline"],
                            env=loc))
            out.append(Case("quoting", ["-1"], cwd="names",
                            env=dict(loc, QUOTING_STYLE=q)))
        for f in (["-b"], ["-q"], ["-N"], ["-Q"], ["-bQ"], ["-qN"],
                  ["-lb"], ["-lQ"], ["-lN"], ["--escape", "-l"],
                  ["--literal", "--show-control-chars"],
                  ["--hide-control-chars", "-C"],
                  ["-b", "--quoting-style=literal"],
                  ["--quoting-style=c", "-N"], ["-Q", "-b", "-q"],
                  ["--quote-name", "-m"], ["-l", "--show-control-chars"]):
            out.append(Case("quoting", f + ["names"], env=loc))
        for bad in ("foo", "", "Shell"):
            out.append(Case("quoting", ["-1", "names"],
                            env=dict(loc, QUOTING_STYLE=bad)))
        out.append(Case("quoting", ["-1", "-b", "names"],
                        env=dict(loc, QUOTING_STYLE="c")))
        out.append(Case("quoting", ["-l", "names/new\nline",
                                    "names/tab\there", "names/-dash",
                                    "names/invalid-\udcff"], env=loc))
        for q in ([], ["-b"], ["-Q"], ["-N"], ["--quoting-style=c"],
                  ["--quoting-style=shell-always"], ["--quoting-style=locale"],
                  ["-lD"], ["-R"], ["--hyperlink=always"],
                  ["--color=always", "-F"]):
            out.append(Case("quoting-headers",
                            q + ["names/dir\nnewline", "names/dir with space",
                                 "deep/dir with space", "types"], env=loc))
        out.append(Case("quoting", ["-ld", "names/dir\nnewline",
                                    "links/weird target"], env=loc))
    return out


SORTS = [["-t"], ["-S"], ["-X"], ["-v"], ["-U"], ["-f"], ["-c"], ["-u"],
         ["-tc"], ["-tu"], ["--sort=none"], ["--sort=time"],
         ["--sort=size"], ["--sort=extension"], ["--sort=version"],
         ["--sort=width"], ["-t", "--time=birth"], ["-t", "--time=atime"],
         ["-t", "--time=ctime"], ["--sort=time", "--time=access"],
         ["-S", "--sort=none"], ["-U", "-t"], ["-t", "-U"], ["-St"],
         ["--group-directories-first"], ["--group-directories-first", "-S"],
         ["--group-directories-first", "-U"], ["-f", "-l"], ["-fr"],
         ["-Ur"], ["-a", "--sort=version"], ["-A", "-X"], []]


def group_sort():
    out = []
    for s in SORTS:
        for r in ([], ["-r"]):
            for d in ("sort", "times", "many", "sizes", "names"):
                out.append(Case("sort", ["-1"] + s + r + [d], env=C))
            out.append(Case("sort", ["-1"] + s + r + ["names", "sort"],
                            env=U))
    for s in SORTS[:12]:
        out.append(Case("sort", ["-l"] + s + ["types", "sort", "times"],
                        env=C))
    # Operands are sorted too (files first, then directories).
    for s in ([], ["-t"], ["-S"], ["-r"], ["-U"], ["-X"], ["-v"], ["-f"]):
        out.append(Case("sort-operands",
                        ["-1"] + s + ["sort/a10", "sort/a2", "times",
                                      "sizes/s1MiB", "sort/x.tar.gz",
                                      "deep", "sizes/zero"], env=C))
    return out


TIME_STYLES = ["full-iso", "long-iso", "iso", "locale", "+%Y-%m-%d %H:%M",
               "+%s.%N %z %Z", "+%b %e  %Y\n%b %e %H:%M", "+%c|%x|%X",
               "posix-full-iso", "posix-long-iso", "posix-iso",
               "posix-locale", "+", "+%%%n%t%j%u%V%G", "+%-d %_H %^a %#Z",
               "+%10N %3N %:z %::z"]


def group_time():
    out = []
    tzs = ("UTC", "EST5EDT,M3.2.0,M11.1.0", "JST-9", "<+0530>-5:30")
    for ts in TIME_STYLES:
        for tz in tzs[:2]:
            out.append(Case("time", ["-l", "--time-style=" + ts, "times"],
                            env=dict(C, TZ=tz)))
        out.append(Case("time", ["-lu", "--time-style=" + ts, "times"],
                        env=dict(U, TZ=tzs[2])))
        out.append(Case("time", ["-l"], cwd="times",
                        env=dict(C, TZ="UTC", TIME_STYLE=ts)))
    for tz in tzs:
        for loc in LOCALES:
            for o in (["-l"], ["--full-time"], ["-lc"], ["-lu"],
                      ["-l", "--time=birth"], ["-l", "--time=creation"],
                      ["--full-time", "-tu"], ["-lt", "--time=status"],
                      ["-l", "--time=use"], ["-l", "--time=mtime"]):
                out.append(Case("time", o + ["times"], env=dict(loc, TZ=tz)))
    for bad in (["--time-style=bad"], ["--time-style=posix-bad"],
                ["--time=bad"], ["--time="], ["--time-style="],
                ["--time-style=+%Y\n%m\n%d"], ["--full-time",
                                               "--time-style=iso"],
                ["--time-style=iso", "--full-time"]):
        out.append(Case("time-args", ["-l"] + bad + ["times"], env=C))
    for ts in ("bad", "posix-bad", "+%Y\n%m", "long-iso", "posix-", ""):
        out.append(Case("time-env", ["-l", "times"],
                        env=dict(C, TIME_STYLE=ts)))
        out.append(Case("time-env", ["-l", "--time-style=iso", "times"],
                        env=dict(C, TIME_STYLE=ts)))
    out.append(Case("time", ["-l", "times"], env=dict(C, TZ=None)))
    out.append(Case("time", ["-l", "times"], env=dict(C, TZ="")))
    out.append(Case("time", ["-l", "times"], env=dict(C, TZ="Bad/Zone")))
    return out


BLOCK_OPTS = [["-s"], ["-ls"], ["-k", "-s"], ["-sh"], ["-lh"], ["--si", "-ls"],
              ["--block-size=1", "-ls"], ["--block-size=512", "-ls"],
              ["--block-size=1K", "-s"], ["--block-size=1KB", "-ls"],
              ["--block-size=1M", "-l"], ["--block-size=1MB", "-ls"],
              ["--block-size=1G", "-ls"], ["--block-size='1", "-ls"],
              ["--block-size='1K", "-ls"], ["--block-size=human-readable",
                                            "-ls"],
              ["--block-size=si", "-ls"], ["--block-size=3", "-ls"],
              ["--block-size=1k", "-s"], ["-h", "--block-size=1K", "-ls"],
              ["--block-size=1K", "-h", "-ls"], ["-k", "-h", "-ls"],
              ["-hk", "-ls"], ["-s", "--si", "-k"], ["-lsk"], ["-lh", "-i"],
              ["-C", "-s", "-h"], ["-x", "-sk"], ["-m", "-s"],
              ["--block-size=1E", "-ls"], ["--block-size=1Z", "-ls"]]


def group_size():
    out = []
    for o in BLOCK_OPTS:
        for loc in LOCALES:
            out.append(Case("size", o + ["sizes"], env=loc))
        out.append(Case("size", o + ["types"], env=C))
    for var in ("BLOCK_SIZE", "LS_BLOCK_SIZE", "BLOCKSIZE"):
        for val in ("1", "512", "1K", "1M", "human-readable", "si", "'1",
                    "x", "0", "-1", "10KB"):
            out.append(Case("size-env", ["-ls", "sizes"],
                            env=dict(C, **{var: val})))
    out.append(Case("size-env", ["-ls", "sizes"],
                    env=dict(C, POSIXLY_CORRECT="1")))
    out.append(Case("size-env", ["-s", "sizes"],
                    env=dict(C, POSIXLY_CORRECT="1", BLOCK_SIZE="1K")))
    out.append(Case("size-env", ["-ls", "-k", "sizes"],
                    env=dict(C, POSIXLY_CORRECT="1")))
    out.append(Case("size-env", ["-ls", "sizes"],
                    env=dict(C, BLOCK_SIZE="1K", LS_BLOCK_SIZE="1M")))
    out.append(Case("size-env", ["-ls", "--block-size=1", "sizes"],
                    env=dict(C, LS_BLOCK_SIZE="1M")))
    for bad in ("x", "0", "-1", "1Q", "99999999999999999999999", "1KiB",
                "''", "K"):
        out.append(Case("size-args", ["-ls", "--block-size=" + bad,
                                      "sizes"], env=C))
    return out


COLOR_OPTS = [["--color=always"], ["-l", "--color=always"],
              ["-F", "--color=always"], ["-la", "--color=always"],
              ["-1", "--color=always", "-L"], ["--color", "-x"],
              ["--color=never"], ["--color=auto"], ["--color=yes"],
              ["--color=force"], ["--color=tty"], ["--color=if-tty"],
              ["--color=none"], ["--color=no"],
              ["-l", "--color=always", "--hyperlink=always"],
              ["-C", "--color=always", "-w", "70"],
              ["-m", "--color=always"], ["-1", "--color=always", "-Q"],
              ["-ls", "--color=always", "-i"],
              ["--color=always", "--indicator-style=file-type"]]


def group_color():
    out = []
    for cname, cval in LS_COLORS_VARIANTS.items():
        for o in (COLOR_OPTS[:5] if cname not in ("unset", "full")
                  else COLOR_OPTS):
            for d in ("types", "links", "attrs", "sort"):
                out.append(Case("color-" + cname, o + [d],
                                env=dict(C, LS_COLORS=cval)))
        out.append(Case("color-" + cname, ["--color=always", "-1", "names"],
                        env=dict(U, LS_COLORS=cval)))
        out.append(Case("color-" + cname, ["-lR", "--color=always", "perm",
                                           "owners"],
                        env=dict(C, LS_COLORS=cval)))
    # Without LS_COLORS, GNU colours only for a colour TERM or COLORTERM.
    for term in ({"TERM": "xterm-256color"}, {"TERM": "dumb"},
                 {"TERM": "vt100"}, {"TERM": "linux"}, {"TERM": "screen"},
                 {"TERM": "nosuchterm"}, {"COLORTERM": "truecolor"},
                 {"COLORTERM": ""}, {"TERM": "xterm", "LS_COLORS": ""}):
        for o in COLOR_OPTS[:4] + [["-lR", "--color=always", "--si"]]:
            for d in ("types", "links", "attrs", "deep"):
                out.append(Case("color-term", o + [d], env=dict(C, **term)))
        out.append(Case("color-term", ["--color=always", "names"],
                        env=dict(U, **term)))
    for o in (["--color=bad"], ["--color="], ["--hyperlink=bad"],
              ["--color=always", "--color=never"], ["--hyperlink"],
              ["--hyperlink=never"], ["--hyperlink=auto"],
              ["--hyperlink=always", "-Q"], ["--hyperlink=always", "-b"],
              ["--hyperlink=always", "--color=always", "-F"]):
        for d in ("types", "names"):
            out.append(Case("color-args", o + [d], env=C))
    out.append(Case("color-ops", ["--color=always", "-d", "links/to-dir",
                                  "links/dangling", "types/exec",
                                  "links/to-dir/", "nosuch"], env=C))
    out.append(Case("color-ops", ["--color=always", "-l", "links/dangling",
                                  "links/loop-a", "types/link-dir"],
                    env=dict(C, LS_COLORS=LS_COLORS_FULL)))
    out.append(Case("color-ops", ["--color=always", "--hyperlink=always",
                                  "@ROOT@/types/exec", "@ROOT@/deep"],
                    env=C))
    return out


OPERANDS = [
    ["links/to-file"], ["links/to-dir"], ["links/to-dir/"],
    ["links/to-dir-slash"], ["links/dangling"], ["links/dangling/"],
    ["links/loop-a"], ["links/self"], ["links/chain-dir"],
    ["links/to-dir", "links/to-file", "links/tdir"], ["nosuch"],
    ["nosuch", "types/regular"], ["nosuch", "links"], ["types/regular"],
    ["types/dir", "types/regular", "emptydir"], ["top-link"],
    ["top-dangling"], ["emptydir"], ["."], [".."], ["./types/"],
    ["types//dir"], ["links/abs-dir"], ["@ROOT@/links/to-dir"],
    ["types/regular/"], ["links/to-file/"], [""],
    ["types/regular", "types/regular"], ["links", "links"],
    ["types/fifo", "types/socket", "types/null-like", "types/blk-big"],
]


def group_operands():
    out = []
    for o in ([], ["-l"], ["-d"], ["-ld"], ["-H"], ["-L"], ["-lH"], ["-lL"],
              ["--dereference-command-line-symlink-to-dir"],
              ["-l", "--dereference-command-line-symlink-to-dir"],
              ["-F"], ["-lF"], ["-dF"], ["-1R"], ["-lLR"], ["-s"],
              ["-i", "-L"], ["-F", "--color=always"], ["-lZ"],
              ["--classify=always", "-d"]):
        for ops in OPERANDS:
            out.append(Case("operands", o + ops, env=C))
    for ops in (["-L", "links"], ["-lL", "links"], ["-LR", "links"],
                ["-Ll", "types"], ["-HR", "rloop"], ["-lLd", "links/self"],
                ["-LF", "links"], ["-L", "--color=always", "links"]):
        out.append(Case("operands-L", ops, env=C))
    return out


def group_select():
    out = []
    for o in (["-a"], ["-A"], ["--hide=*.c"], ["-I", "*.c"],
              ["--ignore=a*"], ["-I", "a*", "-I", "*.gz"],
              ["--hide=*", "-a"], ["--hide=*", "-A"], ["--hide=*"],
              ["-I", ".*", "-a"], ["-I", "[ab]*"], ["-B"],
              ["--ignore-backups", "-a"], ["-B", "--hide=a*"],
              ["-a", "-I", "."], ["-A", "--ignore=.."], ["-aA"], ["-Aa"],
              ["--all", "--almost-all"], ["-d", "-a"], ["-I", "*"],
              ["-I", "file-1.9~"], ["--hide=x*", "-R"]):
        for d in ("sort", "deep", "names"):
            out.append(Case("select", ["-1"] + o + [d], env=C))
    return out


def group_recursive():
    out = []
    for o in (["-R"], ["-Ra"], ["-RA"], ["-lR"], ["-laR"], ["-R1"],
              ["-RC", "-w", "60"], ["-Rm"], ["-Rd"], ["-RL"], ["-RH"],
              ["-lRL"], ["-R", "--dired", "-l"], ["-Rs"], ["-Rt"],
              ["-RS", "-r"], ["-R", "--zero"], ["-RF"],
              ["-R", "--group-directories-first"], ["-Ri"],
              ["-R", "--color=always"], ["-RU"], ["-Rf"]):
        for ops in (["deep"], ["rloop"], ["deep", "deep/a", "rloop/sub"],
                    ["deep/z"]):
            out.append(Case("recursive", o + ops, env=C))
    for o in (["-R"], ["-laR"], ["-lR", "--time-style=full-iso"],
              ["-aRi", "-w", "200"], ["-R", "--color=always", "-la"]):
        out.append(Case("recursive-all", o, env=C))
        out.append(Case("recursive-all", o + ["-a"], env=U))
    for o in (["-R"], ["-l"], ["-la"], [], ["-d"], ["-A"], ["-RA", "-a"]):
        out.append(Case("cwd", o, cwd="deep", env=C))
        out.append(Case("cwd", o, cwd="names", env=U))
    return out


def group_layout():
    out = []
    for w in ("0", "1", "2", "10", "25", "40", "79", "80", "81", "120",
              "200", "500"):
        for o in (["-C"], ["-x"], ["-m"], ["-Cs"], ["-xi"], ["-CF"],
                  ["-C", "-T", "0"], ["-x", "-T", "3"], ["-C", "-T", "1"]):
            out.append(Case("layout", o + ["-w", w, "many"], env=C))
        out.append(Case("layout", ["-C", "-w", w, "names"], env=U))
        out.append(Case("layout", ["-x", "-w", w, "sort", "types"], env=U))
    for cols in ("0", "1", "30", "80", "100", "abc", "-5", "", " 90",
                 "99999999999999999999"):
        out.append(Case("columns-env", ["-C", "many"],
                        env=dict(C, COLUMNS=cols)))
        out.append(Case("columns-env", ["-x", "-w", "50", "many"],
                        env=dict(C, COLUMNS=cols)))
    for tab in ("0", "1", "4", "8", "abc", "-1", ""):
        out.append(Case("tabsize-env", ["-C", "-w", "100", "many"],
                        env=dict(C, TABSIZE=tab)))
        out.append(Case("tabsize-env", ["-x", "-w", "60", "-T", "2",
                                        "many"], env=dict(C, TABSIZE=tab)))
    for o in (["--format=verbose"], ["--format=long"], ["--format=commas"],
              ["--format=horizontal"], ["--format=across"],
              ["--format=vertical"], ["--format=single-column"],
              ["--format=long", "-1"], ["-1", "--format=long"],
              ["-l", "-C"], ["-C", "-l"], ["-lm"], ["-ml"], ["-x1"],
              ["-g", "-1"], ["-o", "-C"], ["-n", "-m"], ["--width=60"],
              ["--tabsize=4", "-C", "-w", "70"], ["-w", "60", "-w", "30"],
              ["-mi", "-w", "50"], ["-m", "--zero"], ["-C", "--zero"],
              ["--zero", "-lR"], ["-lZ", "--zero"], ["--zero", "-Q"]):
        out.append(Case("layout-fmt", o + ["many"], env=C))
        out.append(Case("layout-fmt", o + ["types"], env=U))
    return out


def group_indicator():
    out = []
    for o in (["-F"], ["-p"], ["--file-type"], ["--indicator-style=none"],
              ["--indicator-style=slash"], ["--indicator-style=file-type"],
              ["--indicator-style=classify"], ["--classify"],
              ["--classify=always"], ["--classify=auto"],
              ["--classify=never"], ["--classify=yes"],
              ["--classify=force"], ["--classify=no"],
              ["--classify=if-tty"], ["--classify=none"],
              ["-F", "-p"], ["-p", "-F"], ["-F", "--indicator-style=none"],
              ["-lF"], ["-lp"], ["-l", "--file-type"], ["-CF", "-w", "60"],
              ["-mF"], ["-F", "-Q"], ["-F", "-L"]):
        for d in ("types", "links"):
            out.append(Case("indicator", o + [d], env=C))
    return out


def group_dired():
    out = []
    for o in (["-D"], ["--dired"], ["-lD"], ["-lD", "-a"], ["-lDR"],
              ["-lD", "-i", "-s"], ["-lD", "-Q"], ["-lD", "-b"],
              ["-lD", "--color=always"], ["-lD", "--hyperlink=always"],
              ["-lD", "-F"], ["-lD", "--zero"], ["-D", "-1"], ["-lDZ"],
              ["-gD", "--time-style=+%s"], ["-lD", "--quoting-style=c"]):
        for ops in (["types"], ["names"], ["types/regular", "links"],
                    ["nosuch", "deep"]):
            env = U if ops == ["names"] else C
            out.append(Case("dired", o + ops, env=env))
    return out


def group_context():
    out = []
    for o in (["-Z"], ["-lZ"], ["-Z1"], ["-Zs"], ["-ZC", "-w", "80"],
              ["-Zi"], ["--context", "-l"], ["-lZ", "-L"], ["-dZ"],
              ["-Zm"], ["-gZ"]):
        for ops in (["attrs"], ["attrs/label", "attrs/plain",
                                "attrs/label-dir"]):
            out.append(Case("context", o + ops, env=C))
    for o in (["-l"], ["-lL"], ["-ld"], ["-lR"], ["-lA", "--si"]):
        out.append(Case("acl", o + ["attrs"], env=C))
        out.append(Case("acl", o + ["attrs/acl", "attrs/label",
                                    "attrs/default-acl", "attrs/link-to-acl",
                                    "attrs/cap"], env=U))
    return out


def group_owners():
    out = []
    for o in (["-l"], ["-ln"], ["-lg"], ["-lo"], ["-lG"], ["-l", "--author"],
              ["-ln", "--author"], ["-lgn"], ["-lon", "--author"],
              ["--numeric-uid-gid"], ["-lnG"]):
        out.append(Case("owners", o + ["owners"], env=C))
    return out


BAD_ARGS = [
    ["-w", "x"], ["-w", "-1"], ["-w", "99999999999999999999999"],
    ["-w", ""], ["--width=1x"], ["-T", "x"], ["-T", "-1"], ["--tabsize="],
    ["-w"], ["-T"], ["-I"], ["--hide"], ["--sort"], ["--sort=foo"],
    ["--sort=t"], ["--sort="], ["--time=foo"], ["--time-style=bad"],
    ["--color=bad"], ["--format=bad"], ["--format="], ["--format"],
    ["--quoting-style=bad"], ["--quoting-style"], ["--indicator-style=x"],
    ["--classify=bad"], ["--hyperlink=x"], ["--block-size=x"],
    ["--block-size="], ["-y"], ["-%"], ["--bogus"], ["--colo=always"],
    ["--col"], ["--c"], ["--h"], ["--si=1"], ["--all=x"], ["-W"],
    ["--", "-l"], ["-l", "--", "--", "-a"], ["-lz"], ["--zer"],
    ["--time"], ["--sort=size", "--sort=bad"], ["-e"], ["--ignore"],
    ["--dired=yes"], ["--hide-control-chars=1"], ["--format=lon"],
    ["--format=c"], ["--time=a"], ["--sort=v"], ["--sort=ext"],
    ["--quoting-style=sh"], ["--indicator-style=c"],
    ["--time-style=l"], ["--color=al"], ["--hyperlink=a"],
    ["--time-style=+%Y\n%m\n"], ["-?"], ["-:"], ["--=x"], ["-"],
]


def group_posix():
    out = []
    for env in ({}, {"POSIXLY_CORRECT": "1"}):
        for a in (["types", "-l"], ["-l", "types", "-a"], ["names", "--",
                                                           "-x"],
                  ["-s", "sizes"], ["-ls", "--block-size=1K", "sizes"],
                  ["-l", "times"], ["-1", "--", "types"], ["-lk", "sizes"],
                  ["-lh", "sizes"], ["--color=always", "types"]):
            out.append(Case("posix", a, env=dict(C, **env)))
    return out


def group_locale_mix():
    """Locale categories set separately (LANG, LC_CTYPE, LC_COLLATE, ...)."""
    out = []
    mixes = ({"LC_ALL": None, "LANG": "C.UTF-8"},
             {"LC_ALL": None, "LC_CTYPE": "C.UTF-8"},
             {"LC_ALL": None, "LANG": "C.UTF-8", "LC_COLLATE": "C"},
             {"LC_ALL": None, "LANG": "C", "LC_TIME": "C.UTF-8"},
             {"LC_ALL": None, "LANG": "C.UTF-8", "LC_MESSAGES": "C"},
             {"LC_ALL": None},
             {"LC_ALL": "xx_YY.UTF-8"},
             {"LC_ALL": None, "LANG": "xx_YY.UTF-8", "LC_CTYPE": "C.UTF-8"},
             {"LC_ALL": "POSIX"}, {"LC_ALL": "C.utf8"})
    for env in mixes:
        for a in (["-1", "names"], ["-C", "names"], ["-l", "times"],
                  ["--time-style=locale", "-l", "times"], ["nosuch"],
                  ["--sort=bad"], ["-1v", "sort"], ["-lh", "sizes"]):
            out.append(Case("locale-mix", a, env=env))
        out.append(Case("locale-mix", ["names"], env=dict(env, TERM="xterm",
                                                          COLUMNS=None),
                        mode="tty", win=(80, 24)))
    return out


def group_failed_operands():
    """A failed operand that needs quoting shifts the others (GNU's
    alignment space for shell-escape quoting)."""
    out = []
    ops_list = (["no such", "types/regular", "types/exec"],
                ["nosuch", "names/with space", "types/regular"],
                ["*\x7fb x", "top-file"], ["no such", "deep"],
                ["no such", "types/regular", "deep"],
                ["ok?", "no'such", "top-file", "top-exec"])
    for ops in ops_list:
        for o in ([], ["-l"], ["-C"], ["-1"], ["-x"], ["-m"], ["-F"]):
            out.append(Case("failed-operands", o + ops,
                            env=dict(C, QUOTING_STYLE="shell-escape")))
            out.append(Case("failed-operands", o + ops,
                            env=dict(U, TERM="xterm", COLUMNS=None),
                            mode="tty", win=(80, 24)))
        out.append(Case("failed-operands", ["-l"] + ops,
                        env=dict(C, QUOTING_STYLE="shell-always")))
        out.append(Case("failed-operands", ["-Q"] + ops, env=U))
    return out


def group_errors():
    out = []
    for a in BAD_ARGS:
        for loc in LOCALES:
            out.append(Case("errors", a + ["types"], env=loc))
    return out


def group_tty():
    out = []
    base = {"TERM": "xterm", "COLUMNS": None}
    for win in ((0, 0), (1, 5), (7, 3), (300, 50)):
        for o in ([], ["-x"], ["-l"], ["--color=auto"]):
            out.append(Case("tty-win", o + ["many"], env=dict(C, **base),
                            mode="tty", win=win))
    for win in ((80, 24), (132, 40), (20, 10)):
        for loc in LOCALES:
            for o in ([], ["-l"], ["-a"], ["-F"], ["-x"], ["-m"], ["-1"],
                      ["--color=auto"], ["--color=auto", "-l"],
                      ["--classify=auto"], ["--hyperlink=auto"],
                      ["-N"], ["-b"], ["-Q"], ["--quoting-style=literal"],
                      ["-s"], ["-i"], ["-w", "60"], ["--zero"],
                      ["--color=never", "-q"], ["--show-control-chars"]):
                for d in ("names", "types", "many"):
                    if win != (80, 24) and d != "many" and o not in ([],
                                                                     ["-l"]):
                        continue
                    out.append(Case("tty", o + [d], env=dict(loc, **base),
                                    mode="tty", win=win))
    for env in ({"COLUMNS": "50"}, {"COLUMNS": "abc"}, {"COLUMNS": "0"},
                {"TERM": "dumb"}, {"TERM": None},
                {"LS_COLORS": LS_COLORS_FULL},
                {"LS_COLORS": "invalid"}, {"QUOTING_STYLE": "c"},
                {"QUOTING_STYLE": "literal"}, {"TABSIZE": "4"},
                {"TIME_STYLE": "iso"}):
        e = dict(C, TERM="xterm", COLUMNS=None)
        e.update(env)
        for d in ("names", "many", "types"):
            out.append(Case("tty-env", ["--color=auto", d], env=e,
                            mode="tty", win=(80, 24)))
    out.append(Case("tty", ["-R", "deep"], env=dict(U, TERM="xterm",
                                                    COLUMNS=None),
                    mode="tty", win=(80, 24)))
    out.append(Case("tty", [], cwd="names", env=dict(U, TERM="xterm",
                                                     COLUMNS=None),
                    mode="tty", win=(100, 30)))
    return out


def group_unpriv():
    out = []
    ops_list = (["perm"], ["perm/noread"], ["perm/unsearch"],
                ["perm/unsearch/f1"], ["perm/noread", "perm/ok"],
                ["perm/link-into-noread"], ["perm/link-into-unsearch"],
                ["perm/ok/noread2"], ["perm/writeonly"],
                ["perm/unsearch-big"],
                ["perm/unreadable-file"], ["perm/unsearch/subd"])
    for o in ([], ["-l"], ["-R"], ["-lR"], ["-d"], ["-ld"], ["-F"], ["-i"],
              ["-s"], ["-L"], ["-lL"], ["--color=always"], ["-lZ"],
              ["-1U"], ["-t"], ["-S"], ["-lF", "--color=always"], ["-a"],
              ["-lai"], ["-CZ"], ["-xZs", "-w", "30"]):
        for ops in ops_list:
            out.append(Case("unpriv", o + ops, env=C, mode="unpriv"))
    for o in ([], ["-l"], ["-F"], ["--color=auto"], ["-lR", "--color=auto"],
              ["-x", "--color=auto", "-F"], ["-Z"]):
        for ops in (["perm"], ["perm/unsearch"], ["perm/unsearch-big"],
                    ["perm/noread", "perm/ok", "perm/link-into-unsearch"]):
            out.append(Case("unpriv-tty", o + ops,
                            env=dict(U, TERM="xterm", COLUMNS=None),
                            mode="tty+unpriv", win=(100, 30)))
    out.append(Case("unpriv", ["-R"], cwd="perm", env=C, mode="unpriv"))
    out.append(Case("unpriv", ["-lR"], env=C, mode="unpriv"))
    out.append(Case("unpriv", ["-la"], cwd="perm/unsearch", env=C,
                    mode="unpriv"))
    return out


def group_big():
    """big/ holds more entries than a backend batch: order (-U is the
    directory order), widths, totals, errors must all survive batching."""
    out = []
    for o in ([], ["-1U"], ["-lU"], ["-l"], ["-la"], ["-i"], ["-s"], ["-lisa"],
              ["-F"], ["-lF", "--color=always"], ["-t"], ["-S"], ["-X"],
              ["-v"], ["-lu"], ["-lc"], ["-L"], ["-lL"], ["-R"], ["-Rl"],
              ["-x", "-w", "200"], ["-m"], ["-Z"], ["-lZ"], ["-f"], ["-U", "-r"],
              ["--group-directories-first"], ["-lD"], ["-1", "--zero"],
              ["--color=always", "-1U"], ["-l", "--time=birth"]):
        out.append(Case("big", o + ["big"], env=C))
    for o in (["-l"], ["-1U"], ["-C"], ["-v"]):
        out.append(Case("big", o + ["big"], env=U))
    for o in ([], ["-l"], ["-1U"], ["-i"], ["-lU"]):
        out.append(Case("big-unpriv", o + ["big"], env=C, mode="unpriv"))
    out.append(Case("big-tty", ["big"], env=dict(U, TERM="xterm",
                                                 COLUMNS=None),
                    mode="tty", win=(132, 40)))
    return out


def group_mounts():
    """Mount points: the inode of a mount point from getdents (the
    covered directory) differs from stat's (the mounted root)."""
    out = []
    for a in (["-i", "/"], ["-iU", "/"], ["-1iF", "/"],
              ["-id", "/", "/proc", "/sys", "/dev"], ["-iL", "/"],
              ["-1i", "--color=always", "/"], ["-id", "/proc/", "/dev/."]):
        out.append(Case("mounts", a, env=C))
    # sysfs has no birth time: '?' (or the fallback) in every time style.
    # Only the root of /sys: its inode is pinned, so its times are stable.
    for a in (["--time=birth"], ["--full-time", "--time=birth"],
              ["--time=birth", "--time-style=+%s"], ["-t", "--time=birth"],
              ["--time=birth", "--time-style=long-iso", "-i"]):
        out.append(Case("no-birth", ["-ld"] + a + ["/sys", "times/ns-a"],
                        env=C))
        out.append(Case("no-birth", ["-ld"] + a + ["/sys"], env=U))
    return out


def group_tmpfs():
    """The same awkward files on a tmpfs (@SHM@, absolute operands)."""
    out = []
    for o in ([], ["-l"], ["-la"], ["-1U"], ["-lU"], ["-i"], ["-s"], ["-ls"],
              ["-lsh"], ["-F"], ["--color=always"], ["-lZ"], ["-t"], ["-S"],
              ["-lu"], ["-l", "--time=birth"], ["-R"], ["-lD"], ["-x"],
              ["-L"], ["--full-time"], ["-lh", "--si"]):
        for d in ("types", "links", "attrs", "names", "sizes", "times",
                  "sort"):
            out.append(Case("tmpfs", o + ["@SHM@/" + d], env=C))
    for o in (["-1U"], ["-l"], ["-i"], ["-R"]):
        out.append(Case("tmpfs", o + ["@SHM@/big"], env=C))
        out.append(Case("tmpfs", o + ["@SHM@/many"], env=U))
    out.append(Case("tmpfs", ["-C", "@SHM@/names"], env=dict(U, TERM="xterm",
                                                           COLUMNS=None),
                    mode="tty", win=(100, 30)))
    return out


def group_chain():
    """A 300-level chain: deep enough to need fd discipline, shallow
    enough for GNU; also with only 20 descriptors."""
    out = []
    for o in (["-R"], ["-lR"], ["-RL"], ["-Ri"], ["-R", "--color=always"],
              ["-RF"], ["-lRD"], ["-Rs"]):
        out.append(Case("chain", o + ["chain"], env=C))
        out.append(Case("chain-lowfd", o + ["chain"], env=C, mode="lowfd"))
    for o in (["-lR"], ["-R", "perm"], ["-lRL", "rloop", "deep"], ["-R", "big"]):
        out.append(Case("chain-lowfd", o, env=C, mode="lowfd"))
    return out


def group_io():
    out = []
    for mode in ("full", "epipe", "epipe-ign", "closed", "closed-err",
                 "closed-in"):
        for o in (["-l", "types"], ["-R", "deep"], ["nosuch"], ["emptydir"],
                  ["-1", "many"], ["-lR"], ["--color=always", "types"],
                  ["-l", "nosuch", "types"], ["-d", "emptydir"]):
            out.append(Case("io", o, env=C, mode=mode))
    for o in ([], ["-a"], ["-la"], ["-A"], ["-lR"], ["-aR"], ["-1U"],
              ["-aU", "-s"], ["-d"], ["-ld", "."], ["-i", "."], ["-laF"]):
        out.append(Case("rmcwd", o, env=C, mode="rmcwd"))
    return out


COMBO_ATOMS = [
    ["-a"], ["-A"], ["-l"], ["-1"], ["-C"], ["-x"], ["-m"], ["-g"], ["-o"],
    ["-G"], ["-n"], ["-s"], ["-h"], ["--si"], ["-k"], ["-i"], ["-F"], ["-p"],
    ["--file-type"], ["-Q"], ["-b"], ["-q"], ["-N"], ["-R"], ["-d"], ["-t"],
    ["-S"], ["-X"], ["-v"], ["-U"], ["-f"], ["-r"], ["-c"], ["-u"],
    ["--full-time"], ["--time-style=iso"], ["--time-style=+%Y %j"],
    ["--time-style=long-iso"], ["--group-directories-first"], ["--zero"],
    ["-Z"], ["--author"], ["-L"], ["-H"], ["--color=always"],
    ["--hyperlink=always"], ["-w", "40"], ["-w", "0"], ["-w", "200"],
    ["-T", "3"], ["--block-size=1K"], ["--block-size=M"],
    ["--quoting-style=c"], ["--quoting-style=shell-escape"],
    ["--quoting-style=escape"], ["--quoting-style=locale"],
    ["--indicator-style=slash"], ["-B"], ["-I", "*.c"], ["--hide=a*"],
    ["--dired"], ["--time=birth"], ["--sort=width"],
    ["--classify=always"], ["--dereference-command-line-symlink-to-dir"],
    ["--format=commas"], ["--format=across"], ["-D"],
]

COMBO_OPERANDS = [
    ["types"], ["names"], ["links"], ["sizes"], ["times"], ["attrs"],
    ["owners"], ["sort"], ["many"], ["deep"], ["rloop"], ["perm"],
    ["types", "links"], ["links/to-dir", "links/to-file", "links/dangling"],
    ["nosuch", "sizes/s1MiB", "deep/a"], ["links/loop-a", "times"],
    ["types/dir", "types/fifo", "types/blk-big", "emptydir"],
    ["names/new\nline", "names/-dash", "names/\u65e5\u672c\u8a9e"],
    [], ["."], ["top-link", "top-dangling", "top-file"],
]

COMBO_ENVS = [
    {}, {}, {}, {"LS_COLORS": LS_COLORS_FULL}, {"TERM": "xterm"},
    {"TZ": "JST-9"}, {"TIME_STYLE": "full-iso"}, {"QUOTING_STYLE": "c"},
    {"BLOCK_SIZE": "human-readable"}, {"LS_BLOCK_SIZE": "512"},
    {"COLUMNS": "60"}, {"TABSIZE": "4"}, {"LS_COLORS": "ln=target:di=4"},
]


def group_combo(n=900, ntty=120, nunpriv=60):
    """Seeded random option combinations: interactions between features."""
    rng = random.Random(20261121)
    out = []
    for i in range(n + ntty + nunpriv):
        atoms = rng.sample(COMBO_ATOMS, rng.choice((1, 2, 2, 3, 3, 4, 5)))
        args = [a for atom in atoms for a in atom]
        ops = rng.choice(COMBO_OPERANDS)
        env = dict(rng.choice(LOCALES))
        env.update(rng.choice(COMBO_ENVS))
        if i < n:
            out.append(Case("combo", args + ops, env=env))
        elif i < n + ntty:
            env.update(TERM="xterm", COLUMNS=None)
            win = rng.choice(((80, 24), (132, 40), (40, 20)))
            out.append(Case("combo-tty", args + ops, env=env, mode="tty",
                            win=win))
        else:
            ops = rng.choice((["perm"], ["perm/unsearch"], ["perm/noread"],
                              ["perm/ok", "perm/link-into-unsearch"]))
            out.append(Case("combo-unpriv", args + ops, env=env,
                            mode="unpriv"))
    return out


# Translated locales (tools/install-deps generates them): GNU coreutils'
# catalogues translate messages, "total" and the locale time style; the
# locale also decides collation (strcoll), month names and their widths,
# the decimal point of -h sizes, and quotes (quotearg's gettext("`")).
TRANSLATED = ("de_DE.UTF-8", "fr_FR.UTF-8", "ja_JP.UTF-8")

# Which cases run again in each translated locale: every case of a group
# (0), or every Nth.  Chosen for what a locale can change: every mode
# (pipe, tty, unpriv, full, epipe, closed, lowfd, rmcwd), the long
# formats, time styles, errors and diagnostics, quoting, sizes, sorting,
# columns with wide characters; groups left out only parse LS_COLORS.
TRANSLATED_PICK = {
    "format-utf8": 0, "format": 4, "quoting": 0, "quoting-headers": 0,
    "sort": 3, "sort-operands": 0, "time": 0, "time-args": 0,
    "time-env": 0, "size": 0, "size-args": 0, "size-env": 2,
    "color-full": 4, "color-unset": 4, "color-term": 12, "color-args": 0,
    "color-ops": 0, "color-invalid": 5, "color-invalid3": 5,
    "color-no-equals": 5, "operands": 5, "operands-L": 2, "select": 4,
    "recursive": 4, "recursive-all": 0, "cwd": 0, "layout": 3,
    "columns-env": 0, "tabsize-env": 0, "layout-fmt": 0, "indicator": 4,
    "dired": 0, "context": 2, "acl": 0, "owners": 0, "posix": 0,
    "failed-operands": 0, "errors": 0, "tty": 3, "tty-env": 0,
    "tty-win": 4, "unpriv": 4, "unpriv-tty": 0, "big": 3, "big-tty": 0,
    "big-unpriv": 0, "chain": 4, "chain-lowfd": 4, "mounts": 0,
    "no-birth": 0, "tmpfs": 8, "io": 3, "rmcwd": 0, "combo": 8,
    "combo-tty": 6, "combo-unpriv": 6,
}


def in_locale(case, loc):
    """CASE again with its C and C.UTF-8 locale variables set to LOC."""
    env = {}
    for k, v in case.env.items():
        if (k == "LANG" or k.startswith("LC_")) and v in ("C", "C.UTF-8"):
            v = loc
        env[k] = v
    return Case(case.group + "@" + loc[:5], case.args, cwd=case.cwd,
                env=env, mode=case.mode, win=case.win)


def group_translated(groups):
    """The picked cases of GROUPS in each translated locale, and the
    locale categories of a translated locale set one by one."""
    picked = []
    for g in groups:
        n = {}
        for c in g():
            step = TRANSLATED_PICK.get(c.group)
            if step is None:
                continue
            i = n[c.group] = n.get(c.group, -1) + 1
            if step == 0 or i % step == 0:
                picked.append(c)
    out = []
    for loc in TRANSLATED:
        seen = set()       # C and C.UTF-8 cases may become the same run
        for c in picked:
            t = in_locale(c, loc)
            key = t.id.split(": ", 1)[1]
            if key not in seen:
                seen.add(key)
                out.append(t)
        for env in ({"LC_ALL": None, "LANG": loc},
                    {"LC_ALL": None, "LANG": loc, "LC_MESSAGES": "C"},
                    {"LC_ALL": None, "LANG": "C", "LC_TIME": loc},
                    {"LC_ALL": None, "LANG": "C.UTF-8", "LC_MESSAGES": loc},
                    {"LC_ALL": None, "LANG": loc, "LC_COLLATE": "C"},
                    {"LC_ALL": None, "LANG": "C", "LC_NUMERIC": loc},
                    {"LC_ALL": None, "LANG": loc, "LC_CTYPE": "C"},
                    {"LC_ALL": loc, "LANGUAGE": "fr:de"}):
            for a in (["-l", "times"], ["-ls", "--block-size=human",
                                        "sizes"],
                      ["--time-style=locale", "-lu", "times"],
                      ["-1", "names", "nosuch"], ["--sort=bad"],
                      ["-1v", "sort"], ["-C", "names"],
                      ["--quoting-style=locale", "-1", "names"]):
                out.append(Case("locale-mix@" + loc[:5], a, env=env))
    return out


def all_cases():
    groups = (group_format, group_quoting, group_sort, group_time,
              group_size, group_color, group_operands, group_select,
              group_recursive, group_layout, group_indicator, group_dired,
              group_context, group_owners, group_posix, group_locale_mix,
              group_failed_operands,
              group_errors,
              group_tty,
              group_unpriv, group_big, group_chain, group_mounts, group_tmpfs,
              group_io,
              group_combo)
    seen = set()
    out = []
    for g in groups + (lambda: group_translated(groups),):
        for c in g():
            if c.id not in seen:
                seen.add(c.id)
                out.append(c)
    return out


FS_DIRS = ("types", "links", "attrs", "names", "sizes", "times", "sort",
           "owners")


def fs_cases():
    """The fixture on another filesystem (tests/gnu/fsmatrix.py: xfs,
    btrfs, erofs, squashfs, overlayfs, ext2, ramfs, tmpfs, FUSE): what a
    filesystem can change -- the getdents order (-U), d_type, inode
    numbers, block counts and sizes, birth times, ACLs, labels,
    capabilities, hard links, EACCES, mount and subvolume boundaries --
    in the long and short formats, recursion, the unprivileged cases and
    a few columns, in C and C.UTF-8: about 440 cases."""
    out = []
    for o in ([], ["-l"], ["-la"], ["-1U"], ["-lU"], ["-i"], ["-s"], ["-ls"],
              ["-lsh"], ["-F"], ["--color=always"], ["-Z"], ["-lZ"], ["-t"],
              ["-S"], ["-lu"], ["-lc"], ["-l", "--time=birth"], ["-lL"],
              ["-li", "--full-time"], ["-lD"], ["-x"], ["-L"],
              ["-lh", "--si"], ["-lgGno"]):
        for d in FS_DIRS:
            out.append(Case("fs", o + [d], env=C))
    for o in ([], ["-l"], ["-lZ"], ["-1iU"]):
        for d in FS_DIRS:
            out.append(Case("fs-utf8", o + [d], env=U))
    for o in ([], ["-1U"], ["-l"], ["-lU"], ["-i"], ["-ls"], ["-lZ"], ["-R"],
              ["-lt"]):
        out.append(Case("fs-big", o + ["big"], env=C))
    for o in (["-C"], ["-lU"]):
        out.append(Case("fs-big", o + ["big"], env=U))
        out.append(Case("fs-big", o + ["many"], env=U))
    for o in (["-R"], ["-lR"], ["-laR"], ["-lRL"], ["-Ri"], ["-RU"],
              ["-lRZ"]):
        for ops in (["deep"], ["rloop"], ["deep", "deep/a", "rloop/sub"]):
            out.append(Case("fs-recursive", o + ops, env=C))
    out.append(Case("fs-recursive", ["-lR"], env=C))
    out.append(Case("fs-recursive", ["-aRi", "-w", "200"], env=U))
    out.append(Case("fs-recursive", ["-lR", "chain"], env=C, mode="lowfd"))
    for o in (["-ld"], ["-lL"], ["-lH"], ["-LR"], ["-i", "-L"]):
        out.append(Case("fs-operands", o + [
            "links/to-dir", "links/to-file", "links/dangling",
            "links/abs-dir", "links/loop-a", "types/dir",
            "types/hardlink1", "emptydir", "top-link", "nosuch"], env=C))
    for c in group_context() + group_owners():
        out.append(Case("fs-" + c.group, c.args, env=c.env))
    ops_list = (["perm"], ["perm/noread"], ["perm/unsearch"],
                ["perm/unsearch/f1"], ["perm/noread", "perm/ok"],
                ["perm/link-into-noread"], ["perm/ok/noread2"],
                ["perm/writeonly"], ["perm/unsearch-big"],
                ["perm/unreadable-file"])
    for o in ([], ["-l"], ["-R"], ["-lR"], ["-ld"], ["-L"], ["-lZ"],
              ["-1U"], ["-i"], ["-s"]):
        for ops in ops_list:
            out.append(Case("fs-unpriv", o + ops, env=C, mode="unpriv"))
    for o in (["-l"], ["-lZ"]):
        out.append(Case("fs-unpriv", o + ["attrs", "owners"], env=U,
                        mode="unpriv"))
    out.append(Case("fs-unpriv", ["-lR"], env=C, mode="unpriv"))
    out.append(Case("fs-unpriv", ["-R"], cwd="perm", env=C, mode="unpriv"))
    for o in ([], ["-l"], ["--color=auto", "-F"]):
        out.append(Case("fs-tty", o + ["names", "attrs"],
                        env=dict(U, TERM="xterm", COLUMNS=None),
                        mode="tty", win=(100, 30)))
        out.append(Case("fs-tty", o + ["perm", "perm/unsearch"],
                        env=dict(U, TERM="xterm", COLUMNS=None),
                        mode="tty+unpriv", win=(100, 30)))
    return out


# The named sets of difftest.py's --cases.
CASE_SETS = {"all": all_cases, "fs": fs_cases}


if __name__ == "__main__":
    cs = all_cases()
    for c in cs:
        print(c.id)
    print(len(cs), "cases")
