"""The wire protocol with no I/O: framing, message checks, identities, the handshake and the
encrypted channel."""
