#!/bin/sh
# discgen's adapter for Plesk's event handlers (Linux): one handler, run as
# root, for each of the events "Hosting settings created"
# (phys_hosting_create), "Hosting settings updated" (phys_hosting_update)
# and "Hosting settings deleted" (phys_hosting_delete), with the command
# "/usr/local/lib/discgen/plesk-event.sh create" (update, delete); see
# README.md beside it.
#
# The interface followed, from Plesk's Administrator's Guide, "Event
# Tracking", "Adding Event Handlers (Linux)" and "Event Parameters Passed by
# Event Handlers" (docs.plesk.com/en-US/obsidian/administrator-guide/
# server-administration/event-tracking/): a handler is a command run on
# behalf of the system user chosen for it (root here), in the background,
# its output not shown; the event's parameters are environment variables,
# NEW_* the values after the event and OLD_* those before: NEW_SYSTEM_USER
# and NEW_DOMAIN_NAME on creation, both OLD_ and NEW_ on an update,
# OLD_SYSTEM_USER and OLD_DOMAIN_NAME on deletion. A subscription's system
# user has the webspace, DISCGEN_HOME_ROOT/DOMAIN (/var/www/vhosts/DOMAIN),
# as its home, and its site in httpdocs/ there.
#
# On creation, the account's state is provisioned as root and, when it has
# an autodisc.yaml, its tenant built as its system user; on an update the
# same, under its new name and domain; on deletion nothing is built (its
# files went with its webspace) and its state is removed. A name, domain or home that is not what the
# panel says is refused in one line on stderr, exit 1.
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
unset DISCGEN DISCGEN_SITE DISCGEN_OUT DISCGEN_STATE DISCGEN_HOME_ROOT DISCGEN_DOCROOT DISCGEN_LIB
conf=/etc/discgen/panel.conf
# shellcheck source=/dev/null
[ ! -r "$conf" ] || . "$conf"
panel=plesk
# shellcheck source=panels/panel.sh
. "${DISCGEN_LIB:-/usr/local/lib/discgen/panel.sh}"
: "${DISCGEN_HOME_ROOT:=/var/www/vhosts}"
: "${DISCGEN_DOCROOT:=httpdocs}"

case ${1-} in
create | update)
	user=${NEW_SYSTEM_USER-}
	domain=${NEW_DOMAIN_NAME-}
	panel_name "NEW_SYSTEM_USER" "$user"
	panel_domain "NEW_DOMAIN_NAME" "$domain"
	home=$DISCGEN_HOME_ROOT/$domain
	panel_account "$user" "$home/$DISCGEN_DOCROOT" "$home"
	panel_create
	;;
delete)
	panel_name "OLD_SYSTEM_USER" "${OLD_SYSTEM_USER-}"
	panel_domain "OLD_DOMAIN_NAME" "${OLD_DOMAIN_NAME-}"
	panel_remove "$DISCGEN_HOME_ROOT/$OLD_DOMAIN_NAME/$DISCGEN_DOCROOT/autodisc.yaml"
	;;
*)
	panel_fail "give create, update or delete as the handler's argument, not $(panel_show "${1-}")"
	;;
esac
