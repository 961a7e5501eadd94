from .core import engine
