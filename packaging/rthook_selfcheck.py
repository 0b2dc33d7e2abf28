"""PyInstaller runtime hook: ``SANDTABLE_BUNDLE_SELFCHECK=1 sandtable`` prints what the frozen
app can find (version, game-module folders, entry points of the sandtable distribution,
whether each assist plugin imports; with ``=imports``, also whether every module of ours
imports) as JSON, and exits before the app starts.

Used by tests/packaging/test_bundle.py, and handy when a playtester's bundle misbehaves.
Without the variable this does nothing.
"""
import os


def _selfcheck() -> None:
    import json
    import sys
    from importlib import metadata

    report: dict = {"frozen": bool(getattr(sys, "frozen", False)),
                    "meipass": getattr(sys, "_MEIPASS", None)}
    try:
        dist = metadata.distribution("sandtable")
        report["version"] = dist.version
        report["entry_points"] = sorted(
            [ep.group, ep.name, ep.value] for ep in dist.entry_points)
    except metadata.PackageNotFoundError:
        report["version"] = None
        report["entry_points"] = None
    loaded = {}
    # The same call the app makes to find assist plugins.
    for ep in metadata.entry_points(group="sandtable.assist"):
        try:
            obj = ep.load()
            loaded[ep.name] = getattr(obj, "__module__", None) or getattr(obj, "__name__", "?")
        except Exception as err:  # report, don't crash: this is a diagnostic
            loaded[ep.name] = f"ERROR {type(err).__name__}: {err}"
    report["assist_plugins"] = loaded
    try:
        script = metadata.entry_points(group="console_scripts")["sandtable"].load()
        report["console_script"] = f"{script.__module__}:{script.__name__}"
    except Exception as err:
        report["console_script"] = f"ERROR {type(err).__name__}: {err}"
    if os.environ.get("SANDTABLE_BUNDLE_SELFCHECK") == "imports":
        # Import every module of ours that was frozen: a dependency PyInstaller missed shows
        # up here as an ImportError instead of at a playtester's table.
        import importlib

        # The frozen modules, from the archive's table of contents (this hook runs before
        # PyInstaller's own pkgutil hook, so pkgutil.walk_packages sees nothing yet).
        from pyimod02_importers import get_pyz_toc_tree

        def names(node: dict, prefix: str):
            for key, child in sorted(node.items()):
                yield prefix + key
                if isinstance(child, dict):
                    yield from names(child, prefix + key + ".")

        tree = get_pyz_toc_tree()
        errors, count = {}, 0
        for pkg_name in ("table", "netplay", "assist"):
            for name in [pkg_name, *names(tree.get(pkg_name, {}), pkg_name + ".")]:
                count += 1
                try:
                    importlib.import_module(name)
                except Exception as err:
                    errors[name] = f"{type(err).__name__}: {err}"
        report["modules_imported"] = count
        report["import_errors"] = errors
    from table.games import registry

    report["asset_dirs"] = [str(p) for p in registry.asset_dirs()]
    report["games"] = sorted(registry.module_dirs())
    print(json.dumps(report, indent=1))
    sys.stdout.flush()
    os._exit(0)


if os.environ.get("SANDTABLE_BUNDLE_SELFCHECK"):
    _selfcheck()
