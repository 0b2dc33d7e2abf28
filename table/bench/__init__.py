"""Benchmarks (`sandtable bench ...`) and the generated sessions they and the tests play.

Kept apart from the packages they measure, so the model, the protocol and the UI ship no
measuring code; each module prints its figures and, as its last line, one JSON object."""
