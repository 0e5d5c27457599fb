#!/bin/bash
# usage: publish/testdata/save-bench.sh BIN TREE quiet|dirty RUNS
# A control panel's save, timed: RUNS times, a tenant of TREE (a host of
# 2,000 tenants users/u0000000..u0001999, built once by BIN) has its
# description edited and is built with BIN build --tenant, after a sync;
# with dirty, 1 GiB is written beside TREE (dd, no sync) just before the
# save, so that a flush of the whole filesystem would wait for it. Prints
# each save's wall time in milliseconds; BENCHMARKS.md ("Tenant save")
# records a run.
set -eu
bin=$(realpath "$1")
tree=$2
mode=$3
runs=$4
case $mode in
quiet | dirty) ;;
*)
  echo "usage: $0 BIN TREE quiet|dirty RUNS" >&2
  exit 2
  ;;
esac
dirty=$(dirname "$(realpath "$tree")")/dirty
cd "$tree"
for i in $(seq 1 "$runs"); do
  m=users/u000$(printf %04d $(((i * 7919) % 2000)))/public_html/autodisc.yaml
  sed -i "s/^description: .*/description: The pages saved $mode $i $RANDOM/" "$m"
  rm -f "$dirty"
  sync
  if [ "$mode" = dirty ]; then
    dd if=/dev/zero of="$dirty" bs=1M count=1024 status=none
  fi
  s=$(date +%s%N)
  "$bin" build -f site.yaml -o public --now 2026-11-01 --tenant "$m" >/dev/null 2>&1
  e=$(date +%s%N)
  echo $(((e - s) / 1000000))
done
rm -f "$dirty"
