"""Search: a whoosh index of every clause, and query understanding on top of it."""
