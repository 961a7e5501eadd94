"""Python call/import/inheritance resolution over the parsed files of one tree (``PythonIndex``).

Resolution is demand-driven, flow-insensitive points-to over the program:

* a name evaluates to the union of every value ever bound to it in the scope that binds it (LEGB,
  ``global``/``nonlocal`` honoured, class bodies skipped by nested functions; comprehension
  variables bind in the enclosing function);
* values are internal functions/lambdas, classes, instances of internal classes, internal
  modules, external names (``os.path.join``, ``requests.Session``), instances of external
  classes, builtins, containers (tuple/list/dict displays) and ``super()`` proxies;
* attributes are looked up in modules (bindings, ``from m import *`` honouring ``__all__``,
  submodules), classes and instances (C3 MRO over internal bases, instance attributes assigned
  through the method's first parameter, ``@property``/``cached_property`` getters), external
  names by import path (``np.array`` -> ``numpy.array``);
* containers: items of displays, ``x[k] = v``, ``x.append(v)``/``add``/``insert``/``extend``/
  ``setdefault`` on a name or on ``self.attr``; read back by subscript, iteration, unpacking
  and ``x.get(k)`` (a dict's ``get``/``pop`` default too); a slice ``x[i:j]`` is a container of some of the items (exactly which for a
  display with literal bounds), not an item; comprehensions and generator expressions are
  containers of their item (positions unknown), and ``list``/``tuple``/``sorted``/``reversed``/
  ``set``/``iter``/``filter`` pass items on, ``next`` returns one, ``enumerate``/``zip`` pair them;
* enums: the members of an ``enum.Enum`` subclass (``Color.RED``, ``Color["RED"]``, iterating the
  class) are its instances;
* ``isinstance(x, C)`` narrows ``x`` as an attribute's object where the test holds (the parser
  marks it ``("N", x, C)``: an ``if``/``elif`` body, ``and``'s right operand, a conditional
  expression's value, the statements after ``assert isinstance`` or after ``if not isinstance(...):
  return``): x's instances of C or its subclasses, else an instance of C (``narrowed``);
* annotations: a class (``Optional``/``Union``/``|`` unpacked) is an instance of it, ``Self`` the
  method's own class, a type alias (``X: TypeAlias = ...``, ``X = Dict[str, C]``, ``type X = ...``;
  the parser binds ``("ta", annotation)``) what it stands for; a container
  annotation (``list[C]``, ``Sequence[C]``, ``Iterator[C]``, ``tuple[C, ...]``, ``dict[str, C]``,
  ``Mapping[K, C]``, ...) a container whose items (a mapping's values) are instances of C;
* parameters: annotation, default, ``self``/``cls``, plus the arguments passed by the call sites
  and decorator sites of the function's own module (intra-module, by position and keyword; a
  parameter after ``*args`` by keyword only; ``*args`` a tuple of the extra positional
  arguments, ``**kwargs`` a dict of the extra keyword arguments; a site's ``f(*[a, b])`` spelled
  out, ``f(*xs)`` any item of xs from its position on, ``f(**d)`` by name),
  including sites that call it through a local alias (``h = f; h(x)``, ``obj.h = f``, a lambda
  bound to a name, a class alias for ``__init__``; not a method's alias, which may be bound),
  and, for a function or lambda passed as an argument somewhere in its module, the calls of
  parameters that may hold it (``def run(cb): cb(x)``, checked by evaluating ``cb``); a method
  passed as an attribute (``run(self.step)``) gets them after its bound receiver (a
  staticmethod from the first);
* a call's result is the callee's return values (return statements + return annotation; a
  generator's is a container of what it yields, ``yield from x`` passing on x's items), an
  instance for a class, an instance for a capitalised external name
  (``requests.Session()``; a lower-case external call's result is unknown), nothing for builtins
  (``functools.partial(f, ...)`` is ``f``); a classmethod returning ``cls(...)`` called
  through a subclass (``Sub.create()``, inherited) returns an instance of that subclass.

What is NOT resolved (no edge, never a best guess by name): parameters fed only from other
modules, values flowing through unknown calls, attributes of unknown objects, ``getattr``/
``eval``, a decorated function called through another name than its own (an alias, a parameter:
the undecorated function),
methods of builtin values (``[].append``), subclasses whose base is named through anything
but a module-level alias (``B = Base``, ``from m import Base as B`` and chains of them are
followed; a base computed by a call or assigned in a function is not), overrides reached through a receiver other than
the method's own first parameter
(``def f(job: Job): job.prepare()`` calls ``Job.prepare`` only, unless it is abstract, below).

Conventions (tests/extract_py/corpus/README.md):

* instantiation ``C()`` calls the ``__init__`` found in C's internal MRO (resolution
  ``constructor``); a class without an internal ``__init__`` (dataclasses, exceptions) gives no
  edge; ``raise E`` instantiates E like ``raise E()``;
* decorators: the scope that holds the decorated definition calls the decorator (``@dec``) or
  the decorator factory's result (``@dec(arg)``: the call ``dec(arg)`` itself is an ordinary call);
  ``@property``, ``@staticmethod``, ``@classmethod`` and ``@x.setter`` are declarations, no edge
  (a decorator class of the program deriving from ``classmethod``/``staticmethod``, Django's
  ``classonlymethod``, binds like them: ``method_decorators``); reading a method whose outermost
  decorator is a program class with ``__get__`` calls that ``__get__`` (``decorator_gets``);
  a decorator's parameter is what it is applied to: the definition for the innermost one, else
  what the decorator below returns (an external or unresolved one is transparent); a class used
  as a decorator gets it in ``__init__``, an instance a factory returns in ``__call__``;
  a call by a decorated function's own name (``work()``, ``self.handle()``) is an edge to the
  function and, resolution ``implicit``, to what its decorators made of it: a wrapper function
  defined inside the decorator, or ``__call__`` of a class used as the decorator (a decorator
  returning its argument adds nothing);
* ``with f() as x`` over a ``@contextlib.contextmanager`` (``asynccontextmanager``) generator
  binds x to what it yields;
* subclass dispatch (resolution ``subclass``, confidence 0.9): ``self.m()`` (``cls.m()`` in a
  classmethod) in a method of class C also calls the ``m`` that each internal subclass of C
  finds in its MRO (its override, or a mixin host's method; for ``self``, also a function or
  bound method the subclass assigns to ``self.m``, and a property's getter), subclasses being found by the
  last name of their bases and confirmed by their MRO (class hierarchy analysis);
  a call that reaches an abstract method through any other receiver (``def f(store: Storage):
  store.save()``) also calls the override each subclass of the receiver's class finds: an
  ``@abstractmethod``, a body-less method of a ``typing.Protocol`` class, or a method that only
  raises ``NotImplementedError`` (not for an instance made right there: ``Codec().encode()``);
* ``map``/``filter``/``sorted``/``min``/``max`` call the internal function (or class) they are
  given (``key=`` for the last three) for the caller, resolution ``implicit``, and its parameter
  gets the iterable's items; so does ``xs.sort(key=f)`` when ``xs`` holds a list;
* instantiation calls ``__init__`` and ``__new__`` (resolution ``constructor``), and a dataclass's
  generated ``__init__`` its ``__post_init__``;
* implicit calls (resolution ``implicit``): ``__iter__``/``__next__`` for ``for``, ``__enter__``/
  ``__exit__`` for ``with`` (``__aenter__``/``__aexit__`` for ``async with``), ``__call__`` on
  calling an instance, property getters on attribute loads (setters / deleters on stores and
  ``del``), descriptors' ``__get__``/``__set__``/``__delete__``, ``__getattr__`` for attributes not
  found, ``__init_subclass__`` and ``__set_name__`` on class creation, a program metaclass's
  ``__new__``/``__init__`` on class creation and its ``__call__`` on calling the class, decorators, the dunders of operators
  (``a + b``, ``x[k]``, ``k in c``, ``-a``, ``a += b``) and of ``len``/``str``/... (``BUILTIN_DUNDERS``),
  ``__bool__`` (else ``__len__``) of a value whose truth a condition, ``not``, ``and`` or ``or`` tests;
* calls made in a class body belong to the enclosing function or module;
* a file whose module another file defines (``a.pyi`` next to ``a.py``, ``a.py`` next to
  ``a/__init__.py``) yields imports only, plus a warning, so fully qualified names stay unique.

Confidence: 1.0 for every resolved edge, except subclass dispatch (0.9) and a builtin name in a module that also does
``from <external> import *`` (the star import might shadow it): 0.5, resolution ``inferred``.
``mnemosyne.callgraph.to_pycg`` keeps edges with confidence >= 0.9.

Incremental contract: ``FileFacts.depends_on`` is every module name (present or not) looked up
while resolving the file (modules of bases, of imported names, the ones tried and missing), plus
``<calls>NAME`` entries when the file's resolution looked at every module's call sites of a
function called NAME (parameter flow into module-level functions). Resolution of a file uses only
per-file memo tables, so its result does not depend on what was resolved before, and it reads
other files' parse data only through recording accessors (``_FileResolver.hdr``, ``binds``, ...;
``parsed()`` is own-file only): each read is kept as a key (``mnemosyne.resolve.python.reads``, which
names scopes by qualified name, so code added above them does not change the key). ``update`` returns the
changed/deleted paths, the files whose ``depends_on`` meets a module that appeared or disappeared
(or one of its parent packages), the files one of whose recorded reads a modified file now answers
differently (interface pruning: a body-only edit answers them all the same, so its dependents are
not re-resolved), the files whose recorded ``importers_calling`` answer for a call name of a
changed file differs, the files whose recorded ``subclass_files`` answer (``<sub>NAME`` in
``depends_on``) for a base name of a changed file's classes differs, and files not resolved
since they last changed. Since a file's resolution is
a deterministic function of its own content, the module layout and the answers to its reads,
unchanged answers mean unchanged facts: that is what makes incremental facts equal fresh ones.
"""

from mnemosyne.resolve.python.bounds import SETTLE_BUDGET, SETTLE_ROUNDS
from mnemosyne.resolve.python.index import PythonIndex
from mnemosyne.resolve.python.modules import module_name
from mnemosyne.resolve.python.resolver import _FileResolver

__all__ = ["SETTLE_BUDGET", "SETTLE_ROUNDS", "PythonIndex", "_FileResolver", "module_name"]
