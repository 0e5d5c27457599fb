package manifest

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// jsonDecode is what decodeValue stands for: the instance written as JSON
// and read back by encoding/json.
func jsonDecode[T any](raw any) (*T, error) {
	b, err := json.Marshal(raw)
	if err != nil {
		return nil, err
	}
	v := new(T)
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return v, dec.Decode(v)
}

// TestDecodeMatchesJSON: every valid manifest of the repository decodes
// to the same value as through JSON text.
func TestDecodeMatchesJSON(t *testing.T) {
	n := 0
	for _, data := range prescanCorpus(t) {
		if doc, errs := LoadSite("m.yaml", data, ""); doc != nil && !errs.HasErrors() {
			want, err := jsonDecode[Site](doc.Raw)
			if err != nil {
				t.Fatal(err)
			}
			got := *doc.Value
			got.raw, got.kinds = nil, nil // the instance, kept for the kinds
			if !reflect.DeepEqual(&got, want) {
				t.Errorf("site decodes differently:\n got %+v\nwant %+v\n%s", &got, want, data)
			}
			n++
		}
		if doc, errs := LoadTenant("t.yaml", data); doc != nil && !errs.HasErrors() {
			want, err := jsonDecode[Tenant](doc.Raw)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(doc.Value, want) {
				t.Errorf("tenant decodes differently:\n got %+v\nwant %+v\n%s", doc.Value, want, data)
			}
			n++
		}
	}
	if n < 30 {
		t.Errorf("compared %d manifests, want at least 30", n)
	}
}

func TestDecodeRefusesWrongTypes(t *testing.T) {
	for _, raw := range []any{
		map[string]any{"version": "1"},
		map[string]any{"version": json.Number("1.5")},
		map[string]any{"agents": map[string]any{}},
		map[string]any{"agents": []any{map[string]any{"names": "a"}}},
		map[string]any{"files": map[string]any{"x-a": json.Number("1")}},
		map[string]any{"site": []any{}},
	} {
		var s Site
		if err := decodeValue(&s, raw); err == nil {
			t.Errorf("%v: decoded", raw)
		}
	}
}
