"""No private dice at a shared table: `sandtable host/join` peers in separate processes.

A player whose program states its roll's value (`{"op": "roll", "sides": 6, "values": [6]}`,
as a modified client would send it) while another player is linked is flagged on the honest
peer as the op arrives, naming the seat, and `sandtable check --audit` of the honest log
fails naming the op and seat. An honest Gauntlet session, first-player roll and all, audits
clean: "audited", in `check --audit` and in the designer's report.
"""
from __future__ import annotations

import json
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.test_lan_play import LOOPBACK, ROOT, Proc, _same_status

pytestmark = pytest.mark.processes

COMMON = ["--headless", "--interfaces", LOOPBACK, "--no-announce", "--fast", "--status"]


def _gauntlet(tmp_path: Path, script: list[dict], *host_args: str) -> tuple[Proc, Proc]:
    """Host (seat 1) and a joiner (seat 2) set up Gauntlet; the joiner plays `script`."""
    path = tmp_path / "s2.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in script))
    host = Proc("host", *COMMON, "--game", "gauntlet", "--table", "d " + secrets.token_hex(3),
                "--seat", "1", "--log", str(tmp_path / "h.log"), *host_args)
    port = int(host.wait_line("TABLE", 20)[2])
    joiner = Proc("join", *COMMON, "--connect", f"{LOOPBACK}:{port}", "--seat", "2",
                  "--log", str(tmp_path / "j.log"), "--script", str(path))
    joiner.wait_line("SEATED", 30)
    joiner.wait_line("SCRIPT DONE", 60)
    _same_status([host, joiner], 30)
    return host, joiner


def _audit(log: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "table.app.cli", "check", "--audit", str(log)],
                          capture_output=True, text=True, timeout=120, cwd=str(ROOT))


def test_a_stated_roll_while_another_player_is_linked_is_flagged_and_fails_the_audit(
        tmp_path: Path) -> None:
    from table.core.replica import Replica

    host, joiner = _gauntlet(tmp_path, [{"after": 1.0, "op": "roll", "sides": 6, "values": [6]},
                                        {"op": "roll", "sides": 6}])
    try:
        cheater = joiner.wait_line("TABLE", 5)[3]
        flagged = [e for e in host.errors if "private dice" in e]
        assert flagged and f"peer {cheater} (seat 2) rolled d6 as [6] alone" in flagged[0], \
            host.errors[-10:]
    finally:
        for p in (joiner, host):
            p.terminate()
            p.kill()
    log = tmp_path / "h.log"
    records = Replica.from_log(log).records()
    [number] = [i for i, rec in enumerate(records, start=1) if rec.op.kind == "roll"
                and rec.op.author == cheater and rec.op.args.get("fair") is None]
    result = _audit(log)
    print(result.stdout)
    assert result.returncode == 1, result.stdout + result.stderr
    failed = [ln for ln in result.stdout.splitlines() if ln.startswith("FAILED")]
    assert len(failed) == 1 and failed[0].startswith(f"FAILED op {number} (author {cheater}, "
                                                      f"seat 2): "), failed
    assert "private dice" in failed[0]


def test_an_honest_gauntlet_lan_session_reads_audited(tmp_path: Path) -> None:
    from table.core.audit import audit_summary
    from table.report.session import read_session
    from table.report.tables import session_rows

    host, joiner = _gauntlet(tmp_path, [{"after": 0.5, "op": "roll", "sides": 6}])
    for p in (joiner, host):  # leaving publishes each peer's shares
        code, _ = p.terminate()
        assert code == 0, p.errors[-10:]
        assert not [e for e in p.errors if "private dice" in e], p.errors
    # The host left last, so its log holds every peer's publication (the joiner's lacks the
    # host's, which came after it left: its audit can say only "could not be verified").
    result = _audit(tmp_path / "h.log")
    print(result.stdout)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 local" in result.stdout and "during the setup" not in result.stdout
    assert "FAILED" not in _audit(tmp_path / "j.log").stdout
    assert audit_summary(tmp_path / "h.log") == "audited"
    [row] = session_rows([read_session(tmp_path / "h.log")])
    assert row["randomness"] == "audited"


def test_a_table_opened_allowing_local_draws_says_so_and_flags_none(tmp_path: Path) -> None:
    host, joiner = _gauntlet(tmp_path, [{"after": 1.0, "op": "roll", "sides": 6, "values": [6]}],
                             "--local-draws")
    for p in (joiner, host):
        code, _ = p.terminate()
        assert code == 0, p.errors[-10:]
        assert not [e for e in p.errors if "private dice" in e], p.errors
    assert any(e.startswith("note: this table allows local draws") for e in joiner.errors)
    result = _audit(tmp_path / "h.log")
    assert result.returncode == 0 and "; 1 local" in result.stdout, result.stdout
