#!/bin/sh
# discgen's adapter for DirectAdmin's hook scripts: installed as
# /usr/local/directadmin/scripts/custom/user_create_post/discgen.sh,
# domain_change_post/discgen.sh and user_destroy_post/discgen.sh (or as
# scripts/custom/user_create_post.sh and so on); see README.md beside it.
# What it does follows from the hook it is installed as.
#
# The interface followed, from DirectAdmin's "Hook scripts", "User/Reseller
# Management Hooks" and "Domain Management Hooks" (docs.directadmin.com/
# developer/hooks/): a hook runs as root; its parameters are environment
# variables: for user_create_post the contents of the new user's
# user.conf (username, domain: the user's first domain, ...), for
# domain_change_post username, domain and newdomain, for user_destroy_post
# username. A post hook's non-zero exit status is reported as an error, its
# output (stderr is piped to stdout) shown. A user's site is
# /home/USER/domains/DOMAIN/public_html (/home/USER/public_html is a
# symbolic link to it, which the tenants glob must not go through).
#
# On creation, the account's state is provisioned as root and, when its
# domain's public_html has an autodisc.yaml, its tenant built as the user;
# on a domain's change the same for the new domain; on removal nothing is
# built (its files go with its home). A name, domain or home that is not
# what the panel says is refused in one line, exit 1.
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
unset DISCGEN DISCGEN_SITE DISCGEN_OUT DISCGEN_STATE DISCGEN_HOME_ROOT DISCGEN_DOCROOT DISCGEN_LIB
conf=/etc/discgen/panel.conf
# shellcheck source=/dev/null
[ ! -r "$conf" ] || . "$conf"
panel=directadmin
# shellcheck source=panels/panel.sh
. "${DISCGEN_LIB:-/usr/local/lib/discgen/panel.sh}"
: "${DISCGEN_HOME_ROOT:=/home}"

# DirectAdmin passes its variables in lower case: username, domain,
# newdomain.
# shellcheck disable=SC2154
case $0 in
*/user_create_post.sh | */user_create_post/*) hook=create domain=${domain-} ;;
*/domain_change_post.sh | */domain_change_post/*) hook=change domain=${newdomain-} ;;
*/user_destroy_post.sh | */user_destroy_post/*) hook=destroy ;;
*) panel_fail "installed as $(panel_show "$0"): install as scripts/custom/user_create_post/, domain_change_post/ or user_destroy_post/discgen.sh" ;;
esac
user=${username-}
panel_name "username" "$user"
if [ "$hook" = destroy ]; then
	exit 0
fi
panel_domain "domain" "$domain"
home=$(getent passwd -- "$user" | cut -d: -f6)
panel_account "$user" "$home/domains/$domain/public_html"
panel_create
