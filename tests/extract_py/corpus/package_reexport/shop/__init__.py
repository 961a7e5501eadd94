from .models import Order
from .services import checkout as do_checkout

__all__ = ["Order", "do_checkout"]
