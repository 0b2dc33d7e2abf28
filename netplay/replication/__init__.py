"""Causal broadcast of signed ops over the mesh: catch-up, canonical checks, equivocation proofs."""
