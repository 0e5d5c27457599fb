package manifest

import (
	"maps"
	"strings"
	"sync"
)

// The values of a site's kinds (kinds/kit, kinds/registry). A kind whose
// value is a type of its own package has no field here: the site keeps
// the instance it was decoded from, and KindValue decodes the value at
// the kind's key into the kind's type the first time it is asked for.
// Adding such a kind touches neither the typed model nor the decoder.

// kindValues caches the decoded or set value of each kind's key. A site
// read by several goroutines decodes each value once, under mu.
type kindValues struct {
	mu sync.Mutex
	m  map[string]any // key -> *V, nil for a value removed
}

// attach keeps inst, the JSON-shaped instance s was decoded from, for
// KindValue, with a cache of its own: a copy of a site made before shares
// neither.
func (s *Site) attach(inst any) {
	s.raw, _ = inst.(map[string]any)
	s.kinds = &kindValues{}
}

// attachSite keeps inst, the instance d's value was decoded from, on it
// when it is a site. A value the schema refused is null there, as in the
// decoded fields (decodeRaw).
func (d *Doc[T]) attachSite(inst any) {
	if s, ok := any(d.Value).(*Site); ok {
		s.attach(inst)
	}
}

// at returns the instance's value at key, a manifest path of keys only
// ("ads_txt", "well_known.gpc"); ok is false when it is absent or null.
func (s *Site) at(key string) (v any, ok bool) {
	var cur any = s.raw
	if s.raw == nil {
		return nil, false
	}
	for key != "" {
		var k string
		k, key, _ = strings.Cut(key, ".")
		m, isMap := cur.(map[string]any)
		if !isMap {
			return nil, false
		}
		if cur, ok = m[k]; !ok {
			return nil, false
		}
	}
	return cur, cur != nil
}

// KindValue returns the site's value at key, a manifest path of keys
// only, decoded into a new V the first time it is asked for (as the typed
// model is, DecodeValue) or as SetKindValue set it; nil when the site
// gives none. A value that does not decode into V (one the schema
// refused) is none. A site that is absent a kind costs no allocation.
func KindValue[V any](s *Site, key string) *V {
	if s == nil {
		return nil
	}
	c := s.kinds
	if c == nil {
		// A site made in Go, not loaded: only SetKindValue gives values.
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if x, ok := c.m[key]; ok {
		v, _ := x.(*V)
		return v
	}
	inst, ok := s.at(key)
	if !ok {
		return nil
	}
	v := new(V)
	if DecodeValue(v, inst) != nil {
		v = nil
	}
	if c.m == nil {
		c.m = map[string]any{}
	}
	c.m[key] = v
	return v
}

// SetKindValue sets the site's value at key to v (nil: none), as import
// does from a file it carries back.
func SetKindValue[V any](s *Site, key string, v *V) {
	if s.kinds == nil {
		s.kinds = &kindValues{}
	}
	c := s.kinds
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]any{}
	}
	c.m[key] = v
}

// KindValueSet returns the value at key that SetKindValue set or
// KindValue decoded, as a *V of the kind's type; ok is false when there is
// none. The YAML writer of import reads the kinds' values with it.
func (s *Site) KindValueSet(key string) (v any, ok bool) {
	c := s.kinds
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok = c.m[key]
	return v, ok
}

// KeepKinds drops the kinds' values of the top-level keys not in keep, as
// validate checks an environment's replaced keys alone.
func (s *Site) KeepKinds(keep map[string]bool) {
	raw := maps.Clone(s.raw)
	maps.DeleteFunc(raw, func(k string, _ any) bool { return !keep[k] })
	s.attach(raw)
}

// DecodeValue fills dst, a pointer, from a JSON-shaped value of the
// instance as the typed model is decoded (decodeValue): object keys match
// json tags exactly, numbers are json.Number, and Lines takes a string or
// a list of strings.
func DecodeValue(dst any, v any) error { return decodeValue(dst, v) }
