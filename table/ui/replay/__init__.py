"""The replay view: seek a log both ways, fork from any moment."""
