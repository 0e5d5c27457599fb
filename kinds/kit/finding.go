package kit

// Finding is one problem a kind finds in its manifest value. Field is the
// path of the value relative to the kind's manifest key, in its
// snake_case names with 0-based indexes ("contact[1]", "records[2].cert",
// "[1].fraction"), "" for the value itself. Message is lowercase, without
// a final period. First, when set, is the Field of an earlier value this
// one repeats (a second entry for one anchor): validate ends the message
// with that value's position in the manifest, "(first at file:line:col)".
//
// In, when set, places the finding at a character of the string value at
// Field rather than at the value (a heading in llms.txt's details):
// validate maps In.Offset to its line and column where the value is a
// literal block.
type Finding struct {
	Field   string
	Warning bool
	Message string
	First   string
	In      *ValueOffset
}

// ValueOffset is a byte offset in a string value of the manifest: Value is
// the value, as the kind read it.
type ValueOffset struct {
	Value  string
	Offset int
}

func (f Finding) String() string {
	if f.Warning {
		return "warning: " + f.Field + ": " + f.Message
	}
	return f.Field + ": " + f.Message
}

// FirstError returns the first finding that is not a warning, or nil.
func FirstError(fs []Finding) *Finding {
	for i := range fs {
		if !fs[i].Warning {
			return &fs[i]
		}
	}
	return nil
}
