"""Memoised values and cycle settling of the Python resolver (``Fixpoint``): every memoised value,
the keys being computed, provisional values resting on a cycle, and the rounds that settle a
value that met itself."""

from __future__ import annotations

from itertools import islice
from typing import Any

from mnemosyne.resolve.python import bounds
from mnemosyne.resolve.python.access import Access
from mnemosyne.resolve.python.values import EMPTY, SETTLED_KINDS

# the kinds of memo keys (a key is (kind, *arguments) of the memoised method)
KEY_EXPR = "eval"  # ("eval", path, idx, expr): ``eval`` of an expression in a scope
KEY_BINDINGS = "bindings"  # ("bindings", path, idx, name): ``eval_bindings``, a scope's bindings of a name
KEY_MODULE_ATTR = "module_attr"  # ("module_attr", module, name, for_name): ``module_attr``, a module's attribute
KEY_RETURNS = "returns"  # ("returns", path, idx): ``returns``, what calling a function gives
KEY_ITEMS = "items"  # ("items", path, idx, expr): ``stored_items``, the items stored into a container
KEY_ITER = "iter"  # ("iter", path, idx, expr): ``iter_values``, what iterating an expression gives
KEY_PARAM_FLOW = "param_flow"  # ("param_flow", path, idx, i[, class]): ``param_flow``, what its module passes a parameter
KEY_DECO_INPUT = "deco_input"  # ("deco_input", path, idx, k): ``deco_input``, what the k-th decorator is applied to
KEY_WRAPPERS = "wrappers"  # ("wrappers", path, idx, k): ``wrappers``, what a decorated function's call runs besides it
KEY_CROSS_PARAM = "cross_param"  # ("cross_param", path, idx, i): ``cross_param``, what other modules pass it
KEY_METHOD_CROSS = "method_cross"  # ("method_cross", path, idx, i): ``method_cross``, what other modules pass a method's parameter
KEY_RECV_CROSS = "recv_cross"  # ("recv_cross", path, idx, i): ``receiver_param``, what other modules pass a parameter used as a call's object
# ("recv_attr", path, idx, expr, class): ``init_attr_values``, what an __init__ stores, on an instance of a subclass
KEY_RECV_ATTR = "recv_attr"
KEY_METHOD_DECOS = "method_decos"  # ("method_decos", path, idx): ``method_decorators`` of a method


def _carried(values: frozenset) -> frozenset:
    """What a cycle's key carries into its next round. Functions, classes, external names and
    instances (what calls reach; a value cut at a different place of a cycle made results depend
    on the order sets iterate in, i.e. on PYTHONHASHSEED); displays do not: they nest without end."""
    return frozenset(v for v in values if v[0] in SETTLED_KINDS)


class Fixpoint(Access):
    """Memoised values: cycles settled, provisional values, the depth bound."""

    __slots__ = ()

    def memoized(self, key: tuple, deep: bool, compute: Any, *args: Any) -> frozenset:
        """``frozenset(compute(*args))`` memoised under ``key``. A key already being computed (a
        cycle) holds what it is known to hold so far (``cycle_hit``); with ``deep`` the computation
        counts as one level of nesting, and past ``MAX_DEPTH`` levels it is not done: empty, and
        the resolution is marked truncated. A computation that meets its own key is settled or
        deferred (``cycled``); one resting on an unfinished key is provisional (``finish``)."""
        r = self.memo.get(key)
        if r is not None:
            return r
        prov = self.prov
        if prov and key in prov:  # (the emptiness tests spare hashing a deep key again)
            return self.prov_hit(prov[key])
        active = self.active
        serial = self.serial + 1
        if active.setdefault(key, serial) != serial:  # already being computed (a lower serial)
            return self.cycle_hit(key)
        if deep:
            if self.depth >= self.max_depth:
                del active[key]
                self.truncated = True
                return EMPTY
            self.depth += 1
            if self.depth > self.peak:
                self.peak = self.depth
        self.serial = serial
        lows = self.lows
        lows.append(serial)
        mark = len(prov)
        r = frozenset(compute(*args))
        if self.cycles and key in self.cycles:
            r = self.cycled(key, serial, r, mark, compute, args)
        if deep:
            self.depth -= 1
        self.finish(key, serial, r)
        return r

    def finish(self, key: tuple, serial: int, r: frozenset, keep: bool = True) -> None:
        """``key``'s computation is over: its value (when ``keep``) is final, or provisional when
        it rested on a key further out, which the enclosing computation now rests on too."""
        lows = self.lows
        low = lows.pop()
        del self.active[key]
        if low < serial:
            if keep:
                self.prov[key] = (r, low)
            if low < lows[-1]:
                lows[-1] = low
        elif keep:
            self.memo[key] = r

    def prov_hit(self, p: tuple[frozenset, int]) -> frozenset:
        """A provisional value: the asking computation rests on the same unsettled key."""
        r, low = p
        if low < self.lows[-1]:
            self.lows[-1] = low
        return r

    def cycle_hit(self, key: tuple) -> frozenset:
        """``key`` is being computed: what it is known to hold so far; the asking computation
        (and those it is part of, up to ``key``) rest on it, and ``key`` will be settled."""
        self.cycles.add(key)
        serial = self.active[key]
        if serial < self.lows[-1]:
            self.lows[-1] = serial
        return self.partial.get(key, EMPTY)

    def cycled(self, key: tuple, serial: int, r: frozenset, mark: int, compute: Any, args: tuple) -> frozenset:
        """``key``'s computation (``serial``, still on the stack) read ``key``: settle it, or defer
        it to the key further out it also rests on. The values made provisional since ``mark``
        that rest on it then become final, or rest on what it rests on."""
        if self.lows[-1] < serial:
            self.defer(key, r, serial)
        else:
            r = self.settle(key, r, serial, mark, compute, args)
        low = self.lows[-1]
        prov = self.prov
        n = len(prov) - mark
        if n:
            if low < serial:
                for k in list(islice(reversed(prov), n)):
                    v, at = prov[k]
                    if at >= serial:
                        prov[k] = (v, low)
            else:  # settled: everything since mark rested on it alone
                memo = self.memo
                for k in list(islice(reversed(prov), n)):
                    memo[k] = prov.pop(k)[0]
        return r

    def defer(self, key: tuple, r: frozenset, serial: int) -> None:
        """``key`` met itself, but its computation also rests on a key further out (one cycle
        through both): it is settled with that key's rounds, reading meanwhile what it held in the
        previous round (``settle``), instead of settling on its own and again in every round."""
        self.cycles.discard(key)
        known = _carried(r)
        if known != self.partial.get(key, EMPTY):
            self.partial[key] = known
            self.moved += 1
        self.deferred.append((key, serial))

    def settle(self, key: tuple, r: frozenset, serial: int, mark: int, compute: Any, args: tuple) -> frozenset:
        """``key``'s computation met ``key`` itself (a cycle: a function calling its parameter,
        passed itself, ``def f(a): a(g)`` with ``f(f)``), which then read as what was known so
        far, and rested on nothing further out. Compute again with the larger value until neither
        it nor the keys deferred to it (``defer``) grow (at most ``SETTLE_ROUNDS`` times), first
        forgetting the provisional values of the pass, which rest on ``key`` or on the keys nested
        in it (``mark``: ``prov``'s size when the pass began). Final values of the pass read no
        unfinished key: they are kept."""
        deferred = self.deferred
        members = len(deferred)
        while members and deferred[members - 1][1] > serial:
            members -= 1
        moved = any(self.partial.get(k) for k, _ in deferred[members:])  # grown in the first pass
        for _ in range(bounds.SETTLE_ROUNDS):
            self.cycles.discard(key)
            if self.settle_budget <= 0:
                break  # a pathological file: nested cycles recomputed over and over; keep what is known
            self.settle_budget -= 1
            known = _carried(r)
            if known == self.partial.get(key, EMPTY) and not moved:
                break
            self.partial[key] = known
            # the values made provisional since the pass began are the last ones (dicts keep
            # insertion order), and all rest on ``key``: nothing it read rested further out
            prov = self.prov
            for k in list(islice(reversed(prov), len(prov) - mark)):
                del prov[k]
            before = self.moved
            r = frozenset(compute(*args))
            moved = self.moved != before
            if key not in self.cycles and not moved:
                break
        self.cycles.discard(key)
        self.partial.pop(key, None)
        self.forget_deferred(serial)
        return r

    def forget_deferred(self, serial: int) -> None:
        """The keys deferred to the computation ``serial`` (nested in it) are settled."""
        deferred = self.deferred
        while deferred and deferred[-1][1] > serial:
            self.partial.pop(deferred.pop()[0], None)
