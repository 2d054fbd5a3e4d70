"""The read model: one generation opened, and what a reader sees of a unit or situation."""
