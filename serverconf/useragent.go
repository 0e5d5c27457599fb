package serverconf

import (
	"fmt"
	"slices"
	"strings"
)

// A request claims a crawler when its User-Agent names it by a product, as
// RFC 9110 section 10.1.5 writes the field:
//
//	User-Agent = product *( RWS ( product / comment ) )
//	product    = token [ "/" product-version ]
//	comment    = "(" *( ctext / quoted-pair / comment ) ")"
//
// Outside comments every product claims its name; inside a comment, at
// any depth, the leading product of each ';'-separated item does
// ("(compatible; Googlebot/2.1; +http://www.google.com/bot.html)" claims
// Googlebot). A word inside a URL or in the free text of a comment claims
// nothing ("(compatible; FooBot/1.0; +https://example.com/gptbot)" and
// "(compatible; MyBot/1.0 like Googlebot)" do not claim GPTBot or
// Googlebot), nor does a name inside a longer token ("Googlebot+x/1.0",
// "Googlebot~1", "Baiduspider" for Spider). The reading is lenient where
// crawlers' own strings are not grammatical: outside comments a product
// also starts after any of "(),;" (OpenAI writes "...); compatible;
// OAI-SearchBot/1.0; +https://openai.com/searchbot"); a name counts when
// white space, one of "/;,()" or the end follows it; an unclosed comment
// runs to the end; a quoted pair ("\;") is one character. Names compare
// ASCII case-insensitively (no Kelvin sign for K, no long s for s); a name
// of several words is claimed by as many products in a row, any blanks
// between them.
//
// Several User-Agent fields are read as one, joined with ", " as RFC 9110
// section 5.3 combines field lines: Apache joins them so, as nginx 1.23
// and later do for $http_user_agent; Caddy matches its placeholder
// {http.request.header.User-Agent}, which joins them with ",", and the
// reading makes no difference between the two (a product starts after
// ','). nginx before 1.23 (Debian 12 ships 1.22) reads the first field
// only, so a claim in a second field is not seen there.
//
// The reading is one regular expression, the same text for nginx (PCRE),
// Apache (PCRE, in RewriteCond and <If>) and Caddy (Go's RE2), written
// case-sensitively with both cases of each letter, so no server's
// case-insensitive mode (RE2's folds the Kelvin sign to k) takes part in
// it; the literal each server looks for first (uaPrefilter) is found
// case-insensitively, which can only let more fields reach it.
// Every character of it but letters, digits and the expression's own
// operators is a \xHH escape, so no server's quoting changes it. Each
// alternative starts with a different character, so PCRE's backtracking
// takes time linear in the field for each nesting level. Comments are
// followed uaDepth levels deep; a deeper '(' is read as the start of an
// item, not a new level, so that beyond uaDepth the expression can only
// claim more, never less, than the reading above.

// uaDepth is how deep the matchers follow nested comments.
const uaDepth = 4

// uaRegexp matches a User-Agent value that claims name.
func uaRegexp(name string) string {
	const (
		blank    = `[\x09\x20]`
		outWord  = `[^\x09\x20\x28\x29\x2c\x3b]` // outside comments: not a blank, "(),;"
		outStart = `[\x09\x20\x29\x2c\x3b]`      // what starts a product there, with "("
		pair     = `\x5c.`                       // a quoted pair
		follow   = `(?:[\x09\x20\x28\x29\x2c\x2f\x3b]|\z)`
	)
	// comment[k] is a whole comment at depth k (1 to uaDepth).
	comment := make([]string, uaDepth+2)
	comment[uaDepth] = `\x28(?:[^\x29\x5c]|` + pair + `)*\x29`
	for k := uaDepth - 1; k >= 1; k-- {
		comment[k] = `\x28(?:[^\x28\x29\x5c]|` + pair + `|` + comment[k+1] + `)*\x29`
	}
	// in(k) follows an opening '(' of depth k to the start of an item
	// of that comment or of one nested in it.
	var in func(k int) string
	in = func(k int) string {
		if k == uaDepth {
			return `(?:(?:[^\x28\x29\x5c\x3b]|` + pair + `)*[\x28\x3b])*` + blank + `*`
		}
		items := `(?:(?:[^\x28\x29\x5c\x3b]|` + pair + `|` + comment[k+1] + `)*\x3b)*` + blank + `*`
		nested := `(?:[^\x28\x29\x5c]|` + pair + `|` + comment[k+1] + `)*\x28` + in(k+1)
		return `(?:` + items + `|` + nested + `)`
	}
	out := `(?:` + outWord + `*(?:` + outStart + `|` + comment[1] + `))*`
	return `^` + out + `(?:\x28` + in(1) + `)?` + nameRegexp(name) + follow
}

// nameRegexp is name with each ASCII letter as a class of both cases,
// digits as they are, blanks as a run of blanks and every other byte as
// \xHH.
func nameRegexp(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case 'a' <= c && c <= 'z':
			fmt.Fprintf(&b, "[%c%c]", c, c-'a'+'A')
		case 'A' <= c && c <= 'Z':
			fmt.Fprintf(&b, "[%c%c]", c-'A'+'a', c)
		case '0' <= c && c <= '9':
			b.WriteByte(c)
		case c == ' ' || c == '\t':
			for i+1 < len(name) && (name[i+1] == ' ' || name[i+1] == '\t') {
				i++
			}
			b.WriteString(`[\x09\x20]+`)
		default:
			fmt.Fprintf(&b, `\x%02x`, c)
		}
	}
	return b.String()
}

// uaPrefilter is a literal that every User-Agent claiming name holds, the
// name's longest word (its first 32 bytes), for the servers to find
// case-insensitively before they try uaRegexp: a literal is found
// quickly, while the expression costs about six times as much as the old
// word match on a field (PCRE without JIT, as nginx and Apache compile
// it; 2.5 times in Go's RE2), so the expression runs only where the name
// is found. Letters and digits are written as they are,
// every other byte as \xHH; a case-insensitive match of it can only find
// more than the expression claims (RE2 folds the Kelvin sign to k), never
// less.
func uaPrefilter(name string) string {
	word := ""
	for _, w := range strings.Fields(name) {
		if len(w) > len(word) {
			word = w
		}
	}
	word = word[:min(len(word), 32)] // enough to be rare, and short
	var b strings.Builder
	for i := 0; i < len(word); i++ {
		if c := word[i]; 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, `\x%02x`, c)
		}
	}
	return b.String()
}

// nginxUAIf writes the nginx lines that run then (a directive such as
// "set $x 1;") when the User-Agent claims name; v names the variable that
// holds the field when the prefilter finds the name.
func nginxUAIf(b *strings.Builder, v, name, then string) {
	fmt.Fprintf(b, "set %s \"\";\nif ($http_user_agent ~* \"%s\") { set %s $http_user_agent; }\n", v, uaPrefilter(name), v)
	fmt.Fprintf(b, "if (%s ~ \"%s\") { %s }\n", v, uaRegexp(name), then)
}

// nginxUAMap writes the nginx map blocks that set claims to 1 when the
// User-Agent claims name (v as in nginxUAIf).
func nginxUAMap(b *strings.Builder, v, claims, name string) {
	fmt.Fprintf(b, "map $http_user_agent %s {\n    default \"\";\n    \"~*%s\" $http_user_agent;\n}\n", v, uaPrefilter(name))
	fmt.Fprintf(b, "map %s %s {\n    default 0;\n    \"~%s\" 1;\n}\n", v, claims, uaRegexp(name))
}

// apacheUAConds is the mod_rewrite conditions that hold when the
// User-Agent claims name, indented for an <IfModule> block.
func apacheUAConds(name string) string {
	return fmt.Sprintf("    RewriteCond %%{HTTP_USER_AGENT} \"%s\" [NC]\n    RewriteCond %%{HTTP_USER_AGENT} \"%s\"\n", uaPrefilter(name), uaRegexp(name))
}

// apacheUAExpr is the ap_expr condition that holds when the User-Agent
// claims name.
func apacheUAExpr(name string) string {
	return fmt.Sprintf("%%{HTTP_USER_AGENT} =~ m#%s#i && %%{HTTP_USER_AGENT} =~ m#%s#", uaPrefilter(name), uaRegexp(name))
}

// caddyUAMatcher is the Caddy matcher lines (tab-indented, the first
// without its tab) that hold when the User-Agent claims name: the literal
// in any field (header_regexp), then the expression on the placeholder,
// which joins the fields (header_regexp would try each apart). The
// literal lies inside one field wherever the expression finds the name.
func caddyUAMatcher(name string) string {
	return "header_regexp User-Agent `(?i)" + uaPrefilter(name) + "`\n\tvars_regexp {http.request.header.User-Agent} `" + uaRegexp(name) + "`"
}

// MaxUserAgentName is the longest agent name enforce and verified match
// by its User-Agent: its expression (about 900 bytes, and 4 a byte of the
// name at most) then stays well inside the 8 KiB of a configuration line
// Apache reads.
const MaxUserAgentName = 1024

// checkUserAgents refuses, for the kinds that match User-Agent (nginx,
// Apache, Caddy), an enforced or verified name longer than
// MaxUserAgentName.
func checkUserAgents(kinds []Kind, a Access) []error {
	if !slices.ContainsFunc(kinds, func(k Kind) bool { return k == Nginx || k == Htaccess || k == Caddy }) {
		return nil
	}
	var names []string
	for _, e := range a.Enforce {
		names = append(names, e.Agent)
	}
	if a.Verified != nil {
		for _, c := range a.Verified.Crawlers {
			names = append(names, c.Name)
		}
	}
	var errs []error
	seen := map[string]bool{}
	for _, n := range names {
		if len(n) > MaxUserAgentName && !seen[n] {
			seen[n] = true
			errs = append(errs, fmt.Errorf("cannot match the User-Agent of agent %.32q...: its name is %d bytes, over the %d whose expression fits a configuration line (Apache reads 8 KiB)", n, len(n), MaxUserAgentName))
		}
	}
	return errs
}
