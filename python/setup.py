"""pip install ./python (from the tk checkout, after building tk):

    cmake --build build --target tk_python
    /usr/bin/python3 -m pip install --no-build-isolation ./python

The package is pure Python (ctypes); the build copies libtk_gemm.so and
libtk_attn.so from the tk build directory ($TK_BUILD_DIR, default ../build)
into tk/_lib.  --no-build-isolation: pip then uses the installed setuptools
instead of downloading one (docs/python.md lists what works on Debian 12)."""
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
LIBS = ("libtk_gemm.so", "libtk_attn.so")


def built_libs():
    build = os.environ.get("TK_BUILD_DIR") or os.path.join(HERE, "..", "build")
    src = os.path.join(os.path.abspath(build), "python", "tk", "_lib")
    paths = [os.path.join(src, n) for n in LIBS]
    missing = [p for p in paths if not os.path.exists(p)]
    if missing:
        raise SystemExit("tk: %s missing: build them first (cmake --build build --target tk_python), or set "
                         "TK_BUILD_DIR to the tk build directory" % ", ".join(missing))
    return paths


class BuildPyWithLibs(build_py):
    def run(self):
        super().run()
        dest = os.path.join(self.build_lib, "tk", "_lib")
        os.makedirs(dest, exist_ok=True)
        for p in built_libs():
            shutil.copy2(p, dest)


class BinaryDistribution(Distribution):
    # the wheel carries x86-64 shared libraries: a platform wheel
    def has_ext_modules(self):
        return True


setup(
    name="tk",
    version="0.1.0",
    description="tk's BF16 GEMM and flash-attention kernels (AMD CDNA3/CDNA4) from PyTorch and NumPy",
    packages=["tk"],
    python_requires=">=3.9",
    install_requires=["numpy"],
    cmdclass={"build_py": BuildPyWithLibs},
    distclass=BinaryDistribution,
)
