"""The bounds of the Python resolver's work on one file. Code reads them as ``bounds.NAME`` (a test
may lower one for a run)."""

MAX_DEPTH = 100  # nested evaluations (alias chains, deep hierarchies): beyond it, unresolved + warning
SETTLE_ROUNDS = 3  # recomputations of a value that met itself, until it stops growing
# recomputations per file. Nested cycles settle with their outermost key (``defer``): before, each
# re-settled inside every round of an outer one (SETTLE_ROUNDS ** depth; mypy's types.py made every
# file reading it take ~1 s), so this only stops a pathological file
SETTLE_BUDGET = 5000
# operator sites (``a + b``, ``x[k]``, f-strings: ``resolve_operators``) are resolved after every
# other call of the file, with operands evaluated at most OPERATOR_DEPTH levels deep, and only
# while the file's resolution has made fewer than OPERATOR_BUDGET evaluations (normal files make
# < 20k: Django at most 6.6k, mypy 17k): without the bounds, sympy's operands pulled its whole
# expression class graph into one file after another (resolution 111 s -> 185 s)
OPERATOR_BUDGET = 20_000
OPERATOR_DEPTH = 20
# ``__getattr__`` is not assumed for a class with more subclasses than this (any of them may bind
# the attribute, and checking each for every attribute read cost pydantic's tests 1.6 s)
GETATTR_MAX_SUBCLASSES = 64
# ``hasattr(x, name)`` narrows a class lacking the name to its subclasses having it only for a class
# that at most this many classes name as a base; past it the value stays as it is (Django's
# ``Model``, 2,731 subclasses, none binding ``_meta`` in its body: two such tests took 0.33 s of the
# 0.36 s all narrowing took, searching and confirming every subclass)
NARROW_MAX_SUBCLASSES = 256
# what other modules pass a parameter used as a call's object (``out.write()``: ``cross.method_cross``,
# ``receiver_cross_values``) is looked up only for a function whose name at most this many call sites of
# the importing modules (and of its own, for a method) have (every site counted, so the answer only
# depends on recorded reads): each site is evaluated in its file. Django 5.1.4's resolution made 265,883
# evaluations; with the lookup uncapped 315,493 (+18.7 %; ``render``: 489 sites in 80 files for 11 values),
# capped at 32 sites 280,841 (+5.6 %), at 8 271,538 (+2.1 %, 82 of the 184 call facts gained kept)
CROSS_MAX_SITES = 8
