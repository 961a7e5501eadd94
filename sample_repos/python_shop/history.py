"""python_shop: a small Python shop package, its history scripted step by step.

Each Step is one commit (step numbers are 1-based, in list order). Operations:
W(path, text) writes a whole file, E(path, old, new) replaces one exact snippet of a file,
MV(src, dst) is ``git mv`` and D(path) is ``git rm``. ``facts(S)`` lists what the history is known
to contain; S maps step keys to step numbers. Build it with
``python -m mnemosyne.samples --build python_shop``.
"""

from mnemosyne.samples import D, E, MV, W, Step

ALICE = ("Alice Example", "alice@example.com")
BOB = ("Bob Builder", "bob@example.com")
CAROL = ("Carol Reviewer", "carol@example.com")

PYPROJECT = '''
[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "python-shop"
version = "0.1.0"
description = "A tiny shop: orders, pricing, checkout"
requires-python = ">=3.11"
dependencies = [
]

[project.optional-dependencies]
dev = ["pytest>=8"]

[project.scripts]
shop = "shop.cli:main"
'''

MODELS = '''
"""Domain objects of the shop."""

from dataclasses import dataclass, field


@dataclass
class Product:
    sku: str
    name: str
    price_cents: int


@dataclass
class LineItem:
    product: Product
    quantity: int = 1

    def total_cents(self) -> int:
        return self.product.price_cents * self.quantity


@dataclass
class Order:
    order_id: str
    customer: str
    items: list[LineItem] = field(default_factory=list)

    def add(self, product: Product, quantity: int = 1) -> LineItem:
        item = LineItem(product, quantity)
        self.items.append(item)
        return item
'''

CONFIG = '''
"""Shop-wide settings."""

TAX_RATE = 0.2
CURRENCY = "EUR"
MAX_RETRIES = 5
'''

PRICING = '''
"""Prices, taxes and rounding."""

from shop.config import TAX_RATE
from shop.models import Order


def round_money(cents: float) -> int:
    """Round half up to whole cents."""
    return int(cents + 0.5)


def compute_subtotal(order: Order) -> int:
    return sum(item.total_cents() for item in order.items)


def apply_tax(cents: int, rate: float = TAX_RATE) -> int:
    return round_money(cents * (1 + rate))
'''

RETRY = '''
"""Retrying flaky calls with exponential backoff."""

import random
import time


def compute_retry_delay(attempt: int, base: float = 0.5, cap: float = 30.0) -> float:
    """Delay before retry number ``attempt`` (0-based): exponential, capped, with jitter."""
    delay = min(cap, base * (2 ** attempt))
    return delay / 2 + random.uniform(0, delay / 2)


def with_retry(fn, attempts: int = 3):
    """Call ``fn()`` until it succeeds, sleeping between failures."""
    for attempt in range(attempts):
        try:
            return fn()
        except OSError:
            if attempt == attempts - 1:
                raise
            time.sleep(compute_retry_delay(attempt))
'''

CHECKOUT = '''
"""Turning an order into a charge."""

from shop.models import Order
from shop.pricing import apply_tax, compute_subtotal, legacy_discount


def checkout(order: Order) -> int:
    """Total to charge for ``order``, in cents."""
    subtotal = compute_subtotal(order)
    subtotal = legacy_discount(subtotal, order.customer)
    return apply_tax(subtotal)
'''

REPOSITORY = '''
"""Storage of orders."""

from abc import ABC, abstractmethod

from shop.models import Order


class BaseRepository(ABC):
    """Somewhere to keep things by id."""

    @abstractmethod
    def get(self, key: str):
        ...

    @abstractmethod
    def put(self, key: str, value) -> None:
        ...


class InMemoryRepository(BaseRepository):
    def __init__(self) -> None:
        self._data = {}

    def get(self, key: str):
        return self._data.get(key)

    def put(self, key: str, value) -> None:
        self._data[key] = value


class OrderRepository(InMemoryRepository):
    """Orders by id."""

    def save(self, order: Order) -> None:
        self.put(order.order_id, order)

    def find(self, order_id: str) -> Order | None:
        return self.get(order_id)
'''

NOTIFICATIONS = '''
"""Receipts sent to customers."""

import requests

from shop.models import Order
from shop.retry import with_retry

RECEIPT_URL = "https://mail.example.com/api/send"


def format_receipt(order: Order, total_cents: int) -> str:
    lines = [f"Receipt for order {order.order_id}"]
    for item in order.items:
        lines.append(f"  {item.quantity} x {item.product.name}")
    lines.append(f"Total: {total_cents / 100:.2f}")
    return "\\n".join(lines)


def send_receipt(order: Order, total_cents: int) -> None:
    body = format_receipt(order, total_cents)
    with_retry(lambda: requests.post(RECEIPT_URL, json={"to": order.customer, "body": body}, timeout=10))
'''

CLI = '''
"""Command line: ``shop checkout ORDER_ID``."""

import argparse

from shop.checkout import checkout
from shop.models import Order, Product
from shop.repository import OrderRepository


def demo_repository() -> OrderRepository:
    repo = OrderRepository()
    order = Order("A-1", "ada@example.com")
    order.add(Product("tea", "Green tea", 450), 2)
    repo.save(order)
    return repo


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="shop")
    parser.add_argument("command", choices=["checkout"])
    parser.add_argument("order_id")
    args = parser.parse_args(argv)
    order = demo_repository().find(args.order_id)
    if order is None:
        print(f"no order {args.order_id}")
        return 1
    print(checkout(order))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
'''

TEST_PRICING = '''
from shop.models import Order, Product
from shop.pricing import bulk_discount, compute_subtotal


def test_bulk_discount_tiers():
    assert bulk_discount(1000, 1) == 1000
    assert bulk_discount(1000, 10) == 950
    assert bulk_discount(1000, 50) == 900


def test_subtotal():
    order = Order("o", "c")
    order.add(Product("a", "A", 100), 3)
    assert compute_subtotal(order) == 300
'''



def uv_lock(requests_version: str | None) -> str:
    """uv.lock of the project: itself (editable) plus requests and what requests needs."""
    parts = ['version = 1\nrequires-python = ">=3.11"\n']
    deps = []
    if requests_version:
        for name, version in (("certifi", "2024.7.4"), ("charset-normalizer", "3.3.2"), ("idna", "3.7"),
                              ("requests", requests_version), ("urllib3", "2.2.2")):
            parts.append(
                f'[[package]]\nname = "{name}"\nversion = "{version}"\n'
                f'source = {{ registry = "https://pypi.org/simple" }}\n'
            )
        deps = ['{ name = "requests" }']
    parts.append(
        '[[package]]\nname = "python-shop"\nversion = "0.1.0"\nsource = { editable = "." }\n'
        f"dependencies = [{', '.join(deps)}]\n"
    )
    return "\n".join(parts)


STEPS = [
    Step("init", "Initial shop skeleton: models, pricing, config", (
        W("README.md", "# python_shop\n\nA tiny shop used as Mnemosyne's sample repository.\n"),
        W("pyproject.toml", PYPROJECT),
        W("uv.lock", uv_lock(None)),
        W("shop/__init__.py", '"""A tiny shop."""\n\n__version__ = "0.1.0"\n'),
        W("shop/models.py", MODELS),
        W("shop/config.py", CONFIG),
        W("shop/pricing.py", PRICING),
    ), author=ALICE),
    Step("retry", "Add retry helper compute_retry_delay (SHOP-12)", (
        W("shop/retry.py", RETRY),
    ), author=BOB),
    Step("checkout", "Add checkout with the legacy loyalty discount, refs #3", (
        E("shop/pricing.py", "def apply_tax(", (
            "def legacy_discount(cents: int, customer: str) -> int:\n"
            '    """Old loyalty scheme: 5% off for addresses at the old domain."""\n'
            '    if customer.endswith("@old.example.com"):\n'
            "        return round_money(cents * 0.95)\n"
            "    return cents\n\n\n"
            "def apply_tax("
        )),
        W("shop/checkout.py", CHECKOUT),
    ), author=ALICE),
    Step("repository", "Add repository class hierarchy (SHOP-42)", (
        W("shop/repository.py", REPOSITORY),
    ), author=BOB),
    Step("notifications", "Send receipts by mail API with requests, fixes #7", (
        W("shop/notifications.py", NOTIFICATIONS),
        E("pyproject.toml", "dependencies = [\n]", 'dependencies = [\n    "requests>=2.31",\n]'),
        W("requirements.txt", "# pinned runtime dependencies\nrequests==2.31.0\n"),
        W("uv.lock", uv_lock("2.31.0")),
    ), author=CAROL),
    Step("cli", "Add the shop CLI entry point #12", (
        W("shop/cli.py", CLI),
    ), author=ALICE),
    Step("bulk_pricing", "Add bulk discount tiers (SHOP-51)", (
        E("shop/pricing.py", "def apply_tax(", (
            "def bulk_discount(cents: int, quantity: int) -> int:\n"
            '    """5% off from 10 items, 10% off from 50."""\n'
            "    if quantity >= 50:\n"
            "        return round_money(cents * 0.90)\n"
            "    if quantity >= 10:\n"
            "        return round_money(cents * 0.95)\n"
            "    return cents\n\n\n"
            "def apply_tax("
        )),
        E("shop/checkout.py", "from shop.pricing import apply_tax, compute_subtotal, legacy_discount",
          "from shop.pricing import apply_tax, bulk_discount, compute_subtotal, legacy_discount"),
        E("shop/checkout.py", "    subtotal = legacy_discount(subtotal, order.customer)\n",
          "    subtotal = legacy_discount(subtotal, order.customer)\n"
          "    quantity = sum(item.quantity for item in order.items)\n"
          "    subtotal = bulk_discount(subtotal, quantity)\n"),
    ), branch="feature/bulk-pricing", author=BOB),
    Step("readme", "Document the CLI in the README", (
        E("README.md", "sample repository.\n", "sample repository.\n\n    shop checkout A-1\n"),
    ), author=ALICE),
    Step("bulk_tests", "Test bulk discount tiers (SHOP-51)", (
        W("tests/test_pricing.py", TEST_PRICING),
    ), branch="feature/bulk-pricing", author=BOB),
    Step("merge_bulk", "Merge pull request #5 from bob/feature/bulk-pricing\n\nBulk discount tiers (SHOP-51)",
         merge="feature/bulk-pricing", author=CAROL),
    Step("drop_legacy", "Remove the legacy loyalty discount, fixes #9", (
        E("shop/checkout.py", "from shop.pricing import apply_tax, bulk_discount, compute_subtotal, legacy_discount",
          "from shop.pricing import apply_tax, bulk_discount, compute_subtotal"),
        E("shop/checkout.py", "    subtotal = legacy_discount(subtotal, order.customer)\n", ""),
        E("shop/pricing.py", (
            "def legacy_discount(cents: int, customer: str) -> int:\n"
            '    """Old loyalty scheme: 5% off for addresses at the old domain."""\n'
            '    if customer.endswith("@old.example.com"):\n'
            "        return round_money(cents * 0.95)\n"
            "    return cents\n\n\n"
        ), ""),
    ), author=ALICE),
    Step("bump_requests", "Bump requests to 2.32 (SHOP-60)", (
        E("pyproject.toml", '"requests>=2.31"', '"requests>=2.32"'),
        E("requirements.txt", "requests==2.31.0", "requests==2.32.3"),
        W("uv.lock", uv_lock("2.32.3")),
    ), author=CAROL),
    Step("move_retry", "Move the retry helper into shop/util (SHOP-61)", (
        MV("shop/retry.py", "shop/util/retry.py"),
        W("shop/util/__init__.py", '"""Small helpers."""\n'),
        E("shop/notifications.py", "from shop.retry import with_retry", "from shop.util.retry import with_retry"),
    ), author=BOB),
    Step("rename_repo", "Rename shop.repository to shop.repositories", (
        MV("shop/repository.py", "shop/repositories.py"),
        E("shop/cli.py", "from shop.repository import OrderRepository", "from shop.repositories import OrderRepository"),
    ), author=BOB),
    Step("drop_format", "Inline receipt formatting, drop format_receipt", (
        E("shop/notifications.py", (
            "def format_receipt(order: Order, total_cents: int) -> str:\n"
            '    lines = [f"Receipt for order {order.order_id}"]\n'
            "    for item in order.items:\n"
            '        lines.append(f"  {item.quantity} x {item.product.name}")\n'
            '    lines.append(f"Total: {total_cents / 100:.2f}")\n'
            '    return "\\n".join(lines)\n\n\n'
        ), ""),
        E("shop/notifications.py", "    body = format_receipt(order, total_cents)\n",
          '    body = f"Order {order.order_id}: {total_cents / 100:.2f}"\n'),
    ), author=ALICE),
    Step("drop_requests", "Replace requests with urllib for receipts, closes #14", (
        W("shop/notifications.py", '''
            """Receipts sent to customers."""

            import json
            import urllib.request

            from shop.models import Order
            from shop.util.retry import with_retry

            RECEIPT_URL = "https://mail.example.com/api/send"


            def post_json(url: str, payload: dict) -> None:
                data = json.dumps(payload).encode()
                request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
                urllib.request.urlopen(request, timeout=10).close()


            def send_receipt(order: Order, total_cents: int) -> None:
                body = f"Order {order.order_id}: {total_cents / 100:.2f}"
                with_retry(lambda: post_json(RECEIPT_URL, {"to": order.customer, "body": body}))
            '''),
        E("pyproject.toml", 'dependencies = [\n    "requests>=2.32",\n]', "dependencies = [\n]"),
        D("requirements.txt"),
        W("uv.lock", uv_lock(None)),
    ), author=CAROL),
    Step("drop_config", "Delete shop/config.py, settings live in pricing now", (
        E("shop/pricing.py", "from shop.config import TAX_RATE\nfrom shop.models import Order\n",
          "from shop.models import Order\n\nTAX_RATE = 0.2\n"),
        D("shop/config.py"),
    ), author=ALICE),
    Step("readd_format", "Bring back format_receipt for itemised receipts (SHOP-70)", (
        E("shop/notifications.py", "def send_receipt(", (
            "def format_receipt(order: Order, total_cents: int) -> str:\n"
            '    lines = [f"Receipt for order {order.order_id}"]\n'
            "    for item in order.items:\n"
            '        lines.append(f"  {item.quantity} x {item.product.name}")\n'
            '    lines.append(f"Total: {total_cents / 100:.2f}")\n'
            '    return "\\n".join(lines)\n\n\n'
            "def send_receipt("
        )),
        E("shop/notifications.py", '    body = f"Order {order.order_id}: {total_cents / 100:.2f}"\n',
          "    body = format_receipt(order, total_cents)\n"),
    ), author=BOB),
]


def facts(S):
    """Known facts of this history; S maps step keys to 1-based step numbers."""
    return {
        "language": "python",
        "commits": len(STEPS),
        "merge": {
            "step": S["merge_bulk"],
            "branch": "feature/bulk-pricing",
            "pull_request": 5,
            "branch_steps": [S["bulk_pricing"], S["bulk_tests"]],
        },
        "calls_removed": [
            {"caller": "shop.checkout.checkout", "callee": "shop.pricing.legacy_discount",
             "present_at_step": S["checkout"], "absent_at_step": S["drop_legacy"]},
            {"caller": "shop.notifications.send_receipt", "callee": "shop.notifications.format_receipt",
             "present_at_step": S["notifications"], "absent_at_step": S["drop_format"]},
        ],
        "calls_added_by_merge": [
            {"caller": "shop.checkout.checkout", "callee": "shop.pricing.bulk_discount",
             "committed_at_step": S["bulk_pricing"], "on_timeline_at_step": S["merge_bulk"]},
        ],
        "calls_present": [
            {"caller": "shop.util.retry.with_retry", "callee": "shop.util.retry.compute_retry_delay",
             "at_step": S["move_retry"]},
            {"caller": "shop.retry.with_retry", "callee": "shop.retry.compute_retry_delay",
             "at_step": S["retry"]},
            {"caller": "shop.cli.main", "callee": "shop.checkout.checkout", "at_step": S["cli"]},
            {"caller": "shop.repositories.OrderRepository.save",
             "callee": "shop.repositories.InMemoryRepository.put", "at_step": S["rename_repo"]},
        ],
        "functions_removed": [
            {"fqn": "shop.pricing.legacy_discount", "present_at_step": S["checkout"],
             "absent_at_step": S["drop_legacy"]},
        ],
        "functions_removed_and_readded": [
            {"fqn": "shop.notifications.format_receipt", "present_at_step": S["notifications"],
             "absent_at_step": S["drop_format"], "readded_at_step": S["readd_format"]},
        ],
        "renames": [
            {"from": "shop/retry.py", "to": "shop/util/retry.py", "step": S["move_retry"], "across_directories": True,
             "symbol_before": "shop.retry.compute_retry_delay", "symbol_after": "shop.util.retry.compute_retry_delay"},
            {"from": "shop/repository.py", "to": "shop/repositories.py", "step": S["rename_repo"],
             "across_directories": False,
             "symbol_before": "shop.repository.OrderRepository", "symbol_after": "shop.repositories.OrderRepository"},
        ],
        "deletes": [
            {"path": "shop/config.py", "step": S["drop_config"]},
            {"path": "requirements.txt", "step": S["drop_requests"]},
        ],
        "inherits": [
            {"child": "shop.repository.InMemoryRepository", "parent": "shop.repository.BaseRepository",
             "at_step": S["repository"]},
            {"child": "shop.repository.OrderRepository", "parent": "shop.repository.InMemoryRepository",
             "at_step": S["repository"]},
            {"child": "shop.repository.BaseRepository", "parent": "abc.ABC", "at_step": S["repository"]},
        ],
        "dependencies": [
            {"ecosystem": "pypi", "package": "", "name": "requests", "scope": "runtime",
             "added_at_step": S["notifications"], "bumped_at_step": S["bump_requests"],
             "removed_at_step": S["drop_requests"],
             "specs": {"pyproject.toml": [">=2.31", ">=2.32"], "requirements.txt": ["==2.31.0", "==2.32.3"]},
             "locked": {"uv.lock": ["2.31.0", "2.32.3"]}},
        ],
        "tickets": [
            {"key": "SHOP-12", "step": S["retry"]},
            {"key": "#3", "step": S["checkout"]},
            {"key": "SHOP-42", "step": S["repository"]},
            {"key": "#7", "step": S["notifications"], "fixes": True},
            {"key": "#12", "step": S["cli"]},
            {"key": "SHOP-51", "step": S["bulk_pricing"]},
            {"key": "SHOP-51", "step": S["bulk_tests"]},
            {"key": "SHOP-51", "step": S["merge_bulk"]},
            {"key": "#9", "step": S["drop_legacy"], "fixes": True},
            {"key": "SHOP-60", "step": S["bump_requests"]},
            {"key": "SHOP-61", "step": S["move_retry"]},
            {"key": "#14", "step": S["drop_requests"], "fixes": True},
            {"key": "SHOP-70", "step": S["readd_format"]},
        ],
        "pull_requests": [{"number": 5, "step": S["merge_bulk"]}],
        "authors": sorted({ALICE[0], BOB[0], CAROL[0]}),
    }
