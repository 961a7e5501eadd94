class User:
    def name(self):
        return "u"
