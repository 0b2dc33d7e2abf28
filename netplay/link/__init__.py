"""Links to one peer each: a TCP or QUIC connection carrying the protocol (handshake, channel,
outbox)."""
