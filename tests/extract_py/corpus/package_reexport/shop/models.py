class Order:
    def __init__(self, total):
        self.total = total

    def pay(self):
        return self.total
