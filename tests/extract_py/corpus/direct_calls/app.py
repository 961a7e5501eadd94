def helper(x):
    return x + 1


def compute(x):
    return helper(x) * 2


def main():
    compute(1)
    helper(2)


main()
