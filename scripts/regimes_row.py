"""One Markdown row of scripts/eval-regimes.sh: plagdet per regime and size, the mean, and the
largest containment of an unrelated suspicious document in any regime."""
import json
import sys

folder, label, header = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
cells, worst = [], 0.0
for regime, corpus in [("inside", "short"), ("inside", "inside"), ("mostly", "mostly"),
                       ("identical", "identical"), ("pool", "pool")]:
    with open(f"{folder}/{corpus}.json", encoding="utf-8") as f:
        score = json.load(f)
    for row in score["rows"]:
        if row["unrelated"]:
            worst = max(worst, row["unrelated"]["max_containment"])
        if row["obfuscation"] is None:
            size = row["size"]
            if score.get("sizes_are_sources"):
                name = f"{size} sources"
            else:
                name = f"{size / 1e6:g} MB" if size >= 1e6 else f"{size / 1e3:g} KB"
            cells.append((f"{regime} {name}", row["measures"]["plagdet"]))
if header:
    print("| configuration | " + " | ".join(n for n, _ in cells) + " | mean | unrelated containment, worst |")
    print("|---" * (len(cells) + 3) + "|")
mean = sum(v for _, v in cells) / len(cells)
print(f"| {label} | " + " | ".join(f"{v:.3f}" for _, v in cells) + f" | {mean:.3f} | {100 * worst:.2f}% |")
