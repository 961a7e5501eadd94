"""Arguments reaching an __init__ through super().__init__(...), Base.__init__(self, ...) and a
subclass that inherits it."""


def on_save():
    return "saved"


def on_load():
    return "loaded"


def on_quit():
    return "bye"


class Handler:
    def __init__(self, callback):
        self.callback = callback

    def fire(self):
        return self.callback()


class SaveHandler(Handler):
    def __init__(self, callback):
        super().__init__(callback)


class LoadHandler(Handler):
    def __init__(self, callback):
        Handler.__init__(self, callback)


class QuitHandler(Handler):
    pass


SaveHandler(on_save).fire()
LoadHandler(on_load).fire()
QuitHandler(on_quit).fire()
