"""The object a runner keeps its callbacks on (stored from runner.py through `self.state`)."""


class State:
    def __init__(self):
        self.on_done = None
        self.actions = []


class Log:
    def __init__(self):
        self.on_done = None
        self.actions = []


class Slot:
    def __init__(self):
        self.handler = None
