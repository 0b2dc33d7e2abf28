#!/usr/bin/env bash
# Before the window opens: is there a display, and does Qt's X11 plugin have every system
# library it loads? Qt itself aborts (rc 134) naming at most one of them; this names them all,
# with the line that installs them. Exit 0 when the window can open, 1 (after one message)
# when not. Used by scripts/run.sh; `sandtable` itself checks for a display too.
set -uo pipefail
platform="${QT_QPA_PLATFORM:-}"
case "$platform" in
    offscreen*|minimal*|vnc*) exit 0 ;;  # no window system needed
esac
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    echo "sandtable: no display to open the window on (DISPLAY and WAYLAND_DISPLAY are unset);" \
         "run it from a desktop session, or set QT_QPA_PLATFORM=offscreen for no window." >&2
    exit 1
fi
case "$platform" in
    ""|xcb*) ;;
    *) exit 0 ;;  # another platform plugin (wayland, eglfs): not ours to check
esac
if [ -z "$platform" ] && [ -n "${WAYLAND_DISPLAY:-}" ] && [ -z "${DISPLAY:-}" ]; then
    exit 0  # Qt uses its Wayland plugin there
fi
[ "$(uname -s)" = Linux ] || exit 0
# The Debian/Ubuntu package of each library the xcb plugin loads (README's list).
packages=(libxcb-cursor0:libxcb-cursor.so.0 libxcb-icccm4:libxcb-icccm.so.4
          libxcb-keysyms1:libxcb-keysyms.so.1 libxcb-image0:libxcb-image.so.0
          libxcb-render-util0:libxcb-render-util.so.0 libxcb-xkb1:libxcb-xkb.so.1
          libxkbcommon-x11-0:libxkbcommon-x11.so.0 libxcb-shape0:libxcb-shape.so.0
          libxcb-randr0:libxcb-randr.so.0 libegl1:libEGL.so.1)
ldconfig_bin=$(command -v ldconfig || true)
[ -n "$ldconfig_bin" ] || { [ -x /sbin/ldconfig ] && ldconfig_bin=/sbin/ldconfig; }
[ -n "$ldconfig_bin" ] || exit 0  # no way to ask: let Qt try
known=$("$ldconfig_bin" -p 2>/dev/null | awk '{print $1}') || exit 0
missing=()
for entry in "${packages[@]}"; do
    package=${entry%%:*} library=${entry#*:}
    if ! grep -qxF "$library" <<<"$known"; then
        missing+=("$package")
    fi
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "sandtable: the window needs system libraries that are missing: ${missing[*]}" >&2
    echo "Install them with:  sudo apt-get install ${missing[*]}" >&2
    exit 1
fi
exit 0
