import sys


def main(argv):
    return len(argv)


def helper():
    return 0


if __name__ == "__main__":
    code = main(sys.argv)
    sys.exit(code)
