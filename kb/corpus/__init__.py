"""Corpus reading: the manifest, the documents as data, languages, curated tables, catalogs, addresses."""
