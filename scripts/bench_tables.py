#!/usr/bin/env python3
"""Refreshes BENCHMARKS.md's generated blocks from the outputs scripts/bench-all.sh keeps.

    scripts/bench_tables.py BENCHMARKS.md target/bench-all

Each block sits between `<!-- bench-all:NAME -->` and `<!-- /bench-all:NAME -->` and is replaced
by target/bench-all/NAME.txt: its Markdown table lines as they are (the benchmarks that print a
table), the whole output in a text block otherwise, after the first line (date and load) as a
sentence. A block whose output is missing is left as it was, and said so.
"""

import pathlib
import re
import sys


# Progress and log lines of the tools a benchmark runs (cargo, maturin, Spark's JVM), not results.
NOISE = re.compile(
    r"^\s*(Compiling|Finished|Running|Blocking|Downloaded|Updating) "
    # A line opening with a symbol (maturin's "📦 Built wheel"), but not divan's rows, which
    # open with box-drawing characters ("├─ name", "╰─ name").
    r"|^[^\x00-\x7f\u2500-\u257f]"
    r"|^\d\d/\d\d/\d\d \d\d:\d\d:\d\d WARN "
    r"|^WARNING: Using incubator modules"
    r"|^Using Spark's default log4j profile"
    r"|^Setting default log level"
    r"|^To adjust logging level"
)


def render(output: str) -> str:
    """The Markdown of one benchmark's output: its tables as they are, one after the other, each
    under the `## ` heading printed before it (in bold); cargo's progress lines dropped; any other
    line in a text block at the end. Output with fewer than three table lines is all text."""
    lines = output.rstrip("\n").split("\n")
    header, body = lines[0], [line for line in lines[1:] if not NOISE.match(line)]
    when = header.lstrip("# ").strip()
    if sum(line.startswith("|") for line in body) < 3:
        return f"Measured {when}:\n\n```text\n" + "\n".join(body) + "\n```\n"
    parts, rest, table, heading = [], [], [], None
    for line in body + [""]:
        if line.startswith("|"):
            table.append(line)
            continue
        if table:
            parts.append((f"**{heading}**\n\n" if heading else "") + "\n".join(table))
            table, heading = [], None
        if line.startswith("## "):
            heading = line[3:].strip()
        elif line.strip():
            rest.append(line)
    text = "\n\n".join(parts)
    if rest:
        text += "\n\n```text\n" + "\n".join(rest) + "\n```"
    return f"Measured {when}:\n\n{text}\n"


def main() -> int:
    doc_path, out_dir = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    doc = doc_path.read_text()
    pattern = re.compile(
        r"(<!-- bench-all:(?P<name>[a-z-]+) -->\n)(?P<body>.*?)(<!-- /bench-all:(?P=name) -->)",
        re.S,
    )

    def replace(match: re.Match) -> str:
        name = match.group("name")
        output = out_dir / f"{name}.txt"
        if not output.exists():
            print(f"bench_tables: no output for {name}; its block is left as it was")
            return match.group(0)
        return match.group(1) + render(output.read_text()) + match.group(4)

    new, count = pattern.subn(replace, doc)
    doc_path.write_text(new)
    print(f"bench_tables: {count} blocks in {doc_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
