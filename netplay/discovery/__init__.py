"""Finding tables and peers: mDNS listings, browsing, and the addresses a peer saved."""
