"""Citations: find (the grammar) → resolve → annotate, and the check anyone can run."""
