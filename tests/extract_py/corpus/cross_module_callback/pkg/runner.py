def run(callback, value):
    return callback(value)


def run_all(callbacks):
    return [cb(1) for cb in callbacks]
