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

# Wikipedia's "Equatorial Guinea" and the articles it summarises ("History of ...", "Economy of
# ...", CC BY-SA 3.0), taken out of the enwiki-2015 reference text, plus the example pair.
data="${SIMDOC_DATA:-../shared/data}"
work=$(mktemp -d)
mkdir -p "$work/sources" "$work/submissions"
python3 - "$data/reference/enwiki-2015/text" "$work" <<'PY'
import pathlib, re, sys
root, work = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
doc = re.compile(r'<doc id="[^"]*" url="[^"]*" title="([^"]*)">\n(.*?)</doc>', re.S)
for path in sorted(root.glob("*/*")):
    for title, body in doc.findall(path.read_text(encoding="utf-8")):
        if "Equatorial Guinea" in title:
            name = title.replace(" ", "-").lower() + ".txt"
            folder = work if title == "Equatorial Guinea" else work / "sources"
            (folder / name).write_text(body, encoding="utf-8")
PY
cp assets/examples/guinea.md assets/examples/history-of-guinea.md "$work/sources/"

# The Sources view: "Equatorial Guinea" against its sources; hover a source in the list (its
# sentences stand out), then a sentence for where it comes from.
start "$work/equatorial-guinea.txt" --sources "$work/sources"
xdotool mousemove 120 185
sleep 1
xdotool mousemove 726 217
shoot sources
kill "$app"; wait "$app" 2>/dev/null || true

# Collection mode, a teacher's folder: "Equatorial Guinea", "Guinea" and eight inaugural
# addresses (public domain) handed in, the articles as sources.
cp "$work/equatorial-guinea.txt" "$work/sources/guinea.md" "$work/submissions/"
rm "$work/sources/guinea.md"
for speech in 1953-Eisenhower 1957-Eisenhower 1961-Kennedy 1965-Johnson 1969-Nixon 1973-Nixon \
  1977-Carter 1981-Reagan; do
  cp "$data/reference/us-speeches-pd/inaugural/$speech.txt" "$work/submissions/"
done
start --example
xdotool mousemove 188 66 click 1
sleep 1
xdotool windowfocus --sync "$win"
xdotool mousemove 212 89 click 1
xdotool type --delay 40 "$work/submissions"
xdotool mousemove 720 89 click 1
xdotool type --delay 40 "$work/sources"
# Run (the preset for the question: teacher, since sources are given).
xdotool mousemove 678 112 click 1
sleep 12
# Hover a cell of the matrix: its row, column and value.
xdotool mousemove 1150 420
shoot collection
rm -rf "$work"
