package schema

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// parsed is the schema document as JSON values, for reading a failed
// keyword's own value (a minimum, an enum's members, the keys an object
// allows) when wording a violation.
var parsed = sync.OnceValue(func() any {
	dec := json.NewDecoder(bytes.NewReader(source))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil
	}
	return v
})

// fragment returns the JSON pointer of an absolute keyword location
// ("https://...json#/$defs/site/required" gives "/$defs/site/required").
func fragment(abs string) string {
	_, frag, _ := strings.Cut(abs, "#")
	return frag
}

// schemaAt returns the schema value at a JSON pointer.
func schemaAt(ptr string) (any, bool) {
	v := parsed()
	if ptr == "" {
		return v, v != nil
	}
	for tok := range strings.SplitSeq(strings.TrimPrefix(ptr, "/"), "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		var ok bool
		if v, ok = step(v, tok); !ok {
			return nil, false
		}
	}
	return v, true
}

// instanceAt returns the instance value at raw path tokens.
func instanceAt(inst any, toks []string) (any, bool) {
	for _, tok := range toks {
		var ok bool
		if inst, ok = step(inst, tok); !ok {
			return nil, false
		}
	}
	return inst, true
}

func step(v any, tok string) (any, bool) {
	switch x := v.(type) {
	case map[string]any:
		c, ok := x[tok]
		return c, ok
	case []any:
		i, err := strconv.Atoi(tok)
		if err != nil || i < 0 || i >= len(x) {
			return nil, false
		}
		return x[i], true
	}
	return nil, false
}

// propertyNames returns the keys the object schema at ptr allows.
func propertyNames(ptr string) []string {
	s, _ := schemaAt(ptr)
	obj, _ := s.(map[string]any)
	props, _ := obj["properties"].(map[string]any)
	return slices.Sorted(maps.Keys(props))
}
