"""What the desktop bundle leaves out, shared by sandtable.spec and the packaging tests.

PySide6's PyInstaller hooks collect every plugin of each plugin type that QtGui/QtWidgets
may use, and all Qt translations. Sandtable needs only QtCore, QtGui and QtWidgets, draws its
cards itself, and is English only, so most of that is dead weight.
"""
from __future__ import annotations

import os
import re

PYARROW_UNUSED = [
    f"pyarrow.{name}" for name in (
        "_flight", "flight", "_s3fs", "_azurefs", "_gcsfs", "_hdfs", "_substrait", "substrait",
        "_acero", "acero", "_dataset", "_dataset_orc", "_dataset_parquet",
        "_dataset_parquet_encryption", "dataset", "_orc", "orc", "_parquet_encryption",
        "parquet.encryption", "_pyarrow_cpp_tests", "tests", "_cuda", "cuda", "jvm",
        "benchmark", "interchange", "pandas_compat", "_feather", "feather", "_csv", "csv",
        "_json", "json")]
# pyarrow's shared libraries behind those modules that nothing kept links against (its hook
# collects every library it has; libarrow_python links Substrait, Acero and datasets, so they
# stay), and its C++ headers and Cython sources (for building against it)
_PYARROW_UNUSED_FILES = re.compile(
    r"pyarrow[/\\](?:include|src|tests)[/\\]|pyarrow[/\\].*\.(?:pyx|pxd|pxi|h|hpp|cc)$|"
    r"pyarrow[/\\]lib(?:arrow_(?:flight|s3|cuda|python_flight|python_parquet_encryption))[.]")

# Python packages never imported by the app (test and dev tools, unused stdlib GUI, unused Qt).
EXCLUDED_MODULES = [
    "tkinter", "_tkinter", "turtle", "idlelib", "pydoc_data",
    "pytest", "_pytest", "pytestqt", "hypothesis", "mypy", "importlinter", "grimp",
    "PyInstaller", "setuptools", "pkg_resources", "pip",
    "PySide6.QtNetwork", "PySide6.QtOpenGL", "PySide6.QtOpenGLWidgets", "PySide6.QtQml",
    "PySide6.QtQuick", "PySide6.QtQuickWidgets", "PySide6.QtSvg", "PySide6.QtSvgWidgets",
    "PySide6.QtPrintSupport", "PySide6.QtDBus", "PySide6.QtSql", "PySide6.QtTest",
    "PySide6.QtXml", "PySide6.QtConcurrent", "PySide6.QtDesigner", "PySide6.QtHelp",
    "PySide6.QtUiTools", "PySide6.QtPdf", "PySide6.QtPdfWidgets",
    # Not dependencies, but optional imports of some (pygal can render PNGs through them;
    # pyarrow and duckdb can hand results to pandas and Polars): keep them out even when a
    # developer's environment has them.
    "matplotlib", "numpy", "pandas", "PIL", "lxml", "cairosvg", "cairocffi", "polars",
    # `simulate --cluster` on a Dask cluster is for a Python install with the cluster extra
    # (pip install 'sandtable[cluster]'); from the bundle it says so. Dask's own dependencies
    # that nothing else brings go with it.
    "dask", "distributed", "tornado", "cloudpickle", "toolz", "tlz", "zict", "tblib",
    "sortedcontainers", "partd", "locket", "fsspec", "psutil", "yaml", "click", "jinja2",
    # The designer's tools (`sandtable dataset`, `report`) use pyarrow's Parquet files and
    # its in-memory tables, and nothing of its remote file systems, RPC (Flight), query
    # engine (Acero, Substrait), datasets, ORC, CUDA, JVM bridge or its own tests.
    *PYARROW_UNUSED,
]

# Dependencies whose package data must travel with them (collect_data_files).
PACKAGES_WITH_DATA = ["pygal"]

# Qt plugins kept, by plugin type; a type not listed here is dropped whole.
# Each platform's own windowing plugin is kept (xcb/wayland, windows, cocoa), plus offscreen
# for headless screenshots and tests.
KEPT_PLUGINS = {
    "platforms": {"qxcb", "qwayland", "qoffscreen", "qwindows", "qcocoa"},
    # Portal dialogs on Linux; the GTK theme plugin is left out: it drags in the build
    # machine's whole GTK stack (~20 MB), which then clashes with the player's own GTK.
    "platformthemes": {"qxdgdesktopportal"},
    "platforminputcontexts": {"composeplatforminputcontextplugin",  # dead keys, IMEs
                              "ibusplatforminputcontextplugin"},
    "imageformats": {"qjpeg", "qgif", "qwebp", "qico"},          # card art beyond built-in PNG
    "wayland-shell-integration": {"xdg-shell"},                  # what desktops speak today
    "wayland-decoration-client": None,                           # None: keep every plugin
    "styles": None,                                              # Windows 11 / macOS styles
    # Not kept: OpenGL integrations (xcbglintegrations, wayland-graphics-integration-client:
    # the table paints with the raster engine), eglfs/linuxfb/vnc platforms, evdev input,
    # printing, TLS/network information, SVG icons, virtual keyboard, QML tooling.
}

_PLUGIN = re.compile(r"PySide6[/\\]Qt[/\\]plugins[/\\]([^/\\]+)[/\\](?:lib)?([^/\\.]+)")
_TRANSLATION = re.compile(r"PySide6[/\\]Qt[/\\]translations[/\\]")


def keep(dest: str) -> bool:
    """Whether a file that PyInstaller collected (by its path inside the bundle) stays."""
    if _TRANSLATION.search(dest) or _PYARROW_UNUSED_FILES.search(dest):
        return False
    m = _PLUGIN.search(dest)
    if m:
        kind, name = m.groups()
        if kind not in KEPT_PLUGINS:
            return False
        names = KEPT_PLUGINS[kind]
        return names is None or name in names
    return True


def filter_toc(toc):
    """A PyInstaller TOC (list of (dest, src, typecode)) without the dropped files."""
    return [entry for entry in toc if keep(entry[0])]


def _closure(roots, deps):
    seen, todo = set(), list(roots)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(deps(name))
    return seen


def filter_binaries(binaries, get_imports):
    """`filter_toc` for binaries, and also the shared libraries that only dropped plugins
    needed (e.g. libQt6XcbQpa's GL helpers, the GTK stack of the GTK theme plugin).

    `get_imports(src)` lists the names a binary links against (PyInstaller's
    ``bindepend.get_imports``). Libraries are matched by file name. A library stays if any
    kept binary that was collected for its own sake needs it, directly or not."""
    links = [e for e in binaries if e[2] == "SYMLINK"]  # (link, target in bundle, "SYMLINK")
    binaries = [e for e in binaries if e[2] != "SYMLINK"]
    by_name = {os.path.basename(e[0]).lower(): e for e in binaries}
    kept = [e for e in binaries if keep(e[0])]
    dropped = [e for e in binaries if not keep(e[0])]
    if not dropped:
        return kept + [e for e in links if keep(e[0])]
    cache: dict[str, list[str]] = {}

    def deps(name: str) -> list[str]:
        if name not in cache:
            entry = by_name.get(name)
            names = []
            if entry is not None:
                try:
                    names = [os.path.basename(n).lower() for n, _ in get_imports(entry[1])]
                except Exception:  # unreadable binary: assume it needs nothing we ship
                    names = []
            cache[name] = [n for n in names if n in by_name]
        return cache[name]

    pulled = _closure((os.path.basename(e[0]).lower() for e in dropped), deps)
    pulled -= {os.path.basename(e[0]).lower() for e in dropped}
    roots = [os.path.basename(e[0]).lower() for e in kept
             if os.path.basename(e[0]).lower() not in pulled]
    needed = _closure(roots, deps)
    out = [e for e in kept if os.path.basename(e[0]).lower() in needed]
    present = {os.path.normcase(os.path.normpath(e[0])) for e in out}
    out += [e for e in links if keep(e[0])
            and os.path.normcase(os.path.normpath(e[1])) in present]
    return out


def drop_dangling_links(toc, *present_tocs):
    """Drop SYMLINK entries (link, target, "SYMLINK") whose target is no longer collected.

    PyInstaller puts links to Qt's libraries at the top of the bundle; a link to a library
    that `filter_binaries` removed would dangle."""
    present = {os.path.normcase(os.path.normpath(e[0]))
               for t in (toc, *present_tocs) for e in t if e[2] != "SYMLINK"}
    return [e for e in toc if e[2] != "SYMLINK"
            or os.path.normcase(os.path.normpath(e[1])) in present]
