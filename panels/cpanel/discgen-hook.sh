#!/bin/sh
# discgen's adapter for cPanel & WHM's Standardized Hooks: registered, with
# manage_hooks, on the post stage of Whostmgr's Accounts::Create,
# Accounts::Modify and Accounts::Remove (README.md beside it).
#
# The interface followed, from cPanel's "Guide to Standardized Hooks - Hook
# Action Code" and "- Whostmgr Functions" (api.docs.cpanel.net/guides/
# guide-to-standardized-hooks/): a hook script is installed in
# /usr/local/cpanel/3rdparty/bin, root:root, mode 0755, and runs as root;
# it must read its whole standard input, one JSON object: "context"
# ({"category", "event", "stage", ...}) and "data", which for
# Accounts::Create holds "user", "domain", "homedir" and "homeroot", for
# Accounts::Remove "user", and for Accounts::Modify the parameters of WHM
# API 1's modifyacct: "user" and, when the account is renamed, "newuser". Its exit status 0 is success; any other is
# a failure cPanel logs (the post stage cannot block the event).
#
# On Create, the account's state is provisioned as root and, when the
# skeleton gave it an autodisc.yaml, its tenant built as the account's
# user; on Modify the same, under its new name; on Remove nothing is built
# (its files went with its home) and its state is removed. An account name or home that is not what
# the panel says is refused in one line on stderr, exit 1.
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
unset DISCGEN DISCGEN_SITE DISCGEN_OUT DISCGEN_STATE DISCGEN_HOME_ROOT DISCGEN_DOCROOT DISCGEN_LIB
conf=/etc/discgen/panel.conf
# shellcheck source=/dev/null
[ ! -r "$conf" ] || . "$conf"
panel=cpanel
# shellcheck source=panels/panel.sh
. "${DISCGEN_LIB:-/usr/local/lib/discgen/panel.sh}"
: "${DISCGEN_HOME_ROOT:=/home}"
: "${DISCGEN_DOCROOT:=public_html}"

# cPanel's own Perl, which every cPanel server has, reads the JSON (JSON::PP
# is in Perl's core); one value a line, a newline in a value shown as \n,
# which no check below lets through.
perl=/usr/local/cpanel/3rdparty/bin/perl
[ -x "$perl" ] || perl=perl
# shellcheck disable=SC2016 # Perl, not the shell, expands these
fields=$("$perl" -MJSON::PP -e '
	local $/;
	my $in = <STDIN>;
	my $j = eval { JSON::PP->new->decode($in) };
	if (ref $j ne "HASH") { print STDERR "standard input is not a JSON object\n"; exit 1 }
	my ($c, $d) = map { ref $_ eq "HASH" ? $_ : {} } $j->{context}, $j->{data};
	for ($c->{event}, $d->{user}, $d->{newuser}, $d->{homedir}) {
		my $v = defined $_ && !ref $_ ? $_ : "";
		$v =~ s/\\/\\\\/g;
		$v =~ s/\n/\\n/g;
		print "$v\n";
	}
' 2>&1) || panel_fail "$(printf '%s' "$fields" | head -n 1)"
{
	read -r event
	read -r user
	read -r newuser
	read -r homedir
} <<EOT
$fields
EOT

case $event in
Accounts::Create)
	if [ -n "$homedir" ]; then
		panel_account "$user" "$homedir/$DISCGEN_DOCROOT" "$homedir"
	else # no homedir given: the system's home
		home=$(getent passwd -- "$user" | cut -d: -f6)
		panel_account "$user" "$home/$DISCGEN_DOCROOT"
	fi
	panel_create
	;;
Accounts::Modify)
	[ -z "$newuser" ] || user=$newuser
	home=$(getent passwd -- "$user" | cut -d: -f6)
	panel_account "$user" "$home/$DISCGEN_DOCROOT"
	panel_change
	;;
Accounts::Remove)
	# The account and its home are gone: its home was in the home root.
	panel_name "account name" "$user"
	panel_remove "$DISCGEN_HOME_ROOT/$user/$DISCGEN_DOCROOT/autodisc.yaml"
	;;
*)
	panel_fail "event $(panel_show "$event"): not one this hook is for (Accounts::Create, Accounts::Modify, Accounts::Remove)"
	;;
esac
