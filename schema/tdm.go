package schema

import (
	"encoding/json"
	"strconv"
	"strings"
)

// tdmReservationMessage words a number given for a TDMRep reservation,
// which the manifest says as a boolean. The final report (2024-05-10) has
// only 1 and 0; the earlier drafts' other values (2) are protocol errors
// there, which a reader takes as no reservation at all.
func tdmReservationMessage(n json.Number) string {
	switch n.String() {
	case "0", "1":
		return n.String() + " is not a TDMRep reservation here: write true (1, rights reserved) or false (0, not reserved)"
	}
	return n.String() + " is not a TDMRep reservation: the final report (2024-05-10) dropped every value but 1 (rights reserved) and 0 (not reserved); write true or false"
}

// tdmReservationWord words a string given for a TDMRep reservation. The
// reservation is a boolean, as every on/off key of the manifest is; yes
// and no are the values of usage preferences (the vocabulary's y and n),
// which is why they are the words a manifest's author reaches for.
func tdmReservationWord(w string) string {
	msg := strconv.Quote(w) + " is not a TDMRep reservation: write true (1, rights reserved) or false (0, not reserved), without quotes"
	switch strings.ToLower(w) {
	case "yes", "no", "y", "n":
		msg += "; yes and no are the words of usage, not of tdm"
	}
	return msg
}
