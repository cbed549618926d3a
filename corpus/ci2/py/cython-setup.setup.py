from setuptools import Extension, setup
from Cython.Build import cythonize
import numpy

extensions = [
    Extension(
        "fastgeo._kernels",
        ["src/fastgeo/_kernels.pyx"],
        include_dirs=[numpy.get_include()],
        extra_compile_args=["-O3"],
    )
]

setup(
    name="fastgeo",
    package_dir={"": "src"},
    ext_modules=cythonize(extensions, language_level=3),
)
