def make_user(name):
    return name
