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
    """A kb module's stage: its folder's place in STAGES; the edges (kb, kb.cli, kb.assistant) on top."""
    parts = module.split(".")
    return STAGES.index(parts[1]) if parts[1:2] and parts[1] in STAGES else EDGE


def upward(name: str, imported: set[str]) -> set[str]:
    """What of kb a module imports from a later stage than its own."""
    return {m for m in imported if stage(m) > stage(name)}


def test_every_kb_folder_is_a_stage_and_only_the_edges_lie_loose():
    folders = {p.name for p in (ROOT / "kb").iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    loose = {p.stem for p in (ROOT / "kb").glob("*.py")}
    assert folders == set(STAGES)
    assert loose == {"__init__", "cli", "assistant"}


@pytest.mark.parametrize("name", sorted(KB))
def test_no_kb_module_imports_a_later_stage(name):
    assert upward(name, graph()[name]) == set(), f"{name} ({(*STAGES, 'edge')[stage(name)]})"


def test_the_stage_rule_is_enforced():
    """The check itself: the build reaching into the read model, or the records into the corpus, is caught;
    the edges may import every stage."""
    assert upward("kb.pipeline.build", {"kb.readmodel.knowledge", "kb.study.cards"}) == {"kb.readmodel.knowledge"}
    assert upward("kb.records.store", {"kb.corpus.library", "kb.records.clauseid"}) == {"kb.corpus.library"}
    assert upward("kb.cli", {"kb.release.writer", "kb.readmodel.knowledge"}) == set()


# web/ by family. The HTTP plumbing (web/http) is the floor: it imports nothing else of web. The
# pages' shared machinery (web.i18n, web.pages.render and views) sits on it. Above, the families —
# each page module of web/pages/, and each of the folders web/study, web/offline, web/api, whose
# modules work together — import the plumbing and the machinery, and never another family, but for
# the edges named here. web.app, on top, includes every family's router.
WEB = {module_name(p): p for p in (ROOT / "web").rglob("*.py")}
WEB_FOLDERS = ("http", "pages", "study", "offline", "api")
SHARED = {"web.i18n", "web.site", "web.pages", "web.pages.render", "web.pages.views"}
STUDY_OFFLINE = "the worker keeps, and the static copy writes, the study page, its cards, the exam and the decks"
CROSSINGS = {  # (importer, imported): why today's code needs the edge
    ("web.offline.worker", "web.study.drills"): STUDY_OFFLINE,
    ("web.offline.worker", "web.study.exam"): STUDY_OFFLINE,
    ("web.offline.worker", "web.study.decks"): STUDY_OFFLINE,
    ("web.offline.sitecopy", "web.study.drills"): STUDY_OFFLINE,
    ("web.offline.sitecopy", "web.study.exam"): STUDY_OFFLINE,
    ("web.offline.sitecopy", "web.study.decks"): STUDY_OFFLINE,
    ("web.offline.sitecopy", "web.app"): "the static copy renders every page through the app itself",
}


def family(module: str) -> str:
    """"http", "shared", "app" (web.app and the package), or the family: web.pages.search, web.study…"""
    parts = module.split(".")
    if module in SHARED:
        return "shared"
    if parts[1:2] == ["http"]:
        return "http"
    if parts[1:2] == ["pages"]:
        return module
    return "web." + parts[1] if parts[1:] and parts[1] in WEB_FOLDERS else "app"


def forbidden(name: str, imported: set[str]) -> set[str]:
    """What of web a module imports that its place does not allow."""
    own = family(name)
    allowed = {"http"} | ({"shared", own} if own != "http" else set())
    return {m for m in imported if m.startswith("web") and family(m) not in allowed
            and (name, m) not in CROSSINGS and name != "web.app"}


def web_imports(name: str) -> set[str]:
    return {m for m in imports(WEB[name]) if m in WEB and m != name}


def test_every_web_folder_is_a_family_folder_and_only_the_app_lies_loose():
    folders = {p.name for p in (ROOT / "web").iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders == set(WEB_FOLDERS)
    assert {p.stem for p in (ROOT / "web").glob("*.py")} == {"__init__", "app", "i18n", "site"}


@pytest.mark.parametrize("name", sorted(WEB))
def test_no_web_module_imports_another_family(name):
    assert forbidden(name, web_imports(name)) == set(), f"{name} ({family(name)})"


def test_every_allowed_crossing_is_still_needed():
    assert {(a, b) for a, b in CROSSINGS if b not in web_imports(a)} == set()


def test_only_the_app_imports_every_family():
    families = {family(m) for m in WEB} - {"http", "shared", "app"}
    assert {name for name in WEB if families <= {family(m) for m in web_imports(name)}} == {"web.app"}


def test_the_family_rule_is_enforced():
    """The check itself: a page family reaching into another, or the plumbing into the pages, is caught."""
    assert forbidden("web.pages.search", {"web.pages.reading"}) == {"web.pages.reading"}
    assert forbidden("web.http.security", {"web.pages.render", "web.i18n"}) == {"web.pages.render", "web.i18n"}
    assert forbidden("web.study.exam", {"web.pages.situations", "web.study.drills", "web.pages.render"}) == {
        "web.pages.situations"}
    assert forbidden("web.api.routes", {"web.offline.worker"}) == {"web.offline.worker"}
