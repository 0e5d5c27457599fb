package securitytxt

import (
	"fmt"
	"strings"
	"time"

	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/manifest"
)

// Value is the manifest's well_known.security_txt (RFC 9116): the
// fields of the file and the key that signs it. A list import writes as
// one string when it has one entry is tagged manifest:"lines".
type Value struct {
	_                  struct{}       `manifest:"block"`
	Contact            manifest.Lines `json:"contact,omitempty"`
	Expires            string         `json:"expires,omitempty"`
	Encryption         manifest.Lines `json:"encryption,omitempty" manifest:"lines"`
	Acknowledgments    manifest.Lines `json:"acknowledgments,omitempty" manifest:"lines"`
	PreferredLanguages []string       `json:"preferred_languages,omitempty"`
	Canonical          manifest.Lines `json:"canonical,omitempty" manifest:"lines"`
	Policy             manifest.Lines `json:"policy,omitempty" manifest:"lines"`
	Hiring             manifest.Lines `json:"hiring,omitempty" manifest:"lines"`
	CSAF               manifest.Lines `json:"csaf,omitempty" manifest:"lines"`
	BugBounty          *bool          `json:"bug_bounty,omitempty"` // Bug-Bounty: True or False (IANA registry)
	Sign               *manifest.Sign `json:"sign,omitempty"`
}

// Kind is security.txt.
type Kind struct{}

func value(site *manifest.Site) *Value { return kit.Value[Value](site, Kind{}.Key()) }

// NewValue returns a new empty well_known.security_txt (kit.Owner).
func (Kind) NewValue() any { return new(Value) }

func (Kind) Name() string                   { return "security.txt" }
func (Kind) Key() string                    { return "well_known.security_txt" }
func (Kind) Path() string                   { return ".well-known/security.txt" }
func (Kind) MediaType() string              { return "text/plain; charset=utf-8" }
func (Kind) Given(site *manifest.Site) bool { return value(site) != nil }

// Check checks the fields against the build's time (CheckFile).
func (Kind) Check(site *manifest.Site, b kit.Build) []kit.Finding {
	if s := value(site); s != nil {
		return CheckFile(Model(s), b.Now)
	}
	return nil
}

// Render renders the file, unsigned, at the build's time; its Canonical
// defaults to the site's URL (RenderFile, DefaultCanonical).
func (Kind) Render(site *manifest.Site, b kit.Build) ([]byte, bool) {
	s := value(site)
	if s == nil {
		return nil, false
	}
	data, err := RenderFile(Model(s), b.Now, DefaultCanonical(site.Site.URL))
	if err != nil {
		return nil, false // unreachable for a value Check passed
	}
	return data, true
}

// Signing returns the manifest's sign block, nil for an unsigned file.
func (Kind) Signing(site *manifest.Site) *manifest.Sign {
	if s := value(site); s != nil {
		return s.Sign
	}
	return nil
}

// Model converts the manifest block to the model.
func Model(s *Value) File {
	return File{
		Contact:            s.Contact,
		Expires:            s.Expires,
		Encryption:         s.Encryption,
		Acknowledgments:    s.Acknowledgments,
		PreferredLanguages: s.PreferredLanguages,
		Canonical:          s.Canonical,
		Policy:             s.Policy,
		Hiring:             s.Hiring,
		CSAF:               s.CSAF,
		BugBounty:          s.BugBounty,
	}
}

// CheckDeployed checks a deployed security.txt beyond its bytes: served
// over https (RFC 9116 section 3; a note for a staging URL), and an
// Expires that is an RFC 3339 time not passed at now (section 2.5.5).
func (Kind) CheckDeployed(scheme string, body []byte, now time.Time) []kit.Deployed {
	var out []kit.Deployed
	if scheme != "https" {
		out = append(out, kit.Deployed{
			Message:     fmt.Sprintf("served over %s; RFC 9116 section 3 requires https", scheme),
			StagingNote: "served over " + scheme + "; RFC 9116 asks for https on the site itself",
		})
	}
	for _, line := range strings.Split(string(body), "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok || !strings.EqualFold(k, "Expires") {
			continue
		}
		t, err := time.Parse(time.RFC3339, strings.TrimSpace(v))
		switch {
		case err != nil:
			out = append(out, kit.Deployed{Message: fmt.Sprintf("Expires %q is not an RFC 3339 time", strings.TrimSpace(v))})
		case !now.IsZero() && !t.After(now):
			out = append(out, kit.Deployed{Message: "expired on " + t.UTC().Format(time.RFC3339)})
		}
		return out
	}
	return append(out, kit.Deployed{Message: "has no Expires field"})
}
