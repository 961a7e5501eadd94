"""Functions bound by functools.partial in one place and called later in another: the later
call's arguments follow the bound ones (after the receiver of a bound method)."""

import functools
from functools import partial


class Mailer:
    def send(self, text):
        return text


class Message:
    def render(self):
        return ""


class Ticket:
    def close(self):
        pass


def deliver(mailer, message):
    mailer.send(message.render())


def resolve(ticket, *, reason):
    ticket.close()
    return reason.render()


notify = partial(deliver, Mailer())


def send_all():
    notify(Message())


class Desk:
    def __init__(self, mailer):
        self.on_ticket = partial(resolve, reason=Message())
        self.save_later = functools.partial(self.save, "draft")
        self.mailer = mailer

    def save(self, kind, ticket):
        ticket.close()
        return kind

    def handle(self, ticket: Ticket):
        self.on_ticket(ticket)
        self.save_later(ticket)


def apply(message, fn):
    return fn(message)


formatter = partial(apply, Message())


def archive(message, folder):
    message.render()
    return folder


HANDLERS = {"archive": partial(archive, Message())}
