"""Study mode in a real browser on a phone (headless Chromium, a real server): after one visit
the site is kept, then offline a reader answers a drill, bookmarks a clause, writes a note, marks a
Law read, reloads and finds them all, and exports them; nothing but the cards is ever fetched."""
import json
import re
import time
import urllib.request

import pytest

from tests.fsrs_reference import DAY, HOUR, LEITNER_DAYS, MINUTE, differences, fnv1a, from_js, leitner_history, reference
from tests.browser.test_offline_browser import keep_offline

pytestmark = pytest.mark.slow


def requests_of(page):
    seen = []
    page.on("request", lambda r: seen.append(r.url))
    return seen


def test_offline_a_reader_drills_bookmarks_notes_marks_read_and_exports(server, phone, shot, tmp_path):
    page = phone()
    keep_offline(page, server)
    page.context.set_offline(True)
    seen = requests_of(page)

    # a drill: which Law rules this situation? four Laws to choose from; the answer is the clause
    page.goto(server + "/study")
    page.click("button.deck[data-deck=situations]")
    page.wait_for_selector(".choices button.choice")
    assert page.locator(".choices button.choice").count() == 4
    assert page.text_content(".prompt") == "Quale articolo regola questa situazione?"
    question = page.text_content(".question")
    page.locator(".choices button.choice").first.click()
    assert page.text_content(".verdict") in ("Giusto.", "Non proprio.")
    link = page.locator(".answer-link a")
    assert link.get_attribute("href").startswith("/it-laws/") and link.text_content()
    shot(page, "study-drill-answer-phone")
    # a new card: FSRS's learning steps (1 and 10 minutes; Hard halfway), Easy straight to days
    assert page.locator(".grade .rate-name").all_text_contents() == ["Di nuovo", "Difficile", "Bene", "Facile"]
    assert page.locator(".grade .rate-interval").all_text_contents()[:3] == ["1 min", "5,5 min", "10 min"]
    assert re.fullmatch(r"\d+ g", page.text_content(".grade .rate[data-rating='4'] .rate-interval"))
    page.click(".grade .rate[data-rating='3']")
    assert page.text_content(".question") != question  # the next card
    assert re.match(r"1 di \d+ viste · 0 da ripassare", page.text_content(".drill-progress"))  # Good: back in 10 minutes

    # a bookmark and a note on a clause; the Law marked read on its page
    page.goto(server + "/it-laws/27")
    page.click("details.more[data-for='27B1'] > summary")
    tools = page.locator("details.more[data-for='27B1'] .clause-tools")
    tools.locator("button.bookmark").click()
    tools.locator("button.note-toggle").click()
    page.fill("section[id='27B1'] > textarea.note-field", "Chiedere sempre al giocatore.")
    page.click(".read-mark button.read-toggle")
    shot(page, "study-unit-tools-phone")

    page.reload()
    assert page.get_attribute("details.more[data-for='27B1'] button.bookmark", "aria-pressed") == "true"
    assert page.text_content("details.more[data-for='27B1'] > summary") == "⋯" and page.is_visible(
        "details.more.marked[data-for='27B1'] > summary")  # a bookmarked clause's control shows it (★)
    assert page.input_value("section[id='27B1'] > textarea.note-field") == "Chiedere sempre al giocatore."
    assert page.get_attribute(".read-mark button.read-toggle", "aria-pressed") == "true"
    assert page.get_attribute("details.more[data-for='27B2'] button.bookmark", "aria-pressed") == "false"

    # /study lists them with permalinks, counts the Law read, remembers the drill
    page.goto(server + "/study")
    mark = page.locator("ul.marks a")
    assert mark.count() == 1 and mark.get_attribute("href") == "/it-laws/27#27B1"
    assert page.text_content("ul.marks .note-text") == "Chiedere sempre al giocatore."
    assert page.text_content(".plan-progress") == "1 di 93 letti"
    assert page.get_attribute('li[data-unit="27"] button.read-toggle', "aria-pressed") == "true"
    page.wait_for_selector("button.deck[data-deck=situations] .deck-progress:has-text('1 di')")
    shot(page, "study-page-phone")

    # export everything as a file; the Markdown of the notes carries the permalink
    with page.expect_download() as got:
        page.click("button.export-all")
    data = json.loads(open(got.value.path(), encoding="utf-8").read())
    assert data["format"] == "bridge-laws-study" and len(data["schedule"]) == 1
    assert data["clauses"]["it-laws/27#27B1"]["note"] == "Chiedere sempre al giocatore."
    assert list(data["read"]) == ["it-laws/27"]
    with page.expect_download() as got:
        page.click("button.export-md")
    md = open(got.value.path(), encoding="utf-8").read()
    assert f"]({server}/it-laws/27#27B1)" in md and "> Chiedere sempre al giocatore." in md

    # nothing left the browser: offline, every request was the site's own (answered by the worker)
    assert seen and all(u.startswith(server) or u.startswith("blob:") for u in seen), seen


def test_an_export_imports_on_another_device(server, phone, tmp_path):
    data = {"format": "bridge-laws-study", "version": 1, "schedule": {},
            "clauses": {"it-laws/12#12C1": {"doc": "it-laws", "unit": "12", "clause": "12C1", "label": "Art. 12 · 12C1",
                                            "bookmark": True, "note": "<b>rettifica</b>"}},
            "read": {"it-laws/1": "2024-01-01T00:00:00Z", "it-laws/2": "2024-01-01T00:00:00Z"}}
    path = tmp_path / "study.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    page = phone(locale="es-ES")
    page.goto(server + "/study?ui=es")
    page.set_input_files(".import input[type=file]", str(path))
    page.wait_for_selector(".data-status:has-text('Importado')")
    assert page.locator("ul.marks a").count() == 1 and page.get_attribute("ul.marks a", "href") == "/it-laws/12#12C1"
    assert page.text_content("ul.marks .note-text") == "<b>rettifica</b>"  # shown as text, never as markup
    assert page.text_content(".plan-progress") == "2 de 93 leídas"
    bad = tmp_path / "other.json"
    bad.write_text('{"hello": 1}', encoding="utf-8")
    page.set_input_files(".import input[type=file]", str(bad))
    page.wait_for_selector(".data-status:has-text('no es una exportación')")


# ---------------------------------------------------------------- the Leitner drills' data, read by FSRS
def leitner_era(server: str, now: int) -> dict:
    """A store as the Leitner drills (before issue 32) wrote it: save() of load()'s {schedule,
    clauses, read}; grade() gave a card {box, due: Date.now() + DAYS[box] days, seen}. Four
    definitions: box 1 answered two days ago, box 2 a day and an hour ago (both due), box 5 three
    days ago, box 3 an hour ago; a bookmark with a note; a Law read."""
    ids = [c["id"] for c in json.load(urllib.request.urlopen(server + "/study/cards.json"))["decks"]["definitions"][:4]]
    answered = [(1, now - 2 * DAY, 3), (2, now - 25 * HOUR, 1), (5, now - 3 * DAY, 4), (3, now - HOUR, 2)]
    return {"schedule": {i: {"box": box, "due": t + LEITNER_DAYS[box] * DAY, "seen": seen}
                         for i, (box, t, seen) in zip(ids, answered)},
            "clauses": {"it-laws/27#27B1": mark("it-laws", "27", "27B1", note="Chiedere sempre.", at="2024-05-01T10:00:00.000Z")},
            "read": {"it-laws/27": "2024-05-01T10:00:00.000Z"}}


def migrated(entry: dict) -> dict:
    """The reference's card after the answers a Leitner entry records, its due date kept."""
    return {**reference(leitner_history(entry["box"], entry["due"]))[-1], "due": entry["due"]}


def after(card_id: str, entry: dict, rating: int, time: int) -> dict:
    """The reference's card after `rating` at `time`, fuzzed with the drills' draw for that review."""
    start = from_js(entry if "state" in entry else migrated(entry))
    return reference([[rating, time, fnv1a(f"{card_id}#{entry['seen'] + 1}")]], fuzz=True, start=start)[-1]


def italian(ms: int) -> str:  # a rating button's interval as the Italian page words it (minutes or days here)
    return f"{ms / MINUTE:g} min".replace(".", ",") if ms < HOUR else f"{ms // DAY} g"


def expected_intervals(card_id: str, entry: dict, time: int) -> list[str]:
    return [italian(after(card_id, entry, r, time)["due"] - time) for r in (1, 2, 3, 4)]


def test_a_leitner_era_store_and_export_become_fsrs_and_the_drills_go_on(server, phone, shot, tmp_path):
    now = int(time.time() * 1000)
    store = leitner_era(server, now)
    ids = list(store["schedule"])
    questions = {c["id"]: c["question"] for c in json.load(urllib.request.urlopen(server + "/study/cards.json"))["decks"]["definitions"]}
    page, errors = phone(), []
    page.on("pageerror", lambda e: errors.append(e))
    page.goto(server + "/study")
    page.evaluate("s => localStorage.setItem('kb-study', s)", json.dumps(store, separators=(",", ":")))
    page.reload()

    # what the student had, counted as before: 4 seen, 2 due, box 5 learnt; the bookmark, the Law read
    page.wait_for_selector("button.deck[data-deck=definitions] .deck-progress:has-text('4 di 63 viste · 2 da ripassare · 1 imparate')")
    assert page.get_attribute("ul.marks a", "href") == "/it-laws/27#27B1" and page.text_content(".plan-progress") == "1 di 93 letti"

    # the longest due first (box 1): its four ratings and when each brings it back, as the reference says
    page.click("button.deck[data-deck=definitions]")
    assert page.text_content(".question") == questions[ids[0]]
    page.click(".drill .show")
    shown = page.locator(".grade .rate-interval").all_text_contents()
    assert shown == expected_intervals(ids[0], store["schedule"][ids[0]], int(time.time() * 1000))
    assert shown[:3] == ["1 min", "5,5 min", "10 min"]  # box 1 reads as a card in its first learning step
    page.click(".grade .rate[data-rating='3']")
    kept = json.loads(stored(page))["schedule"][ids[0]]
    assert differences([kept], [after(ids[0], store["schedule"][ids[0]], 3, kept["last_review"])]) == []
    assert kept["seen"] == 4 and "leitner" not in kept and kept["due"] - kept["last_review"] == 10 * MINUTE

    # then box 2, due an hour ago: Good and Easy in days
    assert page.text_content(".question") == questions[ids[1]]
    page.click(".drill .show")
    page.locator(".grade").scroll_into_view_if_needed()
    shown = page.locator(".grade .rate-interval").all_text_contents()
    assert shown == expected_intervals(ids[1], store["schedule"][ids[1]], int(time.time() * 1000))
    assert shown[0] == "1 min" and shown[2].endswith(" g") and shown[3].endswith(" g")
    shot(page, "study-ratings-after-leitner-phone")
    page.click(".grade .rate[data-rating='4']")
    assert page.text_content(".drill-progress").startswith("4 di 63 viste · 0 da ripassare")

    # the export: FSRS state, the cards not yet reviewed still naming their box, their due dates kept
    with page.expect_download() as got:
        page.click("button.export-all")
    data = json.loads(open(got.value.path(), encoding="utf-8").read())
    assert data["version"] == 2 and list(data["schedule"]) == ids
    for i in ids[2:]:
        leitner = store["schedule"][i]
        assert data["schedule"][i]["leitner"] == leitner["box"] and data["schedule"][i]["seen"] == leitner["seen"]
        assert differences([data["schedule"][i]], [migrated(leitner)]) == []
    assert data["clauses"] == store["clauses"] and data["read"] == store["read"]  # nothing else changed
    assert errors == []


def test_the_ratings_read_in_the_dark_too(server, phone, shot):
    store = leitner_era(server, int(time.time() * 1000))
    page = phone(color_scheme="dark")
    page.goto(server + "/study")
    page.evaluate("s => localStorage.setItem('kb-study', s)", json.dumps(store, separators=(",", ":")))
    page.reload()
    page.click("button.deck[data-deck=definitions]")
    page.click(".drill .show")
    page.click(".grade .rate[data-rating='3']")
    page.click(".drill .show")  # the box-2 card: intervals in minutes and days
    page.locator(".grade").scroll_into_view_if_needed()
    shot(page, "study-ratings-after-leitner-dark-phone")
    colours = page.eval_on_selector_all(".grade .rate", "els => els.map(e => getComputedStyle(e).color)")
    assert colours == ["rgb(232, 230, 225)"] * 4  # the dark theme's text (--fg)


def test_a_leitner_era_export_imports_on_another_device_as_fsrs(server, phone, tmp_path):
    """A study file as the Leitner drills exported it (version 1, JSON.stringify(…, null, 2)),
    imported into a fresh Spanish browser: the same cards seen and due, FSRS state, due dates kept."""
    store = leitner_era(server, int(time.time() * 1000))
    export = {"format": "bridge-laws-study", "version": 1, "exported": "2024-05-02T08:00:00.000Z", **store}
    path = tmp_path / "bridge-laws-study.json"
    path.write_text(json.dumps(export, indent=2, ensure_ascii=False), encoding="utf-8")
    page, errors = phone(locale="es-ES"), []
    page.on("pageerror", lambda e: errors.append(e))
    page.goto(server + "/study?ui=es")
    page.set_input_files(".import input[type=file]", str(path))
    page.wait_for_selector(".data-status:has-text('Importado')")
    page.wait_for_selector("button.deck[data-deck=definitions] .deck-progress:has-text('4 de 63 vistas · 2 pendientes · 1 aprendidas')")
    schedule = json.loads(stored(page))["schedule"]
    for i, leitner in store["schedule"].items():
        assert schedule[i]["leitner"] == leitner["box"] and schedule[i]["seen"] == leitner["seen"]
        assert differences([schedule[i]], [migrated(leitner)]) == [], i
    page.click("button.deck[data-deck=definitions]")
    page.click(".drill .show")
    assert page.locator(".grade .rate-name").all_text_contents() == ["Otra vez", "Difícil", "Bien", "Fácil"]
    assert page.locator(".grade .rate-interval").all_text_contents()[:3] == ["1 min", "5,5 min", "10 min"]
    page.click(".grade .rate[data-rating='3']")
    assert page.text_content(".drill-progress").startswith("4 de 63 vistas · 1 pendientes")
    assert page.text_content("ul.marks .note-text") == "Chiedere sempre." and errors == []


def test_a_drill_without_javascript_says_so_and_the_law_page_is_unchanged(server, browser):
    context = browser.new_context(java_script_enabled=False, locale="it-IT")
    page = context.new_page()
    page.goto(server + "/study")
    assert page.is_visible(".needs-script") and not page.is_visible(".decks")
    page.goto(server + "/it-laws/27")
    assert page.locator(".clause-tools").count() == 0 and not page.is_visible(".read-mark")
    context.close()


def test_the_study_controls_are_fingertip_sized_on_a_phone(server, phone):
    page = phone()
    page.goto(server + "/it-laws/27")
    page.click("details.more[data-for='27B1'] > summary")
    small = page.eval_on_selector_all("details.more > summary, details[open] .more-body button, details[open] .more-body a",
                                      "els => els.filter(e => e.offsetParent).map(e => e.getBoundingClientRect())"
                                      ".filter(r => r.height < 44 || r.width < 44).length")
    assert small == 0
    page.goto(server + "/study")
    page.wait_for_selector("button.deck")
    page.click("button.deck[data-deck=definitions]")
    small = page.eval_on_selector_all(
        "button.deck, .drill button:not([hidden]), ul.plan button, .data-tools button, .import",
        "els => els.filter(e => e.offsetParent).map(e => e.getBoundingClientRect())"
        ".filter(r => r.height < 44 || r.width < 44).length")
    assert small == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # nothing scrolls sideways


# ---------------------------------------------------------------- study data that cannot be poisoned
def study_file(**parts) -> dict:
    return {"format": "bridge-laws-study", "version": 1, "schedule": {}, "clauses": {}, "read": {}, **parts}


def mark(doc: str, unit: str, clause: str, **more) -> dict:
    return {"doc": doc, "unit": unit, "clause": clause, "label": f"Art. {unit}", "bookmark": True, **more}


GOOD = study_file(schedule={"definitions:it-laws:def-alert": {"box": 2, "due": 0, "seen": 1}},
                  clauses={"it-laws/27#27B1": mark("it-laws", "27", "27B1", note="Chiedere sempre.")},
                  read={"it-laws/27": "2024-01-01T00:00:00.000Z"})
JAVASCRIPT = mark("javascript:alert(1)//", "y", "z")
HOSTILE = {  # a file, and what the page says of it (the Italian interface)
    "not JSON": ("{not json", "non è JSON"),
    "JSON of another shape": ([{"doc": "it-laws"}], "non è un'esportazione di studio di questo sito"),
    "another format": ({**GOOD, "format": "other"}, "non è un'esportazione di studio di questo sito"),
    "a part of the wrong type": (study_file(clauses=[1, 2]), "non è un'esportazione di studio di questo sito"),
    "one bad entry": (study_file(clauses={"it-laws/1#1A": mark("it-laws", "1", "1A"), "it-laws/2#2": mark("it-laws", "2", "2"),
                                          "x/y#z": JAVASCRIPT}),
                      "Non è stato importato nulla: voce 3 dei segnalibri e delle note (x/y#z): id del comma non valido."),
    "a __proto__ key": (study_file(clauses={"__proto__": mark("it-laws", "1", "1")}),
                        "voce 1 dei segnalibri e delle note (__proto__): id del comma non valido"),
    "a 5 MB note": (study_file(clauses={"it-laws/40#40A": mark("it-laws", "40", "40A", note="x" * 5_000_000)}),
                    "voce 1 dei segnalibri e delle note (it-laws/40#40A): nota troppo lunga"),
    "a bad schedule and more": (study_file(schedule={"titles:it-laws:1": {"box": "5", "due": 0, "seen": 1},
                                                     "titles:it-laws:2": None}, read={"it-laws/3": "ieri"}),
                                "voce 1 del calendario degli esercizi (titles:it-laws:1): non è una voce del calendario "
                                "degli esercizi. Altre voci non valide: 2."),
}


def import_file(page, path, content) -> None:
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    page.eval_on_selector(".data-status", "e => { e.textContent = ''; }")
    page.set_input_files(".import input[type=file]", str(path))


def stored(page):
    return page.evaluate("localStorage.getItem('kb-study')")


def assert_study_shows_the_good_entries(page, server):
    page.goto(server + "/study")
    assert page.locator("ul.marks a").count() == 1 and page.get_attribute("ul.marks a", "href") == "/it-laws/27#27B1"
    assert page.text_content("ul.marks .note-text") == "Chiedere sempre."
    assert page.text_content(".plan-progress") == "1 di 93 letti"
    page.wait_for_selector("button.deck[data-deck=definitions] .deck-progress:has-text('1 di 63 viste')")


def test_a_hostile_study_file_changes_nothing_and_says_what_is_wrong(server, phone, shot, tmp_path):
    page = phone()
    errors = []
    page.on("pageerror", lambda e: errors.append(e))
    page.goto(server + "/study")
    import_file(page, tmp_path / "good.json", GOOD)
    page.wait_for_selector(".data-status:has-text('Importato')")
    before = stored(page)
    for name, (content, said) in HOSTILE.items():
        import_file(page, tmp_path / "hostile.json", content)
        status = page.locator(".data-status.error")
        status.wait_for()
        assert said in status.text_content(), name
        assert stored(page) == before, name  # nothing merged, nothing saved
        if name == "one bad entry":
            status.scroll_into_view_if_needed()
            shot(page, "study-import-refused-phone")
    assert_study_shows_the_good_entries(page, server)
    import_file(page, tmp_path / "good.json", study_file(read={"it-laws/28": "2024-01-02T00:00:00Z"}))
    page.wait_for_selector(".data-status:not(.error):has-text('Importato')")
    assert page.text_content(".plan-progress") == "2 di 93 letti" and errors == []


def test_the_refusal_reads_in_the_dark_too(server, phone, shot, tmp_path):
    page = phone(color_scheme="dark")
    page.goto(server + "/study")
    import_file(page, tmp_path / "hostile.json", HOSTILE["a 5 MB note"][0])
    status = page.locator(".data-status.error")
    status.wait_for()
    status.scroll_into_view_if_needed()
    shot(page, "study-import-refused-dark-phone")
    assert status.evaluate("e => getComputedStyle(e).color") == "rgb(255, 140, 140)"  # the dark theme's warning colour


DAMAGED = {"schedule": {"definitions:it-laws:def-alert": {"box": 2, "due": 0, "seen": 1}, "bad": None, "titles:x": "x"},
           "clauses": {"it-laws/27#27B1": mark("it-laws", "27", "27B1", note="Chiedere sempre."), "x/y#z": JAVASCRIPT,
                       "__proto__": mark("it-laws", "1", "1"), "it-laws/1#1A": mark("it-laws", "1", "1A", note="x" * 200_000),
                       "it-laws/2#2": "a string", "it-laws/3#3": {"doc": 3}},
           "read": {"it-laws/27": "2024-01-01T00:00:00Z", "it-laws/28": {"a": 1}, "javascript:x": "2024-01-01"}}


def test_a_damaged_store_is_read_for_its_good_entries_on_study_and_on_a_law_page(server, phone, shot):
    page = phone()
    errors = []
    page.on("pageerror", lambda e: errors.append(e))
    page.goto(server + "/study")
    page.evaluate("s => localStorage.setItem('kb-study', s)", json.dumps(DAMAGED))
    assert_study_shows_the_good_entries(page, server)
    page.locator(".data-status").scroll_into_view_if_needed()
    shot(page, "study-damaged-store-phone")
    assert page.text_content(".data-status").startswith(
        "Voci danneggiate dei dati di studio su questo dispositivo, ignorate: 9. Voce 2 del calendario degli esercizi (bad): id della scheda non valido.")
    page.goto(server + "/it-laws/27")
    assert page.get_attribute("details.more[data-for='27B1'] button.bookmark", "aria-pressed") == "true"
    assert page.input_value("section[id='27B1'] > textarea.note-field") == "Chiedere sempre."
    assert page.get_attribute(".read-mark button.read-toggle", "aria-pressed") == "true"
    page.click("details.more[data-for='27B2'] > summary")
    page.click("details.more[data-for='27B2'] button.bookmark")  # a change saves the good entries only
    saved = json.loads(stored(page))
    assert sorted(saved["clauses"]) == ["it-laws/27#27B1", "it-laws/27#27B2"] and list(saved["read"]) == ["it-laws/27"]
    assert errors == []


@pytest.mark.parametrize("store", ["{not json", "[1, 2]", "42", '{"clauses": "none"}'])
def test_an_unreadable_store_leaves_study_working_and_an_import_repairs_it(server, phone, tmp_path, store):
    page = phone()
    errors = []
    page.on("pageerror", lambda e: errors.append(e))
    page.goto(server + "/study")
    page.evaluate("s => localStorage.setItem('kb-study', s)", store)
    page.reload()
    assert page.text_content("ul.marks li") == page.get_attribute("#study-words", "data-no-marks")
    assert "danneggiat" in page.text_content(".data-status")
    page.wait_for_selector("button.deck[data-deck=definitions] .deck-progress:has-text('0 di 63 viste')")
    assert page.goto(server + "/it-laws/27").status == 200 and page.locator(".clause-tools").count() > 0
    page.goto(server + "/study")
    import_file(page, tmp_path / "good.json", GOOD)
    page.wait_for_selector(".data-status:has-text('Importato')")
    assert_study_shows_the_good_entries(page, server)
    assert page.text_content(".data-status") == "" and errors == []
