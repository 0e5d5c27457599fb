package mcp

import (
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/discgen/discgen/internal/lazyre"
	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
)

// Entry is one entry of the catalogue.
type Entry struct {
	Identifier string `json:"identifier"`
	Type       string `json:"type"`
	URL        string `json:"url"`
}

// File is the catalogue.
type File struct {
	SpecVersion string  `json:"specVersion"`
	Entries     []Entry `json:"entries"`
}

// fileName is a local card's file name, the identifier's last segment.
var fileName = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// Check checks the manifest's servers, each finding at its field under
// well_known.mcp.
func (Kind) Check(site *manifest.Site, _ kit.Build) []kit.Finding {
	m := value(site)
	if m == nil {
		return nil
	}
	var fs []kit.Finding
	add := func(field string, warn bool, format string, args ...any) {
		fs = append(fs, kit.Finding{Field: field, Warning: warn, Message: fmt.Sprintf(format, args...)})
	}
	if len(m.Servers) == 0 {
		add("servers", false, "names no server: give each server's identifier, name and url or card")
	}
	ids, files := map[string]int{}, map[string]int{}
	cards := 0
	for i, s := range m.Servers {
		p := fmt.Sprintf("servers[%d]", i)
		switch {
		case s.URL != "" && s.Card != "":
			add(p, false, "give either url (a card served elsewhere) or card (a file discgen publishes), not both")
		case s.URL == "" && s.Card == "":
			add(p, false, "give url (a card served elsewhere) or card (a file discgen publishes)")
		}
		checkIdentifier(add, p+".identifier", s.Identifier, ids, i)
		if s.Card != "" {
			cards++
			name := slug(s.Identifier)
			switch j, seen := files[strings.ToLower(name)]; {
			case s.Identifier == "":
			case !fileName.MatchString(name):
				add(p+".identifier", false, "%q ends in %q, which cannot name the file a local card is published at (/%s<name>.json): end it in letters, digits, \".\", \"_\" or \"-\"", s.Identifier, name, CardDir)
			case seen:
				add(p+".identifier", false, "%q ends in %q as servers[%d]'s does: a local card is published at /%s%s.json, so each needs its own last segment", s.Identifier, name, j, CardDir, name)
			default:
				files[strings.ToLower(name)] = i
			}
		}
		if strings.TrimSpace(s.Name) == "" {
			add(p+".name", false, "a name for people is required")
		}
		if s.URL != "" {
			checkURL(add, p+".url", s.URL)
		}
		if s.Card != "" {
			if msg := localPath(s.Card); msg != "" {
				add(p+".card", false, "%q %s", s.Card, msg)
			}
		}
	}
	if m.LegacyPaths && cards != 1 {
		add("legacy_paths", false, "the earlier paths hold one server card, and %d servers give a card: give one, or leave legacy_paths out", cards)
	}
	return fs
}

// checkIdentifier checks an entry's identifier: an AI Catalog URN
// (urn:air:{publisher}:{namespace}:{name}, the namespace optional), each
// once.
func checkIdentifier(add func(string, bool, string, ...any), p, id string, seen map[string]int, i int) {
	if id == "" {
		add(p, false, "an identifier is required (urn:air:{publisher}:{namespace}:{name})")
		return
	}
	if j, ok := seen[id]; ok {
		add(p, false, "%q is servers[%d]'s identifier already: each server has its own", id, j)
		return
	}
	seen[id] = i
	if len(id) < 8 || !strings.EqualFold(id[:8], "urn:air:") {
		add(p, true, "%q is not an AI Catalog URN (urn:air:{publisher}:{namespace}:{name}, such as urn:air:www.fict.org:mcp:search): clients may not take it as the server's identifier", id)
		return
	}
	parts := strings.Split(id, ":")
	bad := len(parts) != 4 && len(parts) != 5 || strings.ContainsAny(id, " \t\r\n/?#")
	for _, s := range parts {
		bad = bad || s == ""
	}
	if bad {
		add(p, false, "%q is not urn:air:{publisher}:{namespace}:{name} (the namespace may be left out): each segment given, no spaces, \"/\", \"?\" or \"#\"", id)
	}
}

// checkURL checks the URL of a card served elsewhere: absolute https (http
// a warning, as the draft allows it for local development), no user name
// or fragment.
func checkURL(add func(string, bool, string, ...any), p, s string) {
	u, err := url.Parse(s)
	switch {
	case err != nil || !u.IsAbs() || u.Host == "" || u.Opaque != "":
		add(p, false, "%q is not an absolute URL: a client fetches the card from the catalogue's entry as it is (https://...)", s)
	case u.User != nil:
		add(p, false, "%q holds a user name or password; give the URL without them", s)
	case u.Scheme == "http":
		add(p, true, "%q is plain http: the draft allows http for local development only; give the card's https URL", s)
	case u.Scheme != "https":
		add(p, false, "%q must be an https URL", s)
	case u.Fragment != "" || strings.Contains(s, "#"):
		add(p, false, "%q has a fragment (#...), which is never sent to the server", s)
	}
}

// localPath returns why p is not a path inside the manifest's directory,
// "" when it is (the build reads it confined to that directory).
func localPath(p string) string {
	switch {
	case strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) || len(p) > 1 && p[1] == ':':
		return "is absolute; give a path relative to the manifest"
	case strings.Contains(p, `\`):
		return `holds "\"; separate directories with "/"`
	case p == ".." || strings.HasPrefix(path.Clean(p), "../"):
		return "leaves the manifest's directory; give a path inside it"
	}
	return ""
}

// Render returns the catalogue: each server's entry in manifest order, a
// local card's url the one discgen publishes it at on the site's origin.
func (Kind) Render(site *manifest.Site, _ kit.Build) ([]byte, bool) {
	m := value(site)
	if m == nil {
		return nil, false
	}
	f := File{SpecVersion: SpecVersion, Entries: []Entry{}}
	origin := originOf(site.Site.URL)
	for _, s := range m.Servers {
		u := s.URL
		if s.Card != "" {
			u = origin + "/" + CardDir + slug(s.Identifier) + ".json"
		}
		f.Entries = append(f.Entries, Entry{Identifier: s.Identifier, Type: CardType, URL: u})
	}
	return kit.MarshalFile(f), true
}

// originOf is scheme://host of the site's URL.
func originOf(site string) string {
	u, err := url.Parse(site)
	if err != nil || u.Host == "" {
		return ""
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host)
}

// CheckCatalog checks a hand-written catalogue by shape: specVersion and
// entries, each entry an identifier, the server card type and a url.
func CheckCatalog(data []byte) []kit.JSONProblem {
	c, v, bad := kit.ParseJSON(data)
	if bad != nil {
		return bad
	}
	m, ok := v.(map[string]any)
	if !ok {
		c.Add("", false, "the file must be a catalogue, a JSON object {\"specVersion\": %q, \"entries\": [...]}, not %s", SpecVersion, kit.JSONKind(v))
		return c.Problems
	}
	switch sv, ok := m["specVersion"]; {
	case !ok:
		c.Add("", false, "specVersion is missing: the version of the catalogue's format (%q)", SpecVersion)
	case sv != SpecVersion:
		if _, isString := sv.(string); !isString {
			c.Add("/specVersion", false, "specVersion must be a string, not %s", kit.JSONKind(sv))
		} else {
			c.Add("/specVersion", true, "specVersion %s is not %q, the version discgen follows", kit.JSONText(sv), SpecVersion)
		}
	}
	entries, ok := m["entries"]
	if !ok {
		c.Add("", false, "entries is missing: a list of the servers' entries (it may be empty)")
		return c.Sorted()
	}
	list, ok := entries.([]any)
	if !ok {
		c.Add("/entries", false, "entries must be a list, not %s", kit.JSONKind(entries))
		return c.Sorted()
	}
	ids := map[string]int{}
	for i, e := range list {
		p := fmt.Sprintf("/entries/%d", i)
		o, ok := c.Object(p, e)
		if !ok {
			continue
		}
		for _, k := range []string{"identifier", "type", "url"} {
			if _, ok := o[k]; !ok {
				c.Add(p, false, "%s is missing: %s", k, map[string]string{
					"identifier": "the server's discovery identifier (urn:air:...)",
					"type":       "the server card type, " + CardType,
					"url":        "where the client fetches the server card",
				}[k])
			}
		}
		if id, ok := o["identifier"]; ok {
			if s, isString := id.(string); !isString || s == "" {
				c.Add(p+"/identifier", false, "identifier must be a string that is not empty, not %s", kit.JSONText(id))
			} else if j, dup := ids[s]; dup {
				c.Add(p+"/identifier", false, "%s is the identifier of entry %d already", kit.JSONText(s), j)
			} else {
				ids[s] = i
			}
		}
		if t, ok := o["type"]; ok && t != CardType {
			c.Add(p+"/type", false, "%s is not the server card type: %s", kit.JSONText(t), CardType)
		}
		if u, ok := o["url"]; ok {
			s, isString := u.(string)
			if !isString {
				c.Add(p+"/url", false, "url must be a string, not %s", kit.JSONKind(u))
				continue
			}
			checkURL(func(_ string, warn bool, format string, args ...any) { c.Add(p+"/url", warn, format, args...) }, "", s)
		}
	}
	return c.Sorted()
}
