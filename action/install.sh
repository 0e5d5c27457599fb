#!/usr/bin/env bash
# Installs the discgen binary for the Action, in two calls:
#
#   install.sh key      writes to $GITHUB_OUTPUT: mode (release: a release
#                       archive is downloaded; source: discgen is compiled),
#                       dir (a private bin directory in the tool cache),
#                       key (the actions/cache key, for source), go (whether
#                       a go command is on PATH) and cached (whether dir
#                       already holds discgen)
#   install.sh install  puts discgen into dir: from the tool cache if it is
#                       there, else by downloading and checking the release
#                       archive (release), else by compiling (source)
#
#   DISCGEN_VERSION     a discgen release (v1.2.3): its archive for this
#                       runner is downloaded and checked against the
#                       release's checksums.txt, no Go needed. A full commit
#                       hash: compiled with go install. Empty: the action's
#                       own ref when that is a release (GITHUB_ACTION_REF),
#                       else the action's own source, compiled.
#   DISCGEN_DOWNLOAD_BASE  where releases are: BASE/v1.2.3/checksums.txt
#                       (default https://github.com/discgen/discgen/releases/download)
#   DISCGEN_DIR         with install: the directory key chose
#
# For a compile, the caller's Go is left alone: no setup-go runs when a go
# command exists, GOBIN is a private directory, and GOTOOLCHAIN=auto (set
# for this process only) fetches the Go release discgen's go.mod asks for
# when the runner's is older, without changing the go the rest of the job
# uses.
set -euo pipefail

version=${DISCGEN_VERSION:-}
src=${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}
base=${DISCGEN_DOWNLOAD_BASE:-https://github.com/discgen/discgen/releases/download}
release_re='^v[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?$'

fail() {
  echo "::error title=discgen action::$1"
  exit 1
}

sha256() {
  if command -v sha256sum >/dev/null; then sha256sum "$@"; else shasum -a 256 "$@"; fi # macOS
}

# The release's name for this runner's OS and architecture.
platform() {
  local os arch
  case ${RUNNER_OS:-$(uname -s)} in
    Linux) os=linux ;;
    macOS | Darwin) os=darwin ;;
    Windows | MINGW* | MSYS*) os=windows ;;
    *) fail "no discgen release for the OS ${RUNNER_OS:-$(uname -s)}" ;;
  esac
  case ${RUNNER_ARCH:-$(uname -m)} in
    X64 | x86_64 | amd64) arch=amd64 ;;
    ARM64 | aarch64 | arm64) arch=arm64 ;;
    *) fail "no discgen release for the architecture ${RUNNER_ARCH:-$(uname -m)}" ;;
  esac
  echo "${os}_$arch"
}

case ${1:-} in
  key)
    mode=source
    if [[ -z $version && ${GITHUB_ACTION_REF:-} =~ $release_re ]]; then
      version=$GITHUB_ACTION_REF
    fi
    if [[ -z $version ]]; then
      # The action's own source: key on its content, so a moving ref
      # (v1, a branch) never reuses a binary built from older source.
      sha=(sha256sum)
      command -v sha256sum >/dev/null || sha=(shasum -a 256) # macOS
      sum=$(cd "$src" && find . -path ./.git -prune -o \( -name '*.go' ! -name '*_test.go' -o -name go.mod -o -name go.sum -o -name '*.json' -o -name '*.yaml' -o -name '*.txt' \) -type f -print |
        LC_ALL=C sort | xargs "${sha[@]}" | "${sha[@]}" | cut -c1-16)
      id=src-$sum
    elif [[ $version =~ $release_re ]]; then
      id=$version
      mode=release
    elif [[ $version =~ ^[0-9a-f]{40}$ ]]; then
      id=$version
    else
      echo "::error title=discgen action::version \"$version\" is not a release (v1.2.3) or a full commit hash; leave it empty for the action's own ref"
      exit 2
    fi
    os=${RUNNER_OS:-$(uname -s)}
    arch=${RUNNER_ARCH:-$(uname -m)}
    cache=${RUNNER_TOOL_CACHE:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}}
    dir=$cache/discgen/$id-$os-$arch
    have_go=false
    command -v go >/dev/null && have_go=true
    cached=false
    [[ -x $dir/discgen ]] && cached=true
    outputs="mode=$mode
version=$version
dir=$dir
key=discgen-$id-$os-$arch
go=$have_go
cached=$cached"
    if [[ -n ${GITHUB_OUTPUT:-} ]]; then
      echo "$outputs" >>"$GITHUB_OUTPUT"
    else
      echo "$outputs"
    fi
    ;;
  install)
    dir=${DISCGEN_DIR:?DISCGEN_DIR must name the directory to install into}
    if [[ -x $dir/discgen ]]; then
      echo "discgen: using $dir/discgen from the tool cache"
      "$dir/discgen" version
      exit 0
    fi
    # The directory is made only to put a binary in: one a failed
    # download left empty would be kept by the runner's tool cache.
    if [[ $version =~ $release_re ]]; then
      p=$(platform)
      ext=tar.gz
      [[ $p == windows_* ]] && ext=zip
      name=discgen_${version#v}_$p.$ext
      url=$base/$version
      tmp=$(mktemp -d)
      trap 'rm -rf "$tmp"' EXIT
      echo "discgen: downloading $url/$name (no compile: $version is a release)"
      curl -fsSL --retry 3 -o "$tmp/checksums.txt" "$url/checksums.txt" || fail "could not download $url/checksums.txt"
      curl -fsSL --retry 3 -o "$tmp/$name" "$url/$name" || fail "could not download $url/$name"
      want=$(awk -v n="$name" '$2 == n || $2 == "*" n { print $1 }' "$tmp/checksums.txt")
      [[ $want =~ ^[0-9a-f]{64}$ ]] || fail "$url/checksums.txt has no SHA-256 for $name"
      got=$(sha256 "$tmp/$name" | cut -d' ' -f1)
      [[ $got == "$want" ]] || fail "$name: SHA-256 $got does not match $want in $url/checksums.txt: the download is corrupt or not the release's; nothing installed"
      echo "discgen: $name matches checksums.txt (sha256 $got)"
      mkdir "$tmp/x"
      if [[ $ext == zip ]]; then
        unzip -q "$tmp/$name" discgen.exe -d "$tmp/x" || fail "$name: no discgen.exe in the archive"
        mv "$tmp/x/discgen.exe" "$tmp/x/discgen"
      else
        tar -xzf "$tmp/$name" -C "$tmp/x" discgen || fail "$name: no discgen in the archive"
      fi
      chmod 755 "$tmp/x/discgen"
      # Into place in one rename, so the tool cache never holds half a
      # binary.
      mkdir -p "$dir"
      mv "$tmp/x/discgen" "$dir/discgen.tmp" && mv "$dir/discgen.tmp" "$dir/discgen"
    else
      mkdir -p "$dir"
      export GOBIN=$dir GOTOOLCHAIN=auto GOFLAGS=-mod=readonly CGO_ENABLED=0
      if [[ -z $version ]]; then
        if [[ -n ${GITHUB_ACTION_REF:-} ]]; then
          echo "discgen: compiling the action's own source at $GITHUB_ACTION_REF (a ref that is not a release; set version: to a release to download it instead)"
        else
          echo "discgen: compiling the action's own source (used from a path, with no ref to download; set version: to a release to download it instead)"
        fi
        (cd "$src" && go build -trimpath -o "$dir/discgen" ./cmd/discgen)
      else
        echo "discgen: compiling commit $version with go install (a commit has no release archive)"
        go install -trimpath "github.com/discgen/discgen/cmd/discgen@$version"
      fi
    fi
    "$dir/discgen" version
    ;;
  *)
    echo "usage: install.sh key|install" >&2
    exit 2
    ;;
esac
