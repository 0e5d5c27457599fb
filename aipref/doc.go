// Package aipref is the vocabulary of usage preferences and its two
// written forms, apart from where a form is attached (robots.txt rules,
// the HTTP header):
//
//   - Content-Usage, from draft-ietf-aipref-vocab-07: the categories
//     train-ai and search, the Tokens y and n, in an RFC 9651
//     structured-field dictionary ("train-ai=n, search=y").
//   - Content-Signal, from contentsignals.org and
//     draft-romm-aipref-contentsignals-00: the categories search, ai-input
//     and ai-train, the values yes and no ("search=yes, ai-train=no"),
//     read as a dictionary too.
//
// Prefs holds one preference per category; UsageValue and SignalValue
// write it, ParseUsage and ParseSignal read it back. Parsing is RFC 9651's
// in full (github.com/dunglas/httpsfv): inner lists, parameters, dates,
// display strings and byte sequences parse, and a member the vocabulary
// cannot use (an unknown key, a value other than y or n) is ignored with
// a problem named, never the line; a value that is no dictionary at all is
// ignored whole, as RFC 9651 says. Combine joins what two sources say, a
// "no" winning (vocab-07 section 7.1).
package aipref
