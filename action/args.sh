# shellcheck shell=bash
# Sourced by run.sh and renew.sh: DISCGEN_ARGS as a list of arguments.

# split_args sets the array extra to the arguments of $1: with several
# lines, one argument per line (spaces kept); on one line, split at
# blanks. Never glob-expanded (read -a expands nothing), no quotes or
# variables read.
split_args() {
  extra=()
  local line
  if [[ $1 == *$'\n'* ]]; then
    while IFS= read -r line || [[ -n $line ]]; do
      line=${line%$'\r'}
      [[ -n $line ]] && extra+=("$line")
    done <<<"$1"
  else
    read -r -a extra <<<"$1"
  fi
}
