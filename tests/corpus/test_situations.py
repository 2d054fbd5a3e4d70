"""The situation index (corpus/situations.tsv): every row speaks the three languages, belongs
to a period of the board and points at clauses that exist, in both editions of the Laws; its
phrasings (search tuning, corpus/tuning/phrasings.tsv) are kept apart, each of a situation that
exists."""
import re
from collections import Counter
from pathlib import Path

import pytest

from kb.readmodel.knowledge import CLOCK_COLUMNS

from kb.editions.concordance import read_tsv
from kb.corpus.library import Library
from kb.corpus.situations import load, load_game

CORPUS = Path(__file__).resolve().parents[2] / "corpus"


@pytest.fixture(scope="module")
def situations(export):
    return load(CORPUS / "situations.tsv", Library.of(export["documents"]))


@pytest.fixture(scope="module")
def clauses(export):
    return {(d["id"], u["id"], c) for d in export["documents"] for u in d["units"]
            for c in [None, *(c["id"] for c in u["clauses"])]}  # None: the whole unit


def test_the_index_is_large_and_its_ids_unique(situations):
    assert len(situations) >= 300
    assert len({s.id for s in situations}) == len(situations)


def test_every_situation_is_said_in_three_languages(situations):
    for s in situations:
        assert {lang for lang, phrases in s.says if phrases and all(phrases)} == {"it", "es", "en"}, s.id


def test_every_target_exists(situations, clauses):
    missing = [(s.id, t) for s in situations for t in s.targets if t not in clauses]
    assert missing == []


def test_both_editions_rule_it_unless_it_is_new_in_2017(situations):
    for s in situations:
        docs = {doc for doc, _, _ in s.laws}
        assert "it-laws" in docs, s.id
        assert "es-laws" in docs or "2017" in s.note, s.id  # the note says what 2007 lacks


def test_every_period_is_one_of_the_boards(situations):
    periods = [r["period"] for r in read_tsv(CORPUS / "clock.tsv", CLOCK_COLUMNS)]
    assert {s.period for s in situations} <= set(periods)
    assert {s.period for s in situations} == set(periods)  # and every period has its situations


def test_a_lead_is_a_norm_among_its_targets(situations, export):
    """`lead` names the norm that fixes the ruling in Italy; it must be one of the row's `also`."""
    norms = set(Library.of(export["documents"]).ids("norms"))
    led = [s for s in situations if s.lead]
    assert len(led) >= 20  # penalties and procedures the Laws leave to the federation
    assert all(s.lead in s.also and s.lead[0] in norms for s in led)


def test_a_lead_that_is_not_among_the_targets_is_refused(tmp_path, export):
    from kb.corpus.manifest import CorpusError
    lines = (CORPUS / "situations.tsv").read_text(encoding="utf-8").splitlines()
    header = next(i for i, ln in enumerate(lines) if ln and not ln.startswith("#"))
    columns = lines[header].split("\t")
    row = lines[header + 1].split("\t")
    row[columns.index("lead")] = "it-norms:76#76-4"  # the spectators' norm, not late arrival's
    (tmp_path / "situations.tsv").write_text("\n".join(lines[:header + 1] + ["\t".join(row)]), encoding="utf-8")
    with pytest.raises(CorpusError, match="not one of its `also` targets"):
        load(tmp_path / "situations.tsv", Library.of(export["documents"]))


@pytest.mark.parametrize("q, first", [
    ("la coppia avversaria è arrivata con 10 minuti di ritardo", ("it-norms", "8")),   # norm 8 §3: the penalty
    ("psichica su un'apertura convenzionale forte", ("it-norms", "psichiche")),       # the appendix's rules
    ("cartellino stop prima di un salto", ("it-norms", "18")),                         # norm 18 §3
    ("spettatore al tavolo che parla", ("it-laws", "76")),                             # the Law rules it
])
def test_the_unit_that_rules_first_comes_first(engine, q, first):
    """A situation whose ruling the FIGB norm fixes opens on the norm; one the Law rules, on the Law."""
    hit = engine.search(q, ui="it").hits[0]
    assert (hit.doc, hit.unit) == first


# ---------------------------------------------------------------- the phrasings: search tuning

@pytest.fixture(scope="module")
def phrasings(situations, burraco):
    from kb.search.entries import phrasings
    return phrasings(CORPUS, {s.id for s in (*situations, *burraco)})


def test_the_index_keeps_names_and_the_phrasings_are_tuning_apart(situations, phrasings):
    """A row of the index holds a name and at most two other names per language (what the page
    shows); the ways people say it are tuning, many per situation and language."""
    for s in situations:
        assert all(1 <= len(phrases) <= 3 for _, phrases in s.says), s.id
        said = Counter(lang for lang, _ in phrasings.get(s.id, ()))
        assert min(said[lang] for lang in ("it", "es", "en")) >= 10, s.id
    assert sum(len(v) for v in phrasings.values()) >= 30000


def test_a_phrasing_of_no_situation_is_refused(tmp_path, situations):
    from kb.corpus.manifest import CorpusError
    from kb.search.entries import PHRASINGS, phrasings
    (tmp_path / PHRASINGS).parent.mkdir()
    (tmp_path / PHRASINGS).write_text("situation\tlang\tphrase\nlate-arival\tit\tin ritardo\n", encoding="utf-8")
    with pytest.raises(CorpusError, match="late-arival it 'in ritardo': no such situation"):
        phrasings(tmp_path, {s.id for s in situations})


# ---------------------------------------------------------------- the other game's table

@pytest.fixture(scope="module")
def burraco(export):
    return load_game(CORPUS / "burraco-situations.tsv", Library.of(export["documents"]))


def test_the_burraco_table_covers_the_code_in_three_languages(burraco, clauses, phrasings):
    assert len(burraco) >= 60 and len({s.id for s in burraco}) == len(burraco)
    for s in burraco:
        said = Counter(lang for lang, _ in [*s.phrases(), *phrasings.get(s.id, ())])
        assert {lang for lang, n in said.items() if n >= 5} == {"it", "es", "en"}, s.id  # a name and ways
    assert [(s.id, t) for s in burraco for t in s.targets if t not in clauses] == []
    articles = {u for s in burraco for _, u, _ in s.targets}
    assert len(articles) >= 35  # nearly every article of the code rules some situation


GOOD = "burraco-late\tritardo\tretraso\tlate\tit-burraco:37#37-p4\tn"


@pytest.mark.parametrize("table, why", [
    ("id\tit\tklingon\ttargets\tnote\nx\ta\tb\tit-burraco:1\tn", "header must be"),
    ("id\tit\tit\ttargets\tnote\nx\ta\tb\tit-burraco:1\tn", "header must be"),
    (f"id\tit\tes\ten\ttargets\tnote\n{GOOD}\n{GOOD}", "needs an id of its own"),
    ("id\tit\tes\ten\ttargets\tnote\nx\ta\tb\tc\t\tn", "needs an id of its own, targets"),
    ("id\tit\tes\ten\ttargets\tnote\nx\t\t\t\tit-burraco:37\tn", "targets and phrases"),
    ("id\tit\tes\ten\ttargets\tnote\nx\ta\tb\tc\tit-burracco:6#6\tn", "it-burracco:6#6 are not"),
    ("id\tit\tes\ten\ttargets\tnote\nx\ta\tb\tc\tit-burraco6\tn", "targets it-burraco6 are not"),
    ("id\tit\tes\ten\ttargets\tnote\nx\ta\tb\tc\tit-burraco:6 it-laws:64#64A\tn", "it-laws:64#64A are not"),
])
def test_a_malformed_burraco_table_is_refused(tmp_path, export, table, why):
    """A bad header, a repeated or empty id, a row with no targets or no phrases, a target
    outside the Burraco code (mistyped, or bridge's): one clear error, nothing loaded."""
    from kb.corpus.manifest import CorpusError
    (tmp_path / "b.tsv").write_text(table + "\n", encoding="utf-8")
    with pytest.raises(CorpusError, match=re.escape(why)):
        load_game(tmp_path / "b.tsv", Library.of(export["documents"]))
