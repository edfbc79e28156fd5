#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""tests/gnu/collate.py -- the order of names that collate equal or nearly
equal, ours against GNU ls, in every locale the GNU suite covers.

ls-collkey.c decides most name comparisons from collation keys and
leaves the rest to strcoll; the order must stay byte-identical to GNU
ls 9.1 (which calls strcoll every time), ties included.  This builds
directories whose names differ only in case, accents, ligatures,
punctuation, ignorable characters (tabs, U+200B), invalid bytes, digits
and extensions -- among them pairs where glibc's strxfrm and strcoll
disagree, which a sort by whole strxfrm keys gets wrong -- with few
distinct sizes and times (so -S and -t fall through to names), some
directories and symlinks to directories, and runs both ls with each sort
option to a pipe, per locale.  Any difference in stdout, stderr or exit
status fails the test (a diff is printed).

  collate.py --ls PATH [--gnu /bin/ls] [--keep]
Exit: 0 same everywhere, 1 a difference, 99 a locale is missing.
"""

import argparse
import ctypes
import difflib
import os
import random
import shutil
import subprocess
import sys
import tempfile

LOCALES = ["C", "C.UTF-8", "de_DE.UTF-8", "fr_FR.UTF-8", "ja_JP.UTF-8"]
# Collation from LC_COLLATE alone, the other categories elsewhere.
MIXES = [{"LANG": "C.UTF-8", "LC_COLLATE": "de_DE.UTF-8"},
         {"LANG": "ja_JP.UTF-8", "LC_COLLATE": "fr_FR.UTF-8"},
         {"LANG": "de_DE.UTF-8", "LC_COLLATE": "C"}]

OPTIONS = [
    [], ["-r"], ["-X"], ["-X", "-r"], ["-t"], ["-t", "-r"], ["-tu"],
    ["-S"], ["-S", "-r"], ["-v"], ["-v", "-r"], ["--sort=width"],
    ["--group-directories-first"], ["--group-directories-first", "-r"],
    ["--group-directories-first", "-X"], ["--group-directories-first", "-S"],
    ["-U"], ["-l", "--time-style=+%s"],
]

# Stems that collate equal or nearly so in the translated locales.
STEMS = [
    "apfel", "Apfel", "APFEL", "apfeL", "äpfel", "Äpfel", "a-pfel", "a_pfel",
    "a.pfel", "a pfel", "a\tpfel", "a\u200bpfel", "ss", "SS", "ß", "strasse",
    "Straße", "STRASSE", "cote", "côte", "coté", "côté", "Côté", "resume",
    "résumé", "Résumé", "RÉSUMÉ", "ij", "ĳ", "IJ", "fi", "ﬁ", "oe", "œ", "Œ",
    "ae", "æ", "Æ", "aa", "å", "Å", "½", "²", "2", "日本", "ニホン", "にほん",
    "ｶﾅ", "カナ", "かな", "~", "!", "(", ")", "'", ",", "-", "_", ".",
    "\u02bc", "\xff", "\xc3", "ǆ", "Ǆ", "ǅ", "n", "ñ", "Ñ", "z", "Z", "ž",
]
DIGITS = ["1", "01", "001", "10", "2", "9", "010", "1.2", "1.10", "1.9", "1~",
          "0", "00", "1a", "1A", "1.0~rc1", "1.0", "1.0.1"]
EXTS = ["", ".txt", ".TXT", ".Txt", ".tär", ".tar.gz", ".gz", ".", ".a", ".A",
        ".ä", ".1", ".~", "~"]

# Pairs on which glibc 2.36's strxfrm and strcoll disagree (found by a
# random search in de_DE.UTF-8): the keys must leave them to strcoll.
DISAGREE = [
    ("ij0\tÅ~", "ij0Å\t"), ("0ç)", "0\xffç "), ("ｶ日~!0", "ｶ日~!0,"),
    ("½²_ê", "½²è"), ("(ij本2", "(ij本-)²-"), ("1Å0è", "1Å0\xffÉ"),
    ("²è-", "²(É"), ("B½ij", "B½\tĳ"), ("êh1 日'", "êh1 \xff日\u200b"),
]


def fsname(s):
    """A file name's bytes: '\xff' and '\xc3' stand for invalid bytes."""
    return s.encode("utf-8", "surrogateescape").replace(
        b"\xc3\xbf", b"\xff").replace(b"\xc3\x83", b"\xc3")


def names(rng, count, seeded):
    """COUNT distinct names built from the lists above; if SEEDED, also
    every stem alone and all the DISAGREE pairs, else two of them."""
    out = set()
    if seeded:
        out.update(fsname(s) for s in STEMS if s != ".")
    for a, b in DISAGREE if seeded else DISAGREE[:2]:
        out.add(fsname(a))
        out.add(fsname(b))
    while len(out) < count:
        n = "".join(rng.choice(STEMS) for _ in range(rng.randint(1, 3)))
        if rng.random() < 0.6:
            n += rng.choice(["", "-", "_", " ", "."]) + rng.choice(DIGITS)
        n += rng.choice(EXTS)
        b = fsname(n)
        if b in (b".", b"..") or b"/" in b or len(b) > 255:
            continue
        out.add(b)
    return sorted(out)


def populate(d, rng, count, long_prefix=b"", seeded=True):
    """Fill directory D (bytes) with COUNT names: a few directories and
    symlinks to directories, files of 3 sizes and 3 mtimes/atimes."""
    os.makedirs(d)
    for n in names(rng, count, seeded):
        p = os.path.join(d, long_prefix + n)
        if len(long_prefix + n) > 255:
            continue
        kind = rng.random()
        if kind < 0.08:
            os.mkdir(p)
        elif kind < 0.12:
            os.symlink(b"..", p)
        elif kind < 0.14:
            os.symlink(b"nowhere", p)
        else:
            with open(p, "wb") as f:
                f.write(b"x" * rng.choice([0, 0, 1, 4096]))
        t = 1_600_000_000 + rng.choice([0, 0, 0, 1, 86400])
        os.utime(p, (t, t), follow_symlinks=False)


def run(argv, loc, cwd):
    """Run ARGV in CWD with locale LOC (a name for LC_ALL, or a dict of
    variables); return its stdout, stderr and exit status."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TZ": "UTC",
           "HOME": cwd}
    env.update(loc if isinstance(loc, dict) else {"LC_ALL": loc})
    p = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, check=False)
    return p.stdout, p.stderr, p.returncode


def disagreements(loc, pairs):
    """How many PAIRS (bytes) glibc's strxfrm keys order against strcoll
    in LOC (informational: what a sort by whole keys would get wrong)."""
    libc = ctypes.CDLL(None)
    libc.setlocale.restype = ctypes.c_char_p
    libc.strxfrm.restype = ctypes.c_size_t
    libc.strxfrm.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t]
    libc.strcoll.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    if not libc.setlocale(3, loc.encode()):	# LC_COLLATE
        return 0

    def key(s):
        n = libc.strxfrm(None, s, 0)
        buf = ctypes.create_string_buffer(n + 1)
        libc.strxfrm(buf, s, n + 1)
        return buf.raw[:n]

    def sign(x):
        return (x > 0) - (x < 0)
    bad = 0
    for a, b in pairs:
        ka, kb = key(a), key(b)
        if sign(libc.strcoll(a, b)) != sign((ka > kb) - (ka < kb)):
            bad += 1
    libc.setlocale(3, b"C")
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ls", required=True)
    ap.add_argument("--gnu", default="/bin/ls")
    ap.add_argument("--keep", action="store_true")
    a = ap.parse_args()
    ours = os.path.abspath(a.ls)

    missing = [loc for loc in LOCALES if subprocess.run(
        ["locale"], env={"LC_ALL": loc}, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, check=False).stderr]
    if missing:
        print(f"ERROR: locales missing: {' '.join(missing)} "
              "(tools/install-deps generates them)")
        return 99

    tmp = tempfile.mkdtemp(prefix="collate.", dir=os.environ.get("TMPDIR"))
    try:
        rng = random.Random(22)
        top = os.fsencode(tmp)
        # big: the keyed sort; small: fewer names than the keys pay for;
        # long: keys that differ only beyond their inline 16 bytes;
        # huge: a shared start longer than a key keeps.
        populate(os.path.join(top, b"big"), rng, 1500)
        populate(os.path.join(top, b"small"), rng, 24, seeded=False)
        populate(os.path.join(top, b"long"), rng, 200,
                 long_prefix=b"x" * 40 + "Übersicht-".encode() * 5)
        populate(os.path.join(top, b"huge"), rng, 200,
                 long_prefix=b"x" * 60 + "Übersicht-".encode() * 9)
        operands = sorted(os.listdir(os.path.join(top, b"big")))[:400]
        os.symlink(b"big", os.path.join(top, b"ops"))
        pairs = [(fsname(x), fsname(y)) for x, y in DISAGREE]

        cases = []
        for d in (b"big", b"small", b"long", b"huge"):
            for opt in OPTIONS:
                cases.append((opt + [d], d.decode()))
        for opt in OPTIONS[:6]:
            cases.append((["-d"] + opt + [b"ops/" + n for n in operands],
                          "400 operands"))

        fails = total = 0
        for loc in LOCALES + MIXES:
            if isinstance(loc, dict):
                # The mixes run the name sorts of the big directory only.
                todo = [c for c in cases[:len(OPTIONS)] if "-v" not in c[0]]
                where = " ".join(f"{k}={v}" for k, v in loc.items())
            else:
                todo = cases
                where = f"LC_ALL={loc}"
            for argv, what in todo:
                total += 1
                gnu = run([a.gnu] + argv, loc, tmp)
                got = run([ours] + argv, loc, tmp)
                if gnu == got:
                    continue
                fails += 1
                shown = " ".join(x for x in argv if isinstance(x, str))
                print(f"FAIL: {where} ls {shown} ({what}): differs")
                if fails <= 5:
                    for i, (g, o) in enumerate(zip(gnu[:2], got[:2])):
                        if g != o:
                            sys.stdout.writelines(difflib.unified_diff(
                                g.decode("utf-8", "replace").splitlines(True),
                                o.decode("utf-8", "replace").splitlines(True),
                                "GNU " + ("stdout", "stderr")[i],
                                "ours " + ("stdout", "stderr")[i], n=2))
                    if gnu[2] != got[2]:
                        print(f"  status GNU {gnu[2]}, ours {got[2]}")
            if isinstance(loc, str):
                n = disagreements(loc, pairs)
                print(f"{loc}: {n} of the {len(pairs)} strxfrm/strcoll "
                      "disagreement pairs disagree here")
        print(f"{total - fails}/{total} identical")
        return 1 if fails else 0
    finally:
        if a.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp)


if __name__ == "__main__":
    sys.exit(main())
