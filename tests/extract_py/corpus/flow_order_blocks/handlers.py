"""Flow order inside a block: a name re-assigned (a dict entry replaced) in the body of an
``if`` / ``try`` / ``with`` / loop and used later in that same block is what the last binding of
that block before the use gave. A use after the block, or a binding made in a nested branch
since, gives every binding again."""


def plain():
    return "plain"


def traced():
    return "traced"


def fallback():
    return "fallback"


def in_branch(flag):
    if flag:
        handler = plain
        handler = traced
        handler()


def in_try():
    try:
        handler = plain
        handler = fallback
        handler()
    except ValueError:
        return None
    return handler


def in_loop(items):
    for _item in items:
        step = plain
        step = traced
        step()


def nested_branch(flag, other):
    if flag:
        handler = plain
        if other:
            handler = fallback
        handler()


def entry_in_branch(flag):
    table = {"run": plain}
    if flag:
        table["run"] = traced
        table["run"]()
    return table
