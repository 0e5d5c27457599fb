// Package applinks is the kind of the app association files. Both must
// be served as application/json, over HTTPS and without a redirect: iOS
// and Android fetch them without following one.
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
//
// The manifest's well_known.app_links names each file, a JSON file
// relative to the manifest that discgen copies byte for byte once it
// passes its check (CheckApple, CheckAssetLinks); Apple and Android are
// the two kinds (kind.go).
package applinks

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/discgen/discgen/internal/lazyre"
	"github.com/discgen/discgen/kinds/kit"
)

// MaxAppleBytes is Apple's limit on the file, uncompressed.
const MaxAppleBytes = 128 << 10

var (
	appleAppID  = lazyre.New(`^[A-Z0-9]{10}\.[A-Za-z0-9][A-Za-z0-9.-]*$`)
	javaPackage = lazyre.New(`^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$`)
	fingerprint = lazyre.New(`^[0-9A-F]{2}(:[0-9A-F]{2}){31}$`)
	relation    = lazyre.New(`^[a-z_]+/[A-Za-z0-9_.]+$`)
)

// jsonChecker is kit's JSON checker with the checks of the app
// association files as methods.
type jsonChecker struct{ *kit.JSONChecker }

// parseJSON reads data with kit.ParseJSON.
func parseJSON(data []byte) (*jsonChecker, any, []kit.JSONProblem) {
	c, v, bad := kit.ParseJSON(data)
	if bad != nil {
		return nil, nil, bad
	}
	return &jsonChecker{c}, v, nil
}

// CheckApple checks an apple-app-site-association file and
// returns its problems in document order; those whose Message starts with
// "warning: " do not stop a build.
func CheckApple(data []byte) []kit.JSONProblem {
	c, v, bad := parseJSON(data)
	if bad != nil {
		return bad
	}
	if len(data) > MaxAppleBytes {
		c.Add("", false, "the file is %d bytes; Apple reads at most %d (128 KB)", len(data), MaxAppleBytes)
	}
	top, ok := v.(map[string]any)
	if !ok {
		c.Add("", false, "the file must be a JSON object with applinks, webcredentials or appclips, not %s", kit.JSONKind(v))
		return c.Problems
	}
	known := 0
	for _, k := range sortedKeys(top) {
		p := "/" + kit.EscapePointer(k)
		switch k {
		case "applinks":
			known++
			c.appleAppLinks(p, top[k])
		case "webcredentials", "appclips", "activitycontinuation":
			known++
			c.appleApps(p, top[k])
		default:
			c.Add(p, true, "%q is not a service of associated domains (applinks, webcredentials, appclips, activitycontinuation)", k)
		}
	}
	if known == 0 {
		c.Add("", false, "no service: give applinks, webcredentials or appclips")
	}
	return c.Sorted()
}

func (c *jsonChecker) appleAppLinks(p string, v any) {
	m, ok := c.Object(p, v)
	if !ok {
		return
	}
	if apps, ok := m["apps"]; ok {
		if a, ok := apps.([]any); !ok {
			c.Add(p+"/apps", false, "apps must be a list (an empty one, [], in applinks), not %s", kit.JSONKind(apps))
		} else if len(a) > 0 {
			c.Add(p+"/apps", true, "apps in applinks should be empty ([]); the apps are named in details")
		}
	}
	for _, k := range sortedKeys(m) {
		switch k {
		case "apps", "details", "defaults", "substitutionVariables":
		default:
			c.Add(p+"/"+kit.EscapePointer(k), true, "%q is not a key of applinks (apps, details, defaults, substitutionVariables)", k)
		}
	}
	details, ok := m["details"]
	if !ok {
		c.Add(p, false, "applinks needs details: the apps and the paths they open")
		return
	}
	list, ok := details.([]any)
	if !ok {
		c.Add(p+"/details", false, "details must be a list of objects, not %s", kit.JSONKind(details))
		return
	}
	for i, d := range list {
		dp := fmt.Sprintf("%s/details/%d", p, i)
		dm, ok := c.Object(dp, d)
		if !ok {
			continue
		}
		id, hasID := dm["appID"]
		ids, hasIDs := dm["appIDs"]
		switch {
		case hasID && hasIDs:
			c.Add(dp, false, "give appID or appIDs, not both")
		case hasID:
			c.appID(dp+"/appID", id)
		case hasIDs:
			c.appIDs(dp+"/appIDs", ids)
		default:
			c.Add(dp, false, "a detail needs appIDs (or appID): the apps the paths open")
		}
		paths, hasPaths := dm["paths"]
		comps, hasComps := dm["components"]
		if !hasPaths && !hasComps {
			c.Add(dp, false, "a detail needs components (or paths): the URLs the apps open")
		}
		if hasPaths {
			c.Strings(dp+"/paths", paths, "paths")
		}
		if hasComps {
			c.components(dp+"/components", comps)
		}
	}
}

func (c *jsonChecker) components(p string, v any) {
	list, ok := v.([]any)
	if !ok {
		c.Add(p, false, "components must be a list of objects, not %s", kit.JSONKind(v))
		return
	}
	for i, e := range list {
		ep := fmt.Sprintf("%s/%d", p, i)
		m, ok := c.Object(ep, e)
		if !ok {
			continue
		}
		for _, k := range sortedKeys(m) {
			kp := ep + "/" + kit.EscapePointer(k)
			switch k {
			case "/", "#", "comment":
				if _, ok := m[k].(string); !ok {
					c.Add(kp, false, "%q must be a string, not %s", k, kit.JSONKind(m[k]))
				}
			case "?":
				switch m[k].(type) {
				case string, map[string]any:
				default:
					c.Add(kp, false, "\"?\" must be a string or an object, not %s", kit.JSONKind(m[k]))
				}
			case "exclude", "caseSensitive", "percentEncoded":
				if _, ok := m[k].(bool); !ok {
					c.Add(kp, false, "%q must be true or false, not %s", k, kit.JSONKind(m[k]))
				}
			default:
				c.Add(kp, true, "%q is not a key of a component (/, ?, #, exclude, comment, caseSensitive, percentEncoded)", k)
			}
		}
	}
}

// appleApps checks webcredentials, appclips or activitycontinuation:
// {"apps": [app IDs]}.
func (c *jsonChecker) appleApps(p string, v any) {
	m, ok := c.Object(p, v)
	if !ok {
		return
	}
	apps, ok := m["apps"]
	if !ok {
		c.Add(p, false, "needs apps: the app IDs (TEAMID.bundle.id)")
		return
	}
	c.appIDs(p+"/apps", apps)
}

func (c *jsonChecker) appIDs(p string, v any) {
	list, ok := v.([]any)
	if !ok {
		c.Add(p, false, "must be a list of app IDs, not %s", kit.JSONKind(v))
		return
	}
	if len(list) == 0 {
		c.Add(p, false, "names no app")
	}
	for i, e := range list {
		c.appID(fmt.Sprintf("%s/%d", p, i), e)
	}
}

func (c *jsonChecker) appID(p string, v any) {
	s, ok := v.(string)
	if !ok {
		c.Add(p, false, "an app ID must be a string, not %s", kit.JSONKind(v))
		return
	}
	if !appleAppID.MatchString(s) {
		c.Add(p, false, "%q is not an app ID: the Team ID (10 capital letters or digits), \".\", the bundle ID (ABCDE12345.com.example.app)", s)
	}
}

// CheckAssetLinks checks a Digital Asset Links statement list
// (assetlinks.json) and returns its problems in document order.
func CheckAssetLinks(data []byte) []kit.JSONProblem {
	c, v, bad := parseJSON(data)
	if bad != nil {
		return bad
	}
	list, ok := v.([]any)
	if !ok {
		c.Add("", false, "the file must be a JSON list of statements, not %s (wrap a single statement in [ ])", kit.JSONKind(v))
		return c.Problems
	}
	if len(list) == 0 {
		c.Add("", true, "the list holds no statement")
	}
	for i, st := range list {
		sp := fmt.Sprintf("/%d", i)
		m, ok := c.Object(sp, st)
		if !ok {
			continue
		}
		rel, ok := m["relation"]
		if !ok {
			c.Add(sp, false, "a statement needs relation, such as [\"delegate_permission/common.handle_all_urls\"]")
		} else if rl, ok := rel.([]any); !ok || len(rl) == 0 {
			c.Add(sp+"/relation", false, "relation must be a non-empty list of strings, not %s", kit.JSONKind(rel))
		} else {
			for j, r := range rl {
				if s, ok := r.(string); !ok || !relation.MatchString(s) {
					c.Add(fmt.Sprintf("%s/relation/%d", sp, j), false, "%s is not a relation (kind/detail, such as delegate_permission/common.handle_all_urls)", kit.JSONText(r))
				}
			}
		}
		t, ok := m["target"]
		if !ok {
			c.Add(sp, false, "a statement needs target")
			continue
		}
		c.target(sp+"/target", t)
	}
	return c.Sorted()
}

func (c *jsonChecker) target(p string, v any) {
	m, ok := c.Object(p, v)
	if !ok {
		return
	}
	ns, _ := m["namespace"].(string)
	switch ns {
	case "android_app":
		pkg, ok := m["package_name"]
		if !ok {
			c.Add(p, false, "an android_app target needs package_name")
		} else if s, ok := pkg.(string); !ok || !javaPackage.MatchString(s) {
			c.Add(p+"/package_name", false, "%s is not an application ID (com.example.app)", kit.JSONText(pkg))
		}
		fps, ok := m["sha256_cert_fingerprints"]
		if !ok {
			c.Add(p, false, "an android_app target needs sha256_cert_fingerprints: the SHA-256 fingerprints of the app's signing certificates")
			return
		}
		list, ok := fps.([]any)
		if !ok || len(list) == 0 {
			c.Add(p+"/sha256_cert_fingerprints", false, "sha256_cert_fingerprints must be a non-empty list of fingerprints, not %s", kit.JSONText(fps))
			return
		}
		for i, f := range list {
			if s, ok := f.(string); !ok || !fingerprint.MatchString(s) {
				c.Add(fmt.Sprintf("%s/sha256_cert_fingerprints/%d", p, i), false, "%s is not a SHA-256 fingerprint: 32 bytes as upper-case hexadecimal pairs joined by \":\" (14:6D:E9:...:B5), as keytool -list prints it", kit.JSONText(f))
			}
		}
	case "web":
		site, ok := m["site"]
		s, isString := site.(string)
		u, err := url.Parse(s)
		switch {
		case !ok:
			c.Add(p, false, "a web target needs site")
		case !isString || err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || strings.Trim(u.Path, "/") != "":
			c.Add(p+"/site", false, "%s is not a site: an origin such as https://www.example.com", kit.JSONText(site))
		}
	default:
		at := p
		if _, ok := m["namespace"]; ok {
			at = p + "/namespace"
		}
		c.Add(at, false, "namespace must be android_app or web, not %s", kit.JSONText(m["namespace"]))
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
