from shop.models import Invoice, Order, Record


def load_order(row):
    Order.from_row(row).save()


def load_invoice(row):
    return Invoice.from_row(row)


def load_plain(row):
    Record.from_row(row).save()
