import os
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class CMakeBuild(build_ext):
    """Build the C++ core with CMake before packaging."""

    def run(self):
        for ext in self.extensions:
            self.build_cmake(ext)

    def build_cmake(self, ext):
        build_temp = os.path.abspath(self.build_temp)
        os.makedirs(build_temp, exist_ok=True)
        extdir = os.path.abspath(os.path.dirname(self.get_ext_fullpath(ext.name)))
        cfg = "Debug" if self.debug else "Release"
        subprocess.check_call(
            ["cmake", ext.sourcedir, f"-DCMAKE_LIBRARY_OUTPUT_DIRECTORY={extdir}",
             f"-DPYTHON_EXECUTABLE={sys.executable}", f"-DCMAKE_BUILD_TYPE={cfg}"],
            cwd=build_temp,
        )
        subprocess.check_call(["cmake", "--build", ".", "--config", cfg, "-j4"], cwd=build_temp)


class CMakeExtension(Extension):
    def __init__(self, name, sourcedir=""):
        super().__init__(name, sources=[])
        self.sourcedir = os.path.abspath(sourcedir)


setup(
    name="quadmesh",
    version="0.7.2",
    packages=["quadmesh"],
    ext_modules=[CMakeExtension("quadmesh._core", "cpp")],
    cmdclass={"build_ext": CMakeBuild},
    python_requires=">=3.9",
)
