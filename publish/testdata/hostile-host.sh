#!/usr/bin/env bash
# hostile-host.sh BINARY WORKDIR [RUNS]
#
# Measures a root full build of 150 benign tenants with and without 19
# hostile tenants beside them (8 holding every lock they can take, one with
# a crafted 16 MiB journal, one with a directory planted at its record's
# temporary name, 9 with records padded to 16 MiB) and another account
# holding every lock it can open. Run as root on Linux. Prints, per run,
# wall seconds, user+system CPU seconds, peak RSS and the build's last
# line, then medians; then the same build under prlimit --as=1GiB, and after a killed
# root build. Needs setpriv, flock and prlimit (util-linux), python3 and
# GNU time; the uids 69999 and 70001-71019 must be unused.
set -euo pipefail
bin=$(realpath "$1"); work=$2; runs=${3:-3}
benign=150
[ "$(id -u)" = 0 ] || { echo "run as root" >&2; exit 2; }
rm -rf "$work"; mkdir -p "$work"; chmod 755 "$work"
work=$(realpath "$work")
uid0=70000   # tenants are uid0+i; the other account is uid0-1
other=$((uid0-1))

manifest() { # name desc
  printf 'version: 1\npath: /~%s/\ndescription: %s\nicons: [/~%s/me.png]\nfeeds: [{url: /~%s/feed.atom}]\n' "$1" "$2" "$1" "$1"
}
mktenant() { # tree name uid desc
  local d="$1/users/$2/public_html"
  mkdir -p "$d"; chown "$3:$3" "$1/users/$2" "$d"; chmod 755 "$1/users/$2" "$d"
  manifest "$2" "$4" > "$d/autodisc.yaml"; chown "$3:$3" "$d/autodisc.yaml"
}
mktree() { # tree hostile(0|1)
  local t=$1 i
  mkdir -p "$t"; chmod 755 "$t"
  printf 'version: 1\nsite:\n  url: https://isp.example/\n  description: A shared host\ndelegations:\n  - path: "~*"\n    tenants: "users/*/public_html/autodisc.yaml"\n' > "$t/site.yaml"
  for i in $(seq 1 $benign); do mktenant "$t" "b$i" $((uid0+i)) "benign $i"; done
  if [ "$2" = 1 ]; then
    for i in $(seq 1 19); do mktenant "$t" "h$i" $((uid0+1000+i)) "hostile $i"; done
  fi
}
build() { # tree [prefix...]
  local t=$1; shift
  (cd "$t" && "$@" /usr/bin/time -f '%e %U %S %M' -o "$t/.time" \
     "$bin" build -f site.yaml -o public --state state --tenant-owner >"$t/.out" 2>"$t/.err") || true
}
touchbenign() { # tree run
  local i
  for i in $(seq 1 $benign); do manifest "b$i" "benign $i, run $2" > "$1/users/b$i/public_html/autodisc.yaml"; done
}
recdir() { # tree tenant -> the tenant's own state directory (root reads it),
  # which holds its record and is its journal directory too
  local rec
  rec=$(grep -rl "^name users/$2/public_html\$" "$1/state/own" 2>/dev/null | head -1)
  dirname "$rec"
}
as() { local u=$1; shift; setpriv --reuid "$u" --regid "$u" --clear-groups "$@"; }

plant() { # tree run
  local t=$1 i rd jd rec
  # 9 padded records: 16 MiB of claims of files that do not exist.
  for i in $(seq 1 9); do
    rd=$(recdir "$t" "h$i"); rec=$(ls "$rd"/*.rec)
    as $((uid0+1000+i)) /usr/bin/python3 - "$rec" <<'PY'
import sys, hashlib
p = sys.argv[1]
body = open(p).read().replace("state complete", "state complete", 1)
h = hashlib.sha256(b"x").hexdigest()
with open(p + ".pad", "w") as f:
    f.write(body)
    n = 0
    while f.tell() < 16 * 1024 * 1024 - 200:
        f.write("f %s pad/%07d.html\n" % (h, n)); n += 1
import os; os.rename(p + ".pad", p)
PY
  done
  # One crafted 16 MiB journal of intents naming other records.
  jd=$(recdir "$t" h10)
  as $((uid0+1010)) /usr/bin/python3 - "$jd/0123456789abcdef.jnl" <<'PY'
import sys
out = ["discgen output journal 1\n"]
size, n = 25, 0
while size < 16 * 1024 * 1024 - 200:
    rec = "discgen output record 2\nname users/x%07d/public_html\nstate incomplete\n" % n
    e = "record %d\n%s" % (len(rec), rec)
    out.append(e); size += len(e); n += 1
open(sys.argv[1], "w").write("".join(out))
PY
  # A directory where the record's temporary file goes.
  rd=$(recdir "$t" h11); rec=$(ls "$rd"/*.rec)
  as $((uid0+1011)) sh -c "mkdir -p '$rec.tmp' && touch '$rec.tmp/x'"
  # Each of them saves again, so root's build reads what they planted.
  for i in $(seq 1 11); do manifest "h$i" "saved again, $2" > "$t/users/h$i/public_html/autodisc.yaml"; done
}
holdlocks() { # tree
  local t=$1 i rd jd f
  # 8 tenants hold every lock they can take, after saving.
  for i in $(seq 12 19); do
    manifest "h$i" "saved again" > "$t/users/h$i/public_html/autodisc.yaml"
    rd=$(recdir "$t" "h$i"); jd=$rd
    for f in "$jd" "$rd" "$t/users/h$i/public_html" "$t/users/h$i/public_html/autodisc" "$jd"/*; do
      [ -e "$f" ] || continue
      as $((uid0+1000+i)) flock -x -n "$f" sleep 100000 &
    done
  done
  # Another account holds every lock it can open.
  for f in "$t" "$t/public" "$t/public/autodisc" "$t/state" "$t/state/journal" "$t/state/own" "$t/state/locks" "$t"/users/*/public_html "$t"/users/*/public_html/autodisc; do
    as $other flock -x -n "$f" sleep 100000 2>/dev/null &
  done
  sleep 1
}
report() { # label tree
  read -r e u s m < <(tail -1 "$2/.time")
  printf '%-28s wall %6.2f s  cpu %6.2f s  rss %4d MB  %s\n' "$1" "$e" "$(echo "$u + $s" | bc)" $((m/1024)) "$(grep -hE '^(units|tenants):' "$2/.out" "$2/.err" | tail -1)"
  echo "$e" >> "$2/.walls"
}
median() { sort -n "$1" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

base=$work/base host=$work/host
mktree "$base" 0; mktree "$host" 1
build "$base"; build "$host"     # cold: makes every tenant's state
holdlocks "$host"
: > "$base/.walls"; : > "$host/.walls"
for r in $(seq 1 "$runs"); do
  touchbenign "$base" "$r"; build "$base"; report "without hostile, run $r" "$base"
  touchbenign "$host" "$r"; plant "$host" "$r"; build "$host"; report "with hostile, run $r" "$host"
done
echo "median wall: without $(median "$base/.walls") s, with $(median "$host/.walls") s"
grep -vE '^(units|tenants):' "$host/.err" | sed -n 1,40p
echo "== under prlimit --as=1GiB"
touchbenign "$host" asl; plant "$host" asl; build "$host" prlimit --as=$((1<<30)); report "with hostile, --as=1GiB" "$host"
if grep -q 'fatal error\|^goroutine \|panic:' "$host/.err"; then echo "RUNTIME TRACE"; head -5 "$host/.err"; fi
echo "== after a killed root build"
touchbenign "$host" kill; plant "$host" kill
(cd "$host" && exec "$bin" build -f site.yaml -o public --state state --tenant-owner >/dev/null 2>&1) & pid=$!
for _ in $(seq 1 5000); do
  if compgen -G "$host/state/journal/*.jnl" >/dev/null; then break; fi
done
kill -9 $pid 2>/dev/null || true; wait $pid 2>/dev/null || true
jnls=("$host"/state/journal/*.jnl)
[ -e "${jnls[0]}" ] || jnls=()
echo "left by the killed build: ${#jnls[@]} journal(s)"
touchbenign "$host" afterkill; plant "$host" afterkill; build "$host"; report "with hostile, after kill -9" "$host"
grep -vE '^(units|tenants):' "$host/.err" | sed -n 1,12p
pkill -u $other sleep || true
for i in $(seq 12 19); do pkill -u $((uid0+1000+i)) sleep || true; done
