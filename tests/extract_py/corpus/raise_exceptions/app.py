class AppError(Exception):
    def __init__(self, msg):
        super().__init__(msg)
        self.msg = msg


class NotFound(AppError):
    pass


class Plain(Exception):
    pass


def find(x):
    if x is None:
        raise NotFound("missing")
    if x == 0:
        raise Plain()
    if x == 1:
        raise AppError
    raise ValueError("bad")
