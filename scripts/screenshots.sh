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
# What the X server and the viewer print goes to a temporary folder, never to a device.
logs=$(mktemp -d)
Xvfb "$DISPLAY" -screen 0 1440x900x24 >"$logs/xvfb.log" 2>&1 &
xvfb=$!
# A private settings folder: every run starts like a first start.
export XDG_DATA_HOME XDG_CONFIG_HOME
XDG_DATA_HOME=$(mktemp -d)
XDG_CONFIG_HOME=$XDG_DATA_HOME
cleanup() { kill "${app:-}" "$xvfb" 2>>"$logs/cleanup.log" || true; rm -rf "$XDG_DATA_HOME" "$logs"; }
trap cleanup EXIT
sleep 1

shoot() { # name
  sleep "${2:-1}"
  import -window root "$out/$1.png"
  echo "wrote $out/$1.png"
}

start() { # args...
  "$bin" view "$@" >>"$logs/viewer.log" 2>&1 &
  app=$!
  for _ in $(seq 150); do
    xdotool search --name '^simdoc$' >>"$logs/window-search.log" 2>&1 && break
    sleep 0.2
  done
  win=$(xdotool search --name '^simdoc$' | head -1)
  xdotool windowmove "$win" 0 0 windowsize "$win" 1440 900
  sleep 3
}

start --example

# Click a blue (similar, not identical) match in the list: the pair is selected in every view and
# both texts scroll to it. Then hover the selected sentence of B for its explanation.
xdotool mousemove 1037 657 click 1
sleep 1
xdotool mousemove 515 287
shoot selection
kill "$app"; wait "$app" 2>>"$logs/viewer.log" || true

# The passages list with the start of each passage's text.
start --example
xdotool mousemove 963 611 click 1
xdotool mousemove 700 10
shoot passages
kill "$app"; wait "$app" 2>>"$logs/viewer.log" || true

# An editor's pair: "Guinea" against a revision of it (a sentence reworded, one added, a
# paragraph deleted, one moved to the end). The Changes list with its first change selected and
# the texts scrolling in step, then that change word by word on the real text.
revision=$(mktemp -d)
python3 - assets/examples/guinea.md "$revision" <<'PY'
import pathlib, sys
text = pathlib.Path(sys.argv[1]).read_text(encoding="utf-8")
out = pathlib.Path(sys.argv[2])
def change(old, new):
    global text
    assert old in text, old
    text = text.replace(old, new)
(out / "guinea.md").write_text(text, encoding="utf-8")
change("Guinea is a republic. The president is directly elected by the people and is head of state "
       "and head of government.",
       "Guinea is a presidential republic. The President, elected directly by the people, is both "
       "head of state and head of government.\n\nA new constitution was adopted by referendum in "
       "2020, extending the presidential term to six years.\n\n")
change("Guinea's economy is largely dependent on agriculture and mineral production. It is the "
       "world's second largest producer of bauxite, and has rich deposits of diamonds and gold.\n\n", "")
ebola = ("The country is currently at the core of the 2014 Ebola outbreak giving it a bleak prospect "
         "for the upcoming years in terms of humanitarian situation and GDP growth.\n\n")
change(ebola, "")
text = text.rstrip() + "\n\n" + ebola
change("Human rights in Guinea remain controversial.", "Human rights in Guinea remain a matter of controversy.")
(out / "guinea-revised.md").write_text(text, encoding="utf-8")
PY
start "$revision/guinea.md" "$revision/guinea-revised.md"
xdotool mousemove 1139 611 click 1
sleep 1
xdotool mousemove 822 680 click 1
xdotool mousemove 950 704 click 1
xdotool mousemove 1000 300
shoot changes 2
xdotool mousemove 1041 611 click 1
xdotool mousemove 1000 300
shoot words
kill "$app"; wait "$app" 2>>"$logs/viewer.log" || true
rm -rf "$revision"

# A teacher's pair (tests/fixtures/exclusions/, which the exclusions tests read): an essay that
# quotes its source, copies two sentences of it unmarked and lists the same references. Options,
# Leave out: quotations and the bibliography; the quoted sentence hovered says why it is left out.
start tests/fixtures/exclusions/essay.txt tests/fixtures/exclusions/wetlands.txt
xdotool mousemove 1149 12 click 1
sleep 1
xdotool mousemove 1180 368 click 1
sleep 1.5
xdotool mousemove 1180 391 click 1
sleep 2
xdotool mousemove 160 222
shoot exclusions 2
kill "$app"; wait "$app" 2>>"$logs/viewer.log" || true

# Templated text: a price list of 2,000 lines against next month's (1,500 lines, a third of them
# reworded), at the measured preset, where every two lines pass the floor: each keeps its best
# partner, and the dotplot's caption says so on hover.
prices=$(mktemp -d)
mkdir "$prices/sources"
python3 - "$prices" <<'PY'
import pathlib, random, sys
out = pathlib.Path(sys.argv[1])
def rows(seed, n):
    random.seed(seed)
    return [f"Item {i}: unit price {random.randint(2, 90)} dollars, {random.randint(1, 40)} in stock."
            for i in range(n)]
march = rows(3, 2000)
april = [r.replace("in stock", "in store") if i % 3 == 0 else r for i, r in enumerate(march)]
(out / "sources" / "prices-march.txt").write_text("Price list, March\n\n" + "\n".join(march) + "\n")
(out / "prices-april.txt").write_text("Price list, April\n\n" + "\n".join(april[:1500]) + "\n")
(out / "sources" / "prices-january.txt").write_text(
    "Price list, January\n\n" + "\n".join(rows(5, 1000)) + "\n")
PY
start "$prices/sources/prices-march.txt" "$prices/prices-april.txt" --preset measured
sleep 5
xdotool mousemove 1090 253
shoot templated 2
kill "$app"; wait "$app" 2>>"$logs/viewer.log" || true
# The same list against both earlier months in the Sources view: the note under the heading.
start "$prices/prices-april.txt" --sources "$prices/sources"
sleep 8
xdotool mousemove 700 300
shoot sources-templated 2
kill "$app"; wait "$app" 2>>"$logs/viewer.log" || true
rm -rf "$prices"

start --example --hierarchies
shoot hierarchies
kill "$app"; wait "$app" 2>>"$logs/viewer.log" || true

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
xdotool mousemove 120 163
sleep 1
xdotool mousemove 726 195
shoot sources
kill "$app"; wait "$app" 2>>"$logs/viewer.log" || true

# Collection mode, a teacher's folder: four BBC technology articles as sources and sixteen
# extractive summaries handed in (the BBC News Summary set). Summaries of the same story filed
# twice share only their article's sentences; summaries of related stories not given as sources
# share text of their own, and rank first among the submissions' pairs although their raw score
# is lower. Only file names are shown (the BBC's text is not for copying here).
bbc="$data/documents/bbc-news/bbc/tech"
summaries="$data/documents/bbc-news-summaries/BBC News Summary/Summaries/tech"
rm -rf "$work/sources" "$work/submissions"
mkdir -p "$work/sources" "$work/submissions"
for n in 003 004 007 008; do cp "$bbc/$n.txt" "$work/sources/article-$n.txt"; done
for n in 003 036 004 063 007 060 008 252 141 173 101 123 108 237 177 292; do
  cp "$summaries/$n.txt" "$work/submissions/summary-$n.txt"
done
start --example
xdotool mousemove 188 43 click 1
sleep 1
xdotool windowfocus --sync "$win"
xdotool mousemove 212 67 click 1
xdotool type --delay 40 "$work/submissions"
xdotool mousemove 720 67 click 1
xdotool type --delay 40 "$work/sources"
# Run (the preset for the question: teacher, since sources are given).
xdotool mousemove 739 89 click 1
sleep 12
# Hover a pair of summaries of one story: its share beyond the sources, both ways.
xdotool mousemove 330 561
shoot collection 2
rm -rf "$work"
