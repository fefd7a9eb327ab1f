"""Builds ldpgraph's native module (_ldpgraph) with the repository's CMake.

pip calls this through pyproject.toml. The module needs the whole server
library, so it is built by CMake from the repository root (three folders up);
nothing is downloaded. LDPGRAPH_CMAKE_BUILD_DIR names a build folder to use
(configured with -DLDPGRAPH_BUILD_PYTHON=ON, or it will be), so that CI and
developers reuse what they already built; otherwise a fresh one under pip's
build folder is configured in Release.
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parents[3]


def project_version():
    """The one version of the project: CMakeLists.txt's project(... VERSION X.Y.Z)."""
    text = (ROOT / "CMakeLists.txt").read_text()
    match = re.search(r"project\(ldpgraph VERSION ([0-9]+\.[0-9]+\.[0-9]+)", text)
    if not match:
        raise RuntimeError("no project(ldpgraph VERSION X.Y.Z) in %s" % (ROOT / "CMakeLists.txt"))
    return match.group(1)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        if not (ROOT / "CMakeLists.txt").exists():
            raise RuntimeError("ldpgraph's repository is not at %s: install from a clone" % ROOT)
        build = pathlib.Path(os.environ.get("LDPGRAPH_CMAKE_BUILD_DIR") or pathlib.Path(self.build_temp) / "cmake")
        build = build.resolve()
        build.mkdir(parents=True, exist_ok=True)
        cache = build / "CMakeCache.txt"
        if not (cache.exists() and "LDPGRAPH_BUILD_PYTHON:BOOL=ON" in cache.read_text()):
            # A build that already makes the module is used as it is configured.
            generator = ["-G", "Ninja"] if shutil.which("ninja") else []
            subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), *generator, "-DCMAKE_BUILD_TYPE=Release",
                            "-DLDPGRAPH_BUILD_PYTHON=ON", "-DPython3_EXECUTABLE=" + sys.executable], check=True)
        jobs = str(os.cpu_count() or 2)
        subprocess.run(["cmake", "--build", str(build), "--target", "_ldpgraph", "-j", jobs], check=True)
        built = next((build / "daemon" / "bindings" / "python" / "ldpgraph").glob("_ldpgraph*.so"))
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


setup(version=project_version(), ext_modules=[Extension("ldpgraph._ldpgraph", sources=[])], cmdclass={"build_ext": CMakeBuild})
