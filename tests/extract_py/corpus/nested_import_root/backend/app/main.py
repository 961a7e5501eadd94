# the service runs with backend/ on sys.path: its own package is imported as ``app``
import app.models
import app.util as util
import requests
import yaml
from app.models import User, make_user


def handler():
    u = make_user("x")
    u.save()
    app.models.make_user("y")
    util.helper()
    User().save()
    requests.get("https://example.org")
    yaml.safe_load("")
