import shop
from shop import Order, do_checkout
import shop.services


def main():
    Order(1).pay()
    do_checkout(2)
    shop.do_checkout(3)
    shop.services.checkout(4)
    shop.models.Order(5)
