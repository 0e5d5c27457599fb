// Package registry lists the discovery-file kinds, each once: the stages
// (validate, generate, serverconf, lint, import, verify) loop over All
// instead of naming a kind. Adding a kind is one package under kinds/ and
// one line here (CONTRIBUTING.md, "Adding a discovery file").
package registry

import (
	"strings"

	"github.com/discgen/discgen/kinds/adstxt"
	"github.com/discgen/discgen/kinds/agentcard"
	"github.com/discgen/discgen/kinds/apicatalog"
	"github.com/discgen/discgen/kinds/applinks"
	"github.com/discgen/discgen/kinds/atprotodid"
	"github.com/discgen/discgen/kinds/changepassword"
	"github.com/discgen/discgen/kinds/gpc"
	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/kinds/llmstxt"
	"github.com/discgen/discgen/kinds/mcp"
	"github.com/discgen/discgen/kinds/oauthmeta"
	"github.com/discgen/discgen/kinds/securitytxt"
	"github.com/discgen/discgen/kinds/sigdir"
	"github.com/discgen/discgen/kinds/trafficadvice"
)

// all is the registry, in the order lint --type and messages name the
// kinds: the files of the site's root, then those under /.well-known/.
var all = [...]kit.Kind{
	adstxt.Ads(),
	adstxt.AppAds(),
	llmstxt.Kind{},
	securitytxt.Kind{},
	applinks.Apple(),
	applinks.Android(),
	oauthmeta.ProtectedResource(),
	oauthmeta.AuthorizationServer(),
	mcp.Kind{},
	gpc.Kind{},
	trafficadvice.Kind{},
	changepassword.Kind{},
	atprotodid.Kind{},
	sigdir.Directory(),
	apicatalog.Kind{},
	agentcard.Kind{},
}

// All returns the kinds in registry order; the caller may keep the slice.
func All() []kit.Kind {
	return append([]kit.Kind(nil), all[:]...)
}

// ByPath returns the kind served at tree path p.
func ByPath(p string) (kit.Kind, bool) {
	for _, k := range all {
		if k.Path() == p {
			return k, true
		}
	}
	return nil, false
}

// WellKnown reports whether k is served under /.well-known/.
func WellKnown(k kit.Kind) bool { return strings.HasPrefix(k.Path(), ".well-known/") }
