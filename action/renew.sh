#!/usr/bin/env bash
# The discgen Action's renew command (run.sh hands over to it): renew
# security.txt before its Expires passes. Meant for a scheduled workflow
# on the branch that holds the built output:
#
#   1. read Expires from the committed OUTPUT/.well-known/security.txt;
#      with more than DISCGEN_RENEW_DAYS days left, stop: nothing to do;
#   2. build (discgen build, at the current time, with the manifest's
#      signing key if it signs: the workflow gives it, as for any build);
#   3. the new Expires must be later than the old one and more than
#      DISCGEN_RENEW_DAYS days away: the manifest's expires must be a
#      duration (expires: 1y counts from the build's month), which a build
#      renews; a fixed date is never rewritten here, and is reported;
#   4. commit the output on the branch DISCGEN_RENEW_BRANCH, push it, and
#      open a pull request against the branch checked out (gh, with
#      GH_TOKEN), or update the one already open.
#
#   DISCGEN, DISCGEN_MANIFEST, DISCGEN_OUTPUT, DISCGEN_ENV, DISCGEN_ARGS
#                         as for run.sh (DISCGEN_ARGS go to the build)
#   DISCGEN_RENEW_DAYS    renew when Expires is at most this many days
#                         away (required, 1 to 3650)
#   DISCGEN_RENEW_BRANCH  the branch of the pull request (default
#                         discgen/renew-security-txt)
#   GH_TOKEN              for gh: contents and pull-requests write
#   SOURCE_DATE_EPOCH     the current time, when set (tests); else the clock
#   GITHUB_OUTPUT, GITHUB_STEP_SUMMARY   the runner's files (optional)
#
# Outputs: renewed=true when a pull request was opened or updated,
# expires=the Expires the output now has, pull-request=its URL.

# Backquotes in printf formats here are Markdown code spans.
# shellcheck disable=SC2016
set -o pipefail

bin=${DISCGEN:?DISCGEN must name the discgen binary}
manifest=${DISCGEN_MANIFEST:-site.yaml}
out=${DISCGEN_OUTPUT:-public}
env_name=${DISCGEN_ENV:-}
raw_args=${DISCGEN_ARGS:-}
days=${DISCGEN_RENEW_DAYS:-}
branch=${DISCGEN_RENEW_BRANCH:-discgen/renew-security-txt}
file=$out/.well-known/security.txt

fail() {
  printf '::error title=discgen renew::%s\n' "$1"
  summary "**failed**: $1"
  exit "${2:-2}"
}

outputs() {
  [[ -n ${GITHUB_OUTPUT:-} ]] && printf 'renewed=%s\nexpires=%s\npull-request=%s\n' "$1" "$2" "$3" >>"$GITHUB_OUTPUT"
  return 0
}

summary() {
  [[ -n ${GITHUB_STEP_SUMMARY:-} ]] && printf '## discgen renew\n\n`%s`: %s\n' "$file" "$1" >>"$GITHUB_STEP_SUMMARY"
  return 0
}

# expires_of prints the Unix time of the first Expires field of a
# security.txt (discgen writes RFC 3339 in UTC: 2027-06-01T00:00:00Z),
# and the value itself on a second line.
expires_of() {
  local v
  v=$(sed -nE 's/^[Ee][Xx][Pp][Ii][Rr][Ee][Ss]:[[:blank:]]*([^[:blank:]]+)[[:blank:]]*$/\1/p' "$1" | head -n 1)
  v=${v%$'\r'}
  [[ $v =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$ ]] || return 1
  # GNU date, then BSD date (macOS runners).
  date -u -d "$v" +%s 2>/dev/null || date -u -j -f '%Y-%m-%dT%H:%M:%SZ' "$v" +%s 2>/dev/null || return 1
  printf '%s\n' "$v"
}

[[ $days =~ ^[0-9]+$ && $days -ge 1 && $days -le 3650 ]] ||
  fail "renew-days must be a number of days from 1 to 3650, not \"$days\""

# shellcheck source=action/args.sh
. "$(dirname "${BASH_SOURCE[0]}")/args.sh"
split_args "$raw_args"
env_flag=()
[[ -n $env_name ]] && env_flag=(--env "$env_name")

now=${SOURCE_DATE_EPOCH:-$(date -u +%s)}
[[ $now =~ ^[0-9]+$ ]] || fail "SOURCE_DATE_EPOCH=\"$now\" is not a Unix time"

[[ -f $file ]] || fail "no $file: build the site and commit its output first; renew rebuilds a committed security.txt"
old=$(expires_of "$file") || fail "$file has no Expires field in RFC 3339 UTC form (2027-06-01T00:00:00Z)"
old_t=${old%%$'\n'*}
old_v=${old#*$'\n'}
left=$(((old_t - now) / 86400))
if [[ $old_t -gt $((now + days * 86400)) ]]; then
  printf '::notice title=discgen renew::security.txt expires on %s, in %d days: more than renew-days (%d), nothing to renew\n' "$old_v" "$left" "$days"
  summary "expires on $old_v, in $left days: more than $days days away, nothing to renew."
  outputs false "$old_v" ""
  exit 0
fi

"$bin" build --file "$manifest" --output "$out" "${env_flag[@]}" --now "@$now" --format github "${extra[@]}" || fail "the build failed: see the errors above" 1

new=$(expires_of "$file") || fail "the build wrote no Expires in $file"
new_t=${new%%$'\n'*}
new_v=${new#*$'\n'}
if [[ $new_t -le $old_t ]]; then
  fail "the build gives the same Expires ($new_v): the manifest's expires is a fixed date, which a build does not move. Write a duration instead (expires: 1y counts from the build's month), and every build renews it" 1
fi
if [[ $new_t -le $((now + days * 86400)) ]]; then
  fail "the build gives Expires $new_v, still within renew-days ($days days): make the manifest's expires longer than renew-days plus 31 days (it counts from the start of the build's month)" 1
fi

# The pull request: the output alone, committed on its own branch; the
# checkout goes back to the base branch afterwards (git checkout refuses
# to overwrite anything not committed).
base=${GITHUB_REF_NAME:-$(git rev-parse --abbrev-ref HEAD 2>/dev/null)}
[[ -n $base && $base != HEAD ]] || fail "not on a branch: check the repository's branch out first (actions/checkout)"
who=(-c user.name="${GIT_AUTHOR_NAME:-github-actions[bot]}" -c user.email="${GIT_AUTHOR_EMAIL:-41898282+github-actions[bot]@users.noreply.github.com}")
# discgen's records of what it wrote (--state, default .discgen beside the
# manifest) go with the output when the repository tracks them: the next
# build would otherwise refuse to take the renewed file over.
state=$(dirname "$manifest")/.discgen
for ((i = 0; i < ${#extra[@]}; i++)); do
  case ${extra[i]} in
    --state) state=${extra[i + 1]} ;;
    --state=*) state=${extra[i]#--state=} ;;
  esac
done
paths=("$out")
[[ -n $(git ls-files -- "$state" 2>/dev/null) ]] && paths+=("$state")
git checkout --quiet -B "$branch" || fail "cannot make the branch $branch"
if ! { git add -A -- "${paths[@]}" &&
  git "${who[@]}" commit --quiet -m "security.txt: renew Expires to $new_v" -m "Expires was $old_v, $left days away; renew-days is $days."; }; then
  fail "cannot commit the renewed output"
fi
git push --quiet --force origin "refs/heads/$branch:refs/heads/$branch" || fail "cannot push the branch $branch: give the workflow contents: write"
git checkout --quiet "$base" || fail "cannot go back to $base"

body="discgen renewed security.txt: Expires was $old_v ($left days away; renew-days is $days), now $new_v. Review and merge to publish it."
url=$(gh pr list --head "$branch" --base "$base" --state open --json url --jq '.[0].url' 2>/dev/null)
if [[ -z $url ]]; then
  url=$(gh pr create --head "$branch" --base "$base" --title "security.txt: renew Expires to $new_v" --body "$body") ||
    fail "cannot open the pull request: give the workflow pull-requests: write, and GH_TOKEN"
  url=$(printf '%s\n' "$url" | tail -n 1)
  printf '::notice title=discgen renew::opened %s: Expires %s -> %s\n' "$url" "$old_v" "$new_v"
else
  printf '::notice title=discgen renew::updated %s: Expires %s -> %s\n' "$url" "$old_v" "$new_v"
fi
summary "Expires was $old_v ($left days away; renew-days is $days): rebuilt with Expires $new_v: $url"
outputs true "$new_v" "$url"
