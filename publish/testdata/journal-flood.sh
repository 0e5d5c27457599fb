#!/usr/bin/env bash
# journal-flood.sh BINARY WORKDIR [RUNS] [SIZES]
#
# Measures a root full build (--tenant-owner) of 150 benign tenants and
# one hostile tenant whose own journal/ holds, before the build, each of
# the floods its owner can make: N empty .new files (the files a killed
# build leaves before its rename), and N .jnl entries, half of them FIFOs,
# while the owner holds the directory's flock; then `build --check`
# beside the .jnl flood without the lock. Names are 200 bytes long; N is
# each of SIZES (default "100000 300000"). The baseline is the same build
# with the hostile tenant's journal/ empty. Every manifest is saved again
# before each build, so each tenant is planned. Run as root on Linux.
# Prints wall seconds, user+system CPU seconds, peak RSS and the build's
# last line for each build, the hostile tenant's lines on stderr and their
# count, and medians. Needs setpriv and flock (util-linux), GNU time and
# go (for internal/testing/journalflood); uids 70001-70151 and 71001 must
# be unused.
set -euo pipefail
bin=$(realpath "$1"); work=$2; runs=${3:-3}; sizes=${4:-100000 300000}
benign=150
[ "$(id -u)" = 0 ] || { echo "run as root" >&2; exit 2; }
here=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$work"; mkdir -p "$work"; chmod 755 "$work"
work=$(realpath "$work")
flood="$work/journalflood"
(cd "$here" && go build -o "$flood" ./internal/testing/journalflood)
uid0=70000 huid=71001
t=$work/host

manifest() { # name desc
  printf 'version: 1\npath: /~%s/\ndescription: %s\nicons: [/~%s/me.png]\nfeeds: [{url: /~%s/feed.atom}]\n' "$1" "$2" "$1" "$1"
}
mktenant() { # name uid desc
  local d="$t/users/$1/public_html"
  mkdir -p "$d"; chown "$2:$2" "$t/users/$1" "$d"; chmod 755 "$t/users/$1" "$d"
  manifest "$1" "$3" > "$d/autodisc.yaml"; chown "$2:$2" "$d/autodisc.yaml"
}
mkdir -p "$t"; chmod 755 "$t"
printf 'version: 1\nsite:\n  url: https://isp.example/\n  description: A shared host\ndelegations:\n  - path: "~*"\n    tenants: "users/*/public_html/autodisc.yaml"\n' > "$t/site.yaml"
for i in $(seq 1 $benign); do mktenant "b$i" $((uid0+i)) "benign $i"; done
mktenant h $huid "hostile"
touchall() { # run
  local i
  for i in $(seq 1 $benign); do manifest "b$i" "benign $i, $1" > "$t/users/b$i/public_html/autodisc.yaml"; done
  manifest h "hostile, $1" > "$t/users/h/public_html/autodisc.yaml"
}
hash=$(printf %s users/h/public_html | sha256sum | cut -c1-64)
# The tenant's own state directory is its journal directory too: its
# record and stat cache stay, what a flood put beside them goes.
jd="$t/state/own/${hash:0:2}/$hash"
emptyjd() { mkdir -p "$jd"; find "$jd" -mindepth 1 -maxdepth 1 ! -name 'record.*' -delete; chown $huid:$huid "$jd"; chmod 700 "$jd"; }
build() { # label [--check]
  touchall "$1"
  (cd "$t" && /usr/bin/time -f '%e %U %S %M' -o "$t/.time" \
     "$bin" build -f site.yaml -o public --state state --tenant-owner ${2:+"$2"} >"$t/.out" 2>"$t/.err") || true
  read -r e u s m < <(tail -1 "$t/.time")
  printf '%-34s wall %7.2f s  cpu %7.2f s  rss %4d MB  stderr %6d lines  %s\n' "$1" "$e" "$(echo "$u + $s" | bc)" $((m/1024)) "$(wc -l < "$t/.err")" "$(grep -hE '^tenants:' "$t/.out" | tail -1)"
  echo "$e" >> "$work/$(echo "$1" | cut -d, -f1 | tr ' ' _).walls"
}
median() { sort -n "$1" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

build "cold" >/dev/null
[ -d "$jd" ] || { echo "no journal directory at $jd" >&2; exit 1; }
emptyjd
for r in $(seq 1 "$runs"); do build "baseline, run $r"; done
for r in $(seq 1 "$runs"); do build "baseline check, run $r" --check; done
for n in $sizes; do
  emptyjd; "$flood" -dir "$jd" -n "$n" -kind new
  for r in $(seq 1 "$runs"); do build "new $n, run $r"; done
  { grep -F users/h/ "$t/.err" || true; } | cut -c1-300 | head -5
  emptyjd; "$flood" -dir "$jd" -n "$n" -kind jnl
  setpriv --reuid $huid --regid $huid --clear-groups flock -x -n "$jd" sleep 100000 & holder=$!
  sleep 1
  for r in $(seq 1 "$runs"); do build "jnl $n locked, run $r"; done
  { grep -F users/h/ "$t/.err" || true; } | cut -c1-300 | head -5
  kill $holder; wait $holder 2>/dev/null || true
  for r in $(seq 1 "$runs"); do build "jnl $n check, run $r" --check; done
  { grep -F users/h/ "$t/.err" || true; } | cut -c1-300 | head -5
done
emptyjd
for r in $(seq 1 "$runs"); do build "baseline again, run $r"; done
for f in "$work"/*.walls; do echo "median wall $(basename "$f" .walls): $(median "$f") s"; done
