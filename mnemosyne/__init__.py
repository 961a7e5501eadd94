"""Mnemosyne: a bitemporal code knowledge graph of Git repositories, kept in FalkorDB."""

__version__ = "0.1.0"
