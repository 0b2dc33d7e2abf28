"""`sandtable print` and `sandtable export-images`: the module's cards on paper and as images,
painted by the table's own painter."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from table.app.commands import Subcommands

if TYPE_CHECKING:
    from table.ui.print.job import Job


def _source(p: argparse.ArgumentParser) -> None:
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--game", help="an installed game's id (see `sandtable games`)")
    which.add_argument("--module", metavar="DIR", help="a module folder (a draft)")
    cards = p.add_mutually_exclusive_group()
    cards.add_argument("--deck", metavar="LIST", help="a deck list (a file, or a starter deck's "
                                                      "name): exactly its cards, in its counts")
    cards.add_argument("--all", action="store_true", help="every card of the module once "
                                                          "(the default)")
    p.add_argument("--changed-since", metavar="VERSION_OR_LOG",
                   help="only the cards that changed since then: a log (the module it was "
                        "played under), a module folder, or a version or hash in the module "
                        "cache")
    p.add_argument("--size", help="card size instead of the module's [templates.card]: poker, "
                                  "bridge, tarot, mini or WIDTHxHEIGHT in mm")


def register(sub: Subcommands) -> None:
    p = sub.add_parser("print", help="print-and-play sheets of a module's cards as a PDF",
                       description="Write the cards at true size on A4 or Letter, as many a "
                                   "page as fit, with crop marks, an optional bleed and the "
                                   "backs on the following page mirrored for duplex printing.")
    _source(p)
    p.add_argument("--out", required=True, help="the PDF to write (it appears only when "
                                                "complete)")
    p.add_argument("--paper", choices=["a4", "letter"], default="a4", help="paper (default a4)")
    p.add_argument("--bleed", type=float, default=0.0, metavar="MM",
                   help="run each card's picture this far past its cut (default 0)")
    p.add_argument("--fronts-only", action="store_true", help="no back pages")
    p.add_argument("--no-crop-marks", action="store_true", help="no crop marks in the margins")
    p.set_defaults(handler=cmd_print)

    p = sub.add_parser("export-images", help="card images (PNG) and Tabletop Simulator sheets",
                       description="Write one PNG per card at a chosen DPI and deck sheets in "
                                   "the grid Tabletop Simulator imports (up to 10x7, plus a "
                                   "back image), with sheets.txt naming which card is where.")
    _source(p)
    p.add_argument("--out", required=True, metavar="DIR", help="the folder to write into")
    p.add_argument("--dpi", type=int, default=300, help="pixels per inch (default 300)")
    p.add_argument("--sheet", default="10x7", metavar="COLSxROWS",
                   help="deck sheet grid, at most 10x7 (default 10x7)")
    p.add_argument("--no-sheets", action="store_true", help="single card images only")
    p.set_defaults(handler=cmd_export_images)


def _job(args: argparse.Namespace) -> Job:
    from table.games import find_module, load_module
    from table.ui.print.job import build_job

    module = load_module(Path(args.module)) if args.module else find_module(args.game)
    return build_job(module, args.deck, args.changed_since, args.size)


def _fail(err: Exception) -> int:
    from table.games import ModuleError

    if isinstance(err, ModuleError):
        for problem in err.problems:
            print(problem, file=sys.stderr)
    else:
        print(f"sandtable: {err}", file=sys.stderr)
    return 1


def cmd_print(args: argparse.Namespace) -> int:
    from table.games import ModuleError
    from table.ui.print.pdf_sheets import write_pdf
    from table.ui.print.sheet_layout import LayoutError

    _qt()
    try:
        job = _job(args)
        layout = job.layout(args.paper, args.bleed)
    except (ModuleError, LookupError, LayoutError, OSError) as err:
        return _fail(err)
    if not job.cards:
        print(f"sandtable: nothing to print ({job.what})", file=sys.stderr)
        return 1
    pages = write_pdf(args.out, job.cards, job.size, layout, args.paper,
                      backs=not args.fronts_only, title=f"{job.module.name}: {job.what}",
                      marks=not args.no_crop_marks)
    print(f"wrote {args.out}: {job.what}, {pages} page(s) of {args.paper.upper()}, "
          f"{layout.per_page} a sheet at {job.size.width_mm:g} x {job.size.height_mm:g} mm")
    return 0


def cmd_export_images(args: argparse.Namespace) -> int:
    from table.games import ModuleError
    from table.ui.print.card_images import export, parse_grid

    _qt()
    try:
        grid = None if args.no_sheets else parse_grid(args.sheet)
        if not 30 <= args.dpi <= 1200:
            raise ValueError(f"--dpi {args.dpi}: give 30 to 1200")
        job = _job(args)
    except (ModuleError, LookupError, ValueError, OSError) as err:
        return _fail(err)
    result = export(job.cards, job.size, Path(args.out), args.dpi, grid)
    print(f"wrote {args.out}: {len(result.cards)} card image(s), {len(result.sheets)} sheet(s)"
          + (f", {result.back.name}, {result.index.name}" if result.back and result.index
             else "") + f" ({job.what})")
    return 0


def _qt() -> None:
    """Painting needs a Qt application; no window opens, so no display is needed."""
    import os

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    if QApplication.instance() is None:
        QApplication(["sandtable"])
