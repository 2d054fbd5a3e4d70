"""What the parsing profiles share, one concern per module.

- `lines`: a source line as a record (its number, its text as printed or cleaned).
- `paragraphs`: runs of lines as paragraphs, and re-joining a sentence a break split.
- `tables`: cells of tabular rows, and a table's header rows told from its data.
- `footnotes`: footnote bodies peeled from the text, markers found on clauses.
- `ids`: clause ids kept unique by a suffix (`-2`, `_2`, `bis` …).
- `tree`: a unit's clauses in text order, each under the one it belongs to.
"""
