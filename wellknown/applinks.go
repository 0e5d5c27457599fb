package wellknown

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/lazyre"
)

// App association files. Both must be served as application/json, over
// HTTPS and without a redirect: iOS and Android fetch them without
// following one.
//
//   - Apple: "Supporting associated domains" (Apple Developer
//     documentation, https://developer.apple.com/documentation/xcode/supporting-associated-domains):
//     /.well-known/apple-app-site-association, no extension, a JSON object
//     with applinks, webcredentials or appclips (activitycontinuation for
//     Handoff); applinks.details lists objects with appID or appIDs (a
//     Team ID of 10 characters, ".", a bundle ID) and paths (strings) or
//     components (objects with "/", "?", "#", exclude, comment,
//     caseSensitive, percentEncoded); the file is at most 128 KB.
//   - Android: Digital Asset Links ("Statement List Syntax",
//     https://developers.google.com/digital-asset-links/v1/getting-started,
//     and "Verify Android App Links"): /.well-known/assetlinks.json, a JSON
//     list of statements {relation: [...], target: {...}}; a target of
//     namespace android_app names package_name and sha256_cert_fingerprints
//     (32 bytes as upper-case hexadecimal pairs joined by ":"), one of
//     namespace web names site.
const (
	AppleAppSiteAssociationPath = "/.well-known/apple-app-site-association"
	AssetLinksPath              = "/.well-known/assetlinks.json"
	// MaxAppleAssociationBytes is Apple's limit on the file, uncompressed.
	MaxAppleAssociationBytes = 128 << 10
)

var (
	appleAppID  = lazyre.New(`^[A-Z0-9]{10}\.[A-Za-z0-9][A-Za-z0-9.-]*$`)
	javaPackage = lazyre.New(`^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$`)
	fingerprint = lazyre.New(`^[0-9A-F]{2}(:[0-9A-F]{2}){31}$`)
	relation    = lazyre.New(`^[a-z_]+/[A-Za-z0-9_.]+$`)
)

// jsonChecker collects the problems of a JSON document at the positions
// of its values.
type jsonChecker struct {
	pos      *jsonPositions
	problems []JSONProblem
}

func (c *jsonChecker) add(ptr string, warn bool, format string, args ...any) {
	off := c.pos.offsetOf(ptr)
	line, col := c.pos.lineCol(off)
	msg := fmt.Sprintf(format, args...)
	if warn {
		msg = "warning: " + msg
	}
	c.problems = append(c.problems, JSONProblem{Offset: off, Line: line, Col: col, Pointer: ptr, Message: msg})
}

// parseJSON reads data as one JSON value and records its positions; a
// document that does not parse is one problem at the offset where it
// fails.
func parseJSON(data []byte) (*jsonChecker, any, []JSONProblem) {
	pos, err := positionsOf(data)
	if err != nil {
		var se *jsonSyntaxError
		if !errors.As(err, &se) {
			return nil, nil, []JSONProblem{{Line: 1, Col: 1, Message: err.Error()}}
		}
		at := diag.At("", data, se.Offset)
		return nil, nil, []JSONProblem{{Offset: min(se.Offset, len(data)), Line: at.Line, Col: at.Col, Message: "not JSON: " + se.Msg}}
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, nil, []JSONProblem{{Line: 1, Col: 1, Message: "not JSON: " + err.Error()}}
	}
	return &jsonChecker{pos: pos}, v, nil
}

// IsWarning reports a problem that does not stop a build.
func (p JSONProblem) IsWarning() bool { return strings.HasPrefix(p.Message, "warning: ") }

// CheckAppleAssociation checks an apple-app-site-association file and
// returns its problems in document order; those whose Message starts with
// "warning: " do not stop a build.
func CheckAppleAssociation(data []byte) []JSONProblem {
	c, v, bad := parseJSON(data)
	if bad != nil {
		return bad
	}
	if len(data) > MaxAppleAssociationBytes {
		c.add("", false, "the file is %d bytes; Apple reads at most %d (128 KB)", len(data), MaxAppleAssociationBytes)
	}
	top, ok := v.(map[string]any)
	if !ok {
		c.add("", false, "the file must be a JSON object with applinks, webcredentials or appclips, not %s", jsonKind(v))
		return c.problems
	}
	known := 0
	for _, k := range sortedKeys(top) {
		p := "/" + escapePointer(k)
		switch k {
		case "applinks":
			known++
			c.appleAppLinks(p, top[k])
		case "webcredentials", "appclips", "activitycontinuation":
			known++
			c.appleApps(p, top[k])
		default:
			c.add(p, true, "%q is not a service of associated domains (applinks, webcredentials, appclips, activitycontinuation)", k)
		}
	}
	if known == 0 {
		c.add("", false, "no service: give applinks, webcredentials or appclips")
	}
	return c.sorted()
}

func (c *jsonChecker) appleAppLinks(p string, v any) {
	m, ok := c.object(p, v)
	if !ok {
		return
	}
	if apps, ok := m["apps"]; ok {
		if a, ok := apps.([]any); !ok {
			c.add(p+"/apps", false, "apps must be a list (an empty one, [], in applinks), not %s", jsonKind(apps))
		} else if len(a) > 0 {
			c.add(p+"/apps", true, "apps in applinks should be empty ([]); the apps are named in details")
		}
	}
	for _, k := range sortedKeys(m) {
		switch k {
		case "apps", "details", "defaults", "substitutionVariables":
		default:
			c.add(p+"/"+escapePointer(k), true, "%q is not a key of applinks (apps, details, defaults, substitutionVariables)", k)
		}
	}
	details, ok := m["details"]
	if !ok {
		c.add(p, false, "applinks needs details: the apps and the paths they open")
		return
	}
	list, ok := details.([]any)
	if !ok {
		c.add(p+"/details", false, "details must be a list of objects, not %s", jsonKind(details))
		return
	}
	for i, d := range list {
		dp := fmt.Sprintf("%s/details/%d", p, i)
		dm, ok := c.object(dp, d)
		if !ok {
			continue
		}
		id, hasID := dm["appID"]
		ids, hasIDs := dm["appIDs"]
		switch {
		case hasID && hasIDs:
			c.add(dp, false, "give appID or appIDs, not both")
		case hasID:
			c.appID(dp+"/appID", id)
		case hasIDs:
			c.appIDs(dp+"/appIDs", ids)
		default:
			c.add(dp, false, "a detail needs appIDs (or appID): the apps the paths open")
		}
		paths, hasPaths := dm["paths"]
		comps, hasComps := dm["components"]
		if !hasPaths && !hasComps {
			c.add(dp, false, "a detail needs components (or paths): the URLs the apps open")
		}
		if hasPaths {
			c.strings(dp+"/paths", paths, "paths")
		}
		if hasComps {
			c.components(dp+"/components", comps)
		}
	}
}

func (c *jsonChecker) components(p string, v any) {
	list, ok := v.([]any)
	if !ok {
		c.add(p, false, "components must be a list of objects, not %s", jsonKind(v))
		return
	}
	for i, e := range list {
		ep := fmt.Sprintf("%s/%d", p, i)
		m, ok := c.object(ep, e)
		if !ok {
			continue
		}
		for _, k := range sortedKeys(m) {
			kp := ep + "/" + escapePointer(k)
			switch k {
			case "/", "#", "comment":
				if _, ok := m[k].(string); !ok {
					c.add(kp, false, "%q must be a string, not %s", k, jsonKind(m[k]))
				}
			case "?":
				switch m[k].(type) {
				case string, map[string]any:
				default:
					c.add(kp, false, "\"?\" must be a string or an object, not %s", jsonKind(m[k]))
				}
			case "exclude", "caseSensitive", "percentEncoded":
				if _, ok := m[k].(bool); !ok {
					c.add(kp, false, "%q must be true or false, not %s", k, jsonKind(m[k]))
				}
			default:
				c.add(kp, true, "%q is not a key of a component (/, ?, #, exclude, comment, caseSensitive, percentEncoded)", k)
			}
		}
	}
}

// appleApps checks webcredentials, appclips or activitycontinuation:
// {"apps": [app IDs]}.
func (c *jsonChecker) appleApps(p string, v any) {
	m, ok := c.object(p, v)
	if !ok {
		return
	}
	apps, ok := m["apps"]
	if !ok {
		c.add(p, false, "needs apps: the app IDs (TEAMID.bundle.id)")
		return
	}
	c.appIDs(p+"/apps", apps)
}

func (c *jsonChecker) appIDs(p string, v any) {
	list, ok := v.([]any)
	if !ok {
		c.add(p, false, "must be a list of app IDs, not %s", jsonKind(v))
		return
	}
	if len(list) == 0 {
		c.add(p, false, "names no app")
	}
	for i, e := range list {
		c.appID(fmt.Sprintf("%s/%d", p, i), e)
	}
}

func (c *jsonChecker) appID(p string, v any) {
	s, ok := v.(string)
	if !ok {
		c.add(p, false, "an app ID must be a string, not %s", jsonKind(v))
		return
	}
	if !appleAppID.MatchString(s) {
		c.add(p, false, "%q is not an app ID: the Team ID (10 capital letters or digits), \".\", the bundle ID (ABCDE12345.com.example.app)", s)
	}
}

// CheckAssetLinks checks a Digital Asset Links statement list
// (assetlinks.json) and returns its problems in document order.
func CheckAssetLinks(data []byte) []JSONProblem {
	c, v, bad := parseJSON(data)
	if bad != nil {
		return bad
	}
	list, ok := v.([]any)
	if !ok {
		c.add("", false, "the file must be a JSON list of statements, not %s (wrap a single statement in [ ])", jsonKind(v))
		return c.problems
	}
	if len(list) == 0 {
		c.add("", true, "the list holds no statement")
	}
	for i, st := range list {
		sp := fmt.Sprintf("/%d", i)
		m, ok := c.object(sp, st)
		if !ok {
			continue
		}
		rel, ok := m["relation"]
		if !ok {
			c.add(sp, false, "a statement needs relation, such as [\"delegate_permission/common.handle_all_urls\"]")
		} else if rl, ok := rel.([]any); !ok || len(rl) == 0 {
			c.add(sp+"/relation", false, "relation must be a non-empty list of strings, not %s", jsonKind(rel))
		} else {
			for j, r := range rl {
				if s, ok := r.(string); !ok || !relation.MatchString(s) {
					c.add(fmt.Sprintf("%s/relation/%d", sp, j), false, "%s is not a relation (kind/detail, such as delegate_permission/common.handle_all_urls)", jsonText(r))
				}
			}
		}
		t, ok := m["target"]
		if !ok {
			c.add(sp, false, "a statement needs target")
			continue
		}
		c.target(sp+"/target", t)
	}
	return c.sorted()
}

func (c *jsonChecker) target(p string, v any) {
	m, ok := c.object(p, v)
	if !ok {
		return
	}
	ns, _ := m["namespace"].(string)
	switch ns {
	case "android_app":
		pkg, ok := m["package_name"]
		if !ok {
			c.add(p, false, "an android_app target needs package_name")
		} else if s, ok := pkg.(string); !ok || !javaPackage.MatchString(s) {
			c.add(p+"/package_name", false, "%s is not an application ID (com.example.app)", jsonText(pkg))
		}
		fps, ok := m["sha256_cert_fingerprints"]
		if !ok {
			c.add(p, false, "an android_app target needs sha256_cert_fingerprints: the SHA-256 fingerprints of the app's signing certificates")
			return
		}
		list, ok := fps.([]any)
		if !ok || len(list) == 0 {
			c.add(p+"/sha256_cert_fingerprints", false, "sha256_cert_fingerprints must be a non-empty list of fingerprints, not %s", jsonText(fps))
			return
		}
		for i, f := range list {
			if s, ok := f.(string); !ok || !fingerprint.MatchString(s) {
				c.add(fmt.Sprintf("%s/sha256_cert_fingerprints/%d", p, i), false, "%s is not a SHA-256 fingerprint: 32 bytes as upper-case hexadecimal pairs joined by \":\" (14:6D:E9:...:B5), as keytool -list prints it", jsonText(f))
			}
		}
	case "web":
		site, ok := m["site"]
		s, isString := site.(string)
		u, err := url.Parse(s)
		switch {
		case !ok:
			c.add(p, false, "a web target needs site")
		case !isString || err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || strings.Trim(u.Path, "/") != "":
			c.add(p+"/site", false, "%s is not a site: an origin such as https://www.example.com", jsonText(site))
		}
	default:
		at := p
		if _, ok := m["namespace"]; ok {
			at = p + "/namespace"
		}
		c.add(at, false, "namespace must be android_app or web, not %s", jsonText(m["namespace"]))
	}
}

func (c *jsonChecker) object(p string, v any) (map[string]any, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		c.add(p, false, "must be an object, not %s", jsonKind(v))
	}
	return m, ok
}

func (c *jsonChecker) strings(p string, v any, what string) {
	list, ok := v.([]any)
	if !ok {
		c.add(p, false, "%s must be a list of strings, not %s", what, jsonKind(v))
		return
	}
	for i, e := range list {
		if _, ok := e.(string); !ok {
			c.add(fmt.Sprintf("%s/%d", p, i), false, "must be a string, not %s", jsonKind(e))
		}
	}
}

// sorted returns the problems in document order, then by message.
func (c *jsonChecker) sorted() []JSONProblem {
	slices.SortStableFunc(c.problems, func(a, b JSONProblem) int {
		if a.Offset != b.Offset {
			return a.Offset - b.Offset
		}
		return strings.Compare(a.Message, b.Message)
	})
	return c.problems
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// jsonKind names the JSON type of v for a message.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// jsonText shows a short value for a message.
func jsonText(v any) string {
	switch x := v.(type) {
	case string:
		if len(x) > 80 {
			x = x[:80] + "..."
		}
		return fmt.Sprintf("%q", x)
	case nil:
		return "null"
	case json.Number:
		return string(x)
	case bool:
		return fmt.Sprint(x)
	}
	return jsonKind(v)
}
