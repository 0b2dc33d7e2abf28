"""The handshake test vectors in docs/protocol-vectors.json, of this protocol version and the
earlier one: recomputed by the code, and re-derived step by step from docs/protocol.md with
other libraries (hashlib's BLAKE2b and SHA-256, libsodium's X25519/Ed25519/AEAD, an independent
SPAKE2) as another peer would."""

import hashlib
import json

import msgpack
import nacl.bindings as sodium
import pytest
import spake2_reference as ref
from handshake_vectors import KEYS, VECTORS_FILE, compute_vectors
from nacl.signing import VerifyKey

ALL = json.loads(VECTORS_FILE.read_text())
VECTORS = ALL["handshake"]
INPUTS = VECTORS["inputs"]
SIDE = {"I": INPUTS["sides"]["initiator"], "R": INPUTS["sides"]["responder"]}


def _h(hex_text):
    return bytes.fromhex(hex_text)


def _payload(frame_hex):
    frame = _h(frame_hex)
    assert int.from_bytes(frame[:4], "big") == len(frame) - 4
    return frame[4:]


def _open(frame_hex, key, counter):
    nonce = counter.to_bytes(8, "little") + bytes(16)
    return sodium.crypto_aead_xchacha20poly1305_ietf_decrypt(_payload(frame_hex), None, nonce, key)


@pytest.mark.parametrize("version", sorted(KEYS))
def test_the_code_reproduces_the_vectors(version):
    vectors = ALL[KEYS[version]]
    assert vectors["version"] == version and vectors["inputs"] == INPUTS
    assert compute_vectors(version) == vectors


def test_spake2_blinding_point_and_scalars():
    v = VECTORS["spake2"]
    pw = ref.passphrase_bytes(INPUTS["passphrase"])
    assert pw.hex() == v["password_nfc_utf8"] and pw != INPUTS["passphrase"].encode()
    assert ref.blinding_point().hex() == v["S"]
    assert ref.password_scalar(pw).to_bytes(32, "little").hex() == v["w_le"]
    for role in "IR":
        x = ref.random_scalar(_h(SIDE[role]["spake2_entropy"]))
        assert x.to_bytes(32, "little").hex() == v[f"x_{role}_le"]
        assert ref.message(pw, x, _h(v["S"])).hex() == v[f"kx_{role}"]


def _shared_secret(mode):
    v = VECTORS[mode]
    if mode == "x25519":
        dh = sodium.crypto_scalarmult(_h(SIDE["I"]["x25519_private"]), _h(v["kx_R"]))
        assert dh == sodium.crypto_scalarmult(_h(SIDE["R"]["x25519_private"]), _h(v["kx_I"]))
        lo, hi = sorted((_h(v["kx_I"]), _h(v["kx_R"])))
        return hashlib.blake2b(dh + lo + hi, digest_size=32).digest()
    pw = ref.passphrase_bytes(INPUTS["passphrase"])
    ident = b"sandtable/v1/table:" + INPUTS["table_id"].encode()
    assert ident.hex() == v["pake_identity"]
    k_elem = ref.shared_element(pw, int.from_bytes(_h(v["x_I_le"]), "little"), _h(v["kx_R"]), _h(v["S"]))
    assert k_elem == ref.shared_element(pw, int.from_bytes(_h(v["x_R_le"]), "little"),
                                        _h(v["kx_I"]), _h(v["S"]))
    assert k_elem.hex() == v["K_element"]
    return ref.shared_key(pw, ident, _h(v["kx_I"]), _h(v["kx_R"]), k_elem)


@pytest.mark.parametrize("version", sorted(KEYS))
@pytest.mark.parametrize("mode", ["x25519", "spake2"])
def test_handshake_rederived_from_the_spec(mode, version):
    v = ALL[KEYS[version]][mode]
    frames = v["frames"]
    hello_i, hello_r = _payload(frames["hello_I"]), _payload(frames["hello_R"])
    for role, raw in (("I", hello_i), ("R", hello_r)):
        hello = msgpack.unpackb(raw)
        assert hello == {"t": "hello", "v": version, "table": INPUTS["table_id"],
                         "peer": SIDE[role]["peer_id"], "key": _h(SIDE[role]["ed25519_public"]),
                         "pake": mode == "spake2", "kx": _h(v[f"kx_{role}"]),
                         "nonce": _h(SIDE[role]["nonce"]), "port": SIDE[role]["port"]}
    k = _shared_secret(mode)
    assert k.hex() == v["K"]
    th = hashlib.blake2b(b"sandtable-handshake-v1" + len(hello_i).to_bytes(4, "big") + hello_i
                         + len(hello_r).to_bytes(4, "big") + hello_r, digest_size=32).digest()
    assert th.hex() == v["transcript_hash"]
    i2r = hashlib.blake2b(th, digest_size=32, key=k, person=b"sandtable i2r").digest()
    r2i = hashlib.blake2b(th, digest_size=32, key=k, person=b"sandtable r2i").digest()
    assert (i2r.hex(), r2i.hex()) == (v["key_i2r"], v["key_r2i"])
    for role, key in (("I", i2r), ("R", r2i)):
        auth = msgpack.unpackb(_open(frames[f"auth_{role}"], key, 0))
        assert auth == {"t": "auth", "sig": _h(v[f"sig_{role}"])}
        VerifyKey(_h(SIDE[role]["ed25519_public"])).verify(
            b"sandtable-auth-v1" + role.encode() + th, auth["sig"])
    assert msgpack.unpackb(_open(frames["first_link_frame_I"], i2r, 1)) == INPUTS["first_link_message"]
