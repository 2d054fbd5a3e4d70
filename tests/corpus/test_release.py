"""`kb release PATH`: the texts as a versioned data release. Every record holds to its JSON
Schema, datapackage.json lists every file with its real size and hash (and Frictionless finds
it valid), the SQLite file opens in Datasette as it is and answers a full-text search, and what
it holds is what the texts and the curated tables say."""
import asyncio
import csv
import hashlib
import json
from importlib import metadata
import os
import re
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from kb.pipeline import generations
from kb.release.writer import RELEASE, write_release
from kb.readmodel.knowledge import KnowledgeBase

from tests.conftest import SHARED

REPO = Path(__file__).resolve().parents[2]
SEEDS = SHARED / "seeds"
TEXTS = REPO / "corpus"  # the source texts byte for byte (tests/corpus/test_corpus.py holds them to the seeds)
MARK = ".kb-release"


def source_text(name: str) -> str:
    return (TEXTS / name).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def written(kb, tmp_path_factory):
    """One release of the shared build, written by the command, and what it printed."""
    path = tmp_path_factory.mktemp("release") / "bridge-laws"
    run = kb("release", str(path))
    assert run.returncode == 0, run.stderr
    return path, run.stdout


@pytest.fixture(scope="module")
def release(written):
    return written[0]


@pytest.fixture(scope="module")
def package(release):
    return json.loads((release / "datapackage.json").read_text(encoding="utf-8"))


def records(release: Path, table: str) -> list[dict]:
    return [json.loads(line) for line in (release / f"{table}.jsonl").read_text(encoding="utf-8").splitlines()]


def tables(package) -> list[dict]:
    return [r for r in package["resources"] if r.get("type") == "table"]


def one(rows, **match):
    found = [r for r in rows if all(r[k] == v for k, v in match.items())]
    assert len(found) == 1, (match, len(found))
    return found[0]


# ---------------------------------------------------------------- schemas

def validator(release: Path, resource: dict) -> jsonschema.Draft202012Validator:
    schema = json.loads((release / resource["jsonSchema"]).read_text(encoding="utf-8"))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())


def test_every_record_holds_to_its_json_schema(release, package):
    assert {r["name"] for r in tables(package)} == {"documents", "units", "clauses", "citations", "edges",
                                                    "concordance", "changes", "situations", "situation_rules",
                                                    "attachments"}
    for resource in tables(package):
        check = validator(release, resource)
        rows = records(release, resource["name"])
        assert rows, resource["name"]
        bad = [(i, e.message) for i, row in enumerate(rows, 1) for e in check.iter_errors(row)]
        assert bad == [], (resource["name"], bad[:3])


@pytest.mark.parametrize("table, change", [
    ("clauses", lambda r: r.pop("text")),                        # a column missing
    ("clauses", lambda r: r.update(colour="red")),               # a column no table declares
    ("citations", lambda r: r.update(kind="hearsay")),           # not a kind of citation
    ("citations", lambda r: r.update(resolved="yes")),           # not a boolean
    ("documents", lambda r: r.update(sha256="not-a-checksum")),
    ("documents", lambda r: r.update(effective="30/09/2017")),   # not an ISO date
    ("units", lambda r: r.update(url="it-laws/27")),             # not a site address
    ("changes", lambda r: r.update(law="27")),                   # a number, not text
])
def test_a_record_that_breaks_its_schema_is_refused(release, package, table, change):
    row = records(release, table)[0]
    change(row)
    assert not validator(release, one(tables(package), name=table)).is_valid(row)


def test_each_line_holds_its_table_schemas_columns_in_order(release, package):
    for resource in tables(package):
        names = [f["name"] for f in resource["schema"]["fields"]]
        schema = json.loads((release / resource["jsonSchema"]).read_text(encoding="utf-8"))
        assert list(schema["properties"]) == names
        assert {tuple(r) for r in records(release, resource["name"])} == {tuple(names)}


# ---------------------------------------------------------------- datapackage.json

def test_the_package_lists_every_file_with_its_size_and_sha256(release, package):
    assert package["$schema"] == "https://datapackage.org/profiles/2.0/datapackage.json"
    files = {p.relative_to(release).as_posix() for p in release.rglob("*") if p.is_file()}
    paths = [r["path"] for r in package["resources"]]
    assert len(set(paths)) == len(paths) and len({r["name"] for r in package["resources"]}) == len(paths)
    assert files == {*paths, "datapackage.json", MARK}
    for r in package["resources"]:
        data = (release / r["path"]).read_bytes()
        assert r["bytes"] == len(data), r["path"]
        assert r["hash"] == "sha256:" + hashlib.sha256(data).hexdigest(), r["path"]
        assert re.fullmatch(r"[a-z0-9._-]+", r["name"]) and re.fullmatch(r".+/.+", r["mediatype"])
    db = one(package["resources"], path="bridge-laws.db")
    assert db["format"] == "sqlite" and db["mediatype"] == "application/vnd.sqlite3"


def test_the_package_names_its_version_and_the_build_it_was_made_from(build_dir, release, package):
    gen = generations.generation(build_dir)
    assert package["version"] == metadata.version("bridge-laws-kb")  # as pip installed it
    assert package["build"]["generation"] == gen.name
    assert package["build"]["stamp"] == (gen / generations.STAMP_NAME).read_text(encoding="utf-8").strip()
    assert (release / MARK).read_text(encoding="utf-8").splitlines()[0] == gen.name


@pytest.mark.skipif(not SEEDS.is_dir(), reason="../shared/seeds not beside the repo")
def test_the_package_names_each_source_text_with_the_checksum_of_the_file_as_received(package):
    seeds = {p.name: p.read_bytes() for p in SEEDS.glob("0*.txt")}
    assert len(seeds) == 5
    assert {s["file"]: s["hash"] for s in package["sources"]} == {
        name: "sha256:" + hashlib.sha256(data).hexdigest() for name, data in seeds.items()}
    assert {s["file"]: s["bytes"] for s in package["sources"]} == {name: len(data) for name, data in seeds.items()}
    assert all(lic.get("name") or lic.get("path") for lic in package["licenses"])


def test_the_documents_carry_the_checksum_of_their_source_text(release):
    for d in records(release, "documents"):
        assert d["sha256"] == hashlib.sha256((TEXTS / d["source"]).read_bytes()).hexdigest(), d["id"]


@pytest.mark.slow
def test_frictionless_finds_the_package_valid(release):
    """The reference implementation reads every file: sizes, hashes, each row's types, the primary
    and foreign keys (a clause's unit is a unit, a rule's situation a situation…)."""
    import frictionless
    report = frictionless.validate(str(release / "datapackage.json"))
    assert report.valid, report.flatten(["type", "message"])[:5]
    rows = {t.name: t.stats.get("rows") for t in report.tasks if t.type == "table"}
    assert rows == {name: len(records(release, name)) for name in rows} and len(rows) == 10


# ---------------------------------------------------------------- what it holds

def test_law_27b1b_in_italian_is_there_with_its_text(release):
    law = source_text("it-laws-2017.txt")
    article = law[law.index("ARTICOLO 27 - LICITA INSUFFICIENTE"):law.index("ARTICOLO 28")]
    printed = next(line for line in article.splitlines() if line.startswith("- (b) Eccetto"))
    clause = one(records(release, "clauses"), node="it-laws:27#27B1b")
    assert clause["text"] == printed.removeprefix("- (b) ")
    assert (clause["doc"], clause["unit"], clause["id"], clause["parent"]) == ("it-laws", "27", "27B1b", "27B1")
    assert clause["display"] == "27B1(b)" and clause["url"] == "/it-laws/27#27B1b" and clause["lang"] == "it"
    unit = one(records(release, "units"), node="it-laws:27")
    assert unit["title"] == "LICITA INSUFFICIENTE" and printed.removeprefix("- (b) ") in unit["text"]


def test_a_citation_in_the_text_resolves_to_the_clause_it_names(release):
    """27B1(b) says "(vedi Art 23A)"."""
    c = one(records(release, "citations"), source_node="it-laws:27#27B1b", raw="Art 23A")
    assert (c["kind"], c["resolved"], c["target_node"], c["target_url"]) == (
        "internal", True, "it-laws:23#23A", "/it-laws/23#23A")
    text = one(records(release, "clauses"), node="it-laws:27#27B1b")["text"]
    assert text[c["span_start"]:c["span_end"]] == "Art 23A"


def test_a_time_reference_reaches_the_2017_clause_through_the_concordance(release):
    """"Carta esposta" (the time references, 2007 numbering) times 16C; the 2007 16C is the
    2017 16D (the concordance: ES 16C/D ↔ IT 16D/C)."""
    timeref = source_text("it-timeref-2011.txt")
    topic = timeref[timeref.index("\nCarta esposta\n"):]
    assert re.search(r"^16C - ", topic[:topic.index("\nCarta in sovrannumero")], re.M)
    assert concordance_table()[("16C", "16D")]["relation"] == "moved"
    c = one(records(release, "citations"), source_node="it-timeref:carta-esposta#carta-esposta-2")
    assert (c["raw"], c["target_node"], c["target_2017_node"], c["resolved"]) == (
        "16C", "es-laws:16#16C", "it-laws:16#16D", True)
    on = [(a["law_node"], a["kind"]) for a in records(release, "attachments")
          if a["node"] == "it-timeref:carta-esposta#carta-esposta-2"]
    assert sorted(on) == [("es-laws:16#16C", "timeref"), ("it-laws:16#16D", "timeref")]


def test_norms_and_time_references_attach_to_the_clauses_they_concern(release):
    """Norm 27 (its heading: ARTICOLO 27 – LICITA INSUFFICIENTE) stands over the whole Law 27; the
    time references of "Licita insufficiente" time 27B2 and 27B3, in both editions."""
    norms = source_text("it-norms-2026.txt")
    assert "ARTICOLO 27 – LICITA INSUFFICIENTE" in norms
    rows = records(release, "attachments")
    norm = one(rows, kind="norm", node="it-norms:27")
    assert (norm["law_node"], norm["law_clause"], norm["url"]) == ("it-laws:27", None, "/it-norms/27")
    timed = {(a["law_node"], a["ref"], a["edition"]) for a in rows if a["unit"] == "licita-insufficiente"}
    assert timed == {(f"{doc}:27#27B{n}", f"27B{n}", "2007") for doc in ("it-laws", "es-laws") for n in (2, 3)}


def curated(path: Path) -> list[dict[str, str]]:
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln and not ln.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))


def concordance_table() -> dict[tuple[str, str], dict]:
    """corpus/concordance.tsv as its header says, with its notes in English, Italian and Spanish
    (corpus/notes/<lang>/concordance.tsv), read here with csv alone."""
    table = {(r["older"], r["newer"]): {**r, "note": "", "note_it": "", "note_es": ""}
             for r in curated(REPO / "corpus" / "concordance.tsv")}
    for lang, column in (("en", "note"), ("it", "note_it"), ("es", "note_es")):
        for r in curated(REPO / "corpus" / "notes" / lang / "concordance.tsv"):
            table[(r["older"], r["newer"])][column] = r["note"]
    return table


def test_every_row_of_the_curated_concordance_is_there_in_order(release):
    table = concordance_table()
    rows = records(release, "concordance")
    assert [(r["es"] or "", r["it"] or "") for r in rows] == list(table)
    for r in rows:
        curated = table[(r["es"] or "", r["it"] or "")]
        assert (r["relation"], r["note"], r["notes"].get("it", ""), r["notes"].get("es", "")) == (
            curated["relation"], curated["note"], curated["note_it"], curated["note_es"])
    moved = one(rows, es="23")
    assert (moved["it"], moved["relation"]) == ("72C", "moved")  # DESIGN §6: ES 23 → IT 72C


def test_the_changes_are_the_rows_the_api_gives(release, client):
    api = client.get("/api/changes").json()
    rows = records(release, "changes")
    assert [{k: r[k] for k in ("law", "relation", "older", "newer", "note", "notes")} for r in rows] == api["changes"]
    assert {(r["older_doc"], r["newer_doc"]) for r in rows} == {(api["older"], api["newer"])}
    not_same = [k for k, r in concordance_table().items() if r["relation"] != "same"]
    assert sorted((r["older"] or "", r["newer"] or "") for r in rows) == sorted(not_same)
    page = client.get(rows[0]["url"].split("#")[0])
    assert page.status_code == 200 and f'id="{rows[0]["url"].split("#")[1]}"' in page.text


def situations_table() -> list[dict]:
    lines = [ln for ln in (REPO / "corpus" / "situations.tsv").read_text(encoding="utf-8").splitlines()
             if ln and not ln.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))


def law_node(doc: str, clause: str) -> str:
    """A Law clause's node: `it-laws:90#90B1`; an article's (or a definition's) own clause is the
    unit's node: `it-laws:90`, `it-laws:def-licita`."""
    number = re.match(r"\d+", clause)
    article = number[0] if number else clause
    return f"{doc}:{article}" if clause == article else f"{doc}:{article}#{clause}"


def test_the_situation_index_with_its_lead_norms_and_ruling_clauses(release):
    situations = {s["id"]: s for s in records(release, "situations")}
    rules = records(release, "situation_rules")
    curated = situations_table()
    assert list(situations) == [row["id"] for row in curated]
    for row in curated:
        s = situations[row["id"]]
        assert s["names"]["it"][0] == row["it"].split("|")[0].strip() and s["period"] == row["period"]
        mine = [r for r in rules if r["situation"] == row["id"]]
        laws = [law_node("it-laws", c) for c in row["laws_2017"].split()]
        laws += [law_node("es-laws", c) for c in row["laws_2007"].split()]
        assert [r["node"] for r in mine if r["role"] == "law"] == laws, row["id"]
        assert {r["node"] for r in mine if r["role"] == "also"} == set(row["also"].split()), row["id"]
        lead = row["lead"] or None
        assert s["lead_node"] == lead and [r["node"] for r in mine if r["lead"]] == ([lead] if lead else [])
    late = situations["late-arrival"]
    assert late["lead_node"] == "it-norms:8#8-3" and late["law"] == 90


def test_the_graph_edges_are_the_builds_typed_links(build_dir, release):
    graph = json.loads((generations.generation(build_dir) / generations.GRAPH_NAME).read_text(encoding="utf-8"))
    typed = [link for link in graph["links"] if link["type"] != "part"]  # a clause's place in its unit: clauses.unit
    edges = records(release, "edges")
    assert sorted((e["source"], e["target"], e["type"]) for e in edges) == sorted(
        (link["source"], link["target"], link["type"]) for link in typed)
    assert {"cites", "integrates", "annotates", "parallel", "defines"} == {e["type"] for e in edges}
    assert one(edges, type="parallel", source="es-laws:16#16C", target="it-laws:16#16D")["relation"] == "moved"


# ---------------------------------------------------------------- SQLite and Datasette

def test_the_database_holds_the_same_tables_and_keys_hold(release, package):
    con = sqlite3.connect(f"file:{release / 'bridge-laws.db'}?mode=ro", uri=True)
    try:
        for resource in tables(package):
            name, rows = resource["name"], records(release, resource["name"])
            assert con.execute(f"select count(*) from [{name}]").fetchone()[0] == len(rows), name
            columns = [c[1] for c in con.execute(f"pragma table_info([{name}])")]
            assert columns == [f["name"] for f in resource["schema"]["fields"]]
        assert con.execute("pragma foreign_key_check").fetchall() == []
        assert con.execute("pragma integrity_check").fetchone() == ("ok",)
        row = con.execute("select text, tables, extra from clauses where node = 'it-laws:27#27B1b'").fetchone()
        assert row[0] == one(records(release, "clauses"), node="it-laws:27#27B1b")["text"]
        assert json.loads(row[1]) == [] and json.loads(row[2]) == {}
        sql = con.execute("select sql from sqlite_master where name = 'clauses_fts'").fetchone()[0]
        assert "USING FTS5" in sql and "content=[clauses]" in sql
        hits = con.execute("select node from clauses where rowid in "
                           "(select rowid from clauses_fts where clauses_fts match 'giudicasse')").fetchall()
        assert hits == [("it-laws:27#27D",)]
    finally:
        con.close()


async def datasette_get(db: Path, path: str) -> dict:
    from datasette.app import Datasette
    response = await Datasette(files=[str(db)]).client.get(path)
    assert response.status_code == 200, response.text[:300]
    return response.json()


@pytest.mark.slow
def test_datasette_opens_the_database_as_it_is_and_searches_the_clauses(release):
    """Datasette finds the full-text index itself (no metadata, no plugin) and answers ?_search=
    from its JSON API. "giudicasse" is printed once in all five texts, in Law 27D (the innocent
    side damaged: "l'Arbitro giudicasse al termine del gioco…")."""
    assert sum(p.read_text(encoding="utf-8").lower().count("giudicasse") for p in TEXTS.glob("*.txt")) == 1
    db = release / "bridge-laws.db"
    listing = asyncio.run(datasette_get(db, "/bridge-laws.json"))
    assert one(listing["tables"], name="clauses")["fts_table"] == "clauses_fts"
    found = asyncio.run(datasette_get(db, "/bridge-laws/clauses.json?_search=giudicasse&_shape=objects"))
    assert [(r["node"], r["url"]) for r in found["rows"]] == [("it-laws:27#27D", "/it-laws/27#27D")]
    assert "giudicasse" in found["rows"][0]["text"]


@pytest.mark.slow
def test_datasette_search_folds_accents_and_filters_by_document(release):
    """A reader types "declaracion" without its accent: the Spanish clauses saying "declaración"."""
    db = release / "bridge-laws.db"
    plain = asyncio.run(datasette_get(db, "/bridge-laws/clauses.json?_search=declaracion&doc=es-laws&_shape=objects"
                                          "&_size=max"))
    accented = asyncio.run(datasette_get(db, "/bridge-laws/clauses.json?_search=declaraci%C3%B3n&doc=es-laws"
                                             "&_shape=objects&_size=max"))
    saying = {c["node"] for c in records(release, "clauses")
              if c["doc"] == "es-laws" and re.search(r"\bdeclaraci[oó]n\b", f"{c['text']} {c['title'] or ''}", re.I)}
    assert len(saying) > 5
    assert {r["node"] for r in plain["rows"]} == {r["node"] for r in accented["rows"]} == saying


# ---------------------------------------------------------------- the command

def test_the_command_says_what_it_wrote(written, package):
    path, out = written
    m = re.fullmatch(r"wrote release (\S+) of build (\S+) → (.+): (\d+) tables \((.+)\); (\d+) files, ([\d.]+) MB "
                     r"\(SQLite ([\d.]+) MB\)\n", out)
    assert m, out
    files = [p for p in path.rglob("*") if p.is_file()]
    assert (m[1], m[2], m[3]) == (package["version"], package["build"]["generation"], str(path))
    assert int(m[4]) == 10 and int(m[6]) == len(files)
    assert m[7] == f"{sum(p.stat().st_size for p in files) / 1e6:.1f}"
    assert m[8] == f"{(path / 'bridge-laws.db').stat().st_size / 1e6:.1f}"
    said = dict(part.rsplit(" ", 1) for part in m[5].split(", "))
    assert {k: int(v) for k, v in said.items()} == {r["name"]: len(records(path, r["name"])) for r in tables(package)}


def snapshot(folder: Path) -> dict:
    return {p.relative_to(folder).as_posix(): p.read_bytes() if p.is_file() else None for p in folder.rglob("*")}


def refused(run) -> str:
    err = run.stderr.strip()
    assert run.returncode == 2 and err.startswith("kb: error:") and "\n" not in err and run.stdout == ""
    return err


def test_a_file_is_refused_and_left_alone(kb, tmp_path):
    target = tmp_path / "release"
    target.write_text("mine", encoding="utf-8")
    assert "is a file" in refused(kb("release", str(target)))
    assert target.read_text(encoding="utf-8") == "mine" and sorted(p.name for p in tmp_path.iterdir()) == ["release"]


def test_standard_output_and_a_device_are_refused_before_any_build(kb, tmp_path, monkeypatch):
    """`kb export -` writes to standard output; a release is a folder of files: `-` is no folder
    (it once became one, named "-"); /dev/null is a device, not "a file"."""
    monkeypatch.chdir(tmp_path)
    built = []
    monkeypatch.setattr("kb.pipeline.build.ensure_build", lambda *a, **k: built.append(a))
    assert "writes a folder of files, not standard output" in refused(kb("release", "-"))
    assert "is not a folder (a device, FIFO or socket)" in refused(kb("release", "/dev/null"))
    assert list(tmp_path.iterdir()) == [] and built == []


def test_a_folder_holding_something_else_is_refused_naming_it(kb, tmp_path):
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    err = refused(kb("release", str(tmp_path)))
    assert "not empty" in err and "(notes.txt)" in err
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def earlier_release(folder: Path, files=("units.jsonl", "schemas/units.jsonschema.json", "old-table.jsonl")) -> Path:
    for name in files:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("{}\n", encoding="utf-8")
    (folder / MARK).write_text("\n".join(["gen-old", *files]) + "\n", encoding="utf-8")
    return folder


def test_an_earlier_release_holding_files_it_did_not_write_is_refused_naming_them(kb, tmp_path):
    target = earlier_release(tmp_path / "release")
    (target / "schemas" / "mine.json").write_text("{}", encoding="utf-8")
    (target / "photos").mkdir()
    before = snapshot(target)
    err = refused(kb("release", str(target)))
    assert "schemas/mine.json" in err and "photos/" in err and "units.jsonl" not in err
    assert snapshot(target) == before and sorted(p.name for p in tmp_path.iterdir()) == ["release"]


def test_an_earlier_release_is_replaced_whole(kb, tmp_path):
    target = earlier_release(tmp_path / "release")
    assert kb("release", str(target)).returncode == 0
    assert not (target / "old-table.jsonl").exists() and (target / "datapackage.json").is_file()
    assert (target / MARK).read_text(encoding="utf-8").splitlines()[1:] == sorted(
        p.relative_to(target).as_posix() for p in target.rglob("*") if p.is_file() and p.name != MARK)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["release"]  # no temporary left beside it


@pytest.mark.slow
def test_a_release_into_a_link_writes_the_folder_it_names(build_dir, tmp_path):
    real = earlier_release(tmp_path / "real")
    link = tmp_path / "release"
    link.symlink_to(real)
    out = write_release(KnowledgeBase.open(build_dir), link)
    assert out.path == real and link.is_symlink() and (real / "clauses.jsonl").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["real", "release"]


def test_a_failed_release_leaves_the_earlier_one_as_it_was(build_dir, tmp_path, monkeypatch):
    target = earlier_release(tmp_path / "release")
    before = snapshot(target)

    def full_disk(*args):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr("kb.release.writer.write_database", full_disk)
    with pytest.raises(OSError):
        write_release(KnowledgeBase.open(build_dir), target)
    assert snapshot(target) == before and sorted(p.name for p in tmp_path.iterdir()) == ["release"]


@pytest.mark.slow
def test_a_killed_runs_temporary_is_removed_by_the_next_run(build_dir, tmp_path):
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    stale = tmp_path / f".release{MARK}-{int(gone.stdout)}.new"  # named for its target and a process that ended
    stale.mkdir()
    (stale / "clauses.jsonl").write_text("half", encoding="utf-8")
    running = tmp_path / f".release{MARK}-{os.getppid()}.new"
    running.mkdir()  # another run's, still going
    write_release(KnowledgeBase.open(build_dir), tmp_path / "release")
    assert sorted(p.name for p in tmp_path.iterdir()) == [running.name, "release"]


@pytest.mark.slow
@pytest.mark.parametrize("mask, folders, files", [(0o022, 0o755, 0o644), (0o027, 0o750, 0o640)],
                         ids=["umask 022", "umask 027"])
def test_a_release_is_readable_by_others_as_the_umask_says(build_dir, tmp_path, umask, mask, folders, files):
    """Folders, the JSON files and the SQLite file alike (SQLite makes its file itself)."""
    umask(mask)
    out = write_release(KnowledgeBase.open(build_dir), tmp_path / "release").path
    modes = {(p.is_dir(), stat.S_IMODE(p.stat().st_mode)) for p in [out, *out.rglob("*")]}
    assert modes == {(True, folders), (False, files)}


@pytest.mark.slow
def test_the_release_of_a_build_is_the_same_bytes_each_time(build_dir, release, tmp_path):
    again = write_release(KnowledgeBase.open(build_dir), tmp_path / "again").path
    assert snapshot(again) == snapshot(release)


def test_a_static_copy_of_the_site_is_no_release_to_replace(kb, tmp_path):
    site = tmp_path / "site"
    (site / "it").mkdir(parents=True)
    (site / "it" / "index.html").write_text("<html>", encoding="utf-8")
    (site / ".kb-site").write_text("gen-old\nit/index.html\n", encoding="utf-8")
    err = refused(kb("release", str(site)))
    assert "holds no earlier release" in err and "it/" in err
    assert (site / "it" / "index.html").is_file()
