from .lib import *


def hidden():
    return "local"


def run():
    public()
    hidden()
    Tool().use()
