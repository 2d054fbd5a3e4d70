"""The data release: the texts as tables with schemas, a datapackage and SQLite."""
