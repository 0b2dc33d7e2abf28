"""Handshake test vectors: a whole handshake for each key exchange, from fixed secrets.

``compute_vectors()`` runs the real :class:`netplay.protocol.handshake.Handshake` objects with injected
keys and randomness and records every byte; docs/protocol-vectors.json keeps the result under
``"handshake"`` and test_protocol_vectors.py recomputes it. Regenerate (after a deliberate
protocol change only) with ``python tests/netplay/handshake_vectors.py``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from netplay.protocol.channel import MessageChannel
from netplay.protocol.handshake import PROTOCOL_VERSION, Established, Handshake, auth_payload
from netplay.protocol.identity import Identity
from netplay.protocol.secure import PakeExchange, X25519Exchange, derive_keys, pake_identity
from netplay.protocol.wire import pack

VECTORS_FILE = Path(__file__).resolve().parents[2] / "docs" / "protocol-vectors.json"
TABLE_ID = "vector-table-1"
# NFD on purpose ("e" + U+0301): peers normalise to NFC before use.
PASSPHRASE = "open sesame cafe\u0301"
FIRST_LINK_MESSAGE = {"t": "hb"}


def _fixed(label: str, n: int) -> bytes:
    """Deterministic "random" bytes for the vectors: SHA-512 counter blocks of a label."""
    out = b""
    counter = 0
    while len(out) < n:
        out += hashlib.sha512(f"sandtable-vectors/{label}/{counter}".encode()).digest()
        counter += 1
    return out[:n]


SIDES: dict[str, dict[str, Any]] = {
    "initiator": {"peer_id": "1111aaaa2222bbbb", "port": 4100},
    "responder": {"peer_id": "3333cccc4444dddd", "port": 4200},
}


def _side_inputs(role: str) -> dict[str, bytes]:
    return {"ed25519_seed": _fixed(f"{role}/ed25519", 32), "nonce": _fixed(f"{role}/nonce", 16),
            "x25519_private": _fixed(f"{role}/x25519", 32),
            "spake2_entropy": _fixed(f"{role}/spake2", 64)}


def _key_exchange(mode: str, role: str) -> PakeExchange | X25519Exchange:
    inputs = _side_inputs(role)
    if mode == "x25519":
        return X25519Exchange(inputs["x25519_private"])
    entropy = inputs["spake2_entropy"]
    return PakeExchange(PASSPHRASE, TABLE_ID, entropy=lambda n: entropy[:n])


def _handshake(mode: str, role: str, version: int) -> Handshake:
    side, inputs = SIDES[role], _side_inputs(role)
    identity = Identity.from_seed(side["peer_id"], inputs["ed25519_seed"])
    return Handshake(identity, TABLE_ID, PASSPHRASE if mode == "spake2" else None,
                     initiator=role == "initiator", listen_port=side["port"],
                     key_exchange=_key_exchange(mode, role), nonce=inputs["nonce"],
                     version=version)


def _run(mode: str, version: int) -> dict[str, Any]:
    init, resp = _handshake(mode, "initiator", version), _handshake(mode, "responder", version)
    hello_i = init.start()
    resp.start()  # the responder speaks once it has read the initiator's hello
    answer = resp.feed(hello_i).send
    cut = 4 + int.from_bytes(answer[:4], "big")
    hello_r, auth_r = answer[:cut], answer[cut:]  # (protocol 1 sent its hello at once: the
    auth_i = init.feed(hello_r).send              # bytes are the same)
    est_r, est_i = resp.feed(auth_i).event, init.feed(auth_r).event
    assert isinstance(est_i, Established) and isinstance(est_r, Established)
    assert est_i.transcript_hash == est_r.transcript_hash
    # K again, from fresh exchanges with the same secrets (an exchange finishes only once).
    k_i = _key_exchange(mode, "initiator").finish(_key_exchange(mode, "responder").message)
    key_i2r, key_r2i = derive_keys(k_i, est_i.transcript_hash, True)
    first = MessageChannel(est_i.cipher).frame(pack(FIRST_LINK_MESSAGE))
    return {
        "frames": {"hello_I": hello_i.hex(), "hello_R": hello_r.hex(),
                   "auth_I": auth_i.hex(), "auth_R": auth_r.hex(),
                   "first_link_frame_I": first.hex()},
        "kx_I": _key_exchange(mode, "initiator").message.hex(),
        "kx_R": _key_exchange(mode, "responder").message.hex(),
        "K": k_i.hex(),
        "sig_I": init.identity.sign(auth_payload(True, est_i.transcript_hash)).hex(),
        "sig_R": resp.identity.sign(auth_payload(False, est_i.transcript_hash)).hex(),
        "transcript_hash": est_i.transcript_hash.hex(),
        "key_i2r": key_i2r.hex(),
        "key_r2i": key_r2i.hex(),
    }


def _spake2_details() -> dict[str, Any]:
    sys.path.insert(0, str(Path(__file__).parent))
    import spake2_reference as ref

    pw = ref.passphrase_bytes(PASSPHRASE)
    s_point = ref.blinding_point()
    xs = {role: ref.random_scalar(_side_inputs(role)["spake2_entropy"]) for role in SIDES}
    kx = {role: _key_exchange("spake2", role).message for role in SIDES}
    k_elem = ref.shared_element(pw, xs["initiator"], kx["responder"], s_point)
    return {
        "password_nfc_utf8": pw.hex(),
        "pake_identity": pake_identity(TABLE_ID).hex(),
        "S": s_point.hex(),
        "w_le": ref.password_scalar(pw).to_bytes(32, "little").hex(),
        "x_I_le": xs["initiator"].to_bytes(32, "little").hex(),
        "x_R_le": xs["responder"].to_bytes(32, "little").hex(),
        "K_element": k_elem.hex(),
    }


def compute_vectors(version: int = PROTOCOL_VERSION) -> dict[str, Any]:
    inputs = {
        "table_id": TABLE_ID,
        "passphrase": PASSPHRASE,
        "sides": {role: {**side, **{k: v.hex() for k, v in _side_inputs(role).items()},
                         "ed25519_public": Identity.from_seed(
                             side["peer_id"], _side_inputs(role)["ed25519_seed"]).public_key.hex()}
                  for role, side in SIDES.items()},
        "first_link_message": FIRST_LINK_MESSAGE,
    }
    return {
        "about": f"One handshake of protocol {version} per key exchange from fixed secrets "
                 "(docs/protocol.md, Handshake). Frames are whole wire frames (4-byte length + "
                 "payload), in hex; scalars are 32-byte little-endian. spake2_entropy is the 64 "
                 "bytes the SPAKE2 side draws for its secret scalar x (read big-endian, mod L).",
        "version": version,
        "inputs": inputs,
        "x25519": _run("x25519", version),
        "spake2": {**_run("spake2", version), **_spake2_details()},
    }


# the key of each version's vectors in docs/protocol-vectors.json (earlier ones are kept)
KEYS = {PROTOCOL_VERSION: "handshake", 1: "handshake_v1"}


def main() -> None:
    data = json.loads(VECTORS_FILE.read_text()) if VECTORS_FILE.exists() else {}
    for version, key in KEYS.items():
        data[key] = compute_vectors(version)
    VECTORS_FILE.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    print(f"wrote the handshake vectors to {VECTORS_FILE}")


if __name__ == "__main__":
    main()
