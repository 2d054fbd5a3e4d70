"""The build: corpus → one generation (pipeline, generations, export, graph, checks)."""
