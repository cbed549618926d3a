"""Build script: compiles the frontend bundle before packaging."""
import subprocess
from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithFrontend(build_py):
    def run(self):
        subprocess.check_call(["npm", "ci"], cwd="frontend")
        subprocess.check_call(["npm", "run", "build"], cwd="frontend")
        super().run()


setup(cmdclass={"build_py": BuildWithFrontend})
