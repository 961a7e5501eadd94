"""Reading a name lib does not define runs lib.__getattr__; the read gives what it returns."""
import lib


def main():
    lib.anything()  # lib.__getattr__, then what it returns: lib.real
    lib.defined()  # defined: no __getattr__


main()
