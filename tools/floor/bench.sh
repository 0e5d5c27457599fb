#!/bin/bash
# usage: [BEFORE=path/to/other/discgen] tools/floor/bench.sh [ROUNDS [RUNS]]
# The example's no-change build (README: discgen build -f examples/site.yaml
# -o public --now 2026-11-01) against its floors: a plain hello-world
# (tools/floor/hello) and a hello-world that links the four libraries every
# discgen process initialises (tools/floor). All three are built alike
# (CGO_ENABLED=0 go build -trimpath) into a scratch directory. The example
# is copied with its files/ and tenants/ beside discgen in a directory of
# its own (a build's state directory is beside its manifest) and built
# once. Then hyperfine runs each command RUNS times (default 30, after 5
# warm-ups) in each of ROUNDS rounds (default 10), the commands' order
# rotated from round to round so that a change in the machine's load falls
# on all of them. It prints each command's median wall time over all runs
# and its median CPU time (user + system: hyperfine's mean of a round, the
# median of the rounds), each with its ratios to both floors, and the load
# average before and after. With BEFORE, that binary's no-change build of
# the same example, in a directory of its own, is timed in the same run.
# Run it with nice on a shared machine.
set -eu
rounds=${1:-10}
runs=${2:-30}
root=$(cd "$(dirname "$0")/../.." && pwd)
d=$(mktemp -d /tmp/floor-bench.XXXX)
trap 'rm -rf "$d"' EXIT
cd "$root"
# Each binary is copied from where go build wrote it: a no-change build
# run from the linker's own output took a tenth more CPU than the same
# binary copied (an A/A run: 10.03 against 9.04 ms at a load of 18).
mkdir "$d/build" "$d/after"
CGO_ENABLED=0 go build -trimpath -o "$d/build/hello" ./tools/floor/hello
CGO_ENABLED=0 go build -trimpath -o "$d/build/floor" ./tools/floor
CGO_ENABLED=0 go build -trimpath -o "$d/build/discgen" ./cmd/discgen
cp "$d/build/hello" "$d/build/floor" "$d/"
cp "$d/build/discgen" "$d/after/discgen"
rm -r "$d/build"
cp -r examples/site.yaml examples/files examples/tenants "$d/after/"
cd "$d"
./after/discgen build -f after/site.yaml -o after/public --now 2026-11-01 >/dev/null 2>&1
if [ -n "${BEFORE:-}" ]; then
  mkdir before
  cp "$BEFORE" before/discgen
  cp -r "$root/examples/site.yaml" "$root/examples/files" "$root/examples/tenants" before/
  ./before/discgen build -f before/site.yaml -o before/public --now 2026-11-01 >/dev/null 2>&1
fi
echo "commit $(git -C "$root" rev-parse --short HEAD), $(go version), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
cmds=(hello ./hello floor ./floor)
if [ -n "${BEFORE:-}" ]; then
  cmds+=(before './before/discgen build -f before/site.yaml -o before/public --now 2026-11-01')
fi
cmds+=(no-change './after/discgen build -f after/site.yaml -o after/public --now 2026-11-01')
n=$((${#cmds[@]} / 2))
for r in $(seq "$rounds"); do
  args=()
  for k in $(seq 0 $((n - 1))); do
    c=$(((k + r) % n))
    args+=(-n "${cmds[2 * c]}" "${cmds[2 * c + 1]}")
  done
  hyperfine -N -w 5 -r "$runs" --export-json "round$r.json" "${args[@]}" >/dev/null 2>&1
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
jq -r -s '
  def r: . * 100 | round / 100;
  def median: sort | if length % 2 == 1 then .[length / 2 | floor] else (.[length / 2 - 1] + .[length / 2]) / 2 end;
  [.[].results[]] | group_by(.command)
  | map({command: .[0].command, median: ([.[].times[]] | median), cpu: ([.[] | .user + .system] | median)})
  | {results: .}
  | (.results | map({(.command): .median}) | add) as $m
  | (.results | map({(.command): .cpu}) | add) as $c
  | "command\tmedian wall ms\t× hello\t× floor\tCPU ms\t× hello\t× floor",
    (.results[] | .cpu as $cpu
      | "\(.command)\t\(.median * 1000 | r)\t\(.median / $m.hello | r)\t\(.median / $m.floor | r)\t\($cpu * 1000 | r)\t\($cpu / $c.hello | r)\t\($cpu / $c.floor | r)")
' round*.json
