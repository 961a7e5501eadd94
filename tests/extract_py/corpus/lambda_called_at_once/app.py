"""Lambda expressions called where they are written: their parameters get the arguments."""


def load():
    return "data"


def save():
    return "ok"


(lambda step: step())(load)

picked = (lambda first, second: second)(load, save)
picked()


def run():
    return (lambda action: action())(save)
