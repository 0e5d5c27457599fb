package serverconf

import (
	"strings"
)

// The site's own headers, those its configuration sends on every response
// rather than on its files (X-Robots-Tag with noindex, Content-Usage, the
// licence's Link, the tdm headers), reach a tenant's responses too, path
// scoping included: a path or location of the manifest that matches a
// tenant's URL (such as "/~alice/" or "/*.pdf$") applies there exactly as
// on the site's own paths. nginx sends them at server level and repeats
// them in the tenants' location; Caddy's header rules hold for the whole
// site block. Apache's come from the site's .htaccess, which does not
// reach /home/NAME/public_html, so apache/discgen-tenants.conf repeats
// them for each tenant space: the same sections in the same order, each
// <If> also matching the space (every path below it, not only the
// autodisc files), so the site's own paths are left to its .htaccess.
// The refusals of enforced crawlers (access.go) are repeated the same way,
// mod_rewrite's last condition matching the space.

// apacheTenantsSiteWide writes the site's headers for the responses in
// ts's space.
func apacheTenantsSiteWide(b *strings.Builder, ts TenantSpace, a Access) {
	var sb strings.Builder
	tenantSpaceRegexp(&sb, ts.Space, false, false) // checked by checkTenants
	scope := sb.String()
	if len(a.Enforce) > 0 {
		b.WriteString("\n# enforce: refuse crawlers at the tenants of " + ts.Space + " where the site's\n")
		b.WriteString("# robots.txt disallows them, as the site's .htaccess does at its own paths.\n")
		htaccessEnforceIn(b, a, scope)
	}
	if !a.Noindex && len(usageRules(a.Usage)) == 0 && a.Rights.License == "" && len(a.Rights.TDM) == 0 {
		return
	}
	b.WriteString("\n# The site's headers on every response of the tenants of " + ts.Space + ",\n")
	b.WriteString("# as on the site's own paths, whose .htaccess does not reach here.\n")
	if a.Noindex {
		apacheHeaders(b, []string{scope}, `Header always set X-Robots-Tag "noindex"`)
	}
	htaccessUsageIn(b, a.Usage, scope)
	htaccessRightsIn(b, a.Rights, scope)
}

// apacheHeaders writes mod_headers directives, in an <If> section when
// conds holds regular expressions that the decoded path must all match
// ("" matches every path and is left out).
func apacheHeaders(b *strings.Builder, conds []string, lines ...string) {
	var match []string
	for _, c := range conds {
		if c != "" {
			match = append(match, "%{REQUEST_URI} =~ m#"+c+"#")
		}
	}
	indent := "    "
	if len(match) > 0 {
		b.WriteString("<If \"" + strings.Join(match, " && ") + "\">\n")
		indent = "        "
	}
	b.WriteString(indent[4:] + "<IfModule mod_headers.c>\n")
	for _, l := range lines {
		b.WriteString(indent + l + "\n")
	}
	b.WriteString(indent[4:] + "</IfModule>\n")
	if len(match) > 0 {
		b.WriteString("</If>\n")
	}
}
