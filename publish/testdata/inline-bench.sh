#!/bin/bash
# usage: OLD=path/to/old/discgen NEW=path/to/new/discgen publish/testdata/inline-bench.sh N
# A site of N inline delegatees, three files each: for each binary, a cold
# build, then five no-change builds (a sync before each), with their wall,
# user and system times. BENCHMARKS.md records a run.
set -eu
n=$1
d=$(mktemp -d /tmp/inline-bench.XXXX)
python3 - "$n" "$d" <<'PY'
import sys
n, d = int(sys.argv[1]), sys.argv[2]
lines = ["version: 1", 'site: {url: "https://example.org/"}', "delegations:"]
for i in range(n):
    lines.append(f'  - {{path: /p{i}/, inline: {{description: "Project {i}", feeds: [{{url: /p{i}/feed.atom}}]}}}}')
open(d + "/site.yaml", "w").write("\n".join(lines) + "\n")
PY
for bin in "$OLD" "$NEW"; do
  name=$(basename "$bin")
  rm -rf "$d/public" "$d/.discgen"
  /usr/bin/time -f "$name cold %e s wall %U user %S sys" "$bin" build -f "$d/site.yaml" -o "$d/public" --now 2026-11-01 >/dev/null
  for _ in 1 2 3 4 5; do
    sync
    /usr/bin/time -f "$name nochange %e s wall %U user %S sys" "$bin" build -f "$d/site.yaml" -o "$d/public" --now 2026-11-01 >/dev/null
  done
done
rm -rf "$d"
