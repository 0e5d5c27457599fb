package kit

import "testing"

func TestValidLanguageTag(t *testing.T) {
	valid := []string{
		"en", "fr", "EN", "de-CH", "zh-Hant", "zh-Hant-TW", "sr-Latn-RS",
		"es-419", "de-CH-1901", "sl-rozaj-biske", "zh-yue", "zh-yue-HK",
		"ast", "haw", "abcd", "abcdefgh", "en-US-x-twain", "x-whatever",
		"x-a", "en-a-bbb-x-a-ccc", "de-DE-u-co-phonebk", "en-GB-oed",
		"i-klingon", "zh-min-nan", "art-lojban", "hy-Latn-IT-arevela",
		"zh-cmn-Hans-CN", "en-0abc",
	}
	invalid := []string{
		"", "e", "en_US", "en-", "-en", "en--US", "123", "en-US-", "a1",
		"abcdefghi", "x", "x-", "en-x", "en-a", "en-a-x-b", "en-a-b",
		"en-US-Latn", "en-GB-abcd", "en us", "en,fr", "é", "zh-a-bcdefghij",
		"en-x-abcdefghi", "zh-aaa-bbb-ccc-ddd",
	}
	for _, tag := range valid {
		if !ValidLanguageTag(tag) {
			t.Errorf("ValidLanguageTag(%q) = false, want true", tag)
		}
	}
	for _, tag := range invalid {
		if ValidLanguageTag(tag) {
			t.Errorf("ValidLanguageTag(%q) = true, want false", tag)
		}
	}
}
