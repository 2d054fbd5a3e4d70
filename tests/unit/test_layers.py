"""Layers import one way (issue 12, part 6): nothing in kb/ but the CLI shell imports the
website, and no kb module imports itself back through others (deferred imports count)."""
import ast
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@lru_cache(maxsize=None)
def imports(path: Path) -> frozenset[str]:
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
    return frozenset(out)


KB = {module_name(p): p for p in (ROOT / "kb").rglob("*.py")}


@lru_cache(maxsize=None)
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


# kb/ by stage, lowest first: a module imports its own stage and the stages below it, never one
# above (the README's map says what each folder is). The edges — the package's `kb.open`, the CLI
# and the MCP server — sit on top.
STAGES = ("common", "records", "corpus", "parse", "editions", "citations", "search", "study", "pipeline",
          "readmodel", "release")
EDGE = len(STAGES)


def stage(module: str) -> int:
    parts = module.split(".")
    return STAGES.index(parts[1]) if len(parts) > 2 or parts[1:] and parts[1] in STAGES else EDGE


def test_every_kb_folder_is_a_stage_and_only_the_edges_lie_loose():
    folders = {p.name for p in (ROOT / "kb").iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    loose = {p.stem for p in (ROOT / "kb").glob("*.py")}
    assert folders == set(STAGES)
    assert loose == {"__init__", "cli", "assistant"}


@pytest.mark.parametrize("name", sorted(KB))
def test_no_kb_module_imports_a_later_stage(name):
    upward = {m for m in graph()[name] if stage(m) > stage(name)}
    assert upward == set(), f"{name} ({STAGES[stage(name)] if stage(name) < EDGE else 'edge'}) imports {upward}"


def test_the_stage_order_is_enforced():
    """The check itself: the read model is above the build, the records below everything."""
    assert stage("kb.readmodel.knowledge") > stage("kb.pipeline.build") > stage("kb.study.cards")
    assert stage("kb.records.model") < stage("kb.corpus.library") and stage("kb.cli") == EDGE
