package adopt

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"

	"github.com/discgen/discgen/kinds/kit"
	"github.com/discgen/discgen/kinds/registry"
	"github.com/discgen/discgen/manifest"
	"go.yaml.in/yaml/v3"
)

// The values of the registry's kinds that own them (kit.Owner), which
// their importers set: each is written at its key, in registry order, by
// the JSON names of its type, as encoding/json would write it (a field
// with omitempty and an empty value left out). A mapping of scalars alone
// and an empty list are written on one line ({gpc: false}, []); a list of
// strings on one line when it reads well there (list). A type says
// otherwise with the tag manifest:"block" on a blank field (its mappings
// are never on one line: llms_txt and its sections), a string field
// with manifest:"literal" is a literal block (llms_txt.details), and a
// list of strings with manifest:"lines" is one string when it has one
// entry, as manifest.Lines reads it (security_txt.policy).

// kindNodes adds to m, the mapping at manifest path under ("" for the
// root, "well_known"), the value of each kind whose key is one step below
// it and that only admits (nil: every such kind). A key deeper still
// (well_known.app_links.apple) is not written: no such kind imports
// (import keeps the app association files as well-known files).
func kindNodes(m mapping, c comments, site *manifest.Site, under string, only func(key string) bool) {
	for _, k := range registry.All() {
		if _, ok := k.(kit.Owner); !ok || only != nil && !only(k.Key()) {
			continue
		}
		key := k.Key()
		if under != "" {
			var ok bool
			if key, ok = strings.CutPrefix(key, under+"."); !ok {
				continue
			}
		}
		if strings.Contains(key, ".") {
			continue
		}
		v, ok := site.KindValueSet(k.Key())
		if !ok {
			continue
		}
		rv := reflect.ValueOf(v)
		if !rv.IsValid() || rv.Kind() == reflect.Pointer && rv.IsNil() {
			continue
		}
		if n := valueNode(c, k.Key(), rv); n != nil {
			m.add(key, n)
		}
	}
}

// beforeFiles reports whether the kind's value at key is written under
// well_known before files: security_txt, as design section 2 writes it
// (the file the block was first made for). The other kinds follow files,
// in registry order.
func beforeFiles(key string) bool { return key == "well_known.security_txt" }

// kindsGiven reports whether site has a value of a kind whose key is
// under the manifest path under.
func kindsGiven(site *manifest.Site, under string) bool {
	for _, k := range registry.All() {
		if _, ok := k.(kit.Owner); ok && strings.HasPrefix(k.Key(), under+".") {
			if v, ok := site.KindValueSet(k.Key()); ok {
				if rv := reflect.ValueOf(v); rv.IsValid() && !(rv.Kind() == reflect.Pointer && rv.IsNil()) {
					return true
				}
			}
		}
	}
	return false
}

var numberType = reflect.TypeFor[json.Number]()

// valueNode writes v, the value at manifest path p; nil for a value that
// writes nothing (a nil pointer).
func valueNode(c comments, p string, v reflect.Value) *yaml.Node {
	if v.Type() == numberType {
		return num(json.Number(v.String()))
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return valueNode(c, p, v.Elem())
	case reflect.String:
		return str(v.String())
	case reflect.Bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(v.Bool())}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatInt(v.Int(), 10)}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.String {
			return list(v.Convert(reflect.TypeFor[[]string]()).Interface().([]string))
		}
		s := seq(c, p, v.Len(), func(i int, ip string) *yaml.Node { return valueNode(c, ip, v.Index(i)) })
		if v.Len() == 0 {
			s.Style = yaml.FlowStyle
		}
		return s
	case reflect.Struct:
		e := newMapping(c, p)
		flow := true
		for f := range v.Type().Fields() {
			if f.Name == "_" && f.Tag.Get("manifest") == "block" {
				flow = false
			}
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || name == "-" {
				continue
			}
			fv := v.FieldByIndex(f.Index)
			if opts == "omitempty" && empty(fv) {
				continue
			}
			n := valueNode(c, manifest.Key(p, name), fv)
			if n == nil {
				continue
			}
			if f.Tag.Get("manifest") == "lines" && fv.Len() == 1 {
				n = str(fv.Index(0).String())
			}
			if f.Tag.Get("manifest") == "literal" && n.Kind == yaml.ScalarNode {
				n.Style = yaml.LiteralStyle
				flow = false
			}
			flow = flow && n.Kind == yaml.ScalarNode
			e.add(name, n)
		}
		if flow {
			e.n.Style = yaml.FlowStyle
		}
		return e.n
	}
	panic("adopt: no YAML for a value of type " + v.Type().String())
}

// empty reports whether encoding/json leaves v out of an object for
// omitempty.
func empty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Slice, reflect.Map, reflect.String, reflect.Array:
		return v.Len() == 0
	case reflect.Pointer, reflect.Interface:
		return v.IsNil()
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Float32, reflect.Float64:
		return v.IsZero()
	}
	return false
}
