"""A name re-bound to another object in straight-line code: its method calls reach the object bound last."""

import pathlib


class Mailer:
    def send(self, text):
        return "mail " + text

    def flush(self):
        return None


class Logger:
    def send(self, text):
        return "log " + text

    def flush(self):
        return None


def notify(text):
    channel = Mailer()
    channel = Logger()
    return channel.send(text)


def relay(text):
    sink = Logger()
    sink.flush()
    sink = Mailer()
    return sink.send(text)


def either(text, urgent):
    channel = Logger()
    if urgent:
        channel = Mailer()
    return channel.send(text)


def rotate(texts):
    out = Logger()
    for text in texts:
        out.flush()
        out = Mailer()


def relative(name):
    path = pathlib.Path(name)
    path = path.resolve()
    return path.relative_to("/")
