def numbers(n):
    for i in range(n):
        yield square(i)


def square(x):
    return x * x


def consume():
    total = 0
    for v in numbers(3):
        total += v
    gen = numbers(2)
    return total + sum(gen) + next(numbers(1))
