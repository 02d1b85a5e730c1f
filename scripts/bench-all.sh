#!/usr/bin/env bash
# Re-runs every benchmark whose figures BENCHMARKS.md quotes and refreshes its generated blocks
# (between `<!-- bench-all:NAME -->` and `<!-- /bench-all:NAME -->`) from their output.
#
#   SIMDOC_DATA=/work/shared/data scripts/bench-all.sh [NAME...]     (default: every benchmark)
#
# NAME is one of: model-build model-size model-bench collection qsign-floor spark documents
# compare scaling sources viewer eval repetition fuzzy-collection hostile exports. Each one's raw output, headed by the date and the load average,
# is kept in target/bench-all/NAME.txt; a benchmark that fails is reported and leaves its block
# as it was (the others still run). Run it on an idle machine: the figures are only as quiet as
# the machine. Takes about an hour (the model builds, the collection detectors with datasketch,
# and the 20 MB comparison are the long ones); `scripts/bench_tables.py` alone re-renders the
# blocks from the kept outputs.
set -uo pipefail
cd "$(dirname "$0")/.."
: "${SIMDOC_DATA:?set SIMDOC_DATA to the shared data folder}"
export SIMDOC_DATA
out=target/bench-all
mkdir -p "$out"

all=(model-build model-size model-bench collection qsign-floor spark documents compare scaling sources viewer eval repetition fuzzy-collection hostile exports)
if [ $# -gt 0 ]; then
  names=("$@")
else
  names=("${all[@]}")
fi

if [ ! -x /usr/bin/time ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get install -y -qq time
  else
    echo "GNU time is missing: apt-get install time" >&2
    exit 1
  fi
fi

cargo build --release --no-default-features --quiet || exit 1
simdoc=target/release/simdoc
corpus="$SIMDOC_DATA/reference/enwiki-2015/text"

# `/usr/bin/time` with one line: wall seconds and peak memory.
timed() {
  /usr/bin/time -f "wall %e s, CPU %U s user + %S s system, peak %M KB" "$@"
}

model_size() {
  local dir
  dir=$(mktemp -d)
  echo "| flags | model bytes | correlation entries |"
  echo "|---|---|---|"
  while IFS= read -r flags; do
    # shellcheck disable=SC2086
    last=$($simdoc model build "$corpus" -o "$dir/m" $flags 2>&1 | tail -1)
    entries=$(echo "$last" | sed -n 's/.* \([0-9]*\) correlation entries.*/\1/p')
    echo "| \`${flags:-(defaults)}\` | $(stat -c %s "$dir/m") | ${entries:-?} |"
  done <<'EOF'

--floor 0.02
--floor 0.01
--floor 0.01 --per-term 64
--unit document
--min-df 4000000000
EOF
  rm -rf "$dir"
}

qsign_floor() {
  for set in reference/reuters-21578 documents/bbc-news/bbc; do
    for share in 0 0.25; do
      echo "$set, --min-reuse-share $share: $($simdoc collection "$SIMDOC_DATA/$set" --method qsign \
        --min-reuse-share "$share" 2>>"$out/qsign-floor.stderr" | head -1)"
    done
  done
}

eval_command() {
  cargo bench --no-default-features --bench eval
  for _ in 1 2 3; do
    timed $simdoc eval pairs --format msrp "$SIMDOC_DATA/pairs/msrp" --preset measured -q
  done
}

# One process per pool size (each one's peak memory is its own); the table's header once.
sources_bench() {
  cargo build --release --no-default-features --quiet --example bench_sources || return 1
  target/release/examples/bench_sources 1000 || return 1
  target/release/examples/bench_sources 10000 | tail -1
}

repetition() {
  local dir
  dir=$(mktemp -d)
  local sentence='The harbour froze early that winter and the boats stayed in. '
  python3 -c "import sys; sys.stdout.write('$sentence' * 100000)" >"$dir/same.txt"
  echo "100,000 identical sentences (6.1 MB) compared with themselves, measured preset (every pair, a band listed):"
  timed $simdoc compare -q --preset measured "$dir/same.txt" "$dir/same.txt"
  echo "the same with --json (the report written to a file):"
  timed $simdoc compare -q --preset measured "$dir/same.txt" "$dir/same.txt" --json "$dir/same.json"
  echo "the same under the default documents preset (judged against chance: no evidence, nothing listed):"
  timed $simdoc compare -q "$dir/same.txt" "$dir/same.txt" --json "$dir/same.json"
  # Lines that differ by one number (tests/templated.rs): at the measured preset every two pass
  # the floor both ways, and each line keeps its best partners.
  for n in 3000 100000; do
    python3 -c "import sys; sys.stdout.write(''.join(f'Text number {i} about the budget.\\n' for i in range($n)))" >"$dir/lines.txt"
    echo "$n lines that differ by one number compared with themselves, measured preset (each keeps its best partners):"
    timed $simdoc compare --preset measured "$dir/lines.txt" "$dir/lines.txt" >"$dir/out.txt"
    grep -E '^matched pairs' "$dir/out.txt"
  done
  # A templated document against three templated sources (tests/templated.rs): each document
  # line keeps its best partners in each source, each source line its best in the document;
  # then every pair listed (--partners 0), at a tenth of the size.
  # Two price lists whose lines differ by two numbers (as in
  # templated::two_price_lists_of_ten_thousand_lines_at_the_measured_preset).
  for seed in 1 2; do
    python3 -c "
import sys
sys.stdout.write(''.join(f'Item {i}: unit price {2 + (i * 37 + $seed * 11) % 89} dollars, {1 + (i * 13 + $seed * 7) % 40} in stock.\\n' for i in range(10000)))" >"$dir/prices$seed.txt"
  done
  echo "two price lists of 10,000 lines (the same items, other prices and stock), measured preset:"
  timed $simdoc compare --preset measured "$dir/prices1.txt" "$dir/prices2.txt" >"$dir/out.txt"
  grep -E '^matched sentences' "$dir/out.txt"
  for n in 20000 2000; do
    mkdir "$dir/sources$n"
    python3 -c "
lines = lambda a, b: ''.join(f'Text number {i} about the budget.\\n' for i in range(a, b))
open('$dir/report$n.txt', 'w').write(lines(0, $n))
for k in range(3):
    open(f'$dir/sources$n/s{k}.txt', 'w').write(lines(7 * k, 7 * k + $n))"
  done
  echo "20000 such lines against three sources of 20000 (simdoc sources, each keeps its best partners per source):"
  timed $simdoc sources "$dir/report20000.txt" "$dir/sources20000" >"$dir/out.txt"
  head -1 "$dir/out.txt"; tail -1 "$dir/out.txt"
  echo "2000 against three sources of 2000, then the same listing every pair (--partners 0):"
  timed $simdoc sources "$dir/report2000.txt" "$dir/sources2000" >"$dir/out.txt"
  timed $simdoc sources "$dir/report2000.txt" "$dir/sources2000" --partners 0 >"$dir/out.txt"
  head -1 "$dir/out.txt"
  # The pages of tests/repetition.rs: a title, one paragraph, 10,000 identical headings.
  python3 -c "
import sys
sys.stdout.write('<html><head><title>Thread</title></head><body><h1>A long thread</h1><p>$sentence</p>'
                 + '<h2>Reply to this comment</h2>\n' * 10000 + '</body></html>')" >"$dir/headings.html"
  echo "an HTML page with 10,000 identical headings compared with itself, measured preset, then the default:"
  timed $simdoc compare -q --preset measured "$dir/headings.html" "$dir/headings.html"
  timed $simdoc compare -q "$dir/headings.html" "$dir/headings.html"
  mkdir "$dir/pages"
  for i in $(seq -w 0 49); do cp "$dir/headings.html" "$dir/pages/page$i.html"; done
  echo "a collection of 50 such pages, fuzzy counted (--preset news: with evidence, as by default), then without evidence:"
  timed $simdoc collection "$dir/pages" --preset news --method fuzzy --csv "$dir/fuzzy.csv" >"$dir/fuzzy.txt"
  timed $simdoc collection "$dir/pages" --preset news --method fuzzy --evidence 0 --csv "$dir/fuzzy0.csv" >"$dir/fuzzy0.txt"
  echo "the same 50 pages at the default (the documents preset: judged against chance, --max-sharing 10):"
  timed $simdoc collection "$dir/pages" --csv "$dir/documents.csv" >"$dir/documents.txt"; head -1 "$dir/documents.txt"
  # Many small documents (tests/bad_inputs.rs): one line each, with no word in common, then
  # sharing "wrote to ... about" (every pair a duplicate at the measured preset).
  mkdir "$dir/apart" "$dir/alike"
  python3 -c "
for i in range(8000):
    open(f'$dir/apart/{i:05d}.txt', 'w').write(f'Qa{i}x qb{i}x qc{i}x qd{i}x.\\n')
    open(f'$dir/alike/{i:05d}.txt', 'w').write(f'Qa{i}x wrote to qb{i}x about qc{i}x.\\n')"
  echo "8,000 one-line documents with no word in common, fuzzy counted (--preset news), without evidence:"
  timed $simdoc collection "$dir/apart" --preset news --method fuzzy --evidence 0 >"$dir/out.txt"; head -1 "$dir/out.txt"
  echo "8,000 one-line documents sharing \"wrote to ... about\", fuzzy counted (--preset news), without evidence:"
  timed $simdoc collection "$dir/alike" --preset news --method fuzzy --evidence 0 >"$dir/out.txt"; head -1 "$dir/out.txt"
  echo "the same 8,000 at the default (the documents preset), without evidence:"
  timed $simdoc collection "$dir/alike" --evidence 0 >"$dir/out.txt"; head -1 "$dir/out.txt"
  rm -rf "$dir"
}

# The fuzzy collection mode on real collections, and what evidence pages cost.
fuzzy_collection() {
  local dir reuters="$SIMDOC_DATA/reference/reuters-21578" bbc="$SIMDOC_DATA/documents/bbc-news/bbc"
  dir=$(mktemp -d)
  echo "Reuters-21578 (20,849 stories), the default (the documents preset: judged against chance, --max-sharing 10), --evidence 0:"
  timed $simdoc collection "$reuters" --evidence 0 --csv "$dir/d.csv" >"$dir/out.txt"; head -1 "$dir/out.txt"
  echo "Reuters-21578, --preset news --method fuzzy --evidence 0 (counted):"
  timed $simdoc collection "$reuters" --preset news --method fuzzy --evidence 0 --csv "$dir/r.csv" >"$dir/out.txt"; head -1 "$dir/out.txt"
  echo "Reuters-21578, --preset teacher:"
  timed $simdoc collection "$reuters" --preset teacher --csv "$dir/t.csv" >"$dir/out.txt"; head -1 "$dir/out.txt"
  echo "BBC articles with their summaries, --preset news --method fuzzy --evidence 0:"
  timed $simdoc collection "$bbc" "$SIMDOC_DATA/documents/bbc-news-summaries" --preset news --method fuzzy \
    --evidence 0 --csv "$dir/b.csv" >"$dir/out.txt"; head -1 "$dir/out.txt"
  echo "BBC articles, --preset news --method codet with --html (evidence and a page per pair), then --evidence 0:"
  timed $simdoc collection "$bbc" --preset news --method codet --html "$dir/report.html" >"$dir/out.txt"; head -1 "$dir/out.txt"
  timed $simdoc collection "$bbc" --preset news --method codet --evidence 0 >"$dir/out.txt"; head -1 "$dir/out.txt"
  echo "pair pages written: $(find "$dir/report-pairs" -name '*.html' | wc -l)"
  rm -rf "$dir"
}

# The hostile and unlucky inputs of README's bad-input catalogue (scripts/hostile-inputs.py
# writes them, the shapes the tests make): time and peak memory of reading each (issues 28 and
# 44), of comparing the largest with a short text, the write calls of `inspect --json` to a
# pipe, and what reading PDFs in worker processes costs beside reading them in process. Every
# output goes to the temporary folder, and no file written may pass 2 GiB (`ulimit -f`, in this
# subshell): the outline of 200,000 nested lists once filled the disk.
hostile() (
  ulimit -f $((2 * 1024 * 1024))
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
  python3 scripts/hostile-inputs.py "$dir" || exit 1
  for input in loop.pdf cmap.pdf saves-2m.pdf saves-10m.pdf attributes.docx attributes.html \
    unpacks.epub letters.txt paragraphs.html sentences.txt unpacks-random.epub twice.docx \
    nested-lists.odt deep.html unpacks-padded.epub letters-20mb.txt paragraphs-60mb.html; do
    echo "$input ($(stat -c %s "$dir/$input") bytes), inspect:"
    timed $simdoc inspect "$dir/$input" 2>&1 >"$dir/out.txt" | sed "s|$dir/||; s/^/  /"
  done
  # Issue 44: a comparison holds more than reading; the largest shapes against a short text.
  echo "The harbour froze early that winter. Boats stayed in." >"$dir/short.txt"
  for input in letters.txt unpacks-padded.epub letters-20mb.txt paragraphs-60mb.html; do
    echo "$input ($(stat -c %s "$dir/$input") bytes), compare with a short text:"
    timed $simdoc compare -q "$dir/$input" "$dir/short.txt" 2>&1 >"$dir/out.txt" | sed "s|$dir/||; s/^/  /"
  done
  # Issue 44: `inspect --json` to a pipe made one write call per line.
  echo "sentences-250k.txt ($(stat -c %s "$dir/sentences-250k.txt") bytes), inspect --json to a pipe:"
  { timed $simdoc inspect --json "$dir/sentences-250k.txt" | cat >"$dir/out.json"; } 2>&1 | sed 's/^/  /'
  echo "  $(wc -l <"$dir/out.json") lines, $(python3 scripts/count-writes.py "$dir/err.txt" \
    $simdoc inspect --json "$dir/sentences-250k.txt")"
  echo "the same PDF collection (100 PDFs of 40 lines, $(du -sk "$dir/pdfs" | cut -f1) KB), read in worker processes, then in process (SIMDOC_PDF_IN_PROCESS=1), three times:"
  for _ in 1 2 3; do
    timed $simdoc collection "$dir/pdfs" --preset news --evidence 0 2>&1 >"$dir/out.txt" | sed 's/^/  workers:    /'
    SIMDOC_PDF_IN_PROCESS=1 timed $simdoc collection "$dir/pdfs" --preset news --evidence 0 2>&1 >"$dir/out.txt" \
      | sed 's/^/  in process: /'
  done
  head -1 "$dir/out.txt"
)

run() {
  case "$1" in
    model-build) scripts/bench-model-build.sh ;;
    model-size) model_size ;;
    model-bench) cargo bench --no-default-features --bench model ;;
    collection) scripts/bench_collection.sh ;;
    qsign-floor) qsign_floor ;;
    spark) scripts/bench-spark.sh ;;
    documents) cargo bench --no-default-features --bench documents ;;
    compare) cargo run --release --no-default-features --quiet --example bench_compare ;;
    scaling) cargo run --release --no-default-features --quiet --example bench_scaling ;;
    sources) sources_bench ;;
    viewer) cargo run --release --quiet --example bench_viewer ;;
    eval) eval_command ;;
    repetition) repetition ;;
    fuzzy-collection) fuzzy_collection ;;
    hostile) hostile ;;
    exports) scripts/bench-exports.sh ;;
    *)
      echo "unknown benchmark: $1 (one of: ${all[*]})" >&2
      return 2
      ;;
  esac
}

failed=()
for name in "${names[@]}"; do
  echo "=== $name"
  {
    echo "# $(date -u +%FT%TZ) by scripts/bench-all.sh, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
    run "$name" 2>&1
  } >"$out/$name.txt.new"
  status=$?
  cat "$out/$name.txt.new"
  if [ $status -eq 0 ]; then
    mv "$out/$name.txt.new" "$out/$name.txt"
  else
    echo "!!! $name failed (exit $status); its block in BENCHMARKS.md is left as it was" >&2
    failed+=("$name")
  fi
done

python3 scripts/bench_tables.py BENCHMARKS.md "$out"
if [ ${#failed[@]} -gt 0 ]; then
  echo "failed: ${failed[*]}" >&2
  exit 1
fi
