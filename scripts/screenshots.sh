#!/usr/bin/env bash
# Takes the README's screenshots of the real viewer under Xvfb, with the bundled example pair
# (Wikipedia: "Guinea" / "History of Guinea", CC BY-SA 3.0).
# Needs: apt install xvfb xdotool imagemagick. Run from the repository root:
#   scripts/screenshots.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release
bin=target/release/simdoc
out=screenshots
mkdir -p "$out"
unset WAYLAND_DISPLAY
export DISPLAY=:97
Xvfb "$DISPLAY" -screen 0 1440x900x24 >/dev/null 2>&1 &
xvfb=$!
# A private settings folder: every run starts like a first start.
export XDG_DATA_HOME XDG_CONFIG_HOME
XDG_DATA_HOME=$(mktemp -d)
XDG_CONFIG_HOME=$XDG_DATA_HOME
cleanup() { kill "${app:-}" "$xvfb" 2>/dev/null || true; rm -rf "$XDG_DATA_HOME"; }
trap cleanup EXIT
sleep 1

shoot() { # name
  sleep "${2:-1}"
  import -window root "$out/$1.png"
  echo "wrote $out/$1.png"
}

start() { # args...
  "$bin" view "$@" >/dev/null 2>&1 &
  app=$!
  for _ in $(seq 50); do
    xdotool search --name '^simdoc$' >/dev/null 2>&1 && break
    sleep 0.2
  done
  win=$(xdotool search --name '^simdoc$' | head -1)
  xdotool windowmove "$win" 0 0 windowsize "$win" 1440 900
  sleep 3
}

start --example

# Click a blue (similar, not identical) dot of the dotplot: the pair is selected in every view and
# both texts scroll to it. Then hover the selected sentence of B for its explanation.
xdotool mousemove 1047 447 click 1
sleep 1
xdotool mousemove 498 386
shoot selection
kill "$app"; wait "$app" 2>/dev/null || true

# The passages list, then a similar (one-to-two) match's words side by side.
start --example
xdotool mousemove 856 622 click 1
shoot passages
xdotool mousemove 744 622 click 1
sleep 1
xdotool mousemove 900 773 click 1
sleep 1
xdotool mousemove 929 622 click 1
shoot words
kill "$app"; wait "$app" 2>/dev/null || true

start --example --hierarchies
shoot hierarchies
kill "$app"; wait "$app" 2>/dev/null || true

# Collection mode over the public-domain inaugural addresses plus the example pair.
folder=$(mktemp -d)
cp "${SIMDOC_DATA:-../shared/data}"/reference/us-speeches-pd/inaugural/*.txt assets/examples/*.md "$folder"/
start --example
xdotool mousemove 186 43 click 1
sleep 1
xdotool windowfocus --sync "$win"
xdotool mousemove 218 67 click 1
xdotool type --delay 20 "$folder"
xdotool mousemove 539 88 click 1
sleep 12
shoot collection
rm -rf "$folder"
