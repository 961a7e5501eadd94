import pkg.sub.mod
import pkg.sub.mod as m
from pkg.sub import mod
from pkg.sub.mod import g as gee


def run():
    pkg.sub.mod.f()
    m.g()
    mod.f()
    gee()
