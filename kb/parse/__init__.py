"""One parsing profile per source text; each exposes `parse(text, meta) -> Document`."""
