# an unpacked sdist: the import root is Pkg-1.0/, not a package name
from pkg import core
from pkg.core import run


def main():
    run()
    core.run()
