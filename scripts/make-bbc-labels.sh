#!/usr/bin/env bash
# Writes the label files of `simdoc eval documents` for the BBC data sets. Paths are relative to
# SIMDOC_DATA, so the files hold no text; run the evaluations with `--root "$SIMDOC_DATA"`.
#
# eval/bbc-summaries.csv: each extractive summary of "BBC News Summary" against its own article
#   (label: the category), and against one article of the next category (label: non). The "non"
#   article of summary <category>/<NNN> is article number ((NNN - 1) mod K) + 1 of the next
#   category in the order business, entertainment, politics, sport, tech (wrapping around), K
#   being that category's article count: deterministic, and always about something else.
# eval/bbc-unrelated-articles.csv: articles 1 and 2, 3 and 4, ... of each category against each
#   other (label: non), leaving out byte-identical pairs: how often two different stories on the
#   same topic get a false sentence match.
#
# Usage: scripts/make-bbc-labels.sh [OUTPUT_FOLDER]   (default eval)
set -euo pipefail
cd "$(dirname "$0")/.."
data="${SIMDOC_DATA:-../shared/data}"
summaries="documents/bbc-news-summaries/BBC News Summary/Summaries"
articles="documents/bbc-news/bbc"
folder="${1:-eval}"
categories=(business entertainment politics sport tech)
mkdir -p "$folder"

out="$folder/bbc-summaries.csv"
{
    echo "file,source,label"
    for i in "${!categories[@]}"; do
        cat="${categories[$i]}"
        next="${categories[$(((i + 1) % ${#categories[@]}))]}"
        count=$(find "$data/$articles/$next" -name '*.txt' | wc -l)
        for name in $(cd "$data/$summaries/$cat" && ls -1 -- *.txt | sort); do
            number=$((10#${name%.txt}))
            other=$(printf '%03d.txt' $(((number - 1) % count + 1)))
            echo "\"$summaries/$cat/$name\",$articles/$cat/$name,$cat"
            echo "\"$summaries/$cat/$name\",$articles/$next/$other,non"
        done
    done
} >"$out"
echo "wrote $out: $(($(wc -l <"$out") - 1)) comparisons" >&2

out="$folder/bbc-unrelated-articles.csv"
{
    echo "file,source,label"
    for cat in "${categories[@]}"; do
        names=($(cd "$data/$articles/$cat" && ls -1 -- *.txt | sort))
        for ((k = 0; k + 1 < ${#names[@]}; k += 2)); do
            a="$articles/$cat/${names[$k]}"
            b="$articles/$cat/${names[$((k + 1))]}"
            if ! cmp -s "$data/$a" "$data/$b"; then
                echo "$a,$b,non"
            fi
        done
    done
} >"$out"
echo "wrote $out: $(($(wc -l <"$out") - 1)) comparisons" >&2
