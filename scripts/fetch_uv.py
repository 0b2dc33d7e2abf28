#!/usr/bin/env python3
"""Fetch the pinned uv for this machine into .venv-tools/bin/uv: its wheel from PyPI, checked
against the hash pinned here, and the binary taken out of it (scripts/uv.sh runs this where the
machine has no uv of that version).

A virtualenv and `pip install uv` would do the same in about 5 s; this takes one download.
Exit 3 when this platform has no pinned wheel (scripts/uv.sh then installs uv with pip).
"""
from __future__ import annotations

import hashlib
import io
import json
import platform
import sys
import urllib.request
import zipfile
from pathlib import Path

VERSION = "0.13.9"
# (system, machine, C library) -> the wheel's name and its sha256, as PyPI lists them
WHEELS = {
    ("Linux", "x86_64", "glibc"): (
        "uv-0.13.9-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
        "d7f459fe4fd247d830351c75686d3996ace3c6f3f728eb0e85a30b7ada0cef19"),
    ("Linux", "x86_64", "musl"): (
        "uv-0.13.9-py3-none-musllinux_1_1_x86_64.whl",
        "2c45530751517d6c3bbc69a19473f6effe47cce047bede01ffd8af7ea7b36b25"),
    ("Linux", "aarch64", "glibc"): (
        "uv-0.13.9-py3-none-manylinux_2_28_aarch64.whl",
        "ecb6028d79dc96fbeafffe5c8af62a7099487ebc05a701e76714eebcffd06375"),
    ("Darwin", "x86_64", ""): (
        "uv-0.13.9-py3-none-macosx_10_12_x86_64.whl",
        "c16ed11e013557536b3e60065f1b912f6407bd6518e041b961e23ef9e6b4fbf5"),
    ("Darwin", "arm64", ""): (
        "uv-0.13.9-py3-none-macosx_11_0_arm64.whl",
        "66c512266d633bef48384a1f53003f41f2a8e7b36fe6e7fbfd3e0fd52d96fa63"),
}
INDEX = "https://pypi.org/simple/uv/"
TARGET = Path(__file__).resolve().parents[1] / ".venv-tools" / "bin" / "uv"


def this_platform() -> tuple[str, str, str]:
    system, machine = platform.system(), platform.machine()
    libc = ""
    if system == "Linux":
        libc = "musl" if "musl" in (platform.libc_ver()[0] or "musl") else "glibc"
    return system, machine, libc


def wheel_url(name: str) -> str:
    request = urllib.request.Request(INDEX, headers={
        "Accept": "application/vnd.pypi.simple.v1+json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        files = json.load(response)["files"]
    for entry in files:
        if entry["filename"] == name:
            return str(entry["url"])
    raise LookupError(f"{name} is not on {INDEX}")


def main() -> int:
    wanted = WHEELS.get(this_platform())
    if wanted is None:
        return 3
    name, sha256 = wanted
    with urllib.request.urlopen(wheel_url(name), timeout=120) as response:
        data = response.read()
    if hashlib.sha256(data).hexdigest() != sha256:
        print(f"{name}: its sha256 is not the pinned one; not used", file=sys.stderr)
        return 1
    with zipfile.ZipFile(io.BytesIO(data)) as wheel:
        binary = next(n for n in wheel.namelist() if n.endswith(".data/scripts/uv"))
        TARGET.parent.mkdir(parents=True, exist_ok=True)
        staged = TARGET.with_name("uv.partial")
        staged.write_bytes(wheel.read(binary))
    staged.chmod(0o755)
    staged.replace(TARGET)
    return 0


if __name__ == "__main__":
    sys.exit(main())
