#!/usr/bin/env bash
# Takes the README's screenshot of the HTML report's change list (screenshots/report-changes.png):
# the bundled example "Guinea" (Wikipedia, CC BY-SA 3.0) against a revision of it edited as the
# viewer's Changes screenshot is (scripts/screenshots.sh: a sentence reworded and one added, a
# paragraph deleted, one moved to the end), plus a reworded sentence in the moved paragraph,
# rendered by a headless Chromium at the report's Changes section.
# Needs: apt install chromium-headless-shell (or chromium). Run from the repository root:
#   scripts/screenshot-report.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release
bin=target/release/simdoc
browser=$(command -v chromium-headless-shell || command -v chromium)
out=screenshots
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - assets/examples/guinea.md "$work" <<'PY'
import pathlib, sys
text = pathlib.Path(sys.argv[1]).read_text(encoding="utf-8")
out = pathlib.Path(sys.argv[2])
def change(old, new):
    global text
    assert text.count(old) == 1, old
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
text = text.rstrip() + "\n\n" + ebola.replace("giving it a bleak prospect", "which gives it a grim outlook")
change("Human rights in Guinea remain controversial.", "Human rights in Guinea remain a matter of controversy.")
(out / "guinea-revised.md").write_text(text, encoding="utf-8")
PY

# Run in the folder of the texts, so that the report names them as a user would.
root=$PWD
(cd "$work" && "$root/$bin" compare guinea.md guinea-revised.md --html report.html --quiet)
# The report's Changes section on its own page, with the report's styles (a headless screenshot
# does not follow the page's anchor): its head, the names of A and B, the section.
python3 - "$work/report.html" "$work/changes.html" <<'PY'
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
head = page[: page.index("<body>") + len("<body>")]
names = re.search(r"<p>A: .*?</p>", page, re.S)
start = page.index('<h2 id="changes">')
end = page.index("<h2>", start + 1)
open(sys.argv[2], "w", encoding="utf-8").write(
    head + (names.group(0) if names else "") + page[start:end] + "</body></html>\n")
PY
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,560 \
  --screenshot="$out/report-changes.png" "file://$work/changes.html" 2>"$work/chromium.log"
echo "wrote $out/report-changes.png"
