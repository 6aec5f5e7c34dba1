# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
"""Starts a job of Python PEs: `python -m symm.run -n 4 script.py [args...]`.

The options before the script are symmrun's (-n N, --nodes K, --timeout S, --tag, --bind); the
script runs under this Python, as do `-m module` and `-c code`; any other program (an
executable file, a name on PATH) runs as it is. The launcher is the symmrun an installed wheel
carries (symm/bin), else the one of the build folder the library comes from (build/tools),
else symmrun on PATH."""

import os
import shutil
import sys

from . import _lib

USAGE = ("usage: python -m symm.run [-n N] [--nodes K] [--timeout S] [--tag] [--bind core|none] "
         "[--] (script.py | -m module | -c code | program) [args...]")
_WITH_VALUE = {"-n", "-np", "--np", "--timeout", "--bind", "--nodes"}


def symmrun():
    """The path of the launcher, or None."""
    here = os.path.dirname(os.path.abspath(__file__))
    found = [os.path.join(here, "bin", "symmrun")]
    lib = _lib._path()
    if os.sep in lib:
        found.append(os.path.join(os.path.dirname(os.path.abspath(lib)), "tools", "symmrun"))
    for f in found:
        if os.path.isfile(f) and os.access(f, os.X_OK):
            return f
    return shutil.which("symmrun")


def command(argv):
    """(symmrun's options, the PE's command line) from this module's arguments."""
    opts, i = [], 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            i += 1
            break
        if a in ("-m", "-c") or not a.startswith("-"):
            break
        opts.append(a)
        if a in _WITH_VALUE and i + 1 < len(argv):
            opts.append(argv[i + 1])
            i += 1
        i += 1
    rest = argv[i:]
    if not rest or (rest[0] in ("-m", "-c") and len(rest) < 2):
        return opts, None
    first = rest[0]
    if first in ("-m", "-c") or first.endswith(".py") or (
            os.path.isfile(first) and not os.access(first, os.X_OK)):
        return opts, [sys.executable] + rest
    return opts, rest


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    opts, prog = command(argv)
    if any(o in ("-h", "--help") for o in opts):
        print(USAGE)
        return 0
    if prog is None:
        sys.stderr.write("symm.run: no program to start; %s\n" % USAGE)
        return 2
    launcher = symmrun()
    if launcher is None:
        sys.stderr.write("symm.run: no symmrun found (not in the installed package, beside the "
                         "library %s, or on PATH); install the package with pip or build "
                         "symm\n" % _lib._path())
        return 2
    sys.stdout.flush()
    os.execv(launcher, [launcher] + opts + ["--"] + prog)
    return 0


if __name__ == "__main__":
    sys.exit(main())
