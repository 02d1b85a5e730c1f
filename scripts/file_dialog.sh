#!/usr/bin/env bash
# Opens document B through the native file dialog under Xvfb with no D-Bus session, where rfd
# falls back to zenity, types a path into the dialog and screenshots before and after.
# Needs: apt install xvfb xdotool imagemagick zenity. Run from the repository root:
#   scripts/file_dialog.sh [OUTPUT_DIR]
set -u
cd "$(dirname "$0")/.."
out=${1:-$(mktemp -d)}
mkdir -p "$out"
data=${SIMDOC_DATA:-../shared/data}
cargo build --release
unset WAYLAND_DISPLAY DBUS_SESSION_BUS_ADDRESS
export DISPLAY=:94
Xvfb :94 -screen 0 1440x900x24 >"$out/xvfb.log" 2>&1 &
xvfb=$!
export XDG_DATA_HOME=$(mktemp -d); export XDG_CONFIG_HOME=$XDG_DATA_HOME
sleep 1
target/release/simdoc view --example >"$out/viewer.log" 2>&1 &
app=$!
for _ in $(seq 50); do xdotool search --name '^simdoc$' >>"$out/window-search.log" 2>&1 && break; sleep 0.2; done
win=$(xdotool search --name '^simdoc$' | head -1)
xdotool windowmove "$win" 0 0 windowsize "$win" 1440 900
sleep 3
# The "B: ..." menu of the toolbar, then its "Choose document B…" entry.
xdotool mousemove 249 12 click 1
sleep 1
xdotool mousemove 300 42 click 1
sleep 4
import -window root "$out"/dialog.png
pgrep -a zenity || echo "no zenity dialog opened"
f=$(cd "$data" && pwd)/documents/article-html/html/$(ls "$data/documents/article-html/html" | head -1)
# Type the path into the dialog ("/" opens the GTK chooser's location bar).
zwin=$(xdotool search --pid "$(pgrep -n zenity)" | tail -1)
if [ -n "$zwin" ]; then
  xdotool windowfocus "$zwin"; sleep 0.3
  xdotool mousemove 600 300
  xdotool type "/"
  sleep 1
  xdotool type --delay 20 "${f:1}"
  sleep 1
  import -window root "$out"/typed.png
  xdotool key Return
  sleep 4
fi
import -window root "$out"/dialog-after.png
kill $app; sleep 0.5; kill $xvfb
echo "wrote $out/dialog.png, typed.png, dialog-after.png"
