package manifest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// decodeValue fills dst, a pointer, from a JSON-shaped value as
// encoding/json would from its text, without writing the text: strings
// are shared with the instance rather than copied, and nothing the size of
// the manifest is allocated twice. Object keys match json tags exactly;
// keys with no field are ignored. A type that unmarshals itself is given
// its value's JSON text.
func decodeValue(dst any, v any) error {
	return decodeInto(reflect.ValueOf(dst).Elem(), v)
}

var (
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	rawMessageType  = reflect.TypeFor[json.RawMessage]()
	numberType      = reflect.TypeFor[json.Number]()
	linesType       = reflect.TypeFor[Lines]()
)

// decodeInto decodes v, a JSON-shaped value (numbers as json.Number), into
// dst, as encoding/json would decode its text.
func decodeInto(dst reflect.Value, v any) error {
	if ok, err := decodeSpecial(dst, v); ok {
		return err
	}
	t := dst.Type()
	if v == nil {
		// JSON null leaves the value as it is, as encoding/json does.
		if t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map || t.Kind() == reflect.Interface {
			dst.SetZero()
		}
		return nil
	}
	return decodeComposite(dst, v)
}

// decodeSpecial decodes into the types that are not decoded by their kind
// (Lines, json.RawMessage, json.Number, a json.Unmarshaler); ok is false
// for any other type.
func decodeSpecial(dst reflect.Value, v any) (ok bool, err error) {
	t := dst.Type()
	switch {
	case t == linesType:
		switch x := v.(type) {
		case string:
			dst.Set(reflect.ValueOf(Lines{x}))
			return true, nil
		case []any:
			l := make(Lines, len(x))
			for i, e := range x {
				s, ok := e.(string)
				if !ok {
					return true, fmt.Errorf("expected a string or a list of strings")
				}
				l[i] = s
			}
			dst.Set(reflect.ValueOf(l))
			return true, nil
		case nil:
			return true, nil
		}
		return true, fmt.Errorf("expected a string or a list of strings")
	case t == rawMessageType:
		b, err := json.Marshal(v)
		if err != nil {
			return true, err
		}
		dst.SetBytes(b)
		return true, nil
	case t == numberType:
		n, ok := v.(json.Number)
		if !ok {
			if v == nil {
				return true, nil
			}
			return true, mismatch(v, t)
		}
		dst.SetString(string(n))
		return true, nil
	case t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(unmarshalerType):
		b, err := json.Marshal(v)
		if err != nil {
			return true, err
		}
		return true, dst.Addr().Interface().(json.Unmarshaler).UnmarshalJSON(b)
	}
	return false, nil
}

// decodeComposite decodes a non-null v into a pointer, interface, struct,
// slice or map, or passes the scalars on to decodeScalar.
func decodeComposite(dst reflect.Value, v any) error {
	t := dst.Type()
	switch t.Kind() {
	case reflect.Pointer:
		p := reflect.New(t.Elem())
		if err := decodeInto(p.Elem(), v); err != nil {
			return err
		}
		dst.Set(p)
		return nil
	case reflect.Interface:
		dst.Set(reflect.ValueOf(v))
		return nil
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return mismatch(v, t)
		}
		for _, f := range fieldsOf(t) {
			if x, ok := m[f.name]; ok {
				if err := decodeInto(dst.FieldByIndex(f.index), x); err != nil {
					return err
				}
			}
		}
		return nil
	case reflect.Slice:
		l, ok := v.([]any)
		if !ok {
			return mismatch(v, t)
		}
		s := reflect.MakeSlice(t, len(l), len(l))
		for i, e := range l {
			if err := decodeInto(s.Index(i), e); err != nil {
				return err
			}
		}
		dst.Set(s)
		return nil
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok || t.Key().Kind() != reflect.String {
			return mismatch(v, t)
		}
		out := reflect.MakeMapWithSize(t, len(m))
		for k, e := range m {
			ev := reflect.New(t.Elem()).Elem()
			if err := decodeInto(ev, e); err != nil {
				return err
			}
			out.SetMapIndex(reflect.ValueOf(k).Convert(t.Key()), ev)
		}
		dst.Set(out)
		return nil
	}
	return decodeScalar(dst, v)
}

// decodeScalar decodes a non-null v into a string, bool or number.
func decodeScalar(dst reflect.Value, v any) error {
	t := dst.Type()
	switch t.Kind() {
	case reflect.String:
		s, ok := v.(string)
		if !ok {
			return mismatch(v, t)
		}
		dst.SetString(s)
		return nil
	case reflect.Bool:
		b, ok := v.(bool)
		if !ok {
			return mismatch(v, t)
		}
		dst.SetBool(b)
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := v.(json.Number)
		if !ok {
			return mismatch(v, t)
		}
		i, err := strconv.ParseInt(string(n), 10, t.Bits())
		if err != nil {
			return fmt.Errorf("cannot decode number %s into %s", n, t)
		}
		dst.SetInt(i)
		return nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, ok := v.(json.Number)
		if !ok {
			return mismatch(v, t)
		}
		i, err := strconv.ParseUint(string(n), 10, t.Bits())
		if err != nil {
			return fmt.Errorf("cannot decode number %s into %s", n, t)
		}
		dst.SetUint(i)
		return nil
	case reflect.Float32, reflect.Float64:
		n, ok := v.(json.Number)
		if !ok {
			return mismatch(v, t)
		}
		f, err := strconv.ParseFloat(string(n), t.Bits())
		if err != nil {
			return fmt.Errorf("cannot decode number %s into %s", n, t)
		}
		dst.SetFloat(f)
		return nil
	}
	return fmt.Errorf("cannot decode into %s", t)
}

func mismatch(v any, t reflect.Type) error {
	return fmt.Errorf("cannot decode %T into %s", v, t)
}

type field struct {
	name  string
	index []int
}

var fieldCache sync.Map // reflect.Type -> []field

// fieldsOf lists the JSON-named fields of a struct type, those of
// embedded structs included, as encoding/json sees them.
func fieldsOf(t reflect.Type) []field {
	if f, ok := fieldCache.Load(t); ok {
		return f.([]field)
	}
	var out []field
	var walk func(t reflect.Type, index []int)
	walk = func(t reflect.Type, index []int) {
		for i := range t.NumField() {
			f := t.Field(i)
			idx := append(index[:len(index):len(index)], i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
				walk(f.Type, idx)
				continue
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			out = append(out, field{name, idx})
		}
	}
	walk(t, nil)
	fieldCache.Store(t, out)
	return out
}
