"""Layers import one way (issue 12, part 6): nothing in kb/ but the CLI shell imports the
website, and no kb module imports itself back through others (deferred imports count)."""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Every module a file imports, wherever in the file (absolute names)."""
    package = module_name(path).rsplit(".", 1)[0] if path.name != "__init__.py" else module_name(path)
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            out.add(base)
            out |= {f"{base}.{alias.name}" for alias in node.names}
    return out


KB = {module_name(p): p for p in (ROOT / "kb").rglob("*.py")}


def graph() -> dict[str, set[str]]:
    return {name: {m for m in imports(path) if m in KB and m != name} for name, path in KB.items()}


@pytest.mark.parametrize("name", sorted(n for n in KB if n != "kb.cli"))
def test_no_kb_module_imports_the_website(name):
    assert not {m for m in imports(KB[name]) if m == "web" or m.startswith("web.")}


def test_no_import_cycle_in_kb():
    edges = graph()
    cycles = []

    def visit(node, path):
        for nxt in sorted(edges[node]):
            if nxt in path:
                cycles.append(path[path.index(nxt):] + [nxt])
            elif nxt not in done:
                visit(nxt, path + [nxt])
        done.add(node)

    done: set[str] = set()
    for start in sorted(edges):
        if start not in done:
            visit(start, [start])
    assert cycles == []


def test_measurement_code_is_not_shipped():
    for package in ("kb", "web"):
        for path in (ROOT / package).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            assert "tests/data" not in text and '"tests"' not in text, path
