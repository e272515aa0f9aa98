"""Builds the package shmpi for pip (pyproject.toml; docs/python.md, "pip install of
shmpi's package").

shmpi._fast (shmpi/_fast.c) is built where this python's Python.h is there, and left out
otherwise (or where it does not compile): the package then takes its ctypes path, which
get_version().python_path names.  _fast.c needs no shmpi header: it calls libshmpi
through the pointers ctypes resolved.

shmpi/_paths.py records the libdir of the shmpi installed where the build finds it
(`shmpi_info --parsable` on PATH, else `pkg-config --variable=libdir shmpi`), which the
package loads at run time unless SHMPI_LIBRARY names another library (shmpi/_lib.py)."""
import os
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_py import build_py


class build_py_with_paths(build_py):
    def run(self):
        super().run()
        sys.path.insert(0, here)  # the package's own way to find an install (shmpi/_lib.py)
        from shmpi._lib import installed_libdir
        libdir = installed_libdir()
        target = os.path.join(self.build_lib, "shmpi", "_paths.py")
        with open(target, "w") as out:
            out.write("# Made by pip install (src/python/setup.py): where the shmpi it was "
                      "built against has the library.\n")
            out.write("LIBDIR = %r\n" % libdir)
        print("shmpi: the package will load libshmpi from %s" %
              (libdir or "SHMPI_LIBRARY, the shmpi_info on PATH at run time, or the "
               "loader's path (no shmpi_info on PATH, no pkg-config shmpi at build time)"))


here = os.path.dirname(os.path.abspath(__file__))
headers = sysconfig.get_paths().get("include") or ""
extensions = []
if os.path.exists(os.path.join(headers, "Python.h")):
    extensions.append(Extension("shmpi._fast", ["shmpi/_fast.c"], optional=True,
                                extra_compile_args=["-O2", "-std=c11"]))
else:
    print("shmpi: no Python.h in %r: shmpi._fast not built, the package takes its ctypes "
          "path (Debian: apt-get install python3-dev)" % headers)

setup(ext_modules=extensions, cmdclass={"build_py": build_py_with_paths})
