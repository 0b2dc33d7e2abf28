"""Fast checks of the packaging recipe's pieces (no build): the bundle filters, the icons,
the .desktop entry."""
from __future__ import annotations

import struct

import pytest

from .conftest import PACKAGING, packaging_module

bf = packaging_module("bundle_filters")


@pytest.mark.parametrize(("dest", "kept"), [
    ("PySide6/Qt/lib/libQt6Core.so.6", True),
    ("PySide6/Qt/plugins/platforms/libqxcb.so", True),
    ("PySide6/Qt/plugins/platforms/libqoffscreen.so", True),
    ("PySide6\\Qt\\plugins\\platforms\\qwindows.dll", True),
    ("PySide6/Qt/plugins/platforms/libqcocoa.dylib", True),
    ("PySide6/Qt/plugins/platforms/libqvnc.so", False),
    ("PySide6/Qt/plugins/platformthemes/libqgtk3.so", False),
    ("PySide6/Qt/plugins/imageformats/libqjpeg.so", True),
    ("PySide6/Qt/plugins/imageformats/libqpdf.so", False),
    ("PySide6/Qt/plugins/tls/libqopensslbackend.so", False),
    ("PySide6/Qt/plugins/wayland-shell-integration/libxdg-shell.so", True),
    ("PySide6/Qt/plugins/wayland-shell-integration/libivi-shell.so", False),
    ("PySide6/Qt/translations/qtbase_de.qm", False),
    ("assets/gauntlet/game.toml", True),
])
def test_keep(dest: str, kept: bool) -> None:
    assert bf.keep(dest) is kept


def test_filter_binaries_drops_what_only_dropped_plugins_need() -> None:
    toc = [
        ("PySide6/Qt/lib/libQt6Core.so.6", "/q/libQt6Core.so.6", "BINARY"),
        ("PySide6/Qt/lib/libQt6Gui.so.6", "/q/libQt6Gui.so.6", "BINARY"),
        ("PySide6/Qt/lib/libQt6Network.so.6", "/q/libQt6Network.so.6", "BINARY"),
        ("libssl.so.3", "/usr/lib/libssl.so.3", "BINARY"),
        ("PySide6/Qt/plugins/platforms/libqxcb.so", "/q/p/libqxcb.so", "BINARY"),
        ("PySide6/Qt/plugins/tls/libqopensslbackend.so", "/q/p/libqopensslbackend.so", "BINARY"),
        ("_ssl.so", "/py/_ssl.so", "EXTENSION"),
        ("libQt6Network.so.6", "PySide6/Qt/lib/libQt6Network.so.6", "SYMLINK"),
        ("libQt6Gui.so.6", "PySide6/Qt/lib/libQt6Gui.so.6", "SYMLINK"),
    ]
    imports = {
        "/q/libQt6Gui.so.6": ["libQt6Core.so.6"],
        "/q/libQt6Network.so.6": ["libQt6Core.so.6", "libssl.so.3"],
        "/q/p/libqxcb.so": ["libQt6Gui.so.6", "libxcb.so.1"],
        "/q/p/libqopensslbackend.so": ["libQt6Network.so.6", "libssl.so.3"],
        "/py/_ssl.so": ["libssl.so.3"],
    }
    out = bf.filter_binaries(toc, lambda src: [(n, None) for n in imports.get(src, [])])
    dests = [e[0] for e in out]
    assert "PySide6/Qt/lib/libQt6Network.so.6" not in dests  # only the TLS plugin needed it
    assert "libQt6Network.so.6" not in dests                  # nor its link
    assert "libssl.so.3" in dests                             # _ssl needs it too
    assert {"PySide6/Qt/lib/libQt6Gui.so.6", "PySide6/Qt/lib/libQt6Core.so.6",
            "PySide6/Qt/plugins/platforms/libqxcb.so", "libQt6Gui.so.6"} <= set(dests)


def test_drop_dangling_links() -> None:
    binaries = [("PySide6/Qt/lib/libQt6Gui.so.6", "/q/libQt6Gui.so.6", "BINARY")]
    datas = [("libQt6Gui.so.6", "PySide6/Qt/lib/libQt6Gui.so.6", "SYMLINK"),
             ("libQt6Pdf.so.6", "PySide6/Qt/lib/libQt6Pdf.so.6", "SYMLINK"),
             ("assets/x.toml", "/a/x.toml", "DATA")]
    assert [e[0] for e in bf.drop_dangling_links(datas, binaries)] == [
        "libQt6Gui.so.6", "assets/x.toml"]


def test_icons_are_committed_and_well_formed() -> None:
    icons = PACKAGING / "icons"
    for size in (16, 32, 48, 64, 128, 256, 512):
        data = (icons / f"sandtable-{size}.png").read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        w, h = struct.unpack(">II", data[16:24])
        assert (w, h) == (size, size)
    ico = (icons / "sandtable.ico").read_bytes()
    reserved, kind, count = struct.unpack("<HHH", ico[:6])
    assert (reserved, kind) == (0, 1) and count >= 5
    for i in range(count):
        _w, _h, _c, _r, _planes, _bpp, length, offset = struct.unpack(
            "<BBBBHHII", ico[6 + 16 * i: 22 + 16 * i])
        assert ico[offset:offset + 8] == b"\x89PNG\r\n\x1a\n" and offset + length <= len(ico)
    icns = (icons / "sandtable.icns").read_bytes()
    assert icns[:4] == b"icns" and struct.unpack(">I", icns[4:8])[0] == len(icns)
    pos, kinds = 8, set()
    while pos < len(icns):
        kind, length = icns[pos:pos + 4].decode(), struct.unpack(">I", icns[pos + 4:pos + 8])[0]
        assert icns[pos + 8:pos + 16] == b"\x89PNG\r\n\x1a\n"
        kinds.add(kind)
        pos += length
    assert pos == len(icns) and {"ic07", "ic08", "ic09", "ic10"} <= kinds


def test_desktop_entry_has_the_required_keys() -> None:
    lines = (PACKAGING / "linux" / "sandtable.desktop").read_text().splitlines()
    assert lines[0] == "[Desktop Entry]"
    keys = dict(line.split("=", 1) for line in lines[1:] if "=" in line)
    assert keys["Type"] == "Application" and keys["Name"] == "Sandtable"
    assert keys["Exec"].split()[0] == "sandtable" and keys["Icon"] == "sandtable"
    assert keys["Categories"].endswith(";")
