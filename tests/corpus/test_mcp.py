"""`kb mcp` (issue 31, item 5): the knowledge base for assistants, over the official MCP SDK.

The fast tests talk to the server in process, through the SDK's own in-memory client; the
slow one runs `kb mcp` as a real subprocess and drives it as an assistant's client does, over
standard input/output (`stdio_client` + `ClientSession`). Expected texts come from the corpus
files and the curated tables, not from the server.
"""
import contextlib
import csv
import io
import shutil
import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client, ClientSession, StdioServerParameters, stdio_client

from kb import cli
from kb.pipeline import generations
from kb.assistant import Current, server
from kb.corpus.manifest import CORPUS_DIR

ROOT = Path(__file__).resolve().parents[2]
TOOLS = {"search", "clause", "compare", "situations", "cite"}


def source_line(name, marker, words):
    """The line of a corpus text that starts with `marker` and then `words`, as printed, less its marker."""
    lines = (CORPUS_DIR / name).read_text(encoding="utf-8").splitlines()
    return next(ln for ln in lines if ln.startswith(marker + words))[len(marker):].strip()


def table(name):
    lines = [ln for ln in (CORPUS_DIR / name).read_text(encoding="utf-8").splitlines() if ln and not ln.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))


IT_27B1B = source_line("it-laws-2017.txt", "- (b) ", "Eccetto quanto previsto in (a)")  # 27B1(b), as printed


@pytest.fixture(scope="module")
def mcp_server(build_dir):
    return server(build_dir)


def call(mcp_server, name, arguments):
    async def go():
        async with Client(mcp_server) as client:
            return await client.call_tool(name, arguments)
    return anyio.run(go)


def test_the_tools_are_listed_with_descriptions_and_typed_inputs(mcp_server):
    async def go():
        async with Client(mcp_server) as client:
            return (await client.list_tools()).tools
    tools = {t.name: t for t in anyio.run(go)}
    assert set(tools) == TOOLS
    assert all(t.description and t.annotations.read_only_hint for t in tools.values())
    schema = {name: t.input_schema for name, t in tools.items()}
    assert schema["clause"]["required"] == ["doc", "id"] and schema["cite"]["required"] == ["text"]
    assert schema["compare"]["properties"]["law"]["type"] == "integer"
    assert schema["situations"]["properties"]["lang"]["enum"] == ["it", "es", "en"]


def test_a_clause_comes_with_its_text_citation_and_parallel(mcp_server):
    r = call(mcp_server, "clause", {"doc": "it-laws", "id": "27B1(b)", "lang": "it"})
    c = r.structured_content
    assert not r.is_error
    assert (c["doc"], c["id"], c["label"], c["edition"], c["url"]) == ("it-laws", "27B1b", "27B1(b)", "2017",
                                                                       "/it-laws/27#27B1b")
    assert c["text"] == IT_27B1B and c["title"] == "LICITA INSUFFICIENTE"
    assert c["citation"] == "Codice 2017, Art. 27B1(b)"   # the manifest's label for an Italian reader
    row = next(r for r in table("concordance.tsv") if r["newer"] == "27B1b")
    note = next(n["note"] for n in table("notes/en/concordance.tsv") if (n["older"], n["newer"]) == (row["older"], "27B1b"))
    [p] = c["parallel"]
    assert (p["doc"], p["id"], p["relation"], p["note"]) == ("es-laws", row["older"], row["relation"], note)
    assert IT_27B1B in r.content[0].text and "Codice 2017, Art. 27B1(b)" in r.content[0].text


def test_a_clause_of_the_2007_edition_and_its_2017_number(mcp_server):
    c = call(mcp_server, "clause", {"doc": "es-laws", "id": "13F", "lang": "en"}).structured_content
    row = next(r for r in table("concordance.tsv") if r["older"] == "13F")
    assert c["text"].startswith("Carta de más") and c["citation"] == "Spanish Laws 2007, Art. 13F"
    assert [(p["doc"], p["id"], p["relation"]) for p in c["parallel"]] == [("it-laws", row["newer"], row["relation"])]


def test_search_hits_are_plain_text_with_ids_and_pages(mcp_server):
    r = call(mcp_server, "search", {"query": "licita insufficiente", "doc": "it-laws", "limit": 3})
    hits = r.structured_content["hits"]
    assert len(hits) == 3 and all(h["doc"] == "it-laws" for h in hits)
    assert all("<" not in h["snippet"] and h["url"].startswith(f"/it-laws/{h['unit']}") for h in hits)
    assert hits[0]["unit"] == "27"   # Law 27, LICITA INSUFFICIENTE


def test_compare_gives_the_rows_of_the_table(mcp_server):
    rows = call(mcp_server, "compare", {"law": 13}).structured_content["rows"]
    assert {"newer": "13C", "older": "13F", "relation": "moved"}.items() <= next(
        r for r in rows if r["older"] == "13F").items()


def test_the_situation_index_lists_and_looks_up(mcp_server):
    every = call(mcp_server, "situations", {"lang": "en"}).structured_content
    assert every["total"] == len(table("situations.tsv"))
    [found] = call(mcp_server, "situations", {"lang": "en", "query": "insufficient-bid-definition"}) \
        .structured_content["situations"]
    assert found["rules"] and found["url"].endswith("#insufficient-bid-definition")
    named = [r["id"] for r in table("situations.tsv") if all(w in r["it"].lower() for w in ("licita", "insufficiente"))]
    by_words = call(mcp_server, "situations", {"lang": "it", "query": "Licita insufficiente"}).structured_content
    assert named and sorted(s["id"] for s in by_words["situations"]) == sorted(named)


def test_the_citation_check_is_the_same_as_the_apis(mcp_server, client):
    text = "Law 27B1(b), Law 13F and Law 95"
    r = call(mcp_server, "cite", {"text": text})
    api = client.get("/api/cite", params={"text": text}).json()
    assert r.structured_content == {k: v for k, v in api.items() if k != "html"}
    assert [c["status"] for c in r.structured_content["citations"]] == ["exists", "numbered-otherwise",
                                                                        "no-such-clause"]


@pytest.mark.parametrize("name, arguments, said", [
    ("clause", {"doc": "xx", "id": "1"}, "unknown document 'xx'"),
    ("clause", {"doc": "it-laws", "id": "27Z"}, "no clause '27Z' in it-laws"),
    ("compare", {"law": 99}, "No Law 99"),
    ("cite", {"text": ""}, "no text to check"),
    ("search", {"query": "carta", "doc": "nope"}, "unknown document 'nope'"),
    ("search", {"query": "carta", "limit": 0}, "limit"),
])
def test_a_bad_argument_is_a_tool_error_that_says_why(mcp_server, name, arguments, said):
    r = call(mcp_server, name, arguments)
    assert r.is_error and said in r.content[0].text


def test_without_a_build_kb_mcp_says_so_and_names_the_command(tmp_path):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(["--build-dir", str(tmp_path / "none"), "mcp"])
    assert code == 2 and out.getvalue() == ""
    assert err.getvalue().startswith("kb: error: no complete build at") and "run `kb build`" in err.getvalue()
    assert not (tmp_path / "none").exists()   # it never builds


@pytest.mark.slow
def test_it_reads_a_newer_build_when_one_lands_and_never_builds(build_dir, tmp_path):
    gen = generations.generation(build_dir)
    first, second = (tmp_path / f"{generations.GENERATION_PREFIX}{n}" for n in ("first", "second"))
    for copy in (first, second):
        shutil.copytree(gen, copy)
    generations.switch(tmp_path, first)
    current = Current(tmp_path)
    assert current.get().gen == first
    generations.switch(tmp_path, second)
    assert current.get().gen == second and current.get().cite("Law 13F").citations[0].status == "numbered-otherwise"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(generations.GENERATION_PREFIX)) == \
        [first.name, second.name]   # nothing built


@pytest.mark.slow
def test_an_assistant_session_over_stdio(build_dir):
    """`kb mcp` as its own process, driven by the SDK's stdio client: initialize, list the tools
    and their input schemas, get a clause, check citations."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "kb.cli", "--build-dir", str(build_dir), "mcp"],
                                   cwd=str(ROOT))

    async def session():
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as s:
                init = await s.initialize()
                tools = (await s.list_tools()).tools
                got = await s.call_tool("clause", {"doc": "it-laws", "id": "27B1b"})
                checked = await s.call_tool("cite", {"text": "Artículo 16C2a y Ley 27E", "lang": "es"})
                return init, tools, got, checked

    init, tools, got, checked = anyio.run(session)
    assert init.server_info.name == "bridge-laws-kb"
    assert {t.name for t in tools} == TOOLS
    assert {t.name: sorted(t.input_schema["properties"]) for t in tools}["clause"] == ["doc", "id", "lang"]
    assert not got.is_error and got.structured_content["text"] == IT_27B1B
    assert IT_27B1B in got.content[0].text
    statuses = [(c["written"], c["status"]) for c in checked.structured_content["citations"]]
    assert statuses == [("Artículo 16C2a", "numbered-otherwise"), ("Ley 27E", "no-such-clause")]


# ---------------------------------------------------------------- what the new user's test found (issue 31)

def listed_tools(mcp_server):
    async def go():
        async with Client(mcp_server) as client:
            return {t.name: t for t in (await client.list_tools()).tools}
    return anyio.run(go)


def test_search_filters_by_the_languages_the_texts_are_written_in(mcp_server, export):
    schema = listed_tools(mcp_server)["search"].input_schema["properties"]
    written = sorted({d["lang"] for d in export["documents"]})
    assert sorted(next(a["enum"] for a in schema["lang"]["anyOf"] if "enum" in a)) == written == ["es", "it"]
    assert next(a["enum"] for a in schema["ui"]["anyOf"] if "enum" in a) == ["it", "es", "en"]   # a reader's language
    hits = call(mcp_server, "search", {"query": "carta", "lang": "es", "limit": 3}).structured_content["hits"]
    assert hits and all(h["lang"] == "es" for h in hits)


@pytest.mark.parametrize("arguments, said", [
    ({"query": "carta", "lang": "en"}, "bad argument to search: lang: Input should be 'it' or 'es'"),
    ({"query": "carta", "limit": 0}, "bad argument to search: limit: Input should be greater than or equal to 1"),
])
def test_an_argument_error_is_one_human_line(mcp_server, arguments, said):
    r = call(mcp_server, "search", arguments)
    assert r.is_error and r.content[0].text == said   # not pydantic's report, its links and its input repeated


def test_a_number_in_both_editions_gives_the_choices_and_the_reader_picks(mcp_server):
    both = call(mcp_server, "search", {"query": "27B1"}).structured_content
    assert both["jump"] is None and [(c["doc"], c["clause"]) for c in both["choices"]] == [("it-laws", "27B1"),
                                                                                            ("es-laws", "27B1")]
    spanish = call(mcp_server, "search", {"query": "27B1", "ui": "es"}).structured_content
    assert spanish["jump"]["url"] == "/es-laws/27#27B1" and spanish["choices"] == []


def test_the_text_content_is_the_structured_content_as_json(mcp_server):
    import json
    for name, arguments in [("clause", {"doc": "it-laws", "id": "27B1b"}), ("search", {"query": "27B1"}),
                            ("cite", {"text": "Law 13F"}), ("compare", {"law": 13}), ("situations", {"lang": "en"})]:
        r = call(mcp_server, name, arguments)
        assert json.loads(r.content[0].text) == r.structured_content, name


def test_every_tool_publishes_the_schema_its_answers_fit(mcp_server):
    from jsonschema import Draft202012Validator
    tools = listed_tools(mcp_server)
    assert set(tools) == TOOLS and all(t.output_schema for t in tools.values())
    for name, arguments in [("clause", {"doc": "es-laws", "id": "16A3"}), ("search", {"query": "27B1"}),
                            ("cite", {"text": "Law 13F, art. 27 B 9, norma 92 e Statuto Federale"}),
                            ("compare", {"law": 13}), ("situations", {"lang": "en", "query": "insufficient"})]:
        content = call(mcp_server, name, arguments).structured_content
        assert list(Draft202012Validator(tools[name].output_schema).iter_errors(content)) == [], name


def test_a_clause_the_newer_edition_removed_says_so(mcp_server):
    row = next(r for r in table("concordance.tsv") if r["older"] == "16A3")
    note = next(n["note"] for n in table("notes/en/concordance.tsv") if (n["older"], n["newer"]) == ("16A3", ""))
    c = call(mcp_server, "clause", {"doc": "es-laws", "id": "16A3"}).structured_content
    assert row["newer"] == "" and [(p["doc"], p["id"], p["relation"], p["note"]) for p in c["parallel"]] == \
        [("it-laws", None, "removed-in-2017", note)]


@pytest.mark.parametrize("id, found", [("92", "92-93"), ("93", "92-93"), ("92-93", "92-93"),
                                       ("40B2(a)(v)", "40-40B2av")])
def test_a_norm_by_either_law_it_is_on_and_its_paragraph_by_its_law_clause(mcp_server, id, found):
    c = call(mcp_server, "clause", {"doc": "it-norms", "id": id}).structured_content
    assert c["id"] == found


def test_a_norm_paragraph_is_cited_by_its_whole_number(mcp_server):
    """"Norma 4 §3b1", not "Norma 4 §(1" (the paragraph's own label, which 4-1 reads as its number)."""
    c = call(mcp_server, "clause", {"doc": "it-norms", "id": "4-3b1", "lang": "it"}).structured_content
    assert c["citation"] == "Norme integrative 2026, Norma 4 §3b1"


@pytest.mark.parametrize("name, arguments, argument", [
    ("cite", {"text": "\ud800 Law 16"}, "'text'"), ("search", {"query": "x\ud800"}, "'query'"),
    ("clause", {"doc": "it-laws", "id": "\udc80"}, "'id'"),
])
def test_an_argument_that_is_not_text_is_a_tool_error(mcp_server, name, arguments, argument):
    r = call(mcp_server, name, arguments)
    assert r.is_error and f"the argument {argument} cannot be read" in r.content[0].text
    assert "lone surrogate" in r.content[0].text


def raw_session(build_dir, lines, replies):
    """`kb mcp` as its own process, spoken to line by line as any client may (the SDK's own client
    cannot even send a lone surrogate): initialize, then each line; the replies to `replies` ids."""
    import json
    import select
    import subprocess
    proc = subprocess.Popen([sys.executable, "-m", "kb.cli", "--build-dir", str(build_dir), "mcp"], cwd=str(ROOT),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    hello = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
             "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}}
    try:
        for line in [json.dumps(hello), '{"jsonrpc": "2.0", "method": "notifications/initialized"}', *lines]:
            proc.stdin.write(line.encode() + b"\n")
        proc.stdin.flush()
        got = {}
        while set(replies) - set(got):
            ready, _, _ = select.select([proc.stdout], [], [], 60)
            assert ready, f"no answer to {sorted(set(replies) - set(got))}"
            message = json.loads(proc.stdout.readline())
            got[message.get("id")] = message
        return got
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.slow
def test_a_client_that_sends_a_lone_surrogate_or_a_language_the_texts_lack_is_always_answered(build_dir):
    call_line = '{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": {"name": "%s", "arguments": %s}}'
    lines = [call_line % (1, "cite", '{"text": "\\ud800 Law 16"}'), call_line % (2, "search", '{"query": "x\\udfff"}'),
             call_line % (3, "clause", '{"doc": "it-laws", "id": "\\udc80"}'),
             call_line % (4, "search", '{"query": "carta", "lang": "en"}'),
             call_line % (5, "clause", '{"doc": "it-laws", "id": "27B1b"}'),
             '{"jsonrpc": "2.0", "id": 6, "method": "tools/list", "params": {"cursor": "\\ud800"}}']
    got = raw_session(build_dir, lines, [1, 2, 3, 4, 5, 6])
    for n, argument in ((1, "'text'"), (2, "'query'"), (3, "'id'")):
        result = got[n]["result"]
        assert result["isError"] and "lone surrogate" in result["content"][0]["text"]
        assert argument in result["content"][0]["text"]
    assert got[4]["result"]["isError"] and got[4]["result"]["content"][0]["text"] == \
        "bad argument to search: lang: Input should be 'it' or 'es'"
    assert not got[5]["result"].get("isError") and got[5]["result"]["structuredContent"]["text"] == IT_27B1B
    assert "lone surrogate" in got[6]["error"]["message"]   # not a tool call: a JSON-RPC error, still an answer
