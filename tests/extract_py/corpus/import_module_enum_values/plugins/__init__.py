"""A package of plugins, loaded by name."""
