#!/usr/bin/env bash
# Times the Action's install step (action/install.sh key + install), 5 runs
# each: a release downloaded from a local server (cold tool cache), the same
# from the tool cache, and the source build (empty version: the action's own
# source, with an empty Go build cache, modules already downloaded).
set -euo pipefail
repo=$(git rev-parse --show-toplevel)
dist=$repo/dist
version=v$(sed -n 's/.*discgen_\(.*\)_linux_amd64\.tar\.gz$/\1/p' "$dist/checksums.txt")
work=$(mktemp -d)
mkdir -p "$work/www" && ln -s "$dist" "$work/www/$version"
(cd "$work/www" && exec python3 -m http.server --bind 127.0.0.1 8765 >/dev/null 2>&1) &
server=$!
trap 'kill $server; rm -rf "$work"' EXIT
sleep 1
base=http://127.0.0.1:8765
curl -fsS -o /dev/null "$base/$version/checksums.txt" # warm
now() { date +%s.%N; }
install() { # $1 version, $2 tool cache, $3 PATH
  local out dir
  out=$(env PATH="$3" RUNNER_TOOL_CACHE="$2" DISCGEN_VERSION="$1" DISCGEN_DOWNLOAD_BASE="$base" GITHUB_OUTPUT= bash "$repo/action/install.sh" key)
  dir=$(sed -n 's/^dir=//p' <<<"$out")
  env PATH="$3" DISCGEN_DIR="$dir" DISCGEN_VERSION="$1" DISCGEN_DOWNLOAD_BASE="$base" GOCACHE="$2/gocache" bash "$repo/action/install.sh" install >/dev/null
}
for i in 1 2 3 4 5; do
  t0=$(now); curl -fsS -o "$work/a.tgz" "$base/$version/discgen_${version#v}_linux_amd64.tar.gz"; t1=$(now)
  echo "floor-curl $(echo "$t1 - $t0" | bc)"
  cache=$work/cache-$i
  t0=$(now); install "$version" "$cache" /usr/bin:/bin; t1=$(now)
  echo "release-cold $(echo "$t1 - $t0" | bc)"
  t0=$(now); install "$version" "$cache" /usr/bin:/bin; t1=$(now)
  echo "release-cached $(echo "$t1 - $t0" | bc)"
  t0=$(now); install "" "$work/src-$i" "$PATH"; t1=$(now)
  echo "source-cold-gocache $(echo "$t1 - $t0" | bc)"
done
