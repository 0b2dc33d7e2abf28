from netplay.protocol.identity import Identity, is_valid_peer_id, verify


def test_sign_verify():
    a, b = Identity.generate(), Identity.generate()
    assert is_valid_peer_id(a.peer_id) and a.peer_id != b.peer_id
    sig = a.sign(b"hello")
    assert verify(a.public_key, b"hello", sig)
    assert not verify(a.public_key, b"hellO", sig)
    assert not verify(b.public_key, b"hello", sig)
    assert not verify(b"short", b"hello", sig)
    assert not verify(a.public_key, b"hello", b"x" * 3)
    again = Identity.from_seed(a.peer_id, a.seed)
    assert again.public_key == a.public_key
    assert "seed" not in repr(a) and a.seed.hex() not in repr(a)
