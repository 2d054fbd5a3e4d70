"""Every interface language searches: a reader of the English interface searching the
Italian and Spanish texts is read by the query's own language (it was a 500 before)."""
import pytest

from web.i18n import LOCALES


@pytest.mark.parametrize("ui", LOCALES)
@pytest.mark.parametrize("q, law", [("licita insufficiente", "27"), ("declaración insuficiente", "27"),
                                    ("rinuncia consumata", "63")])
def test_a_search_answers_in_every_interface_language(client, ui, q, law):
    """The Law first, in the reader's edition when there is one in their language."""
    api = client.get("/api/search", params={"q": q, "ui": ui})
    assert api.status_code == 200
    first = api.json()["hits"][0]
    assert first["doc"] in ("it-laws", "es-laws") and first["unit"] == law
    page = client.get("/search", params={"q": q, "ui": ui})
    assert page.status_code == 200 and 'class="hit-title"' in page.text


def test_a_language_filter_names_the_languages_of_the_build(client):
    r = client.get("/api/search", params={"q": "carta", "lang": "fr"})
    assert r.status_code == 400 and "languages: it, es" in r.json()["error"]
