"""One file's resolution in the TypeScript resolver: the concern mixins composed over ``CtxState``."""

from __future__ import annotations

from mnemosyne.resolve.typescript.classes import ClassesMixin
from mnemosyne.resolve.typescript.emit import EmitMixin
from mnemosyne.resolve.typescript.evaluate import EvaluateMixin
from mnemosyne.resolve.typescript.modules import ModulesMixin
from mnemosyne.resolve.typescript.params import ParamsMixin


class Ctx(EmitMixin, ParamsMixin, ClassesMixin, EvaluateMixin, ModulesMixin):
    """One file's resolution (``TypeScriptIndex._compute`` runs its sites): memo tables, the
    modules consulted, the reads recorded (``state.py``) and the edges found (``emit.py``)."""

    __slots__ = ()
