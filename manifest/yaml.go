package manifest

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/discgen/discgen/diag"
	"github.com/discgen/discgen/internal/lazyre"
	"github.com/discgen/discgen/internal/limited"
	"go.yaml.in/yaml/v3"
)

// Limits bound what a manifest may cost to load.
const (
	// MaxBytes is the largest manifest file accepted.
	MaxBytes = 4 << 20
	// MaxNodes bounds the YAML nodes a manifest expands to, aliases
	// included. The count is made on the parsed tree before anything is
	// expanded, so an alias bomb costs no more than its own text.
	MaxNodes = 250_000
	// MaxDepth bounds nesting.
	MaxDepth = 64
	// MaxKeyBytes bounds a mapping key: the longest file name most
	// file systems allow. Longer keys are refused, each at its position.
	MaxKeyBytes = 255
	// MaxExpandedBytes bounds the text of a manifest's keys and scalars
	// with its aliases expanded: as much as the largest file holds, so an
	// alias repeated many times cannot make one long value many.
	MaxExpandedBytes = MaxBytes
	// MaxDelegations bounds one authority's list of delegations (the
	// validate package checks it); a top-level list longer than that is
	// refused before the manifest is parsed.
	MaxDelegations = 10_000
)

// Key extends a manifest path with an object key: site.url, or
// files["x-contact.txt"] when the key is not an identifier.
func Key(parent, key string) string {
	var b strings.Builder
	b.WriteString(parent)
	writeKey(&b, key)
	return b.String()
}

// writeKey writes the step of key after a path held in b.
func writeKey(b *strings.Builder, key string) {
	switch {
	case !isIdent(key):
		b.WriteString("[" + strconv.Quote(key) + "]")
	case b.Len() == 0:
		b.WriteString(key)
	default:
		b.WriteString("." + key)
	}
}

// isIdent reports whether key can stand in a path unquoted.
func isIdent(key string) bool {
	if key == "" {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9' {
			continue
		}
		return false
	}
	return true
}

// Index extends a manifest path with a list index: agents[2].
func Index(parent string, i int) string {
	return parent + "[" + strconv.Itoa(i) + "]"
}

// Parent returns the path one step up; the parent of a top-level key is "".
// It reads the path from the left, so that a quoted key holding ".", "["
// or an escaped quote cannot be mistaken for a step of its own.
func Parent(path string) string {
	last := 0 // where the last step starts
	for i := 0; i < len(path); {
		last = i
		switch path[i] {
		case '.':
			i++
			fallthrough
		default:
			for i < len(path) && path[i] != '.' && path[i] != '[' {
				i++
			}
		case '[':
			if i+1 < len(path) && path[i+1] == '"' {
				// A quoted key: find its closing quote, skipping escapes.
				j := i + 2
				for j < len(path) && path[j] != '"' {
					if path[j] == '\\' {
						j++
					}
					j++
				}
				i = j + 2 // past the quote and "]"
			} else if j := strings.IndexByte(path[i:], ']'); j >= 0 {
				i += j + 1
			} else {
				i = len(path)
			}
		}
	}
	return path[:min(last, len(path))]
}

// converter turns a yaml.Node tree into a JSON-shaped instance, recording
// positions, rejecting duplicate keys and counting expanded nodes and
// bytes.
type converter struct {
	pos   *Positions
	errs  diag.List
	nodes int
	bytes int
	// dropped counts errors past maxErrors.
	dropped int
	// open holds the mappings being converted, so that a merge key that
	// refers to one of them (to a mapping that holds it) is refused
	// instead of recursing.
	open map[*yaml.Node]bool
	// data is the source text, and lineStarts the offsets of its lines,
	// built when a literal block scalar is met (blockpos.go).
	data       []byte
	lineStarts []int
}

func (c *converter) at(n *yaml.Node) diag.Pos {
	return diag.Pos{File: c.pos.File, Line: n.Line, Col: n.Column}
}

// maxErrors bounds the errors a conversion keeps (duplicate keys, keys
// that are not strings); past it they are only counted.
const maxErrors = 1000

// errorf records an error about the value of entry e.
func (c *converter) errorf(n *yaml.Node, e *entry, format string, args ...any) {
	if len(c.errs) >= maxErrors {
		c.dropped++
		return
	}
	c.errs.Errorf(c.at(n), e.path(), format, args...)
}

// fatalf records the error that stops a conversion, past maxErrors too.
func (c *converter) fatalf(n *yaml.Node, e *entry, format string, args ...any) {
	c.errs.Errorf(c.at(n), e.path(), format, args...)
}

// finish adds the count of errors left out, if any.
func (c *converter) finish() {
	if c.dropped > 0 {
		c.errs.Errorf(diag.Pos{File: c.pos.File}, "", "%d more errors not shown (at most %d are reported)", c.dropped, maxErrors)
		c.dropped = 0
	}
}

var errBudget = fmt.Errorf("budget exceeded")

// value converts n, whose position record is e. Unless shared (n is
// anchored or lies within an anchored node, so that an alias may reach
// it again), each child node is let go once converted: the parsed tree
// and the instance are not both held whole.
func (c *converter) value(n *yaml.Node, e *entry, depth int, shared bool) (any, error) {
	shared = shared || n.Anchor != ""
	c.nodes++
	if c.nodes > MaxNodes {
		c.fatalf(n, e, "manifest expands to more than %d YAML nodes (aliases included); refusing it", MaxNodes)
		return nil, errBudget
	}
	if depth > MaxDepth {
		c.fatalf(n, e, "nested more than %d levels deep", MaxDepth)
		return nil, errBudget
	}
	if e.val.line == 0 {
		e.val = at(n.Line, n.Column)
	}
	switch n.Kind {
	case yaml.AliasNode:
		return c.value(n.Alias, e, depth+1, true)
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return c.value(n.Content[0], e, depth, shared)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for i, item := range n.Content {
			if item.Kind == yaml.ScalarNode && item.Anchor == "" {
				// A scalar item keeps its position in the list's
				// entry, not in one of its own.
				v, err := c.scalarItem(item, e, i, depth+1)
				if err != nil {
					return nil, err
				}
				out = append(out, v)
				if !shared {
					n.Content[i] = nil
				}
				continue
			}
			v, err := c.value(item, e.item(i), depth+1, shared)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
			if !shared {
				n.Content[i] = nil
			}
		}
		return out, nil
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		if err := c.mapping(n, e, depth, shared, out, map[string]bool{}); err != nil {
			return nil, err
		}
		return out, nil
	case yaml.ScalarNode:
		if err := c.spend(n, e, len(n.Value)); err != nil {
			return nil, err
		}
		c.checkTimestamp(n, e, -1)
		c.noteBlock(n, e)
		return c.scalar(n), nil
	}
	c.errorf(n, e, "unsupported YAML node")
	return nil, nil
}

// scalarItem converts item i of the list whose entry is e, a scalar, as
// value would.
func (c *converter) scalarItem(n *yaml.Node, e *entry, i, depth int) (any, error) {
	c.nodes++
	if c.nodes > MaxNodes || depth > MaxDepth {
		return c.value(n, e.item(i), depth, false) // reports the limit
	}
	e.scalarItem(i, at(n.Line, n.Column))
	c.bytes += len(n.Value)
	if c.bytes > MaxExpandedBytes {
		return c.value(n, e.item(i), depth, false)
	}
	c.checkTimestamp(n, e, i)
	return c.scalar(n), nil
}

// zoned matches a YAML timestamp with a time of day and a time zone.
var zoned = lazyre.New(`[Tt ][0-9:.]+ *([Zz]|[+-][0-9]{1,2}(:?[0-9]{2})?)$`)

// checkTimestamp warns of a plain scalar that YAML 1.1 reads as a
// timestamp (2027-06-01, 2027-06-01T00:00:00Z). discgen keeps it the
// string it was written as, but ajv-cli, PyYAML and other YAML 1.1 readers
// turn it into a date, which a schema that wants a string then refuses:
// quoting it gives every reader the same string.
func (c *converter) checkTimestamp(n *yaml.Node, e *entry, item int) {
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 ||
		n.Tag != "" && n.Tag != "!!timestamp" || n.ShortTag() != "!!timestamp" {
		return
	}
	if len(c.errs) >= maxErrors {
		c.dropped++
		return
	}
	// The path is made only here: made for every scalar, a deep path
	// would cost its length per value.
	path := e.path()
	if item >= 0 {
		path = Index(path, item)
	}
	// A security.txt expires without a time of day or a time zone is
	// refused by validate with its final form, quoted: "quote it" beside
	// that would advise a value refused in turn.
	if item < 0 && strings.HasSuffix(path, "security_txt.expires") && !zoned.MatchString(n.Value) {
		return
	}
	c.errs.Warnf(c.at(n), path, "%s is a date to YAML 1.1 readers (ajv-cli, PyYAML), which then find no string here; quote it: %q", n.Value, n.Value)
}

// spend counts the bytes of a scalar or key against MaxExpandedBytes.
func (c *converter) spend(n *yaml.Node, e *entry, size int) error {
	c.bytes += size
	if c.bytes > MaxExpandedBytes {
		c.fatalf(n, e, "manifest expands to more than %s of text (aliases included); refusing it", limited.Size(MaxExpandedBytes))
		return errBudget
	}
	return nil
}

// mapping fills out from a mapping node. Merge keys (<<) contribute keys
// that the mapping does not set itself; a key set twice is an error.
func (c *converter) mapping(n *yaml.Node, e *entry, depth int, shared bool, out map[string]any, explicit map[string]bool) error {
	if c.open == nil {
		c.open = map[*yaml.Node]bool{}
	}
	c.open[n] = true
	defer delete(c.open, n)
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			merges = append(merges, v)
			continue
		}
		if k.Kind != yaml.ScalarNode {
			c.errorf(k, e, "a mapping key must be a plain string")
			continue
		}
		if len(k.Value) > MaxKeyBytes {
			c.errorf(k, e, "a key of %d bytes; keys are at most %d bytes", len(k.Value), MaxKeyBytes)
			continue
		}
		if err := c.spend(k, e, len(k.Value)); err != nil {
			return err
		}
		child, seen := e.keyEntry(k.Value)
		if explicit[k.Value] {
			c.errorf(k, child, "duplicate key %q (first at line %d)", k.Value, child.keyPos.line)
			continue
		}
		explicit[k.Value] = true
		if !seen || child.keyPos.line == 0 {
			// A key the mapping sets itself comes before those its
			// merges bring, which it overrides.
			child.keyPos = at(k.Line, k.Column)
		}
		val, err := c.value(v, child, depth+1, shared)
		if err != nil {
			return err
		}
		out[k.Value] = val
		if !shared {
			n.Content[i+1] = nil
		}
	}
	for _, m := range merges {
		srcs := []*yaml.Node{m}
		if m.Kind == yaml.SequenceNode {
			srcs = m.Content
		}
		for _, src := range srcs {
			for src.Kind == yaml.AliasNode {
				src = src.Alias
			}
			if src.Kind != yaml.MappingNode {
				c.errorf(m, e, "a merge key (<<) must refer to a mapping")
				continue
			}
			if c.open[src] {
				c.fatalf(m, e, "a merge key (<<) refers to a mapping that holds it")
				return errBudget
			}
			if depth+1 > MaxDepth {
				c.fatalf(m, e, "nested more than %d levels deep", MaxDepth)
				return errBudget
			}
			merged := map[string]any{}
			if err := c.mapping(src, e, depth+1, true, merged, map[string]bool{}); err != nil {
				return err
			}
			for k, v := range merged {
				if !explicit[k] {
					if _, set := out[k]; !set {
						out[k] = v
					}
				}
			}
		}
	}
	return nil
}

func (c *converter) scalar(n *yaml.Node) any {
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		b, err := strconv.ParseBool(strings.ToLower(n.Value))
		if err != nil {
			return n.Value
		}
		return b
	case "!!int":
		if i, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64); err == nil {
			return json.Number(strconv.FormatInt(i, 10))
		}
		return n.Value
	case "!!float":
		f, err := strconv.ParseFloat(n.Value, 64)
		if err != nil || f != f || f > 1e300 || f < -1e300 {
			return n.Value
		}
		return json.Number(strconv.FormatFloat(f, 'f', -1, 64))
	}
	// !!str, !!timestamp, !!binary and custom tags keep their text: a
	// date such as 2027-06-01T00:00:00Z stays the string it was written as.
	return n.Value
}

// expanded counts the values n expands to, aliases included, as value
// counts them, without expanding anything: an alias costs one plus its
// anchor's size, computed once. The count stops growing past MaxNodes.
//
// Only anchors and aliases are remembered: other nodes are reached once,
// through their parent, so the memo stays small.
func expanded(n *yaml.Node, memo map[*yaml.Node]int, depth int) int {
	if s, ok := memo[n]; ok {
		return s
	}
	s := 1
	if depth <= MaxDepth {
		switch n.Kind {
		case yaml.AliasNode:
			s += expanded(n.Alias, memo, depth+1)
		case yaml.DocumentNode, yaml.SequenceNode:
			for _, c := range n.Content {
				s += expanded(c, memo, depth+1)
			}
		case yaml.MappingNode:
			for i := 1; i < len(n.Content); i += 2 {
				s += expanded(n.Content[i], memo, depth+1)
			}
		}
	}
	s = min(s, MaxNodes+1)
	if n.Anchor != "" || n.Kind == yaml.AliasNode {
		memo[n] = s
	}
	return s
}

// tooLarge reports whether root expands to more than MaxNodes values. If
// so, it records the error where a conversion would have stopped: at the
// value whose count passes the limit, under its expanded path.
func (c *converter) tooLarge(root *yaml.Node) bool {
	memo := map[*yaml.Node]int{}
	if expanded(root, memo, 0) <= MaxNodes {
		return false
	}
	used, n, path := 0, root, ""
	for range MaxDepth {
		used++ // n itself
		if used > MaxNodes {
			break
		}
		next := -1
		var kids []*yaml.Node
		switch n.Kind {
		case yaml.AliasNode:
			kids = []*yaml.Node{n.Alias}
		case yaml.SequenceNode, yaml.DocumentNode:
			kids = n.Content
		case yaml.MappingNode:
			for i := 1; i < len(n.Content); i += 2 {
				kids = append(kids, n.Content[i])
			}
		}
		for i, k := range kids {
			if s := expanded(k, memo, 0); used+s > MaxNodes {
				next = i
				break
			} else {
				used += s
			}
		}
		if next < 0 {
			// Sizes are capped; stop at n rather than guess.
			break
		}
		switch n.Kind {
		case yaml.SequenceNode:
			path = Index(path, next)
		case yaml.MappingNode:
			if k := n.Content[2*next]; k.Tag != "!!merge" {
				path = Key(path, k.Value)
			}
		}
		n = kids[next]
	}
	c.errs.Errorf(c.at(n), path, "manifest expands to more than %d YAML nodes (aliases included); refusing it", MaxNodes)
	return true
}
