#!/bin/sh
# Add Sandtable to your desktop's application menu (for this user only), or take it out again:
#     ./install-desktop-entry.sh            install
#     ./install-desktop-entry.sh --remove   uninstall
# The bundle folder stays where it is; the menu entry points at it, so move the folder first.
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
data="${XDG_DATA_HOME:-$HOME/.local/share}"
apps="$data/applications"
icons="$data/icons/hicolor/256x256/apps"
if [ "${1:-}" = "--remove" ]; then
    rm -f "$apps/sandtable.desktop" "$icons/sandtable.png"
    echo "removed the Sandtable menu entry"
    exit 0
fi
mkdir -p "$apps" "$icons"
cp "$here/sandtable.png" "$icons/sandtable.png"
sed -e "s|^Exec=.*|Exec=\"$here/sandtable\"|" \
    -e "s|^TryExec=.*|TryExec=$here/sandtable|" \
    "$here/sandtable.desktop" > "$apps/sandtable.desktop"
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database "$apps" || true
echo "installed $apps/sandtable.desktop (runs $here/sandtable)"
