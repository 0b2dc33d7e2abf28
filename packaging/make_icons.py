#!/usr/bin/env python3
"""Render packaging/icons/sandtable.svg to the icon files the bundles use, offscreen.

    python packaging/make_icons.py

Writes next to the SVG: sandtable-<N>.png for N in SIZES (Linux .desktop icon and hicolor
theme sizes; the PNG sources of a macOS iconset), sandtable.ico (Windows: 16-256 px, PNG
entries) and sandtable.icns (macOS: PNG entries). The outputs are committed, so a build needs
neither this script nor QtSvg; rerun it after editing the SVG.
"""
from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent / "icons"
SVG = HERE / "sandtable.svg"
SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024]
ICO_SIZES = [16, 24, 32, 48, 64, 128, 256]
# ICNS element types holding PNG data, by pixel size (Apple's icns format).
ICNS_TYPES = [("icp4", 16), ("icp5", 32), ("icp6", 64), ("ic07", 128), ("ic08", 256),
              ("ic09", 512), ("ic10", 1024), ("ic11", 32), ("ic12", 64), ("ic13", 256),
              ("ic14", 512)]


def render_png(size: int) -> bytes:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        raise SystemExit(f"cannot read {SVG}")
    img = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(Qt.GlobalColor.transparent)
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(p)
    p.end()
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    img.save(buf, "PNG")
    buf.close()
    return bytes(data.data())


def ico(pngs: dict[int, bytes]) -> bytes:
    """A Windows .ico whose entries are PNG images (supported since Windows Vista)."""
    header = struct.pack("<HHH", 0, 1, len(ICO_SIZES))
    entries, blobs = b"", b""
    offset = 6 + 16 * len(ICO_SIZES)
    for s in ICO_SIZES:
        data = pngs[s]
        dim = 0 if s >= 256 else s  # 0 means 256
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(data), offset)
        blobs += data
        offset += len(data)
    return header + entries + blobs


def icns(pngs: dict[int, bytes]) -> bytes:
    body = b"".join(kind.encode() + struct.pack(">I", 8 + len(pngs[s])) + pngs[s]
                    for kind, s in ICNS_TYPES)
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841
    pngs = {s: render_png(s) for s in SIZES}
    for s, data in pngs.items():
        (HERE / f"sandtable-{s}.png").write_bytes(data)
    (HERE / "sandtable.ico").write_bytes(ico(pngs))
    (HERE / "sandtable.icns").write_bytes(icns(pngs))
    print(f"wrote {len(pngs)} PNGs, sandtable.ico and sandtable.icns in {HERE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
