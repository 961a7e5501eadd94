import json


def add_timestamp(event):
    event["ts"] = 0
    return event


def render_json(event):
    return json.dumps(event)


def not_empty(event):
    if not event:
        raise ValueError("empty event")
