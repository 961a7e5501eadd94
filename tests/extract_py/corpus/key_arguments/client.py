import registry

registry.shared("b")
