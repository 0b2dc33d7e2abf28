"""Sandtable: a peer-to-peer LAN virtual table for playtesting card games."""
__version__ = "0.1.0"
