#!/usr/bin/env bash
# glob-flood.sh BINARY WORKDIR [RUNS] [SIZES] [SITES]
#
# Measures a root full build (--tenant-owner) of 150 benign tenants under
# two tenants globs whose wildcards reach inside a tenant's own directory,
# users/*/public_html/*.yaml and home/*/sites/*/autodisc.yaml, with one
# hostile tenant that fills, before the build, one directory the walk
# lists: N files whose names match (users/h/public_html/pN.yaml), or N
# empty directories (home/h/sites/dN), N each of SIZES (default "100000
# 300000"); or N sites, each a directory holding a valid manifest, N
# each of SITES (default "100000"). The baseline is the same build without the hostile
# tenant's entries. Every manifest is saved again before each build, so
# each tenant is planned. Run as root on Linux. Prints wall seconds,
# user+system CPU seconds, peak RSS, root's stderr lines and the build's
# last line for each build, the hostile tenant's first lines, and medians.
# Needs GNU time; uids 72001-72151 and 73001 must be unused.
set -euo pipefail
bin=$(realpath "$1"); work=$2; runs=${3:-3}; sizes=${4-100000 300000}; sites=${5-100000}
benign=150
[ "$(id -u)" = 0 ] || { echo "run as root" >&2; exit 2; }
rm -rf "$work"; mkdir -p "$work"; chmod 755 "$work"
work=$(realpath "$work")
uid0=72000 huid=73001
t=$work/host

manifest() { # space desc
  printf 'version: 1\npath: %s\ndescription: %s\n' "$1" "$2"
}
mkuser() { # name uid
  mkdir -p "$t/users/$1/public_html" "$t/home/$1/sites/main"
  chown -R "$2:$2" "$t/users/$1" "$t/home/$1"; chmod -R 755 "$t/users/$1" "$t/home/$1"
}
touchall() { # run
  local i
  for i in $(seq -f 'u%.0f' 1 $benign) h; do
    manifest "/~$i/blog/" "blog of $i, $1" > "$t/users/$i/public_html/blog.yaml"
    manifest "/s/$i/main/" "site of $i, $1" > "$t/home/$i/sites/main/autodisc.yaml"
  done
}
mkdir -p "$t"; chmod 755 "$t"
printf 'version: 1\nsite:\n  url: https://isp.example/\n  description: A shared host\ndelegations:\n  - path: "/~*/*/"\n    only: [description.txt]\n    tenants: "users/*/public_html/*.yaml"\n  - path: "/s/*/*/"\n    only: [description.txt]\n    tenants: "home/*/sites/*/autodisc.yaml"\n' > "$t/site.yaml"
for i in $(seq 1 $benign); do mkuser "u$i" $((uid0+i)); done
mkuser h $huid
build() { # label
  touchall "$1"
  (cd "$t" && /usr/bin/time -f '%e %U %S %M' -o "$t/.time" \
     "$bin" build -f site.yaml -o public --state state --tenant-owner >"$t/.out" 2>"$t/.err") || true
  read -r e u s m < <(tail -1 "$t/.time")
  printf '%-30s wall %7.2f s  cpu %7.2f s  rss %4d MB  stderr %6d lines  %s\n' "$1" "$e" "$(echo "$u + $s" | bc)" $((m/1024)) "$(wc -l < "$t/.err")" "$(grep -hE '^tenants:' "$t/.out" | tail -1)"
  echo "$e" >> "$work/$(echo "$1" | cut -d, -f1 | tr ' ' _).walls"
}
median() { sort -n "$1" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
fill() { # dir n kind
  (cd "$1" && case $3 in
    files) seq -f 'p%.0f.yaml' 1 "$2" | xargs touch ;;
    dirs) seq -f 'd%.0f' 1 "$2" | xargs mkdir ;;
    sites) seq -f 'd%.0f' 1 "$2" | xargs mkdir
      seq -f 'd%.0f/autodisc.yaml' 1 "$2" | awk '{print "version: 1\ndescription: a site" > $0; close($0)}' ;;
  esac)
}
clean() {
  find "$t/users/h/public_html" -mindepth 1 -name 'p*.yaml' -delete
  find "$t/home/h/sites" -mindepth 1 -maxdepth 1 -name 'd*' -type d -exec rm -rf {} +
}

build "cold" >/dev/null
for r in $(seq 1 "$runs"); do build "baseline, run $r"; done
for n in $sizes; do
  clean; fill "$t/users/h/public_html" "$n" files
  for r in $(seq 1 "$runs"); do build "match $n, run $r"; done
  { grep -m3 -E '(users|home)/h[/: ]' "$t/.err" || true; } | cut -c1-300
  clean; fill "$t/home/h/sites" "$n" dirs
  for r in $(seq 1 "$runs"); do build "dirs $n, run $r"; done
  { grep -m3 -E '(users|home)/h[/: ]' "$t/.err" || true; } | cut -c1-300
done
for n in $sites; do
  clean; fill "$t/home/h/sites" "$n" sites
  for r in $(seq 1 "$runs"); do build "sites $n, run $r"; done
  { grep -m3 -E '(users|home)/h[/: ]' "$t/.err" || true; } | cut -c1-300
done
clean
for r in $(seq 1 "$runs"); do build "baseline again, run $r"; done
for f in "$work"/*.walls; do echo "median wall $(basename "$f" .walls): $(median "$f") s"; done
