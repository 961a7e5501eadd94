# worker/ has a package ``app`` too: its own is the one sharing the longer path
from app.models import make_user


def job():
    make_user("w")
