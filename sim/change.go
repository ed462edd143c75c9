package sim

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"
)

// scenarioField is one member of the scenario file, with typed access to
// it: what a change between two scenarios compares, what a change sets,
// what a derived scenario carries over.
type scenarioField struct {
	name  string
	equal func(a, b *Scenario) bool
	copy  func(dst, src *Scenario)
	// isSet reports a value other than the field's zero.
	isSet func(sc *Scenario) bool
	// value is the field itself, for encoding/json: a change's values are
	// written and read as the scenario file writes the field.
	value func(sc *Scenario) any
}

// field is the scenarioField of a comparable member, reached by at.
func field[T comparable](name string, at func(sc *Scenario) *T) scenarioField {
	var zero T
	return scenarioField{name: name,
		equal: func(a, b *Scenario) bool { return *at(a) == *at(b) },
		copy:  func(dst, src *Scenario) { *at(dst) = *at(src) },
		isSet: func(sc *Scenario) bool { return *at(sc) != zero },
		value: func(sc *Scenario) any { return at(sc) },
	}
}

// scenarioFields are the scenario file's members but for its timed lists
// (captions and changes), in the file's order. TestScenarioFieldsAreTheFile
// holds it to the Scenario type: a member added there fails the test until
// it is here too.
var scenarioFields = []scenarioField{
	field("name", func(sc *Scenario) *string { return &sc.Name }),
	field("nameZh", func(sc *Scenario) *string { return &sc.NameZh }),
	field("mode", func(sc *Scenario) *string { return &sc.Mode }),
	field("seed", func(sc *Scenario) *int64 { return &sc.Seed }),
	field("duration", func(sc *Scenario) *Duration { return &sc.Duration }),
	field("clients", func(sc *Scenario) *int { return &sc.Clients }),
	field("stagger", func(sc *Scenario) *Duration { return &sc.Stagger }),
	field("rounds", func(sc *Scenario) *int { return &sc.Rounds }),
	field("ttl", func(sc *Scenario) *Duration { return &sc.TTL }),
	field("work", func(sc *Scenario) *Duration { return &sc.Work }),
	field("think", func(sc *Scenario) *Duration { return &sc.Think }),
	field("latency", func(sc *Scenario) *Duration { return &sc.Latency }),
	field("jitter", func(sc *Scenario) *Duration { return &sc.Jitter }),
	field("watchdog", func(sc *Scenario) *bool { return &sc.Watchdog }),
	field("fencing", func(sc *Scenario) *bool { return &sc.Fencing }),
	field("nodes", func(sc *Scenario) *int { return &sc.Nodes }),
	field("replica", func(sc *Scenario) *bool { return &sc.Replica }),
	field("clockDrift", func(sc *Scenario) *float64 { return &sc.ClockDrift }),
	field("driftFactor", func(sc *Scenario) *float64 { return &sc.DriftFactor }),
	field("herd", func(sc *Scenario) *bool { return &sc.Herd }),
	field("respectSuspended", func(sc *Scenario) *bool { return &sc.RespectSuspended }),
	field("checkValidity", func(sc *Scenario) *bool { return &sc.CheckValidity }),
	field("plainDel", func(sc *Scenario) *bool { return &sc.PlainDel }),
	field("sequential", func(sc *Scenario) *bool { return &sc.Sequential }),
	field("tries", func(sc *Scenario) *int { return &sc.Tries }),
	field("retryDelay", func(sc *Scenario) *Duration { return &sc.RetryDelay }),
	field("failoverAfter", func(sc *Scenario) *Duration { return &sc.FailoverAfter }),
	field("preVote", func(sc *Scenario) *bool { return &sc.PreVote }),
	field("contextTimeout", func(sc *Scenario) *bool { return &sc.ContextTimeout }),
	{name: "faults",
		equal: func(a, b *Scenario) bool { return slices.EqualFunc(a.Faults, b.Faults, sameFault) },
		copy:  func(dst, src *Scenario) { dst.Faults = cloneFaults(src.Faults) },
		isSet: func(sc *Scenario) bool { return len(sc.Faults) > 0 },
		value: func(sc *Scenario) any { return &sc.Faults }},
}

// sameFault reports whether two faults are the same in every member (its
// partition's groups too, so not with ==).
func sameFault(a, b Fault) bool { return reflect.DeepEqual(a, b) }

// changeableFields are the members of scenarioFields a change may set
// mid-run, in the order a refusal lists them (ChangeableFields); the
// others shape the whole run (clients, servers, seed, the faults, ...). A
// Settings value's bits index it.
var changeableFields = scenarioFieldsNamed("ttl", "work", "think", "latency", "jitter", "watchdog", "fencing",
	"plainDel", "retryDelay", "tries", "driftFactor", "respectSuspended", "checkValidity")

// ChangeableFields are the names of the fields a Change may set mid-run;
// the others (clients, nodes, mode, seed, ...) shape the whole run.
var ChangeableFields = func() []string {
	out := make([]string, len(changeableFields))
	for i, f := range changeableFields {
		out[i] = f.name
	}
	return out
}()

// scenarioFieldNamed is the scenario member with the file name name.
func scenarioFieldNamed(name string) (scenarioField, bool) {
	i := slices.IndexFunc(scenarioFields, func(f scenarioField) bool { return f.name == name })
	if i < 0 {
		return scenarioField{}, false
	}
	return scenarioFields[i], true
}

// scenarioFieldsNamed are the scenario members with these names.
func scenarioFieldsNamed(names ...string) []scenarioField {
	out := make([]scenarioField, len(names))
	for i, n := range names {
		f, ok := scenarioFieldNamed(n)
		if !ok {
			panic("sim: no scenario field " + n)
		}
		out[i] = f
	}
	return out
}

// Settings are new values for some of the fields a change may set
// (ChangeableFields): which ones, and their values. The zero value sets
// nothing.
type Settings struct {
	fields uint32   // bit i: changeableFields[i] is set
	to     Scenario // the values of the fields set; the others are zero
}

// Has reports whether the settings set the field named name.
func (s Settings) Has(name string) bool {
	i := slices.Index(ChangeableFields, name)
	return i >= 0 && s.fields&(1<<i) != 0
}

// Empty reports whether the settings set no field.
func (s Settings) Empty() bool { return s.fields == 0 }

// Fields names the fields set, sorted as the scenario file writes them.
func (s Settings) Fields() []string {
	var out []string
	for i, f := range changeableFields {
		if s.fields&(1<<i) != 0 {
			out = append(out, f.name)
		}
	}
	sort.Strings(out)
	return out
}

// Value is the value set for the field named name as the scenario file
// writes it, without a string's quotes ("48s", "true"); "" when it is not
// set.
func (s Settings) Value(name string) string {
	if !s.Has(name) {
		return ""
	}
	f, _ := scenarioFieldNamed(name)
	b, err := json.Marshal(f.value(&s.to))
	if err != nil { // a changeable field is a duration, a number or a switch
		return err.Error()
	}
	return strings.Trim(string(b), `"`)
}

// With is s with the fields o sets taking o's values.
func (s Settings) With(o Settings) Settings {
	return pick(s.fields&^o.fields, &s.to).join(pick(o.fields, &o.to))
}

// Without is s without the fields o sets.
func (s Settings) Without(o Settings) Settings { return pick(s.fields&^o.fields, &s.to) }

// pick is the settings of the fields in mask with their values in sc.
func pick(mask uint32, sc *Scenario) Settings {
	out := Settings{fields: mask}
	for i, f := range changeableFields {
		if mask&(1<<i) != 0 {
			f.copy(&out.to, sc)
		}
	}
	return out
}

// join is s and o, which set different fields, together.
func (s Settings) join(o Settings) Settings {
	s.fields |= o.fields
	for i, f := range changeableFields {
		if o.fields&(1<<i) != 0 {
			f.copy(&s.to, &o.to)
		}
	}
	return s
}

// applyTo sets the fields on sc.
func (s Settings) applyTo(sc *Scenario) {
	for i, f := range changeableFields {
		if s.fields&(1<<i) != 0 {
			f.copy(sc, &s.to)
		}
	}
}

// Difference is what tells after from before: the fields a change may
// set whose values differ, with after's values, and the names of those
// that differ but shape the whole run (fixed), in the file's order. The
// timed lists (captions, changes) are not compared.
func Difference(before, after *Scenario) (set Settings, fixed []string) {
	for _, f := range scenarioFields {
		if f.equal(before, after) {
			continue
		}
		if i := slices.Index(ChangeableFields, f.name); i >= 0 {
			set.fields |= 1 << i
			f.copy(&set.to, after)
		} else {
			fixed = append(fixed, f.name)
		}
	}
	return set, fixed
}

// MarshalJSON writes the settings as the scenario file's "set" object:
// the fields by name, sorted, each written as the file writes it.
func (s Settings) MarshalJSON() ([]byte, error) {
	m := make(map[string]json.RawMessage, len(changeableFields))
	for i, f := range changeableFields {
		if s.fields&(1<<i) == 0 {
			continue
		}
		b, err := json.Marshal(f.value(&s.to))
		if err != nil {
			return nil, err
		}
		m[f.name] = b
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads a "set" object, once, into typed values: a field a
// change may not set, or a value of the wrong kind, is a FieldError
// naming the field.
func (s *Settings) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	names := make([]string, 0, len(raw))
	for k := range raw {
		names = append(names, k)
	}
	sort.Strings(names)
	var out Settings
	for _, k := range names {
		i := slices.Index(ChangeableFields, k)
		if i < 0 {
			fields := strings.Join(ChangeableFields, ", ")
			return FieldErr(k, say("field.notChangeable", "fields", fields), "cannot change during a run (one of %s)", fields)
		}
		if err := json.Unmarshal(raw[k], changeableFields[i].value(&out.to)); err != nil {
			english, w := jsonProblem(err)
			return &FieldError{Field: k, English: english, Words: w}
		}
		out.fields |= 1 << i
	}
	*s = out
	return nil
}

// Change is a control moved during a run (a fork in the window): from At
// on, the fields in Set take their new values.
type Change struct {
	At  Duration `json:"at"`
	Set Settings `json:"set"`
}

// UnmarshalJSON reads one entry of a scenario's changes; a problem is a
// FieldError naming the member within the entry ("set.ttl").
func (ch *Change) UnmarshalJSON(b []byte) error {
	var file struct {
		At  json.RawMessage `json:"at"`
		Set json.RawMessage `json:"set"`
	}
	if err := json.Unmarshal(b, &file); err != nil {
		return err
	}
	var c Change
	for _, m := range []struct {
		name string
		raw  json.RawMessage
		to   any
	}{{"at", file.At, &c.At}, {"set", file.Set, &c.Set}} {
		if m.raw == nil {
			continue
		}
		if err := json.Unmarshal(m.raw, m.to); err != nil {
			return within(m.name, err)
		}
	}
	*ch = c
	return nil
}

// within is err, a problem of the member name or of a field inside it, as
// a FieldError naming the path from here ("set.ttl").
func within(name string, err error) error {
	var fe *FieldError
	if errors.As(err, &fe) {
		cp := *fe
		cp.Field = strings.TrimSuffix(name+"."+fe.Field, ".")
		return &cp
	}
	english, w := jsonProblem(err)
	return &FieldError{Field: name, English: english, Words: w}
}

// apply returns a copy of sc with the change's fields set.
func (ch Change) apply(sc *Scenario) *Scenario {
	c := sc.Clone()
	ch.Set.applyTo(c)
	return c
}

// String lists the change's fields as `ttl=5s, watchdog=true`.
func (ch Change) String() string {
	var b strings.Builder
	for i, k := range ch.Set.Fields() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k + "=" + ch.Set.Value(k))
	}
	return b.String()
}

// At is the scenario as it stands at t: its changes at or before t
// applied in the order the simulator applies them (by time, then by
// place in the file), and no changes left. The window's controls show it.
func (sc *Scenario) At(t time.Duration) *Scenario {
	var due []Change
	for _, ch := range sc.Changes {
		if ch.At.D() <= t {
			due = append(due, ch)
		}
	}
	out := sc.Clone()
	out.Changes = nil
	sort.SliceStable(due, func(i, j int) bool { return due[i].At < due[j].At })
	for _, ch := range due {
		ch.Set.applyTo(out)
	}
	return out
}
