#!/bin/sh
# discgen's adapter for HestiaCP's web templates: installed beside a web
# template as its trigger, /usr/local/hestia/data/templates/web/nginx/
# NAME.sh for the template NAME (or under apache2/ or php-fpm/, whichever
# holds the templates the host's domains use); see README.md beside it.
#
# The interface followed, from HestiaCP's web templates (the templates
# directory, data/templates/web/, and the trigger that its
# bin/v-add-web-domain and bin/v-change-web-domain-tpl run, as VestaCP's
# func/domain.sh did before it: "Running template trigger"): when a web
# domain is added, given the template, or rebuilt, Hestia runs the
# template's NAME.sh as root, if it is executable, with the arguments
# USER DOMAIN IP HOMEDIR DOCROOT, where HOMEDIR is the panel's home root
# (/home) and DOCROOT is HOMEDIR/USER/web/DOMAIN/public_html. It does not
# read the trigger's exit status.
#
# The domain's state is provisioned as root and, when its public_html has
# an autodisc.yaml, its tenant built as the user. Hestia runs no template
# trigger when a domain or a user is deleted: nothing is built then (the
# files go with the domain). Arguments that are not what Hestia passes
# are refused in one line on stderr, exit 1.
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
unset DISCGEN DISCGEN_SITE DISCGEN_OUT DISCGEN_STATE DISCGEN_HOME_ROOT DISCGEN_DOCROOT DISCGEN_LIB
conf=/etc/discgen/panel.conf
# shellcheck source=/dev/null
[ ! -r "$conf" ] || . "$conf"
panel=hestiacp
# shellcheck source=panels/panel.sh
. "${DISCGEN_LIB:-/usr/local/lib/discgen/panel.sh}"
: "${DISCGEN_HOME_ROOT:=/home}"

[ $# = 5 ] || panel_fail "want 5 arguments (USER DOMAIN IP HOMEDIR DOCROOT), not $#"
panel_name "user" "$1"
panel_domain "domain" "$2"
[ "$4" = "$DISCGEN_HOME_ROOT" ] || panel_fail "home root $(panel_show "$4") is not $DISCGEN_HOME_ROOT"
[ "$5" = "$4/$1/web/$2/public_html" ] ||
	panel_fail "document root $(panel_show "$5") is not $(panel_show "$4/$1/web/$2/public_html")"
panel_account "$1" "$5" "$4/$1"
panel_create
