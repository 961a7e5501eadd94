import datetime
import decimal
import uuid


def to_date(value):
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):
        return value
    return value.strip()


def to_number(value):
    if isinstance(value, decimal.Decimal):
        return value.normalize()
    return value


def main():
    to_date(uuid.uuid4())
    to_date(datetime.datetime.now())
    to_number(uuid.UUID(int=1))
