from .models import Order


def checkout(total):
    order = Order(total)
    return order.pay()
