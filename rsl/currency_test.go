package rsl_test

import (
	"strings"
	"testing"

	"github.com/discgen/discgen/rsl"
)

// TestCurrency: an amount's currency is an ISO 4217 alphabetic code: not
// three capital letters is an error at the amount; three letters the
// shipped list (of its publication date) does not hold is a warning, as
// a code may have been added since; a listed code, a fund code and a
// precious metal are fine.
func TestCurrency(t *testing.T) {
	doc := func(currency string) string {
		return `<rsl xmlns="https://rslstandard.org/rsl">
  <content url="/">
    <license>
      <payment type="crawl">
        <amount currency="` + currency + `">0.015</amount>
      </payment>
    </license>
  </content>
</rsl>`
	}
	for _, c := range []struct{ currency, want string }{
		{"USD", ""},
		{"EUR", ""},
		{"CHW", ""},
		{"XAU", ""},
		{"usd", "5:9: error: amount currency \"usd\" is not an ISO 4217 code (three capital letters, such as USD or EUR)"},
		{"US$", "5:9: error: amount currency \"US$\" is not an ISO 4217 code"},
		{"", "5:9: error: amount currency \"\" is not an ISO 4217 code"},
		{"QQQ", "5:9: warning: amount currency \"QQQ\" is not in the ISO 4217 list of " + rsl.CurrencyListDate()},
	} {
		var got []string
		for _, p := range rsl.Check([]byte(doc(c.currency))) {
			sev := "error"
			if p.Warning {
				sev = "warning"
			}
			got = append(got, strings.Replace(p.String(), ": ", ": "+sev+": ", 1))
		}
		s := strings.Join(got, "\n")
		if c.want == "" && s != "" || c.want != "" && !strings.HasPrefix(s, c.want) {
			t.Errorf("currency %q: got %q, want %q", c.currency, s, c.want)
		}
	}
	if n := len(rsl.Currencies()); n < 150 {
		t.Errorf("only %d currencies", n)
	}
}
