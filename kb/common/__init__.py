"""Helpers every stage shares: text folding and slugs, files written whole."""
