// Package manifest loads discgen manifests: it parses YAML, keeps the
// position of every value, refuses oversized input, duplicate keys and alias
// bombs, applies an environment, validates against the JSON Schema, and
// decodes into typed values.
//
// Errors come back as a diag.List so that a caller reports all of them,
// each at its file:line:column with its manifest path.
//
// # Limits
//
// Every manifest is hostile input, a site's as much as a tenant's. What
// one can cost is bounded by these limits, each refused with an error at
// its position:
//
//   - MaxBytes (4 MiB) of text;
//   - MaxNodes (250,000) YAML nodes, aliases expanded; a document that
//     may hold more is refused before it is parsed (prescan counts an
//     upper bound of the nodes the parser would build);
//   - MaxDepth (64) levels of nesting;
//   - MaxKeyBytes (255) bytes in a key;
//   - MaxExpandedBytes (4 MiB) of keys and scalars, aliases expanded;
//   - MaxDelegations (10,000) delegations in a list, which the validate
//     package checks; a top-level list found longer by the prescan (which
//     counts its entries exactly or fewer, never more) is refused before
//     the manifest is parsed, unless an environment may replace it.
//
// Positions are a tree of steps, not a path per value, and applying an
// environment shares what it does not replace, so the memory and time of
// loading are linear in the manifest's size whatever the length of its
// keys. With the bounds of the schema, validate and generate packages
// (1000 diagnostics per check, delegated spaces 64 segments deep, the
// work of expect checks), loading, validating and rendering any manifest
// under the limits keeps at most about 64 MiB live and takes well under a
// second; TestBounds builds the hostile shapes and checks it.
package manifest

import (
	"bytes"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/schema"
	"go.yaml.in/yaml/v3"
)

// Doc is a loaded manifest of either kind.
type Doc[T any] struct {
	Value *T
	Pos   *Positions
	// Raw is the JSON-shaped instance the value was decoded from, after
	// the environment was applied: checks that treat every string alike
	// walk it.
	Raw any
	// Env is the environment applied, if any.
	Env string
	// Invalid holds the manifest paths of values the schema refused,
	// with the environment applied (a refused value of the environment
	// block is also listed at the top-level path it replaces). Semantic
	// checks skip these values and all they hold: their errors would only
	// repeat the schema's.
	Invalid map[string]bool

	base        any        // Raw before any environment
	basePos     *Positions // Pos before any environment
	baseValue   *T         // Value before any environment, if it decodes
	baseInvalid map[string]bool
	schemaOK    bool
}

// LoadSite loads a site manifest. env, when not empty, names the
// environment whose top-level keys replace the manifest's own.
func LoadSite(file string, data []byte, env string) (*Doc[Site], diag.List) {
	return load[Site](schema.Site, file, data, env)
}

// LoadTenant loads a tenant manifest.
func LoadTenant(file string, data []byte) (*Doc[Tenant], diag.List) {
	return load[Tenant](schema.Tenant, file, data, "")
}

func load[T any](kind schema.Kind, file string, data []byte, env string) (*Doc[T], diag.List) {
	var errs diag.List
	filePos := diag.Pos{File: file}
	if len(data) > MaxBytes {
		errs.Errorf(filePos, "", "manifest is %d bytes; the limit is %d", len(data), MaxBytes)
		return nil, errs
	}
	if bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF}) {
		// The YAML parser reads UTF-16 too, which the count of nodes
		// before parsing, reading bytes, would not follow.
		errs.Errorf(diag.Pos{File: file, Line: 1, Col: 1}, "", "manifest is UTF-16 text; save it as UTF-8")
		return nil, errs
	}
	scan, at := prescanScan(data, MaxNodes)
	if at >= 0 {
		errs.Errorf(diag.At(file, scan.data, at), "", "manifest holds more than %d YAML nodes; refusing it", MaxNodes)
		return nil, errs
	}
	// An environment may replace the list, and validation then checks
	// its own: the list is refused here only where it is the one checked.
	if l := scan.dels; env == "" && l.at >= 0 {
		errs.Errorf(diag.At(file, scan.data, l.at), Index(l.key, l.limit), "%d %s; the limit is %d", l.most, l.key, l.limit)
		return nil, errs
	}
	root, err := parseYAML(file, data)
	if err != nil {
		errs.Add(*err)
		return nil, errs
	}
	if root == nil || root.Kind == yaml.ScalarNode && root.ShortTag() == "!!null" {
		hint := `it needs at least "version: 1" and a site with its url`
		if kind == schema.Tenant {
			hint = `it needs at least "version: 1" and a path`
		}
		errs.Errorf(diag.Pos{File: file, Line: 1, Col: 1}, "", "manifest is empty; %s", hint)
		return nil, errs
	}
	if root.Kind != yaml.MappingNode {
		errs.Errorf(diag.Pos{File: file, Line: root.Line, Col: root.Column}, "", "manifest must be a mapping of keys to values")
		return nil, errs
	}

	c := &converter{pos: newPositions(file), data: data}
	if c.tooLarge(root) {
		return nil, c.errs
	}
	inst, err2 := c.value(root, c.pos.root, 0, false)
	c.finish()
	errs.Append(c.errs)
	if err2 != nil {
		return nil, errs
	}
	// Schema errors do not stop here: when the values still decode into
	// the manifest types (unknown or duplicate keys, a wrong version),
	// the semantic rules run too, so one run reports every error.
	invalid := map[string]bool{}
	errs.Append(schemaErrors(kind, inst, c.pos, invalid))

	doc := &Doc[T]{Pos: c.pos, Raw: inst, Invalid: invalid,
		base: inst, basePos: c.pos, baseInvalid: invalid, schemaOK: !errs.HasErrors()}
	if env != "" {
		// The manifest's own values may fail to decode where the
		// environment replaces them; that is no error.
		var ignore diag.List
		if doc.decode(&ignore) {
			doc.baseValue = doc.Value
		}
		d, envErrs := doc.WithEnv(env)
		errs.Append(envErrs)
		return d, errs
	}
	if !doc.decode(&errs) {
		return nil, errs
	}
	doc.baseValue = doc.Value
	return doc, errs
}

// SchemaOK reports whether loading the manifest found no error: it met
// its schema and decoded whole. Validation makes a model only of such a
// manifest (validate.Site), as its own rules skip what the schema refused.
func (d *Doc[T]) SchemaOK() bool { return d.schemaOK }

// Environments returns the names of the manifest's environments, sorted.
func (d *Doc[T]) Environments() []string { return envNames(d.base) }

// WithEnv returns the manifest with environment env applied: its
// top-level keys replace the manifest's own. d itself is not changed. An
// environment the manifest does not define is an error.
//
// Applying an environment costs in proportion to the environment's own
// block, not to the manifest: the values, positions and decoded fields of
// the keys it does not replace are shared with d.
func (d *Doc[T]) WithEnv(env string) (*Doc[T], diag.List) {
	var errs diag.List
	base, _ := d.base.(map[string]any)
	envs, hasEnvs := base["environments"].(map[string]any)
	val, ok := envs[env]
	if !ok {
		if names := d.Environments(); !hasEnvs || len(names) == 0 {
			errs.Errorf(diag.Pos{File: d.basePos.File}, "", "environment %q is not defined: the manifest has no environments block", env)
		} else {
			errs.Errorf(d.basePos.KeyOf("environments"), "environments", "environment %q is not defined; the manifest defines %s", env, strings.Join(names, ", "))
		}
		return nil, errs
	}
	block, _ := val.(map[string]any)
	keys := slices.Sorted(maps.Keys(block))
	raw := make(map[string]any, len(base)+len(block))
	maps.Copy(raw, base)
	maps.Copy(raw, block)
	var blockPos *entry
	if e := d.basePos.root.child("environments"); e != nil {
		blockPos = e.child(env)
	}
	pos := d.basePos
	if blockPos != nil {
		pos = d.basePos.overlay(blockPos, keys)
	}
	out := &Doc[T]{Pos: pos, Raw: raw, Env: env, Invalid: maps.Clone(d.baseInvalid),
		base: d.base, basePos: d.basePos, baseValue: d.baseValue, baseInvalid: d.baseInvalid, schemaOK: d.schemaOK}
	envInvalid(out.Invalid, block, env)
	if d.baseValue != nil {
		if !out.decodeOver(d.baseValue, block, &errs) {
			return nil, errs
		}
		return out, errs
	}
	if !out.decode(&errs) {
		return nil, errs
	}
	return out, errs
}

// decodeOver fills d.Value with base, its fields named in block decoded
// from there instead. It reports whether it could.
func (d *Doc[T]) decodeOver(base *T, block map[string]any, errs *diag.List) bool {
	part := &Doc[T]{Pos: d.Pos, Raw: block, schemaOK: d.schemaOK}
	if _, ok := part.decodeRaw(errs); !ok {
		return false
	}
	v := *base
	overlayFields(reflect.ValueOf(&v).Elem(), reflect.ValueOf(part.Value).Elem(), block)
	d.Value = &v
	inst := d.Raw
	if !d.schemaOK {
		inst, _ = pruned(d.Raw, d.Invalid)
	}
	d.attachSite(inst)
	return true
}

// overlayFields sets each field of dst whose JSON name is a key of keys
// from the same field of src; embedded structs are walked.
func overlayFields(dst, src reflect.Value, keys map[string]any) {
	t := dst.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue // the instance a site keeps for its kinds (attachSite)
		}
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			overlayFields(dst.Field(i), src.Field(i), keys)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if _, ok := keys[name]; ok {
			dst.Field(i).Set(src.Field(i))
		}
	}
}

// decode fills d.Value from d.Raw, and keeps the instance it decoded on a
// site for its kinds (attachSite). It reports whether it could.
func (d *Doc[T]) decode(errs *diag.List) bool {
	inst, ok := d.decodeRaw(errs)
	if ok {
		d.attachSite(inst)
	}
	return ok
}

// decodeRaw fills d.Value from d.Raw and returns the instance the kinds
// decode their values from: d.Raw, with the values the schema refused
// null when there are any. ok reports whether it could.
func (d *Doc[T]) decodeRaw(errs *diag.List) (inst any, ok bool) {
	d.Value = new(T)
	err := decodeValue(d.Value, d.Raw)
	switch {
	case err != nil && !d.schemaOK:
		// Values of the wrong type: the schema errors say which. The
		// rest is decoded without them (null in their place), so that
		// the semantic rules still check every well-formed part, and
		// skip the refused paths (newChecker).
		if inst, changed := pruned(d.Raw, d.Invalid); changed {
			d.Value = new(T)
			if decodeValue(d.Value, inst) == nil {
				return inst, true
			}
		}
		d.Value = nil
		return nil, false
	case err != nil:
		// The schema admits only what the types can hold; reaching this is
		// a bug in one or the other.
		errs.Errorf(diag.Pos{File: d.Pos.File}, "", "internal error: schema and manifest types disagree: %v", err)
		d.Value = nil
		return nil, false
	case !d.schemaOK:
		// The typed fields decoded, but a kind's value may hold what the
		// schema refused: the kinds decode theirs without it.
		inst, _ := pruned(d.Raw, d.Invalid)
		return inst, true
	}
	return d.Raw, true
}

// pruned returns inst with each value whose manifest path is in invalid
// replaced by null, and whether there was one. Only the containers on the
// way to a replaced value are copied, and only they are looked into, so
// the work is bounded by those containers' sizes, not the manifest's
// (whose deep paths would make it quadratic): inst itself is not changed.
func pruned(inst any, invalid map[string]bool) (any, bool) {
	on := map[string]bool{}
	for p := range invalid {
		for ; p != "" && !on[p]; p = Parent(p) {
			on[p] = true
		}
	}
	return prune(inst, "", invalid, on)
}

func prune(inst any, path string, invalid, on map[string]bool) (any, bool) {
	if path != "" && invalid[path] {
		return nil, true
	}
	switch v := inst.(type) {
	case map[string]any:
		var out map[string]any
		for k, e := range v {
			p := Key(path, k)
			if !on[p] {
				continue
			}
			if e, changed := prune(e, p, invalid, on); changed {
				if out == nil {
					out = maps.Clone(v)
				}
				out[k] = e
			}
		}
		if out != nil {
			return out, true
		}
	case []any:
		var out []any
		for i, e := range v {
			p := Index(path, i)
			if !on[p] {
				continue
			}
			if e, changed := prune(e, p, invalid, on); changed {
				if out == nil {
					out = slices.Clone(v)
				}
				out[i] = e
			}
		}
		if out != nil {
			return out, true
		}
	}
	return inst, false
}

// parseYAML parses exactly one YAML document and returns its root node.
func parseYAML(file string, data []byte) (*yaml.Node, *diag.Diagnostic) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if err.Error() == "EOF" {
			return nil, nil
		}
		return nil, yamlError(file, data, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, &diag.Diagnostic{Pos: diag.Pos{File: file, Line: extra.Line, Col: extra.Column},
			Message: "a manifest holds one YAML document; found a second one"}
	} else if err.Error() != "EOF" {
		return nil, yamlError(file, data, err)
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	return doc.Content[0], nil
}

// schemaErrors validates the instance and positions each violation. It
// adds the path of each refused value to invalid: the value itself, or for
// a missing key both the key and the mapping that lacks it (but never the
// whole manifest).
func schemaErrors(kind schema.Kind, inst any, pos *Positions, invalid map[string]bool) diag.List {
	var errs diag.List
	vs, err := schema.Validate(kind, inst)
	if err != nil {
		errs.Errorf(diag.Pos{File: pos.File}, "", "%v", err)
		return errs
	}
	for _, v := range vs {
		path := pathOf(inst, v.Path)
		p := pos.Of(path)
		if v.Key {
			p = pos.KeyOf(path)
		}
		if path != "" {
			invalid[path] = true
		}
		if v.Missing != "" {
			invalid[Key(path, v.Missing)] = true
		}
		errs.Add(diag.Diagnostic{Pos: p, Severity: diag.Error, Path: path, Message: v.Message})
	}
	return errs
}

// envInvalid moves the refused values of an environment's block to the
// top-level paths they replace once it is applied; refusals of the
// replaced values no longer apply.
func envInvalid(invalid map[string]bool, block map[string]any, env string) {
	for _, p := range slices.Collect(maps.Keys(invalid)) {
		if _, replaced := block[firstKey(p)]; replaced {
			delete(invalid, p)
		}
	}
	prefix := Key("environments", env)
	for _, p := range slices.Collect(maps.Keys(invalid)) {
		if rest, ok := strings.CutPrefix(p, prefix+"."); ok {
			invalid[rest] = true
		}
	}
}

// firstKey returns the key of a path's first step, or "" when the path
// is empty or starts with an index.
func firstKey(path string) string {
	if strings.HasPrefix(path, `["`) {
		j := 2
		for j < len(path) && path[j] != '"' {
			if path[j] == '\\' {
				j++
			}
			j++
		}
		if j < len(path) {
			if k, err := strconv.Unquote(path[1 : j+1]); err == nil {
				return k
			}
		}
		return ""
	}
	if i := strings.IndexAny(path, ".["); i >= 0 {
		return path[:i]
	}
	return path
}

func envNames(inst any) []string {
	m, _ := inst.(map[string]any)
	envs, _ := m["environments"].(map[string]any)
	return slices.Sorted(maps.Keys(envs))
}

// pathOf turns schema path tokens into a manifest path, walking the
// instance to tell list indexes from keys that look like numbers.
func pathOf(inst any, toks []string) string {
	path := ""
	for _, tok := range toks {
		switch cur := inst.(type) {
		case []any:
			i, _ := strconv.Atoi(tok)
			path = Index(path, i)
			if i >= 0 && i < len(cur) {
				inst = cur[i]
			}
		case map[string]any:
			path = Key(path, tok)
			inst = cur[tok]
		default:
			path = Key(path, tok)
		}
	}
	return path
}
