"""Changing what the extraction produces must bump ``FACTS_VERSION`` (graphs built with another
version are re-derived on their next ingest, see mnemosyne.ingest).

The digest covers every fact (symbols with signatures and line ranges, calls with resolution,
confidence and lines, imports, inheritance, warnings) of both call-graph corpora. When this test
fails after a deliberate change of the facts: bump ``mnemosyne.extract.FACTS_VERSION`` and record
the new digest under it below. A new corpus case changes the digest too; when the facts of the
existing cases are unchanged, re-recording the digest under the same version is enough.
"""

from __future__ import annotations

import hashlib
from importlib.metadata import version
from pathlib import Path

import pytest

from mnemosyne.extract import FACTS_VERSION, extract_tree

TESTS = Path(__file__).resolve().parent.parent
CORPORA = (TESTS / "extract_py" / "corpus", TESTS / "extract_ts" / "corpus")
# the digest depends on the grammars too: recorded with these versions, checked only with them
GRAMMARS = {"tree-sitter": "0.26.1", "tree-sitter-python": "0.25.0", "tree-sitter-typescript": "0.23.2"}
RECORDED = {
    2: "ac1c03eb8c500ac351391271b4c84a33bd4880cf884d84e4e1e3f985af0a03f0",
    # cycles settled with their outermost key, instances carried over: the corpus is unchanged,
    # real code gains edges (Django 5.1.4 +11, the stdlib +95, mypy 1.13 +219); TypeScript generic
    # signatures after blank lines are split (effect 3.10: 4 fewer files with syntax errors)
    3: "ac1c03eb8c500ac351391271b4c84a33bd4880cf884d84e4e1e3f985af0a03f0",
    # TypeScript words the grammar takes for keywords (`using(...)` as a name, `(any) => void`,
    # `export type *`, `import defer *`) are rewritten in the retry copy: files with them parse
    # (rxjs's built `using.js`, mobx.ts); an array method given a function calls it (`xs.map(fmt)`,
    # resolution implicit); a parameter called calls what the callers pass (resolution inferred);
    # JSX props reach the component's parameter; Python's list.sort(key=f) calls f; new corpus
    # cases newer_syntax_names, array_method_callbacks, parameter_callbacks, reassigned_variables,
    # jsx_callback_props
    4: "147e2da321f3036ee6ff83c3edd7b86556e950693bfe2d9ecf4143602cdfc149",
    # TypeScript array literals hold their elements by position (`const [on, toggle] = useToggle()`,
    # `pair()[1]`, `for (const h of [a, b])`, `[a, b].forEach(...)`), destructuring assignments
    # reassign each name, and a call of an async function is a promise (`load().then(show)`); new
    # corpus case array_destructuring
    5: "4a5fbcfa19eb7917c4949b8b0971032ba68635cfca412bd91b2906a685255f8a",
    # Python operators call their operand's dunders (`a + b` -> `__add__`, `x[k]` -> `__getitem__`,
    # `k in c` -> `__contains__`, `len(x)` -> `__len__`, ...), attribute stores and `del` call
    # property setters and deleters, and tuple targets are stores (`self.a, b = ...` no longer
    # reads `a`'s getter); new corpus case operator_dunders
    6: "cd0f533310a762d904c2125b5ebbaee3f445c75553087c0f330a77dd4a61ea67",
    # Python descriptors: a class attribute holding an instance of a class with __get__ / __set__ /
    # __delete__ calls them when read / assigned / deleted; new corpus case descriptors
    7: "ac21ea3171fb1ed5f13b990736d1fdff92b73a190294403f7b2282051cac45b9",
    # Python __getattr__ for an attribute found neither on the instance nor its classes (all ours,
    # and no subclass binds it), and calling an attribute runs its getter / __get__ / __getattr__
    # first (`st.handler()`); new corpus case attribute_hooks
    8: "c19850c61678f5599a5c0b4a8df6ca94dd90529134ebc3ddd5fbaeef39846657",
    # Python class creation calls the bases' __init_subclass__ and the __set_name__ of descriptors
    # the body assigns; a value annotated Any is unknown (no `typing.Any.m` edges); a member a
    # builtin class lacks is no edge (`<builtin>.str.addElement`); new corpus case
    # class_creation_hooks
    9: "21dbeca4b18f0c1a6a2b8ec7a6aa5acc7301567fda82409aec43aa68667b457d",
    # TypeScript f.call(...) / f.apply(...) call f, f.bind(...) makes a function calling f; new
    # corpus case call_apply_bind
    10: "73084f603a72fb1cda65fcd6140428079750fc694c4ff2d60b669c985c887183",
    # TypeScript class components: this.props holds what the component's elements pass
    # (react_class_component gains two edges to the arrow main.tsx passes)
    11: "1bb9a5667b804d6774b8ce0be7ae043403697bd3fae7d9ca3570d173ef8117d0",
    # Python instantiation calls __new__ too, and a dataclass's generated __init__ its
    # __post_init__; the class_init and dataclasses cases grow
    12: "23b13c77cf9448d34689ba4f3b5e30ee6bd4576ba4bed710cd87c0a07960fe53",
    # Python f-strings: {x} calls __format__ (else __str__), {x!r} __repr__; operator_dunders grows
    13: "fd4d2c55358f926a96455a7ec02d61ae63cd3dcd48b9345e53df88b5d83a4ef5",
    # Python operator sites are resolved after the file's other calls, operands at most
    # OPERATOR_DEPTH deep, and skipped past OPERATOR_BUDGET evaluations (sympy: 207k -> 178k
    # edges, resolution 185 s -> 125 s); the corpus is unchanged
    14: "fd4d2c55358f926a96455a7ec02d61ae63cd3dcd48b9345e53df88b5d83a4ef5",
    # Python __getattr__ is not assumed for a class with more than GETATTR_MAX_SUBCLASSES
    # subclasses (pydantic's BaseModel); the corpus is unchanged
    15: "fd4d2c55358f926a96455a7ec02d61ae63cd3dcd48b9345e53df88b5d83a4ef5",
    # Python metaclasses: a class statement calls its (program) metaclass's __new__ and __init__,
    # calling the class its __call__; the metaclass is inherited; new corpus case metaclasses
    16: "e1e58372a5328c8297acd428c52bae6bf659c3c70f840b9d8465454c8e9f3a66",
    # Python: an attribute a class and its bases lack is looked up on its metaclass (a property
    # or method of the metaclass: Django's Model._default_manager); metaclasses grows
    17: "266d0d85e57ec89fb0e067e118e42100819700867ccd2d0f6d9f053730f58ece",
    # Python truth tests call __bool__, else __len__, of the tested value's class: conditions of
    # if / elif / while / assert / conditional expressions / comprehensions, operands of not, and /
    # or (both in a condition, the left one as a value); new corpus case truth_tests
    18: "e597a706facf8d66c428b0a4d119ab458749fa0e7a20a2bdf46af7d59964e19e",
    # Python: a method decorator that is a class of the program deriving from classmethod /
    # staticmethod binds like it (Django's classonlymethod: `cls` is the class in View.as_view),
    # and reading a method decorated by a program class with __get__ runs that __get__; new corpus
    # case method_decorator_classes
    19: "5284ffa003e2b761197d2cca402f6a33d96df2414e663d9b42ffbbd4318b5b57",
    # Python: isinstance(x, C) narrows x as an attribute's object where the test holds (if / elif
    # bodies, `and`, conditional expressions, after `assert isinstance` and after `if not
    # isinstance(...): return`); new corpus case isinstance_narrowing
    20: "760ce6ddfa09065f209e1fad1a398a1fc5ffa2d9f3497280a22fbe4dfb3bb72a",
    # Python: isinstance(self.node, C) narrows that attribute too (isinstance_narrowing grows)
    21: "60531dc4fb65c18fe5d76f1769c30b57097aa7f55e10d2fd2d6e19ad345f66f3",
    # Python type aliases (`X: TypeAlias = ...`, `X = Dict[str, C]`, `type X = ...`) stand for
    # their annotation; new corpus case type_aliases
    22: "8d194c1bbc0fe6f5053ed1772ef5acd5d81825369afa2a8e675080dc04f6a6bf",
    # Python: a fixed tuple annotation (tuple[A, B]) types its items by position (unpacking a call
    # annotated so, literal indexes); new corpus case tuple_annotations
    23: "0183020d25ec008f5af5b0580ea6516ed9d7dea576ca5f8823e465d1beb9cea7",
    # the facts are unchanged; how they are stored changed: positions are no longer part of a
    # DEFINES version and CALLS keep call-site offsets from the caller's first line, so graphs
    # built before are re-derived
    24: "0183020d25ec008f5af5b0580ea6516ed9d7dea576ca5f8823e465d1beb9cea7",
    # anonymous functions (Python lambdas, TS arrows / function and class expressions) are named
    # from their context (`<lambda:sorted(key=)>`, `<arrow:test('retries')>`), not numbered over
    # their scope; Symbol.ordinal keeps the PyCG number the export maps them back to
    25: "ac6ce6da7accda7d4468d3720be8ccb15bcc61827574f851fe50a57b17052d7f",
    # functions and methods carry code metrics (complexity, loc, params, nesting:
    # mnemosyne/parse/metrics.py), stored on their DEFINES versions
    # and (26) context names for anonymous functions together with code metrics
    26: "6ebbded5edc7a67d1edbbe74f0548dec0d0f98de1004fb1a91e14736e749b8b2",
    # Python flow order (only the binding or dict item that reaches a call in straight-line code)
    # and a program class whose __init__ comes from its one external base calls pkg.Base.__init__;
    # new corpus cases flow_order, external_init
    27: "828caefee364d62c698d4d5c4f8c621b4687c2e0b627ef93913a55bafd12f046",
    # JavaScript/TypeScript value flow: rest/slice/spread arrays, object updates, constructor
    # parameter properties, chained assignments and swaps, functions called at once, the iterator
    # protocol and generators, decorator wrappers, mixins, ES5 constructor functions, builtin
    # callbacks; new TypeScript corpus cases for each
    28: "ae241f1139b875e46070a5df11f7fe1f819c7a783a4a53c68dda0c5731be53c2",
    # JavaScript/TypeScript: rest parameters (one array literal of the arguments per call), borrowed
    # array methods (`Array.prototype.forEach.call(xs, f)`), keys passed as parameters (`o[k]`),
    # `it.next().value` of a generator, functions pushed onto a local array, a parameter's elements
    # from the arrays its callers pass, object rest elements; new TypeScript corpus cases; Map / Set
    # registries (`m.set(k, f)`, `m.get(k)()`, `s.add(f)`, `new Set([a])`, `this.handlers.set(k, f)`, entries destructured in
    # `for...of`), keys passed to a method through `this` (`this.emit("start")`); new TypeScript
    # corpus cases map_set_registries, method_key_parameters; functions pushed onto an array given as a
    # parameter (`register(hooks, a)`) reach the caller's array; corpus case parameter_array_push
    # Python: a literal key passed as an argument selects the item the callee indexes (string
    # arguments, keyword arguments and defaults keep short values, -1 is an int), functools.reduce
    # and bound methods as builtin callbacks, `return h()` through a parameter across modules,
    # dict(...) displays, d.update(other) / |= / += stores, flow order through `f = d["k"]` and
    # d.get("k"); calling an external class is an edge to pkg.Class.__init__ (constructor); new
    # corpus cases key_arguments, key_argument_positions, callbacks_anywhere, called_at_once,
    # external_classes, flow_order_dicts; super().m() in class B also calls what each subclass's MRO
    # finds after B (cooperative multiple inheritance); corpus case super_cooperative; a lambda
    # expression called where it is written gets the arguments (corpus case lambda_called_at_once);
    # a yield expression is what gen.send(v) passes, gen.send(v) a yielded item (generator_send); a
    # lambda a class body binds to a name is a method: its first parameter is the instance
    # (class_body_lambdas); an __init__'s parameters get the arguments of super().__init__(...),
    # Base.__init__(self, ...) and the module's calls of subclasses inheriting it (inherited_init_args);
    # setattr(obj, "name", v) with a literal name stores obj.name (setattr_stores); a dataclass's
    # generated __init__ calls the program's field(default_factory=f) (dataclass_factories)
    # JavaScript: returned and array-element object literals
    # hold their members (the module pattern `var M = (function () { return { f: f }; })()`),
    # `Object.create(p)`, `this` in an ES5 constructor function, a function returning a promise is
    # one, `Reflect.apply(f, ...)`; corpus cases returned_object_literals, es5_this_and_create,
    # promise_returning_functions; ES5 prototypes replaced by an object literal
    # (`F.prototype = { ... }`) and chained with `Object.create(Base.prototype)`: corpus case
    # prototype_object_literals; getters of object literals run when read: corpus case
    # object_literal_accessors; a promise held in a variable bound once (`p.then(f)`);
    # `this.constructor` is the class: corpus case constructor_property
    # Python: operator.methodcaller("m")(x) calls x.m, operator.attrgetter("f")(x) reads x.f (operator_callers)
    # a module-level def __getattr__ answers for names the module does not define (module_getattr)
    # a class decorator of the program storing on its parameter gives the class the attribute (class_decorator_stores)
    # JavaScript: a parameter's default value is one of its values (default_param_functions), `arguments`
    # holds what callers pass (arguments_object), members added to a whole module.exports reach
    # require(...).name (cjs_whole_export_members)
    # Python: an operator's result is what its dunder returns, a += b rebinds a (operator_results); decorators
    # called first and bound methods as decorators store on classes / instances (decorator_factory_stores);
    # from lib import x through lib.__getattr__ (module_getattr_imports); __getattr__ forwarding by
    # getattr(obj, name) (getattr_delegation); globals()["f"] (globals_lookup); x = property(fget, fset, fdel)
    # and iter(f, sentinel) (builtin_property_iter); getattr(obj, "visit_" + kind) (getattr_prefix, getattr_names)
    # Python: what a base's __init__ stores from its parameters is, on a subclass's instance, what
    # the sites that may make that instance pass (init_args_per_subclass); a capitalised function of
    # the standard library (its source defines it with def) is called by name, no __init__ (external_factories)
    # functions handed to threading.Thread / executors / atexit / partial get their arguments and are called
    # (function_runners); __init_subclass__'s cls is each subclass, registries filled by it (subclass_registries)
    # d.setdefault(k, []).append(f) and d[k].append(f) store f in a list the dict holds (list_registries)
    # a global / nonlocal store of a function's own name is evaluated there (rebound_callbacks); partial
    # and partialmethod bind arguments, iter(f, sentinel) calls f (partial_binding)
    # a call of a functools.singledispatch function runs the implementations registered on it (singledispatch)
    # with Ext() as x binds the external instance (external_with); closing / nullcontext / enter_context
    # (context_helpers); copies, casts and defaultdict(C) keep the program's values (library_results)
    # property(fget, fset, fdel) accessors (property_function); Thread/Process subclasses' start() runs
    # run() (thread_subclass, external_members); return copy.copy(self) is fluent (library_results)
    # JavaScript: destructuring defaults (destructured_defaults), members assigned to a function
    # (function_members), arrays under computed keys (keyed_handler_arrays), an object literal's
    # __proto__ (object_literal_proto), this.fn = fn in an object literal's method
    # (object_method_stores), Map string keys (map_literal_keys), statics assigned to a class
    # (class_static_assignments), Object.values/entries of object literals and destructured callback
    # parameters (object_values_entries), TypeScript's CommonJS re-exports (tsc_commonjs_reexports),
    # variables a function assigns its parameter (closure_setters)
    # JavaScript: a comma expression is its last operand, `(0, m.f)(x)` (compiled_comma_calls);
    # util.inherits / Object.setPrototypeOf(F.prototype, B.prototype) (es5_inherits); Object.values /
    # entries / keys and for...in over object literals of functions (object_table_iteration);
    # Object.defineProperty (define_property), `this.x = v` in ES5 constructors (es5_constructor_fields),
    # Promise.all results (promise_all_results), Object.assign(module.exports, ...) (cjs_object_assign_exports);
    # `var proto = F.prototype`, anonymous prototype methods' parameters (es5_prototype_alias_params);
    # members added to `module.exports = {}` later, UMD factories (cjs_exports_object_umd);
    # import("./m").then(f) (dynamic_import_then), Object.defineProperties (define_property);
    # a call of a function returning its parameter (returned_parameter); getters defined on an ES5
    # prototype (es5_prototype_getters)
    # pytest request.addfinalizer(f) is a runner (function_runners)
    # and iter(f, sentinel) (builtin_property_iter); getattr(obj, "visit_" + kind) (getattr_prefix, getattr_names);
    # functools.partialmethod(m, ...) in a class body is m (partial_functions); d[k].append(f) /
    # d.setdefault(k, []).append(f) store a list holding f (grouped_registries); importlib.import_module("m")
    # and an enum member's .value (import_module_enum_values); an inherited method returning self.__class__(...)
    # gives the receiver's class's instance (own_class_instances)
    # an absolute import of a deeper import root (nested_import_root)
    29: "5cddae6a5154e00f8f1f4c5edd918bbcdbd74c1637fb8559d5b2ab6c192cf5c1",
    # a pool's / an executor's map, imap, starmap, apply_async calls the function (pool_runners)
    # a partial bound to a name or an attribute passes its later calls' arguments (partial_later_calls)
    # a member an abstract class of typing / collections.abc lacks is no edge (abstract_stdlib_members)
    # from a import n under a deeper import root only when that module has n (import_root_names)
    # types.MethodType(f, obj) is f with obj bound first (method_type_binding)
    # enum.member(f) is f (enum_function_values); C[int] calls __class_getitem__ / the metaclass's __getitem__
    # (class_getitem); a member a program class's one builtin / abstract base lacks is no edge (abstract_stdlib_members)
    # case C() as x binds an instance of C (match_class_patterns)
    # type(x) is C / type(x) == C narrow x as isinstance does (type_identity_narrowing)
    # Babel's / tsc's / swc's CommonJS interop helpers (cjs_interop_helpers)
    # symbol-keyed members (symbol_keyed_members), this in class static blocks (class_static_blocks)
    # object key walks: getOwnPropertyNames / Reflect.ownKeys, a keys list in a variable, a field's
    # object literal, this.x = { ... } named C.x (object_key_walks)
    # calls of a helper returning its parameter told apart by their own arguments (identity_calls_apart)
    # members of a module.exports function through a variable (cjs_interop_helpers)
    # fields typed as arrays of functions hold what is pushed or assigned; a parameter of a named
    # type is what the callers pass where the type says nothing (typed_function_array_fields)
    # members keyed by a symbol imported by name from another file (imported_symbol_keys)
    # a helper returning its parameter, called at once (`id(f)()`), as a member (`h.id(f)`) or
    # assigned (`a = id(f)`): each call's result is its own argument (identity_call_variants)
    # tsc's helpers in variables (`(this && this.__x) || function`) are the function: calls of
    # them reach it (tsc_helper_variables, cjs_interop_helpers, tsc_commonjs_reexports)
    # Python: an enum member's .value is that member's value (Op.ADD.value is add alone), Op[name]
    # with an unknown key is a member (enum_member_value); a call of a subscript (HANDLERS[kind](x))
    # passes its arguments to the functions the container holds (subscript_call_args); a parameter
    # a method stores (self.cb = cb, self.views[rule] = view) gets what other modules pass it, and
    # the function a method returns gets their decorator sites (@app.route("/")) (stored_params_cross_module)
    # a call of a function returning its parameter as it is gives that call's argument (returned_parameter)
    # hasattr(x, "m") narrows x to the values (and subclasses) having m (hasattr_narrowing)
    # case C(): without as narrows the match subject in the clause's body (match_subject_narrowing)
    30: "6b021a5d1c53688721a93274fe49bfc0f442012cd8bc3189fc1c82e154b420a7",
    # Python: a name declared by @overload stubs is shown by its implementation (position,
    # signature, docstring, body hash); the corpora have no overloads (digest as 30's)
    31: "6b021a5d1c53688721a93274fe49bfc0f442012cd8bc3189fc1c82e154b420a7",
    # Python: ``from . import keys`` in a package's __init__ is the submodule, there and for every
    # ``from pkg import keys`` elsewhere (it read its own binding: no value, no edge through it)
    # (package_submodule_imports); JavaScript: JSDoc @param / @returns types (and @typedef /
    # @import type names) are read as annotations (@returns {Promise<T>}: a promise of T), and @type of variables and of fields assigned in
    # methods (jsdoc_types)
    # Python: a name every binding of which names one enum member (op = Op.ADD) has that member's
    # value, not any member's (enum_held_members); isinstance(x, C) with C external keeps x's
    # instances of program classes with an external base (isinstance_external_bases);
    # itertools.filterfalse / takewhile / dropwhile / groupby / accumulate / starmap, heapq's
    # nsmallest / nlargest and bisect's key= call the function they are given on the items (item_runners);
    # a decorator a method returns handing the definition on to a storing method stores what other
    # modules' decorator sites pass, also through methods returning the factory's call (forwarded_registries);
    # hooks kept in lists by key (setdefault(k, []).append(f)) from another module's bound-method
    # decorator sites (@app.before_request) or calls run where the lists are read (hook_lists_cross_module);
    # map(f, xs) holds what f returns for the items (map_results); a function held by a container
    # (a display, a stored item) or decorated gets the arguments of calls through loop variables (held_callables);
    # an enum's members' tuple values reach its __init__, calling an enum class is no __init__ call (enum_member_init);
    # a stored item handed to a call or called through a name holds what other modules store (stored_items_handed_on);
    # cls() in a classmethod (or nested in one) may be any subclass: NotImplementedError stubs dispatch (classmethod_instances);
    # xs + [f] is a display of both operands' items, an index outside the spread part is exact (list_concatenation);
    # bound methods held by containers (self.handlers = {"a": self.on_a}) get the item calls' arguments (bound_method_registries);
    # a call's result passed to a storing method from another module is stored too (stored_call_results);
    # flow order inside one block: a binding made in it reaches the later uses in it (flow_order_blocks);
    # a member an io stream lacks (io.BytesIO's encode) is no edge, a program class's __getattr__
    # answers it when its one outside base lacks it (io_stream_members); getattr(obj, name) with name
    # bound to string literals or a parameter every site passes one (getattr_literal_names);
    # Color.__members__ maps names to the members (enum_members_mapping)
    # TS/JS: `this` in a function called as f.call(obj) / f.apply(obj, xs) or made by f.bind(obj)
    # is obj, also in its arrows and blocks; an object literal's method bound so sees both (call_apply_this)
    # o[k]() and Object.values / Object.entries of a parameter walked over its own keys reach the members
    # of the object literals the callers pass (object_parameter_walks)
    # computed keys through a namespace import ([S.k]: f, o[S.k]()) name the other file's constant; Reflect.ownKeys walks symbol
    # keys too, Object.getOwnPropertySymbols only them (namespace_symbol_keys)
    # what Object.assign(t, a, { k: f }) and tsc's __assign helper return has the members of each argument; a
    # function replacing itself (__assign = Object.assign || ...) calls the replacement, not itself (tsc_assign_helper)
    # Object.setPrototypeOf(o, base) of an object literal of the file is its __proto__: base (object_set_prototype)
    # a function expression given to an array method with a thisArg has that this; helper.call(this) is recorded
    # (array_this_argument, call_apply_this)
    # this passed as an argument, also alone (reset(this)), is what the parameter holds (this_as_argument)
    # o[k] with const k = c ? "a" : "b" is one of o.a and o.b (conditional_keys)
    # Object.assign(this, { f }) assigns this.f (object_assign_this); JSON.parse / JSON.stringify call the function
    # given second (json_callbacks)
    # a field assigned a constructor parameter holds the objects, instances and classes of ours passed too,
    # not only functions (constructor_object_fields)
    # the arguments given through f.call / f.apply / f.bind / Reflect.apply are f's parameters by position;
    # Reflect.apply(f, t, xs) gives f its this (call_apply_arguments)
    # const o = {...} as const / satisfies T is the named object; new Kind() with Kind a parameter is an instance
    # of each class passed (const_objects_and_factories)
    # a catch parameter holds the instances its try block throws itself (catch_thrown_instances)
    # a field array holds the objects of ours a method pushes there, not only functions (constructor_object_fields)
    # values assigned under computed keys we cannot read are what o[k]() calls (computed_key_registry)
    # Object.assign(fn, {...}) is also fn itself, callable (object_assign_function_exports)
    # (outside the corpora: a requirements file under a docs / tests / ci folder lists dev dependencies)
    32: "1cf2ddbe4abbd58e34ccafd1a2261c80480d64f9f2cf6baaa690203145ddb492",
    # Python: x = None  # type: Foo (PEP 484's comment form) annotates the assignment (type_comments)
    # from pkg import sub is pkg's submodule also when pkg has a __getattr__ (package_getattr_submodules)
    # JS: `this` in a function assigned to exports.f / module.exports.f is the module's exports (cjs_exports_this)
    # a catch parameter also holds what the functions its try block calls throw (catch_callee_throws)
    # a JSDoc cast /** @type {T} */ (x) gives x the type T (jsdoc_inline_casts)
    # a function bound to a name gets members from Object.assign / Object.setPrototypeOf / __proto__ and
    # merge-descriptors / setprototypeof; new F() of a function returning one of ours is that (express_factory_prototypes)
    # EventEmitter's emit("k") calls the listeners on("k", f) registered on the same emitter (event_emitter_listeners)
    # this in a function expression bound where it is written (function () {}.bind(this), .call(t)) (bound_function_expressions)
    # a .catch callback's parameter holds what the async function starting the chain throws (promise_catch_rejections)
    # array destructuring and Array.from iterate an iterable of ours: [Symbol.iterator], its yields (iterable_destructuring)
    # a function also throws what `throw makeError()` returns and `throw err` of a name declared in its body (catch_callee_throws)
    # a try block's `throw err` of a name declared in its function (or module) body (catch_callee_throws)
    # a loop variable over a display of string literals (or a name bound to one) names those attributes
    # in getattr(obj, name) and getattr(obj, "do_" + name): not every do_* (getattr_loop_names)
    # collections.defaultdict(f) and functools.cmp_to_key(f) call f for the caller (factory_runners)
    # in a loop's body, getattr(obj, name) names only that loop's strings, not another loop's over the same
    # variable (getattr_loop_names: discover)
    # cls in a classmethod is also each subclass it is called through (Sub.create(), super().create() in an
    # override): cls() calls that subclass's __init__; a call through Base returns a Base (classmethod_receivers)
    # a __getattr__ forwarding to sys.stdout gives no member the stream lacks; a name none of the objects
    # its module wraps has is read on what other modules' C(x) calls pass (wrapped_streams)
    # (and so do the objects other modules wrap: Console(sys.stderr) in wrapped_streams' prompt.py)
    # weakref.ref(obj, f) / WeakMethod(m, f) call f; @atexit.register calls the definition (deferred_callbacks)
    # {**base, "k": v} holds base's items under their keys; the last pair of a key wins (dict_unpacking)
    # an item stored under a literal key (d["sync"] = f) is read back by that key only (keyed_stores)
    # (dict_unpacking: table = {**table, ...} in a loop, the display holding itself)
    # a loop variable the body binds again no longer names the loop's strings after that (getattr_loop_names: release)
    # JS: `cond && value` is the value (guarded_values)
    # Python: a TypedDict's members are a plain dict's (no edge), a NamedTuple's count / index tuple's (record_bases)
    33: "b9b9fd31916a1ce35dc3c7310008545f8b0c44109869ff6725194b836fd3e34d",
    # signatures read the same on one line and broken over lines: no space inside brackets, no trailing
    # comma before a bracket closed on its own line (parse/display.py)
    # JS: a variable bound to Object.create(p) is an object of its own with prototype p (object_create_members)
    # JS: flow order in straight-line code: `f = a; f = b; f()` and `o.k = a; o.k = b; o.k()` call b only,
    # loops, branches seen from outside and closures keep every value (flow_order)
    # object literals as a side of &&, ||, ??, a conditional (or assigned to a name) are the named object (object_choices)
    # a rethrown catch parameter (catch (e) { throw e }) throws what its try block throws (rethrown_errors)
    # Reflect.construct(C, args) constructs C, Function.prototype.apply.call(f, ...) calls f (reflection_calls);
    # after q.then(f), the next then's parameter is what f returns (promise_chain_functions)
    # register(o, "k", f) with register(t, n, v) { t[n] = v } gives o the member k (parameter_stores)
    # Python: a method's parameter called or used as a call's object gets the importing modules' arguments (method_params_cross_module)
    # Python: a NamedTuple's _replace / _make give the record's class (record_copies), methodcaller keys call each item's method (method_caller_keys)
    # Python: items stored into an attribute under a literal key are read back by that key only (keyed_attribute_stores)
    # Python: table[key]() on a parameter: the items of what other modules pass it, by the literal keys (dispatch_tables_cross_module)
    # Python: a function bound as a class attribute gets its calls' arguments (class_attribute_functions)
    # Python: flow order for a re-bound name's method calls (x = A(); x = B(); x.m(): flow_order_objects)
    # (an object bound last whose value is not known keeps every binding: path = path.resolve())
    # Python: a closure gets the arguments of calls through what its factory's call is bound to (closure_call_sites)
    # Python: d.copy() / xs.copy() of a display is that display (container_copies)
    # Python: create = classmethod(build) in a class body passes the class first (class_attribute_functions)
    # xs.concat / filter / reverse / sort of an array, Array.of(a, b): arrays of those elements (array_copies)
    # Python: attribute stores onto an object other than a method's own self (self.state.cb = f,
    # reg = self.registry; reg.hooks.append(f), def install(c): c.cb = f, p = Pipeline();
    # p.stages.append(f)) are values / items of the attribute on the instances the object holds
    # (attribute_chain_stores, attribute_alias_stores, attribute_param_stores, instance_item_stores)
    # Python: a, b = b, a reads the right side first: a is what b was (tuple_swaps)
    # JS: cb = cb || noop keeps the callers' values and adds noop; a parameter re-assigned in straight-line code is that value (default_callbacks)
    34: "a4c3705a0309992d302f03a456f6db0df2b429b1505d481f081ebd01ba532a09",
    # JS: a factory's returned literal through `as const` / `satisfies` gives its members; an unnamed
    # literal's function values (and shorthand methods, now <function:key>) get their callers'
    # callbacks (factory_object_callbacks)
    35: "0e3353827a9d367b738e10df4e659229a04594806eb5f44114c320b70bfba73b",
    # JS: a variable (or one side of `c ? a : b`) with a value we cannot name keeps its other values;
    # an assignment in the use's own function reaches it, also over a function declaration
    # unless the variable is typed (variable_unknown_rebinding); what a callback parameter returns when
    # called, and a function written as an argument is given what the callee calls its parameter with
    # (callback_results); o[k], k a parameter (also `k: string`) given string literals, is also the values
    # stored under keys we cannot read
    # (plugin_registry)
    36: "0f9de3aa3fd5c0157be351f011cf869061f9930029ef3fc086f93a1d831fb545",
    # JavaScript: an array's element pushed from a parameter (`listeners.push(l)` in `subscribe(l)`,
    # a local or module-level array) is what the callers pass (pushed_parameters); `xs.find(p)`,
    # `findLast`, `pop`, `shift`, `at` of an array are one of its elements (element_results); and
    # the session's other JavaScript value cases (typed_callback_parameters, runtime_callback_parameters,
    # forwarded_option_callbacks, named_function_arguments, held_member_writes, assigned_options,
    # constant_indexes, promise_resolved_values, field_several_values, emitter_lazy_arrays,
    # from_entries_tables); a class field keeps its known values when a name assigned to it is
    # unknown (hono's default `errorHandler` with a setter only users call: field_default_overridable);
    # Python: a list / tuple display passed from another module to a parameter a method stores (also as
    # `list(p)` / `tuple(p)`) is what the attribute holds (structlog's processors: stored_argument_lists);
    # an instance of a standard-library class narrowed by isinstance to another top-level module's class
    # is an instance of that class (isinstance_other_stdlib)
    37: "b29f3e437e798c61cf08c081a4f2134131dd47b7a485a1103737c348a1f8463a",
}


def corpus_digest() -> str:
    h = hashlib.sha256()
    for corpus in CORPORA:
        for case in sorted(p for p in corpus.iterdir() if p.is_dir()):
            files = sorted(
                (p.relative_to(case).as_posix(), p.read_bytes())
                for p in case.rglob("*")
                if p.is_file() and p.name != "expected.json" and "__pycache__" not in p.parts
            )
            snap = extract_tree(files)
            for path in sorted(snap.files):
                ff = snap.files[path]
                h.update(repr((
                    case.name, path, ff.language, ff.module,
                    sorted(map(repr, ff.symbols)), sorted(map(repr, ff.calls)), sorted(map(repr, ff.imports)),
                    sorted(map(repr, ff.inherits)), sorted(ff.warnings),
                )).encode())
    return h.hexdigest()


def test_facts_version_is_bumped_when_the_facts_change() -> None:
    installed = {name: version(name) for name in GRAMMARS}
    if installed != GRAMMARS:
        pytest.skip(f"digest recorded with {GRAMMARS}, these are {installed}")
    digest = corpus_digest()
    assert RECORDED.get(FACTS_VERSION) == digest, (
        f"the corpus facts changed (digest {digest}) but FACTS_VERSION is still {FACTS_VERSION}: bump "
        "mnemosyne.extract.FACTS_VERSION so graphs built before are re-derived, and record the digest here"
    )
