package kit

import "strings"

// ValidLanguageTag reports whether tag is well-formed according to the
// ABNF of RFC 5646 section 2.1: a langtag, a private-use tag ("x-..."), or
// one of the grandfathered tags. Case is ignored, as in RFC 5646. It checks
// syntax only, not the IANA Language Subtag Registry, and leaves out the
// section 2.2.5 and 2.2.6 rules against repeated variants and singletons.
func ValidLanguageTag(tag string) bool {
	t := strings.ToLower(tag)
	if grandfathered[t] {
		return true
	}
	sub := strings.Split(t, "-")
	for _, s := range sub {
		if s == "" || len(s) > 8 || !isAlnum(s) {
			return false
		}
	}
	if sub[0] == "x" {
		return validPrivateUse(sub)
	}

	// language = 2*3ALPHA ["-" extlang] / 4ALPHA / 5*8ALPHA
	i := 0
	lang := sub[i]
	if !isAlpha(lang) || len(lang) < 2 {
		return false
	}
	i++
	if len(lang) <= 3 {
		// extlang = 3ALPHA *2("-" 3ALPHA)
		for n := 0; n < 3 && i < len(sub) && len(sub[i]) == 3 && isAlpha(sub[i]); n++ {
			i++
		}
	}
	// script = 4ALPHA
	if i < len(sub) && len(sub[i]) == 4 && isAlpha(sub[i]) {
		i++
	}
	// region = 2ALPHA / 3DIGIT
	if i < len(sub) && (len(sub[i]) == 2 && isAlpha(sub[i]) || len(sub[i]) == 3 && IsDigits(sub[i])) {
		i++
	}
	// variant = 5*8alphanum / (DIGIT 3alphanum)
	for i < len(sub) && (len(sub[i]) >= 5 || len(sub[i]) == 4 && IsDigits(sub[i][:1])) {
		i++
	}
	// extension = singleton 1*("-" (2*8alphanum))
	for i < len(sub) && len(sub[i]) == 1 && sub[i] != "x" {
		i++
		n := 0
		for i < len(sub) && len(sub[i]) >= 2 {
			i++
			n++
		}
		if n == 0 {
			return false
		}
	}
	// ["-" privateuse]
	if i < len(sub) && sub[i] == "x" {
		return validPrivateUse(sub[i:])
	}
	return i == len(sub)
}

// validPrivateUse checks privateuse = "x" 1*("-" (1*8alphanum)) for
// subtags already known to be 1 to 8 alphanumerics.
func validPrivateUse(sub []string) bool {
	return len(sub) >= 2 && sub[0] == "x"
}

func isAlpha(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

// IsDigits reports whether s holds ASCII digits only (true for "").
func IsDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// grandfathered lists the irregular and regular grandfathered tags of
// RFC 5646 section 2.1, lower-cased.
var grandfathered = map[string]bool{
	// irregular
	"en-gb-oed": true, "i-ami": true, "i-bnn": true, "i-default": true,
	"i-enochian": true, "i-hak": true, "i-klingon": true, "i-lux": true,
	"i-mingo": true, "i-navajo": true, "i-pwn": true, "i-tao": true,
	"i-tay": true, "i-tsu": true, "sgn-be-fr": true, "sgn-be-nl": true,
	"sgn-ch-de": true,
	// regular
	"art-lojban": true, "cel-gaulish": true, "no-bok": true, "no-nyn": true,
	"zh-guoyu": true, "zh-hakka": true, "zh-min": true, "zh-min-nan": true,
	"zh-xiang": true,
}
