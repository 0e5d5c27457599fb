package serverconf

import (
	"github.com/discgen/discgen/rsl"
	"github.com/discgen/discgen/tree"
)

// The RSL document a build publishes (license.source, at license.url's
// path) is served as application/rsl+xml, the media type RSL 1.0 names
// for it and the one its Link header announces ("type=..."), rather than
// application/xml by its extension; a link to it gets the same. Every
// other file keeps the type of the table (headers.go).

// documentProfile returns pr, the profile of the file whose headers come
// from tree path target, with the RSL media type when target is r's
// document.
func (r Rights) documentProfile(pr profile, target string) profile {
	if r.Document != "" && target == r.Document {
		pr.ContentType = rsl.MediaType
	}
	return pr
}

// ContentType is the package's ContentType with the RSL document served
// as r says.
func (r Rights) ContentType(t tree.Tree, p string) (string, error) {
	target, err := resolve(t, p)
	if err != nil {
		return "", err
	}
	return r.documentProfile(classify(target), target).ContentType, nil
}
