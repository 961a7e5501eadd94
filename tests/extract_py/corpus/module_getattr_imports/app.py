"""``from compat import x`` of a name compat does not define: x is what compat.__getattr__ returns."""

from compat import DefaultLoader, defined, old_parse


def main():
    old_parse("a b")
    DefaultLoader().load()
    defined()


main()
