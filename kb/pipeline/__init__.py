"""The build pipeline: corpus → one generation (build, generations, export, graph, checks)."""
