"""Editions of the Laws side by side: the concordance of each pair, compare rows, changes."""
