# shellcheck shell=sh
# The part discgen's panel adapters share, sourced by each (installed as
# /usr/local/lib/discgen/panel.sh, or where panel.conf's DISCGEN_LIB says),
# never run on its own. See panels/README.md.
#
# An adapter has already set PATH, cleared every DISCGEN_* variable of its
# environment (a panel may pass its users' values there) and read
# /etc/discgen/panel.conf, root's, which may set:
#
#   DISCGEN            the discgen binary (default: discgen on PATH)
#   DISCGEN_SITE       the site manifest (default /etc/discgen/site.yaml)
#   DISCGEN_OUT        the site's output directory (default /srv/www/public)
#   DISCGEN_STATE      the state directory, the one root's builds use
#                      (default /var/lib/discgen)
#   DISCGEN_HOME_ROOT  where the panel makes its accounts' homes (default:
#                      the adapter's, e.g. /home)
#   DISCGEN_DOCROOT    the tenant's directory below the home, where its
#                      autodisc.yaml is (default: the adapter's)
#
# Every path is absolute: the builds run from /. The adapter has set panel,
# its name in messages.
: "${panel:=panel}"

: "${DISCGEN:=discgen}"
: "${DISCGEN_SITE:=/etc/discgen/site.yaml}"
: "${DISCGEN_OUT:=/srv/www/public}"
: "${DISCGEN_STATE:=/var/lib/discgen}"

# panel_fail prints one line on stderr, naming the adapter, and exits 1.
panel_fail() {
	printf 'discgen %s: %s\n' "$panel" "$*" >&2
	exit 1
}

# panel_show prints a value as a message may show it: on one line, at most
# 64 characters, anything but letters, digits and ./_~@- shown as '?'.
panel_show() {
	printf '"%s"' "$(printf '%s' "$1" | tr -c 'A-Za-z0-9./_~@-' '?' | cut -c1-64)"
}

# panel_name refuses $2 unless it is a user name as useradd makes them:
# 1 to 32 of letters, digits, '.', '_' and '-', not beginning with '-' or
# '.'. $1 says what it is.
panel_name() {
	case $2 in
	'') panel_fail "$1 is empty" ;;
	[-.]* | *[!A-Za-z0-9._-]*)
		panel_fail "$1 $(panel_show "$2") is not a user name: letters, digits, '.', '_' and '-', not beginning with '-' or '.'" ;;
	esac
	[ "${#2}" -le 32 ] || panel_fail "$1 $(panel_show "$2") is not a user name: longer than 32 characters"
}

# panel_domain refuses $2 unless it is a domain name as panels write them:
# lower-case letters, digits, '-' and '.', at most 253 characters.
panel_domain() {
	case $2 in
	'') panel_fail "$1 is empty" ;;
	[-.]* | *..* | *[!a-z0-9.-]*)
		panel_fail "$1 $(panel_show "$2") is not a domain name: lower-case letters, digits, '-' and '.'" ;;
	esac
	[ "${#2}" -le 253 ] || panel_fail "$1 $(panel_show "$2") is not a domain name: longer than 253 characters"
}

# panel_clean refuses a path that is not absolute and clean: no empty,
# "." or ".." component, no trailing '/', nothing a line cannot hold.
panel_clean() {
	case $2 in
	/*) ;;
	*) panel_fail "$1 $(panel_show "$2") is not an absolute path" ;;
	esac
	case $2/ in
	*//* | */./* | */../* | *'
'*)
		panel_fail "$1 $(panel_show "$2") is not a clean path (an empty, '.' or '..' component, or a newline)" ;;
	esac
}

# panel_account USER DIR [HOME] checks what the panel says of an account:
# USER a user name of the system, not root, whose home (HOME, when the
# panel names it, must be that home) lies in DISCGEN_HOME_ROOT and belongs
# to it; DIR, the tenant's directory, in that home; every directory from
# DISCGEN_HOME_ROOT down to DIR a directory, not a symbolic link. It sets
# panel_user and panel_file (DIR/autodisc.yaml).
panel_account() {
	panel_name "account name" "$1"
	entry=$(getent passwd -- "$1") || panel_fail "account $(panel_show "$1"): no such user"
	IFS=: read -r e_name _ e_uid _ _ e_home _ <<-EOT
		$entry
	EOT
	[ "$e_name" = "$1" ] || panel_fail "account $(panel_show "$1"): no such user (getent found $(panel_show "$e_name"))"
	[ "$e_uid" != 0 ] || panel_fail "account $(panel_show "$1") is root's uid"
	if [ $# -ge 3 ] && [ "$3" != "$e_home" ]; then
		panel_fail "account $(panel_show "$1"): the panel says its home is $(panel_show "$3"), the system $(panel_show "$e_home")"
	fi
	panel_clean "home root" "$DISCGEN_HOME_ROOT"
	panel_clean "home of $1" "$e_home"
	panel_clean "directory of $1" "$2"
	case $e_home in
	"$DISCGEN_HOME_ROOT"/*) ;;
	*) panel_fail "account $(panel_show "$1"): its home $(panel_show "$e_home") is not in $DISCGEN_HOME_ROOT" ;;
	esac
	case $2 in
	"$e_home" | "$e_home"/*) ;;
	*) panel_fail "account $(panel_show "$1"): $(panel_show "$2") is not in its home $(panel_show "$e_home")" ;;
	esac
	p=$DISCGEN_HOME_ROOT
	rest=${2#"$DISCGEN_HOME_ROOT"/}
	while :; do
		p=$p/${rest%%/*}
		if [ -L "$p" ]; then
			panel_fail "account $(panel_show "$1"): $(panel_show "$p") is a symbolic link"
		fi
		[ -d "$p" ] || panel_fail "account $(panel_show "$1"): $(panel_show "$p") is not a directory"
		[ "$p" != "$e_home" ] || [ "$(stat -c %u -- "$p")" = "$e_uid" ] ||
			panel_fail "account $(panel_show "$1"): its home $(panel_show "$p") belongs to uid $(stat -c %u -- "$p"), not to its uid $e_uid"
		case $rest in
		*/*) rest=${rest#*/} ;;
		*) break ;;
		esac
	done
	panel_user=$1
	panel_file=$2/autodisc.yaml
}

# panel_provision makes the account's state in DISCGEN_STATE, as root, so
# that its first save, as its user, builds (discgen build --provision).
panel_provision() {
	(cd / && "$DISCGEN" build -f "$DISCGEN_SITE" -o "$DISCGEN_OUT" --state "$DISCGEN_STATE" \
		--tenant-owner --provision --tenant "$panel_file")
}

# panel_save builds the account's tenant as its user, when it has a
# manifest (a new account may have one from the panel's skeleton).
panel_save() {
	[ -e "$panel_file" ] || [ -L "$panel_file" ] || return 0
	(cd / && runuser -u "$panel_user" -- "$DISCGEN" build -f "$DISCGEN_SITE" -o "$DISCGEN_OUT" \
		--state "$DISCGEN_STATE" --tenant-owner --tenant "$panel_file")
}

# panel_remove removes, as root, the state of the removed account whose
# tenant manifest would be $1 (discgen build --unprovision), which discgen
# does only once the account's directory is gone; a later account given
# the same directory then starts without the old one's record.
panel_remove() {
	panel_clean "directory" "${1%/*}"
	(cd / && "$DISCGEN" build -f "$DISCGEN_SITE" -o "$DISCGEN_OUT" --state "$DISCGEN_STATE" \
		--tenant-owner --unprovision --tenant "$1") || exit
}

# panel_create and panel_change: the state, then the build. A change
# provisions again: a renamed account, or one whose home moved, has a new
# tenant directory; an unchanged one costs two lstat calls.
panel_create() {
	panel_provision || exit
	panel_save || exit
}
panel_change() {
	panel_create
}
