from .runner import run, run_all


def double(x):
    return 2 * x


def negate(x):
    return -x


def main():
    run(double, 2)
    run_all([double, negate])
