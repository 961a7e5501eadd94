"""``getattr(obj, "visit_" + kind)``: a name built from a literal prefix reads one of the attributes
whose names start with it (visitors, command tables, vendor-specific methods); through ``self`` in
a method, those of the subclasses too; a literal end after the hole (``"_get_%s_items" % kind``)
must end the rest of the name."""


class Node:
    kind = "node"


class Visitor:
    def visit(self, node: Node):
        method = getattr(self, "visit_" + node.kind, self.generic_visit)
        return method(node)

    def generic_visit(self, node):
        return None


class Printer(Visitor):
    def visit_Name(self, node):
        return "name"

    def visit_Call(self, node):
        return "call"

    def leave_Call(self, node):
        return "left"


class Shell:
    def do_quit(self, arg):
        return True

    def do_help(self, arg):
        return False

    def complete(self, text):
        return []

    def onecmd(self, line: str):
        cmd, arg = line.split(" ", 1)
        func = getattr(self, f"do_{cmd}")
        return func(arg)


class Compiler:
    vendor = "sqlite"

    def as_sql(self):
        return ""

    def compile(self, node: "Expr"):
        impl = getattr(node, "as_%s" % self.vendor, None)
        if impl:
            return impl()
        return node.as_sql()


class Expr:
    def as_sql(self):
        return "x"

    def as_sqlite(self):
        return "y"

    def resolve(self):
        return self


class Backend:
    def _get_user_items(self):
        return []

    def _get_group_items(self):
        return []

    def _get_items(self, kind):
        # "_get_" ... "_items": not _get_items itself, whose rest does not end with "_items"
        return getattr(self, "_get_%s_items" % kind)()


def main():
    Printer().visit(Node())
    Shell().onecmd("help me")
    Compiler().compile(Expr())
    Backend()._get_items("user")


main()
