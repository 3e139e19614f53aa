"""The project's dependencies point down (DESIGN.md, Layout): no circle of imports between
its packages, no package importing one above it, and no import of the project's own code
hidden inside a function to dodge a circle.

The graph is read from the source (every ``import`` and ``from ... import`` of the
project's packages, wherever it stands in a module), so a new module is checked the day it
is written.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROJECT = ("games", "ratings", "accounts", "kozel_site")

# Low to high: a package may import its own rank and below.  Packages of one rank must
# not import each other in a circle (checked below).
RANKS = {
    "kozel_site": 0, "kozel_site.runtime": 0,     # settings' helpers, library patches
    "games.rules": 1,                             # the rules: pure Python
    "ratings.formulas": 1,                        # the rating formulas: pure Python
    "games.bots": 2,                              # players the site provides, on the rules
    "accounts": 3,                                # people
    "games": 4,                                   # the models, and what words a variant
    "games.live": 5,                              # every socket's base
    "games.play": 6,                              # the one way a running game changes
    "ratings": 7,                                 # subscribes to the game's end
    "games.lobby": 8, "games.room": 8, "games.records": 8, "games.moderation": 8,
    "games.arena": 8,
    "games.players": 9,                           # a player's page gathers them all
}

# The site's assembly: its routes, settings, entry points and app configurations, which
# wire every context together and so may import any of them.
ASSEMBLY = {
    "kozel_site.settings", "kozel_site.urls", "kozel_site.asgi", "games.urls",
    "games.routing", "games.apps", "games.admin", "ratings.apps", "ratings.urls",
    "accounts.apps", "accounts.urls",
}
ASSEMBLY_PACKAGES = ("games.management",)  # thin commands

# Django's own place for imports that must wait until the apps are loaded.
LATE_IMPORTS_ALLOWED = {"ready"}


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def package_of(module: str) -> str:
    """The node of the graph a module belongs to: ``games.<context>`` or a top package
    (``kozel_site.runtime`` apart from the rest of ``kozel_site``)."""
    parts = module.split(".")
    if parts[0] == "games" and len(parts) > 1 and (ROOT / "games" / parts[1]).is_dir() \
            and parts[1] not in ("migrations", "templatetags"):
        return ".".join(parts[:2])
    if parts[:2] == ["kozel_site", "runtime"]:
        return "kozel_site.runtime"
    if parts[:2] == ["ratings", "formulas"]:  # pure, below the game that applies them
        return "ratings.formulas"
    return parts[0]


def is_assembly(module: str) -> bool:
    return module in ASSEMBLY or module.startswith(ASSEMBLY_PACKAGES)


def project_modules():
    for top in PROJECT:
        for path in sorted((ROOT / top).rglob("*.py")):
            if "migrations" not in path.parts:
                yield module_name(path), path


def imports_of(path: Path):
    """(imported module, the function it is imported in or None, line) of the project's."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []

    def visit(node, function):
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                else function
            names = []
            if isinstance(child, ast.Import):
                names = [alias.name for alias in child.names]
            elif isinstance(child, ast.ImportFrom) and child.level == 0 and child.module:
                names = [child.module]
            for name in names:
                if name.split(".")[0] in PROJECT:
                    found.append((name, function, child.lineno))
            visit(child, inner)

    visit(tree, None)
    return found


def graph() -> dict[str, dict[str, list[str]]]:
    """package -> imported package -> where ("module:line")."""
    edges: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for module, path in project_modules():
        if is_assembly(module):
            continue
        for name, _function, line in imports_of(path):
            source, target = package_of(module), package_of(name)
            if source != target:
                edges[source][target].append(f"{module}:{line}")
    return edges


def test_every_package_has_a_rank():
    packages = {package_of(module) for module, _path in project_modules()
                if not is_assembly(module)}
    assert packages <= RANKS.keys(), sorted(packages - RANKS.keys())


def test_no_package_imports_one_above_it():
    upward = [f"{source} -> {target} ({', '.join(where)})"
              for source, targets in graph().items() for target, where in targets.items()
              if RANKS.get(target, 0) > RANKS.get(source, 0)]
    assert not upward, "\n".join(upward)


def test_no_circle_between_packages():
    edges = graph()
    circles = []

    def walk(node, path):
        for target in edges.get(node, {}):
            if target == path[0]:
                circles.append(" -> ".join(path + [target]))
            elif target not in path and len(path) < len(RANKS):
                walk(target, path + [target])

    for start in sorted(edges):
        walk(start, [start])
    assert not circles, "\n".join(sorted(set(circles)))


def test_no_import_of_the_project_hides_in_a_function():
    hidden = [f"{module}:{line} imports {name} inside {function}()"
              for module, path in project_modules()
              for name, function, line in imports_of(path)
              if function is not None and function not in LATE_IMPORTS_ALLOWED]
    assert not hidden, "\n".join(hidden)


def test_the_pure_packages_import_nothing_of_the_project():
    edges = graph()
    assert not edges.get("ratings.formulas") and not edges.get("games.rules")


def test_the_checks_see_a_circle_and_an_upward_import():
    """The graph is read as the checks expect (so that they can fail)."""
    edges = graph()
    assert "games.rules" in edges["games.play"]
    assert package_of("games.play.service") == "games.play"
    assert package_of("kozel_site.runtime.daphne") == "kozel_site.runtime"
    assert package_of("games.models") == "games"
