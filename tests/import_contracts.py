"""An import-linter contract of our own (`.importlinter`): no import circle between modules.

import-linter's ``acyclic_siblings`` looks at packages as wholes; this one at modules: no module under
``root`` imports one that imports it back, directly or through others, wherever they live. A package's
``__init__`` counts as the module it is; an import of ``a.b`` is an import of that module only.
"""

from __future__ import annotations

from importlinter import Contract, ContractCheck, fields, output


class ModulesAcyclicContract(Contract):
    type_name = "modules_acyclic"

    root = fields.StringField()

    def check(self, graph, verbose: bool) -> ContractCheck:
        root = self.root
        modules = sorted(m for m in graph.modules if m == root or m.startswith(root + "."))
        inside = set(modules)
        edges = {m: sorted(t for t in graph.find_modules_directly_imported_by(m) if t in inside and t != m)
                 for m in modules}
        cycles = _strongly_connected(modules, edges)
        return ContractCheck(kept=not cycles, metadata={"cycles": cycles})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for cycle in check.metadata["cycles"]:
            output.print_error("Modules importing each other: " + " <-> ".join(cycle))
            output.new_line()


def _strongly_connected(nodes: list[str], edges: dict[str, list[str]]) -> list[list[str]]:
    """Tarjan's groups of more than one module, iteratively (a deep package needs no recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in nodes:
        if start in index:
            continue
        work = [(start, 0)]
        while work:
            node, position = work.pop()
            if position == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            for i in range(position, len(edges[node])):
                target = edges[node][i]
                if target not in index:
                    work.append((node, i + 1))
                    work.append((target, 0))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
    return found
