package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// override is one `--set field=value` (or `--seed N`): a path into the
// scenario's JSON document and the JSON value to put there. Overrides are
// applied to the document before it is parsed, so the scenario's own
// validation names the field when a value is wrong.
type override struct {
	path  []step
	value any // decoded JSON: map[string]any, []any, json.Number, string, bool or nil
}

// step is one hop of a field path: a member name, or an index into a list
// (`faults[0].for` is "faults", 0, "for").
type step struct {
	key   string
	index int // used when key is ""
}

// parseSet reads `field=value`. The value is taken as JSON when it parses
// (`fencing=true`, `clients=4`, `faults=[...]`) and as a string otherwise
// (`ttl=5s`, `name=my run`).
func parseSet(arg string) (override, error) {
	field, value, ok := strings.Cut(arg, "=")
	if !ok {
		return override{}, fmt.Errorf("--set %q: want field=value, such as ttl=5s", arg)
	}
	path, err := parsePath(field)
	if err != nil {
		return override{}, fmt.Errorf("--set %q: %w", arg, err)
	}
	v, err := decodeJSON([]byte(value))
	if err != nil {
		return override{path: path, value: value}, nil
	}
	return override{path: path, value: v}, nil
}

// decodeJSON reads one JSON value, keeping numbers as written so a seed past
// 2^53 survives the round trip.
func decodeJSON(b []byte) (any, error) {
	if !json.Valid(b) {
		return nil, fmt.Errorf("not JSON")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// parsePath splits `faults[0].for` into its steps.
func parsePath(field string) ([]step, error) {
	bad := fmt.Errorf("field %q: want a path such as ttl or faults[0].for", field)
	var out []step
	for _, part := range strings.Split(field, ".") {
		name, idx, indexed := strings.Cut(part, "[")
		if name == "" {
			return nil, bad
		}
		out = append(out, step{key: name})
		if !indexed {
			continue
		}
		if !strings.HasSuffix(idx, "]") {
			return nil, bad
		}
		for _, n := range strings.Split(strings.TrimSuffix(idx, "]"), "][") {
			i, err := strconv.Atoi(n)
			if err != nil || i < 0 {
				return nil, bad
			}
			out = append(out, step{index: i})
		}
	}
	return out, nil
}

// pathString writes steps back as the scenario's error messages name
// fields: `faults[0].for`.
func pathString(steps []step) string {
	var b strings.Builder
	for _, s := range steps {
		if s.key == "" {
			fmt.Fprintf(&b, "[%d]", s.index)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.key)
	}
	return b.String()
}

// applyOverrides returns doc with every override applied in order.
func applyOverrides(doc []byte, overrides []override) ([]byte, error) {
	root, err := decodeJSON(doc)
	if err != nil {
		return nil, fmt.Errorf("scenario: not a JSON object: %v", err)
	}
	for _, o := range overrides {
		if root, err = assign(root, o.path, 0, o.value); err != nil {
			return nil, err
		}
	}
	return json.Marshal(root)
}

// assign sets path[i:] under node to value and returns the updated node.
// A missing member is created; a list may grow by one at its end, so
// `--set faults[0]={...}` adds a fault to a scenario that has none.
func assign(node any, path []step, i int, value any) (any, error) {
	if i == len(path) {
		return value, nil
	}
	s, where := path[i], pathString(path[:i+1])
	if s.key != "" {
		m, ok := node.(map[string]any)
		if node == nil {
			m, ok = map[string]any{}, true
		}
		if !ok {
			return nil, fmt.Errorf("%s: %s is not an object", where, pathString(path[:i]))
		}
		v, err := assign(m[s.key], path, i+1, value)
		if err != nil {
			return nil, err
		}
		m[s.key] = v
		return m, nil
	}
	l, ok := node.([]any)
	if node == nil {
		ok = true
	}
	if !ok {
		return nil, fmt.Errorf("%s: %s is not a list", where, pathString(path[:i]))
	}
	if s.index > len(l) {
		return nil, fmt.Errorf("%s: index out of range (length %d; %d appends)", where, len(l), len(l))
	}
	if s.index == len(l) {
		l = append(l, nil)
	}
	v, err := assign(l[s.index], path, i+1, value)
	if err != nil {
		return nil, err
	}
	l[s.index] = v
	return l, nil
}
