"""The unit page and `kb show` read a unit in the source's order: text after a list after its items,
tables after the paragraph that introduces them."""
import html
import re

import pytest

from kb.cli import main


def plain(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


@pytest.mark.parametrize("path, earlier, later", [
    # the closing sentence of ES 69B comes after 69B2, at 69B's level
    ("/es-laws/69", "que es probable que su bando hubiera ganado", "El estuche se vuelve a puntuar"),
    ("/it-laws/71", "non sarebbe potuta essere persa", "Il punteggio del board viene allora nuovamente registrato"),
    # App. 3 §2: the NOT-alerted list is introduced after the should-alert list ends
    ("/it-norms/alert", "Vedi Art. 40A1b", "Se si gioca senza sipari, NON vanno allertate"),
    ("/it-norms/alert", "Se si gioca senza sipari, NON vanno allertate", "Ogni tipo di contro e di surcontro"),
    # norm 8: the table follows the sentence introducing it
    ("/it-norms/8", "spiegazione reciproca dei sistemi", "2h 30m"),
    ("/it-norms/8", "Questo dà luogo alla seguente tabella", "1h 00m"),
])
def test_unit_page_reads_in_source_order(client, path, earlier, later):
    text = plain(client.get(path).text)
    assert earlier in text and later in text
    assert text.index(earlier) < text.index(later)


def test_a_closing_paragraph_sits_at_its_owners_level_with_its_own_anchor(client):
    page = client.get("/es-laws/69").text
    owner = re.search(r'<section id="69B" class="clause depth-(\d)', page)
    closing = re.search(r'<section id="69B-p2" class="clause depth-(\d) closing', page)
    assert owner and closing and owner.group(1) == closing.group(1)


@pytest.mark.parametrize("doc, unit, earlier, later", [
    ("it-norms", "alert", "1) Le licite convenzionali", "Se si gioca senza sipari, NON vanno allertate"),
    ("it-laws", "69", "69B2 se un giocatore", "Il risultato del board viene allora nuovamente registrato"),
    ("es-laws", "69", "69B2 Si un jugador", "El estuche se vuelve a puntuar"),
    ("it-norms", "8", "La squadra che risulti così vincente", "La squadra perdente otterrà 0 V.P."),
])
def test_kb_show_reads_in_source_order(build_dir, capsys, monkeypatch, doc, unit, earlier, later):
    monkeypatch.setenv("KB_BUILD_DIR", str(build_dir))
    assert main(["show", doc, unit]) == 0
    out = re.sub(r"\s+", " ", capsys.readouterr().out)
    assert earlier in out and later in out
    assert out.index(earlier) < out.index(later)
