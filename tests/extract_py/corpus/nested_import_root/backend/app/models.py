class User:
    def save(self):
        pass


def make_user(name):
    return User()
