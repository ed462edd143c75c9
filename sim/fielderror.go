package sim

import "fmt"

// FieldError is a problem with one field of a scenario. Its Error is the
// simulator's English, `field: problem`, which the command line prints as
// it is; Words is the same problem as data, so the window can say it in
// the reader's language while the field keeps its JSON name.
type FieldError struct {
	// Field is the JSON path as the file spells it ("faults[2].at"); it
	// is "" when the caller's wrapping names the field.
	Field string
	// English is the problem, as the simulator states it after "field: ".
	English string
	// Words is English as a translation key and its figures.
	Words Words
	// Err is the cause, when there is one, so errors.Is still finds it.
	Err error
}

// Error is the English the command line and the traces show.
func (e *FieldError) Error() string {
	if e.Field == "" {
		return e.English
	}
	return e.Field + ": " + e.English
}

// Unwrap is the cause, nil when the problem is the simulator's own.
func (e *FieldError) Unwrap() error { return e.Err }

// fieldErr is the problem w with field, its English formatted from
// format and a; a test holds the key's English to that text.
func FieldErr(field string, w Words, format string, a ...any) *FieldError {
	return &FieldError{Field: field, English: fmt.Sprintf(format, a...), Words: w}
}
