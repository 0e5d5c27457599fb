package journal

import (
	"testing"

	"github.com/discgen/discgen/output/internal/record"
)

// A journal cut short keeps the records before the cut.
func TestParseJournalCutShort(t *testing.T) {
	a, b := record.New("a"), record.New("b")
	a.Complete, b.Complete = false, false
	a.AddSum("x.txt", record.FileSum([]byte("x")))
	data := Marshal([][]byte{a.Marshal(), b.Marshal()})
	recs, err := Parse(data, "j")
	if err != nil || len(recs) != 2 || recs[0].Name != "a" || recs[1].Name != "b" || !recs[0].Owns("x.txt", record.FileSum([]byte("x"))) {
		t.Fatalf("whole journal: %v %v", recs, err)
	}
	recs, err = Parse(data[:len(data)-5], "j")
	if err == nil || len(recs) != 1 || recs[0].Name != "a" {
		t.Errorf("cut journal: %v %v", recs, err)
	}
	if _, err := Parse([]byte("something else\n"), "j"); err == nil {
		t.Error("not a journal: accepted")
	}
}

// A journal read for one record passes over the others by their name
// line, unparsed: a tenant's journal of intents naming other records costs
// a scan of it, and a body that would not parse is never looked at.
func TestParseJournalOfPassesOverOthers(t *testing.T) {
	own := record.New("users/alice/public_html")
	own.Complete = false
	own.AddSum("autodisc/index.txt", record.FileSum([]byte("x")))
	other := []byte("discgen output record 2\nname users/bob/public_html\nstate incomplete\nnot a record line\n")
	data := Marshal([][]byte{other, own.Marshal(), other})
	if _, err := Parse(data, "j"); err == nil {
		t.Fatal("the whole journal parsed: the other record's body is not what this test needs")
	}
	recs, err := parseOf(data, "j", func(name string) bool { return name == own.Name })
	if err != nil || len(recs) != 1 || recs[0].Name != own.Name || !recs[0].Owns("autodisc/index.txt", record.FileSum([]byte("x"))) {
		t.Errorf("own record: %v %v", recs, err)
	}
}
