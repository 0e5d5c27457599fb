#!/bin/bash
# usage: [BEFORE=path/to/other/discgen] tools/floor/bench.sh [RUNS]
# The example's no-change build (README: discgen build -f examples/site.yaml
# -o public --now 2026-11-01) against its floors: a plain hello-world
# (tools/floor/hello) and a hello-world that links the four libraries every
# discgen process initialises (tools/floor). All three are built alike
# (CGO_ENABLED=0 go build -trimpath) into a scratch directory; the example,
# copied there with its files/ and tenants/, is built once, then hyperfine
# runs each command RUNS times (default 300, after 20 warm-ups) and this
# prints each one's median wall time and mean CPU time (user +
# system), each with its ratios to both floors, with
# the load average before and after. With BEFORE, that binary's no-change
# build of the same example is timed in the same run, on a copy of its
# own (a build's state directory is beside its manifest). Run it with nice on a shared machine.
set -eu
runs=${1:-300}
root=$(cd "$(dirname "$0")/../.." && pwd)
d=$(mktemp -d /tmp/floor-bench.XXXX)
trap 'rm -rf "$d"' EXIT
cd "$root"
CGO_ENABLED=0 go build -trimpath -o "$d/hello" ./tools/floor/hello
CGO_ENABLED=0 go build -trimpath -o "$d/floor" ./tools/floor
CGO_ENABLED=0 go build -trimpath -o "$d/discgen" ./cmd/discgen
cp -r examples/site.yaml examples/files examples/tenants "$d/"
cd "$d"
./discgen build -f site.yaml -o public --now 2026-11-01 >/dev/null 2>&1
before=()
if [ -n "${BEFORE:-}" ]; then
  mkdir before
  cp -r "$BEFORE" site.yaml files tenants before/
  mv "before/$(basename "$BEFORE")" before/discgen
  ./before/discgen build -f before/site.yaml -o before/public --now 2026-11-01 >/dev/null 2>&1
  before=(-n before './before/discgen build -f before/site.yaml -o before/public --now 2026-11-01')
fi
echo "commit $(git -C "$root" rev-parse --short HEAD), $(go version), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
hyperfine -N -w 20 -r "$runs" --export-json times.json \
  -n hello ./hello \
  -n floor ./floor \
  "${before[@]}" \
  -n no-change './discgen build -f site.yaml -o public --now 2026-11-01' >/dev/null 2>&1
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
jq -r '
  def r: . * 100 | round / 100;
  (.results | map({(.command): .median}) | add) as $m
  | (.results | map({(.command): (.user + .system)}) | add) as $c
  | "command\tmedian wall ms\t× hello\t× floor\tmean CPU ms\t× hello\t× floor",
    (.results[] | (.user + .system) as $cpu
      | "\(.command)\t\(.median * 1000 | r)\t\(.median / $m.hello | r)\t\(.median / $m.floor | r)\t\($cpu * 1000 | r)\t\($cpu / $c.hello | r)\t\($cpu / $c.floor | r)")
' times.json
