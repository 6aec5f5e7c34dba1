# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The symm authors
"""The build backend of the Python package (PEP 517, in this tree: pyproject.toml names it, and
it needs nothing but Python's standard library, so pip builds offline and in a fresh virtual
environment). A wheel carries the package's Python files and what symm's CMake project builds
for it: libsymm (with the GPU part when CMake finds nvcc), the MPI plugin where MPI's headers
are found, and the symmrun launcher:

    symm/lib/libsymm.so.0   symm/lib/libsymm_mpi.so   symm/bin/symmrun

The build runs in a temporary folder, or in SYMM_BUILD_DIR (kept, so a second build is
incremental). SYMM_CMAKE_ARGS (or pip's --config-settings=cmake-args=...) adds arguments to
CMake's configure step, e.g. -DSYMM_CUDA=OFF; CMAKE_BUILD_PARALLEL_LEVEL bounds the build's
jobs (default: every CPU)."""

import base64
import csv
import hashlib
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # python/
TOP = os.path.dirname(HERE)                                          # the source tree


def _fail(msg):
    sys.stderr.write("symm build: %s\n" % msg)
    raise SystemExit(1)


def _project():
    """The [project] table of pyproject.toml."""
    try:
        import tomllib
    except ImportError:
        try:
            import tomli as tomllib
        except ImportError:
            _fail("reading pyproject.toml needs Python 3.11 or the tomli package")
    with open(os.path.join(HERE, "pyproject.toml"), "rb") as f:
        p = tomllib.load(f)["project"]
    # The package's version is the library's (project(symm VERSION ...) in CMakeLists.txt).
    try:
        with open(os.path.join(TOP, "CMakeLists.txt")) as f:
            m = re.search(r"project\(symm VERSION ([0-9.]+)", f.read())
    except OSError:
        m = None
    if m and m.group(1) != p["version"]:
        _fail("python/pyproject.toml gives version %s, CMakeLists.txt %s: make them agree"
              % (p["version"], m.group(1)))
    return p


def _metadata(p):
    lines = ["Metadata-Version: 2.1", "Name: %s" % p["name"], "Version: %s" % p["version"],
             "Summary: %s" % p.get("description", "")]
    if "requires-python" in p:
        lines.append("Requires-Python: %s" % p["requires-python"])
    if "license" in p:
        lines.append("License: %s" % p["license"].get("text", ""))
    lines += ["Requires-Dist: %s" % d for d in p.get("dependencies", [])]
    for extra, deps in p.get("optional-dependencies", {}).items():
        lines.append("Provides-Extra: %s" % extra)
        lines += ['Requires-Dist: %s; extra == "%s"' % (d, extra) for d in deps]
    return "\n".join(lines) + "\n"


def _tag():
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return "py3-none-" + plat


def _dist_info(p):
    return "%s-%s.dist-info" % (p["name"], p["version"])


def _cmake(args, cwd=None):
    try:
        subprocess.run(args, cwd=cwd, check=True)
    except FileNotFoundError:
        _fail("cmake is not installed (Debian: apt-get install cmake build-essential)")
    except subprocess.CalledProcessError as e:
        _fail("%s failed with status %d (its output is above)" % (" ".join(args[:2]),
                                                                  e.returncode))


def _build_native(build, config_settings):
    """Configures and builds what the wheel carries; returns {path in wheel: file}."""
    if not os.path.exists(os.path.join(TOP, "CMakeLists.txt")):
        _fail("no CMakeLists.txt in %s: the package builds inside symm's source tree" % TOP)
    extra = shlex.split(os.environ.get("SYMM_CMAKE_ARGS", ""))
    setting = (config_settings or {}).get("cmake-args")
    if setting:
        extra += shlex.split(setting) if isinstance(setting, str) else list(setting)
    sys.stderr.write("symm build: building libsymm and symmrun with CMake in %s\n" % build)
    _cmake(["cmake", "-S", TOP, "-B", build, "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
            "-DSYMM_BUILD_TESTS=OFF"] + extra)
    targets = ["symm", "symmrun"]
    if os.path.isdir(os.path.join(build, "CMakeFiles", "symm_mpi.dir")):
        targets.append("symm_mpi")
    jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
    _cmake(["cmake", "--build", build, "--parallel", jobs, "--target"] + targets)
    files = {"symm/lib/libsymm.so.0": os.path.realpath(os.path.join(build, "libsymm.so")),
             "symm/bin/symmrun": os.path.join(build, "tools", "symmrun")}
    if "symm_mpi" in targets:
        files["symm/lib/libsymm_mpi.so"] = os.path.join(build, "libsymm_mpi.so")
    for f in files.values():
        if not os.path.isfile(f):
            _fail("the build made no %s" % f)
    return files


def _python_files():
    """{path in wheel: file} for the package's Python files."""
    files = {}
    pkg = os.path.join(HERE, "symm")
    for root, dirs, names in os.walk(pkg):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for n in sorted(names):
            if n.endswith(".py"):
                path = os.path.join(root, n)
                files[os.path.relpath(path, HERE).replace(os.sep, "/")] = path
    return files


def _hash(data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode()


def _write_wheel(wheel_directory, p, files):
    name = "%s-%s-%s.whl" % (p["name"], p["version"], _tag())
    info = _dist_info(p)
    generated = {
        info + "/METADATA": _metadata(p).encode(),
        info + "/WHEEL": ("Wheel-Version: 1.0\nGenerator: symm_build\nRoot-Is-Purelib: false\n"
                          "Tag: %s\n" % _tag()).encode(),
        info + "/top_level.txt": b"symm\n",
    }
    record = io.StringIO()
    rows = csv.writer(record, lineterminator="\n")
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as z:
        def add(arc, data, mode):
            zi = zipfile.ZipInfo(arc, date_time=(2026, 1, 1, 0, 0, 0))
            zi.external_attr = (0o100000 | mode) << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data)
            rows.writerow([arc, _hash(data), len(data)])
        for arc, path in sorted(files.items()):
            with open(path, "rb") as f:
                data = f.read()
            add(arc, data, 0o755 if os.access(path, os.X_OK) and "/bin/" in arc else 0o644)
        for arc, data in generated.items():
            add(arc, data, 0o644)
        rows.writerow([info + "/RECORD", "", ""])
        zi = zipfile.ZipInfo(info + "/RECORD", date_time=(2026, 1, 1, 0, 0, 0))
        zi.external_attr = 0o100644 << 16
        z.writestr(zi, record.getvalue())
    return name


# ---- PEP 517 hooks ---------------------------------------------------------------------------
def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    p = _project()
    info = os.path.join(metadata_directory, _dist_info(p))
    os.makedirs(info, exist_ok=True)
    with open(os.path.join(info, "METADATA"), "w") as f:
        f.write(_metadata(p))
    with open(os.path.join(info, "WHEEL"), "w") as f:
        f.write("Wheel-Version: 1.0\nGenerator: symm_build\nRoot-Is-Purelib: false\n"
                "Tag: %s\n" % _tag())
    return _dist_info(p)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    p = _project()
    keep = os.environ.get("SYMM_BUILD_DIR")
    if keep:
        files = _build_native(os.path.abspath(keep), config_settings)
        files.update(_python_files())
        return _write_wheel(wheel_directory, p, files)
    tmp = tempfile.mkdtemp(prefix="symm-wheel-")
    try:
        files = _build_native(tmp, config_settings)
        files.update(_python_files())
        return _write_wheel(wheel_directory, p, files)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
