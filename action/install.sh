#!/usr/bin/env bash
# Installs the discgen binary for the Action, in two calls around
# actions/cache:
#
#   install.sh key      writes to $GITHUB_OUTPUT: dir (a private bin
#                       directory), key (the cache key) and go (whether a
#                       go command is on PATH)
#   install.sh build    builds discgen into dir (run on a cache miss)
#
#   DISCGEN_VERSION     a discgen release (v1.2.3) or commit, installed with
#                       go install from the module proxy; empty: this
#                       action's own source (GITHUB_ACTION_PATH), whatever
#                       ref the workflow named in uses:
#   DISCGEN_DIR         with build: the directory key chose
#
# The caller's Go is left alone: no setup-go runs when a go command exists,
# GOBIN is a private directory, and GOTOOLCHAIN=auto (set for this process
# only) fetches the Go release discgen's go.mod asks for when the runner's
# is older, without changing the go the rest of the job uses.
set -euo pipefail

version=${DISCGEN_VERSION:-}
src=${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}

case ${1:-} in
  key)
    if [[ -z $version ]]; then
      # The action's own source: key on its content, so a moving ref
      # (v1, a branch) never reuses a binary built from older source.
      sha=(sha256sum)
      command -v sha256sum >/dev/null || sha=(shasum -a 256) # macOS
      sum=$(cd "$src" && find . -path ./.git -prune -o \( -name '*.go' ! -name '*_test.go' -o -name go.mod -o -name go.sum -o -name '*.json' -o -name '*.yaml' -o -name '*.txt' \) -type f -print |
        LC_ALL=C sort | xargs "${sha[@]}" | "${sha[@]}" | cut -c1-16)
      id=src-$sum
    elif [[ $version =~ ^v[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?$ || $version =~ ^[0-9a-f]{40}$ ]]; then
      id=$version
    else
      echo "::error title=discgen action::version \"$version\" is not a release (v1.2.3) or a full commit hash; leave it empty for the action's own ref"
      exit 2
    fi
    os=${RUNNER_OS:-$(uname -s)}
    arch=${RUNNER_ARCH:-$(uname -m)}
    base=${RUNNER_TOOL_CACHE:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}}
    have_go=false
    command -v go >/dev/null && have_go=true
    outputs="dir=$base/discgen/$id-$os-$arch
key=discgen-$id-$os-$arch
go=$have_go"
    if [[ -n ${GITHUB_OUTPUT:-} ]]; then
      echo "$outputs" >>"$GITHUB_OUTPUT"
    else
      echo "$outputs"
    fi
    ;;
  build)
    dir=${DISCGEN_DIR:?DISCGEN_DIR must name the directory to install into}
    mkdir -p "$dir"
    export GOBIN=$dir GOTOOLCHAIN=auto GOFLAGS=-mod=readonly
    if [[ -z $version ]]; then
      (cd "$src" && go build -trimpath -o "$dir/discgen" ./cmd/discgen)
    else
      go install -trimpath "github.com/discgen/discgen/cmd/discgen@$version"
    fi
    "$dir/discgen" version
    ;;
  *)
    echo "usage: install.sh key|build" >&2
    exit 2
    ;;
esac
