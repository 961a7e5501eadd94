# two ``app`` packages, neither closer to this file: the import stays external
from app.models import make_user


def run():
    make_user("t")
