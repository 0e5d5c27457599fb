#!/usr/bin/env bash
# The discgen Action's main step: run one discgen command so that every
# error and warning becomes an annotation, then write the job summary and
# the step's outputs. action.yml sets the environment from its inputs; a
# test runs this script with a fake runner environment.
#
#   DISCGEN           the discgen binary (required)
#   DISCGEN_COMMAND   validate, build, check, lint or renew (default build)
#   DISCGEN_MANIFEST  the site manifest (default site.yaml)
#   DISCGEN_OUTPUT    the output directory (default public)
#   DISCGEN_ENV       an environment of the manifest (--env), or empty
#   DISCGEN_ARGS      more arguments: with several lines, one argument per
#                     line (spaces kept); on one line, split at blanks.
#                     Never glob-expanded, no quotes or variables read.
#   GITHUB_OUTPUT, GITHUB_STEP_SUMMARY   the runner's files (optional)
#
# Outputs: stale=true when the output differed from what the manifest
# produces (build, check); changed=true when this step wrote or removed a
# file (build). The exit status is discgen's.

# Backquotes in printf formats here are Markdown code spans.
# shellcheck disable=SC2016
# No set -u: macOS's bash 3.2 calls an empty array unset.
set -o pipefail

bin=${DISCGEN:?DISCGEN must name the discgen binary}
command=${DISCGEN_COMMAND:-build}
manifest=${DISCGEN_MANIFEST:-site.yaml}
out=${DISCGEN_OUTPUT:-public}
env_name=${DISCGEN_ENV:-}
raw_args=${DISCGEN_ARGS:-}

fail() {
  printf '::error title=discgen action::%s\n' "$1"
  exit 2
}

# shellcheck source=action/args.sh
. "$(dirname "${BASH_SOURCE[0]}")/args.sh"
split_args "$raw_args"

env_flag=()
[[ -n $env_name ]] && env_flag=(--env "$env_name")

case $command in
  validate) cmd=(validate --file "$manifest" "${env_flag[@]}" --format github) ;;
  build) cmd=(build --file "$manifest" --output "$out" "${env_flag[@]}" --format github) ;;
  check) cmd=(build --file "$manifest" --output "$out" "${env_flag[@]}" --format github --check) ;;
  lint)
    cmd=(lint --format github)
    named=0
    for a in "${extra[@]}"; do
      [[ $a != -* && -e $a ]] && named=$((named + 1))
    done
    if [[ $named -eq 0 ]]; then
      # No file named: lint what a build wrote.
      wk=$out/.well-known
      for f in "$out/robots.txt" "$wk/security.txt" "$out"/autodisc/*.txt \
        "$out/ads.txt" "$out/app-ads.txt" "$wk/apple-app-site-association" "$wk/assetlinks.json" \
        "$wk/gpc.json" "$wk/traffic-advice" "$wk/atproto-did" "$wk/tdmrep.json"; do
        [[ -f $f ]] && extra+=("$f") && named=$((named + 1))
      done
      [[ $named -gt 0 ]] || fail "lint: no file named in args and none found in $out"
    fi
    ;;
  # renew: rebuild security.txt when its Expires is near, and open a pull
  # request (renew.sh, which reads the same environment).
  renew) exec bash "$(dirname "${BASH_SOURCE[0]}")/renew.sh" ;;
  *) fail "command must be validate, build, check, lint or renew, not \"$command\"" ;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# For build and check, a dry run first lists what the build would add,
# update and remove, for the summary and the outputs.
: >"$tmp/plan"
plan_status=0
if [[ $command == build || $command == check ]]; then
  "$bin" build --file "$manifest" --output "$out" "${env_flag[@]}" --dry-run "${extra[@]}" >"$tmp/plan" 2>/dev/null
  plan_status=$?
fi

"$bin" "${cmd[@]}" "${extra[@]}" >"$tmp/stdout" 2>"$tmp/stderr"
status=$?
# The runner reads workflow commands from stdout: show both streams there.
cat "$tmp/stdout" "$tmp/stderr"

count() { grep -cE "$1" "$2" || true; }
errors=$(count '^::error' "$tmp/stderr")
warnings=$(count '^::warning' "$tmp/stderr")
planned=$(count '^(add|update|remove) ' "$tmp/plan")

stale=false
changed=false
# A dry run that fails and plans nothing was refused the manifest: the
# output is not what it produces, and what a build will change is known
# once it is valid.
unplanned=false
if [[ $command == build || $command == check ]] && [[ $planned -eq 0 && $plan_status -ne 0 ]]; then
  unplanned=true
fi
if [[ $command == build || $command == check ]] && [[ $planned -gt 0 || $unplanned == true ]]; then
  stale=true
fi
written=0
if [[ $command == build ]]; then
  # "public: 2 added, 1 updated, 0 removed, 5 unchanged", one per root,
  # and ", 3 adopted" after it when files already there were taken over
  # (their records are written: a change to commit).
  written=$(sed -nE 's/^.*: ([0-9]+) added, ([0-9]+) updated, ([0-9]+) removed, [0-9]+ unchanged(, ([0-9]+) adopted)?$/\1 \2 \3 \5/p' "$tmp/stdout" |
    awk '{ n += $1 + $2 + $3 + $4 } END { print n + 0 }')
  [[ $written -gt 0 ]] && changed=true
fi
# A build that failed and wrote nothing: its plan is what a build that
# succeeds would do, not what this one did.
unwritten=false
[[ $command == build && $status -ne 0 && $written -eq 0 ]] && unwritten=true

if [[ -n ${GITHUB_OUTPUT:-} ]]; then
  printf 'changed=%s\nstale=%s\n' "$changed" "$stale" >>"$GITHUB_OUTPUT"
fi

# annotation_lines turns workflow commands into Markdown list items:
# "- **error** `file:line`: message".
annotation_lines() {
  sed -nE 's/^::(error|warning|notice) ([^:]*)::(.*)$/\1\t\2\t\3/p' "$1" |
    while IFS=$'\t' read -r level props msg; do
      file=$(sed -nE 's/(^|.*,)file=([^,]*).*/\2/p' <<<"$props")
      line=$(sed -nE 's/(^|.*,)line=([0-9]+).*/\2/p' <<<"$props")
      col=$(sed -nE 's/(^|.*,)col=([0-9]+).*/\2/p' <<<"$props")
      where=${file//%3A/:}
      where=${where//%2C/,}
      where=${where//%25/%}
      [[ -n $line ]] && where="$where:$line"
      [[ -n $line && -n $col ]] && where="$where:$col"
      msg=${msg//%0A/ }
      msg=${msg//%0D/}
      msg=${msg//%25/%}
      if [[ -n $where ]]; then
        printf -- '- **%s** `%s`: %s\n' "$level" "$where" "$msg"
      else
        printf -- '- **%s** %s\n' "$level" "$msg"
      fi
    done
}

summary() {
  local title=$command
  [[ $command == check ]] && title="build --check"
  printf '## discgen %s\n\n' "$title"
  case $command in
    validate) printf 'Manifest `%s`: ' "$manifest" ;;
    lint) printf 'Linted %d file(s): ' "$named" ;;
    *) printf 'Manifest `%s`, output `%s`: ' "$manifest" "$out" ;;
  esac
  if [[ $status -eq 0 ]]; then printf 'passed' ; else printf '**failed** (exit status %d)' "$status"; fi
  printf ', %d error(s), %d warning(s).\n\n' "$errors" "$warnings"

  if [[ $unwritten == true ]]; then
    printf '**Nothing was written.** discgen writes nothing unless the whole manifest is valid and every file can be written, and this build stopped at the errors below.'
    [[ $planned -gt 0 ]] && printf ' The output is stale: once they are fixed, a build will make these changes.'
    [[ $unplanned == true ]] && printf ' The output is stale: the changes a build will make are listed once the manifest is valid.'
    printf '\n\n'
  elif [[ $unplanned == true ]]; then
    printf 'The output is stale: the changes a build will make are listed once the manifest is valid.\n\n'
  fi
  if [[ $command == build || $command == check ]]; then
    local verb=""
    [[ $command == check || $unwritten == true ]] && verb="would be "
    if [[ $planned -eq 0 ]]; then
      [[ $status -eq 0 ]] && printf 'Output up to date: no file %schanged.\n\n' "$verb"
    else
      printf '| file | change |\n|---|---|\n'
      while read -r kind path; do
        case $kind in
          add) what=added ;;
          update) what=changed ;;
          remove) what=removed ;;
          *) continue ;;
        esac
        printf '| `%s` | %s%s |\n' "$path" "$verb" "$what"
      done <"$tmp/plan"
      printf '\n'
    fi
  fi
  if [[ $command == check && -s $tmp/stdout ]]; then
    printf '<details><summary>diff</summary>\n\n```diff\n'
    # The summary holds at most 1 MiB per step.
    head -c 200000 "$tmp/stdout"
    [[ $(wc -c <"$tmp/stdout") -gt 200000 ]] && printf '\n... (diff cut at 200000 bytes; the full diff is in the log)\n'
    printf '```\n\n</details>\n\n'
  fi
  if [[ $((errors + warnings)) -gt 0 ]]; then
    printf '### Errors and warnings\n\n'
    annotation_lines "$tmp/stderr"
    printf '\n'
  fi
}

if [[ -n ${GITHUB_STEP_SUMMARY:-} ]]; then
  summary >>"$GITHUB_STEP_SUMMARY"
fi
exit "$status"
