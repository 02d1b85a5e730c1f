#!/usr/bin/env bash
# Drags a real file onto the viewer under Xvfb through X11 drag and drop (XDND), the way a file
# manager would, and screenshots each step: the overlay while the file hovers, the question
# (both sides hold a document), and the viewer after "As B".
# Needs: apt install xvfb xdotool imagemagick python3-gi gir1.2-gtk-3.0. Run from the repository
# root with SIMDOC_DATA set (or ../shared/data beside it):
#   scripts/drag_and_drop.sh [OUTPUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-$(mktemp -d)}
mkdir -p "$out"
data=${SIMDOC_DATA:-../shared/data}
file=$(find "$data/documents/article-html/html" -name '*.html' | sort | head -1)
cargo build --release
unset WAYLAND_DISPLAY
export DISPLAY=:95
Xvfb "$DISPLAY" -screen 0 1440x900x24 >"$out/xvfb.log" 2>&1 &
xvfb=$!
export XDG_DATA_HOME XDG_CONFIG_HOME
XDG_DATA_HOME=$(mktemp -d)
XDG_CONFIG_HOME=$XDG_DATA_HOME
cleanup() { kill "${source_app:-}" "${app:-}" "$xvfb" 2>>"$out/cleanup.log" || true; rm -rf "$XDG_DATA_HOME"; }
trap cleanup EXIT
sleep 1

target/release/simdoc view --example >"$out/viewer.log" 2>&1 &
app=$!
for _ in $(seq 50); do xdotool search --name '^simdoc$' >>"$out/window-search.log" 2>&1 && break; sleep 0.2; done
win=$(xdotool search --name '^simdoc$' | head -1)
xdotool windowmove "$win" 0 0 windowsize "$win" 1440 900
sleep 3

/usr/bin/python3 scripts/drag_source.py "$file" >"$out/drag-source.log" 2>&1 &
source_app=$!
for _ in $(seq 50); do xdotool search --name '^dragsource$' >>"$out/window-search.log" 2>&1 && break; sleep 0.2; done
source_win=$(xdotool search --name '^dragsource$' | head -1)
xdotool windowmove "$source_win" 1200 750
sleep 0.5
eval "$(xdotool getwindowgeometry --shell "$source_win")"
x=$((X + WIDTH / 2))
y=$((Y + HEIGHT / 2))

# Press on the drag source, move in steps onto pane B, and release there.
xdotool mousemove "$x" "$y"
sleep 0.3
xdotool mousedown 1
for i in $(seq 1 20); do
  xdotool mousemove $((x - i * 30)) $((y - i * 20))
  sleep 0.05
done
xdotool mousemove 600 400
sleep 0.3
xdotool mousemove 610 405
sleep 1
import -window root "$out/drop-hover.png"
xdotool mouseup 1
xdotool mousemove 300 880
sleep 1
import -window root "$out/drop-question.png"
# "As B (replaces ...)": the second button row of the question.
xdotool mousemove 620 477 click 1
sleep 4
import -window root "$out/drop-opened-as-b.png"
echo "wrote $out/drop-hover.png, drop-question.png, drop-opened-as-b.png"
