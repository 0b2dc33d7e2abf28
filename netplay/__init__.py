"""Peer-to-peer play over the LAN and the internet, as a stack of rooms, each importing only
the rooms below it (pyproject.toml's netplay contract; docs/architecture.md draws it):

``session`` > ``discovery`` | ``replication`` | ``blobs`` > ``mesh`` > ``link`` | ``draws`` >
``protocol`` (sans-IO: no asyncio, no zeroconf).
"""
