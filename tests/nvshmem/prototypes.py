#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
"""Writes NVSHMEM's prototypes (prototypes-3.4.5.txt) from NVSHMEM's own headers.

NVSHMEM's source tree (the tag v3.4.5-0) is read from a folder that git ignores, e.g.

    git -C <nvshmem clone> archive v3.4.5-0 src/include | tar -x -C build-nvshmem-src
    tests/nvshmem/prototypes.py build-nvshmem-src > tests/nvshmem/prototypes-3.4.5.txt

Its headers are configured as NVSHMEM's build configures them (version 3.4.5, no build
options) into a scratch folder and preprocessed twice, <nvshmem.h> and <nvshmemx.h>: by nvcc
for sm_90 (the device pass, where each declaration is marked with its execution spaces) and by
the host C++ compiler (what only the host sees). Every declaration or definition of a function
named nvshmem_* or nvshmemx_* outside a template becomes one line

    KIND RET NAME(TYPE, TYPE, ...)

KIND is H (callable on the host), D (in kernels) or HD (both, with one prototype); the types
lose parameter names, top-level const and attributes, and are written with single spaces and
`*` bound to the type (`const void *`, `void **`). A name whose host and device prototypes
differ gets an H line and a D line. Lines are sorted by name, then kind.
Options: --cxx (host compiler, default c++), --nvcc (default nvcc), --cuda (CUDA's include
folder, default /usr/local/cuda/include).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

VERSION = {"MAJOR": "3", "MINOR": "4", "PATCH": "5", "TWEAK": "0"}
SPECIFIERS = {"static", "inline", "extern", "__inline__", "__forceinline__", "__noinline__",
              "constexpr", "__host__", "__device__", "__global__", "virtual"}
KEYWORD_TYPES = {"void", "char", "short", "int", "long", "float", "double", "signed",
                 "unsigned", "bool", "_Bool", "const", "volatile", "struct", "enum", "union",
                 "__int128"}
TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|[A-Za-z_]\w*|\d[\w.]*|::|->|\S')


def configure(src, scratch):
    """NVSHMEM's headers with its two configured files, in scratch/include."""
    inc = os.path.join(scratch, "include")
    shutil.copytree(os.path.join(src, "src", "include"), inc)
    non_abi = os.path.join(inc, "non_abi")
    with open(os.path.join(non_abi, "nvshmem_version.h.in")) as f:
        text = f.read()
    for k, v in VERSION.items():
        text = text.replace("@PROJECT_VERSION_%s@" % k, v)
    text = re.sub(r"@[A-Z_]+@", "0", text)
    with open(os.path.join(non_abi, "nvshmem_version.h"), "w") as f:
        f.write(text)
    with open(os.path.join(non_abi, "nvshmem_build_options.h.in")) as f:
        text = re.sub(r"(?m)^#cmakedefine .*$", "", f.read())
    with open(os.path.join(non_abi, "nvshmem_build_options.h"), "w") as f:
        f.write(text)
    return inc


def preprocess(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit("prototypes: %s failed:\n%s" % (cmd[0], r.stderr[-4000:]))
    return "\n".join(l for l in r.stdout.split("\n") if not l.startswith("#"))


def statements(tokens):
    """Top-level declarations: (tokens, has_body). extern "C" { } and namespaces are opened;
    function bodies and class bodies are skipped."""
    out, cur, i, n = [], [], 0, len(tokens)
    while i < n:
        t = tokens[i]
        if t == "{":
            if (cur and cur[0] == "extern" and len(cur) == 2 and cur[1].startswith('"')) or \
                    (cur and cur[0] == "namespace"):
                cur = []
                i += 1
                continue
            depth, j = 1, i + 1
            while j < n and depth:
                depth += {"{": 1, "}": -1}.get(tokens[j], 0)
                j += 1
            out.append((cur, True))
            cur = []
            i = j
            if i < n and tokens[i] == ";":
                i += 1
            continue
        if t == "}":  # the end of an opened extern "C" or namespace
            cur = []
        elif t == ";":
            out.append((cur, False))
            cur = []
        else:
            cur.append(t)
        i += 1
    return out


def strip_attributes(toks):
    """toks less __attribute__((...)), __location__(...), __declspec(...) and specifiers; the
    execution spaces named by those attributes."""
    out, spaces, i = [], set(), 0
    while i < len(toks):
        t = toks[i]
        if t in ("__attribute__", "__location__", "__declspec", "alignas", "__launch_bounds__") \
                and i + 1 < len(toks) and toks[i + 1] == "(":
            depth, j = 0, i + 1
            while j < len(toks):
                depth += {"(": 1, ")": -1}.get(toks[j], 0)
                j += 1
                if depth == 0:
                    break
            inner = toks[i + 1:j]
            spaces.update(x for x in inner if x in ("host", "device", "global"))
            i = j
            continue
        if t in ("__host__", "__device__"):
            spaces.add(t.strip("_"))
        if t not in SPECIFIERS:
            out.append(t)
        i += 1
    return out, spaces


def type_text(toks):
    """One type: words with single spaces, * and & bound to it, top-level const dropped."""
    toks = list(toks)
    if "*" not in toks and "&" not in toks:
        toks = [t for t in toks if t != "const"]
    while toks and toks[-1] == "const":  # T * const
        toks.pop()
    text = ""
    for t in toks:
        if t in ("*", "&"):
            text = text.rstrip() + (" " if not text.endswith(("*", "&")) else "") + t
        elif t in ("[", "]", "(", ")"):
            text = text.rstrip() + t
        else:
            text += ("" if not text or text.endswith(("(", "[")) else " ") + t
    return text.strip()


def param_type(toks):
    """A parameter's type, its name dropped."""
    if "=" in toks:
        toks = toks[:toks.index("=")]
    if "(" in toks:  # a function pointer: ( * name ) ( ... )
        i = toks.index("(")
        j = toks.index(")", i)
        inner = toks[i + 1:j]
        if inner and re.match(r"[A-Za-z_]\w*$", inner[-1]):
            toks = toks[:i + 1] + inner[:-1] + toks[j:]
        return type_text(toks).replace(" (", "(")
    if "[" in toks:
        i = toks.index("[")
        if i > 1 and re.match(r"[A-Za-z_]\w*$", toks[i - 1]) and toks[i - 1] not in KEYWORD_TYPES:
            toks = toks[:i - 1] + ["*"]
    last = toks[-1] if toks else ""
    if len(toks) > 1 and re.match(r"[A-Za-z_]\w*$", last) and last not in KEYWORD_TYPES and \
            toks[-2] not in ("struct", "enum", "union"):
        toks = toks[:-1]
    return type_text(toks)


def split_params(toks):
    params, cur, depth = [], [], 0
    for t in toks:
        if t in "([<":
            depth += 1
        elif t in ")]>":
            depth -= 1
        if t == "," and depth == 0:
            params.append(cur)
            cur = []
        else:
            cur.append(t)
    if cur:
        params.append(cur)
    if len(params) == 1 and params[0] == ["void"]:
        return []
    return [param_type(p) for p in params]


def functions(text):
    """name -> list of (spaces, ret, params) of every declaration of the text."""
    found = {}
    tokens = TOKEN.findall(text)
    for toks, _ in statements(tokens):
        if not toks or toks[0] in ("template", "typedef", "using", "friend") or "template" in toks:
            continue
        body, spaces = strip_attributes(toks)
        for i, t in enumerate(body):
            if re.match(r"nvshmemx?_\w+$", t) and i + 1 < len(body) and body[i + 1] == "(":
                break
        else:
            continue
        ret = body[:i]
        if not ret or "=" in ret or "(" in ret or ret[-1] in ("::", "."):
            continue
        depth, j = 0, i + 1
        while j < len(body):
            depth += {"(": 1, ")": -1}.get(body[j], 0)
            if depth == 0:
                break
            j += 1
        params = split_params(body[i + 2:j])
        found.setdefault(t, []).append((spaces, type_text(ret), tuple(params)))
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("src")
    ap.add_argument("--cxx", default="c++")
    ap.add_argument("--nvcc", default="nvcc")
    ap.add_argument("--cuda", default="/usr/local/cuda/include")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        inc = configure(a.src, scratch)
        main_file = os.path.join(scratch, "n.cu")
        with open(main_file, "w") as f:
            f.write("#include <nvshmem.h>\n#include <nvshmemx.h>\n")
        host = preprocess([a.cxx, "-E", "-x", "c++", "-I" + inc, "-I" + a.cuda,
                           "-I" + os.path.join(a.cuda, "cccl"), main_file])
        device = preprocess([a.nvcc, "-E", "-x", "cu", "-arch=sm_90", "-I" + inc, main_file])
    # The device pass marks every declaration with its execution spaces (none: the host); the
    # host pass (where __device__ expands to nothing) adds what only the host compiler sees.
    lines, hosts, devs = set(), {}, {}
    for name, decls in functions(device).items():
        for spaces, r, p in decls:
            if "device" not in spaces or "host" in spaces:
                hosts.setdefault(name, set()).add((r, p))
            if "device" in spaces:
                devs.setdefault(name, set()).add((r, p))
    for name, decls in functions(host).items():
        for spaces, r, p in decls:
            if (r, p) not in devs.get(name, set()):
                hosts.setdefault(name, set()).add((r, p))
    for name in set(hosts) | set(devs):
        h, d = hosts.get(name, set()), devs.get(name, set())
        for r, p in h | d:
            kind = ("H" if (r, p) in h else "") + ("D" if (r, p) in d else "")
            sep = "" if r.endswith("*") else " "
            lines.add((name, kind, "%s %s%s%s(%s)" % (kind, r, sep, name, ", ".join(p))))
    if len(lines) < 1000:
        sys.exit("prototypes: only %d prototypes found" % len(lines))
    sys.stdout.write("# NVSHMEM 3.4.5's functions: KIND RET NAME(TYPES), KIND H (host), D (device) "
                     "or HD (both).\n# Written by tests/nvshmem/prototypes.py from NVSHMEM's "
                     "headers (tag v3.4.5-0): do not edit.\n")
    for name, kind, line in sorted(lines):
        sys.stdout.write(line + "\n")


if __name__ == "__main__":
    main()
