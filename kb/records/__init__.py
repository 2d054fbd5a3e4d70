"""The records: typed frozen documents, units, clauses and citations, their ids, looked up by id."""
