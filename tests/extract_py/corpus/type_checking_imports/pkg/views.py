from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .models import User

try:
    from .fast import speed
except ImportError:
    def speed():
        return 0


def show(user: "User"):
    speed()
    return user.name()
