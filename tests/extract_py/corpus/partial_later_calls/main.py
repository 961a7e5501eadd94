"""A partial imported from another module and given a callback, one stored on an instance, one
in a dict registry."""

from jobs.tasks import HANDLERS, Desk, Message, Ticket, formatter, notify


def shout(message):
    return message


def run():
    notify(Message())
    Desk(None).handle(Ticket())
    formatter(shout)
    HANDLERS["archive"](Ticket())


run()
