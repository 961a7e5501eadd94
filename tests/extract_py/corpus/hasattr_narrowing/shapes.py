"""``hasattr(x, "close")`` narrows x, where the test holds, to the values whose classes have that
attribute, and, for an instance of a class that lacks it, to its subclasses' instances that have
it: ``res.close()`` on a ``Resource`` calls ``File.close`` and ``Socket.close``, not a method of
``Buffer`` (the same regions as ``isinstance``: an ``if`` body, ``and``'s right operand)."""


class Resource:
    def read(self):
        return ""


class File(Resource):
    def close(self):
        return "file"


class Socket(Resource):
    def close(self):
        return "socket"

    def shutdown(self):
        return None


class Buffer(Resource):
    def flush(self):
        return None


def finish(res: Resource):
    data = res.read()
    if hasattr(res, "close"):
        res.close()
    return data


def stop(res: Resource):
    return hasattr(res, "shutdown") and res.shutdown()


def drain(res: Buffer):
    if hasattr(res, "flush"):
        res.flush()
