package sim

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"
)

// scenarioField is one member of the scenario file every design has,
// with typed access to it: what a change between two scenarios compares,
// what a derived scenario carries over, what the file writes. A design's
// own settings are its options (option.go), members of the same file.
type scenarioField struct {
	name  string
	equal func(a, b *Scenario) bool
	copy  func(dst, src *Scenario)
	// isSet reports a value other than the field's zero.
	isSet func(sc *Scenario) bool
	// value is the field itself, for encoding/json: a change's values are
	// written and read as the scenario file writes the field.
	value func(sc *Scenario) any
	// omitEmpty leaves the field out of the file when it is not set.
	omitEmpty bool
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

// omitted is f left out of the file when it is not set.
func omitted(f scenarioField) scenarioField { f.omitEmpty = true; return f }

// scenarioFields are the scenario file's members every design has but for
// its timed lists (captions and changes), in the file's order; a design's
// options come before the faults. TestScenarioFieldsAreTheFile holds it
// to the Scenario type: a member added there fails the test until it is
// here too.
var scenarioFields = []scenarioField{
	omitted(field("name", func(sc *Scenario) *string { return &sc.Name })),
	omitted(field("nameZh", func(sc *Scenario) *string { return &sc.NameZh })),
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
	field("fencing", func(sc *Scenario) *bool { return &sc.Fencing }),
	field("clockDrift", func(sc *Scenario) *float64 { return &sc.ClockDrift }),
	field("tries", func(sc *Scenario) *int { return &sc.Tries }),
	field("retryDelay", func(sc *Scenario) *Duration { return &sc.RetryDelay }),
	{name: "faults",
		equal: func(a, b *Scenario) bool { return slices.EqualFunc(a.Faults, b.Faults, sameFault) },
		copy:  func(dst, src *Scenario) { dst.Faults = cloneFaults(src.Faults) },
		isSet: func(sc *Scenario) bool { return len(sc.Faults) > 0 },
		value: func(sc *Scenario) any { return &sc.Faults }},
}

// sameFault reports whether two faults are the same in every member (its
// partition's groups too, so not with ==).
func sameFault(a, b Fault) bool { return reflect.DeepEqual(a, b) }

// scenarioFieldKnown says whether name is a member of the file every
// design has (its timed lists too).
func scenarioFieldKnown(name string) bool {
	_, ok := scenarioFieldNamed(name)
	return ok || name == "captions" || name == "changes"
}

// changeKey is a member of the scenario file a change may set mid-run:
// its name, the kind of its value, and the value's stored form read from
// and written to a scenario.
type changeKey struct {
	name   string
	kind   OptionKind
	values []string // a choice's
	get    func(sc *Scenario) uint64
	set    func(sc *Scenario, b uint64)
}

// durationKey, boolKey and intKey are the changeKeys of fields every
// design has.
func durationKey(name string, at func(sc *Scenario) *Duration) changeKey {
	return changeKey{name: name, kind: OptionDuration,
		get: func(sc *Scenario) uint64 { return uint64(int64(*at(sc))) },
		set: func(sc *Scenario, b uint64) { *at(sc) = Duration(int64(b)) }}
}

func boolKey(name string, at func(sc *Scenario) *bool) changeKey {
	return changeKey{name: name, kind: OptionBool,
		get: func(sc *Scenario) uint64 { return boolBits(*at(sc)) },
		set: func(sc *Scenario, b uint64) { *at(sc) = b != 0 }}
}

func intKey(name string, at func(sc *Scenario) *int) changeKey {
	return changeKey{name: name, kind: OptionInt,
		get: func(sc *Scenario) uint64 { return uint64(int64(*at(sc))) },
		set: func(sc *Scenario, b uint64) { *at(sc) = int(int64(b)) }}
}

// maxChangeKeys is the most members a change may set: the fields every
// design has that it may, and the changeable options of all designs.
const maxChangeKeys = 32

// changeKeys are the members a change may set mid-run, in the order a
// refusal lists them (ChangeableFields): the fields every design has
// first, then the designs' changeable options (Option.Changeable) as
// they registered. The others shape the whole run (clients, servers,
// seed, the faults, ...). A Settings value's bits index it.
var changeKeys = []changeKey{
	durationKey("ttl", func(sc *Scenario) *Duration { return &sc.TTL }),
	durationKey("work", func(sc *Scenario) *Duration { return &sc.Work }),
	durationKey("think", func(sc *Scenario) *Duration { return &sc.Think }),
	durationKey("latency", func(sc *Scenario) *Duration { return &sc.Latency }),
	durationKey("jitter", func(sc *Scenario) *Duration { return &sc.Jitter }),
	boolKey("fencing", func(sc *Scenario) *bool { return &sc.Fencing }),
	durationKey("retryDelay", func(sc *Scenario) *Duration { return &sc.RetryDelay }),
	intKey("tries", func(sc *Scenario) *int { return &sc.Tries }),
}

// addChangeKey adds a changeable option's key (registerOptions).
func addChangeKey(k changeKey) {
	if len(changeKeys) == maxChangeKeys {
		panic(fmt.Sprintf("sim: more than %d fields a change may set", maxChangeKeys))
	}
	changeKeys = append(changeKeys, k)
}

// changeIndex is the place of name in changeKeys, -1 for none.
func changeIndex(name string) int {
	return slices.IndexFunc(changeKeys, func(k changeKey) bool { return k.name == name })
}

// ChangeableFields are the names of the fields a Change may set mid-run:
// those every design has, then the registered designs' changeable
// options (optionKeysListed); the others (clients, nodes, mode, seed,
// ...) shape the whole run.
func ChangeableFields() []string {
	var out []string
	for _, k := range changeKeys {
		if _, option := optionKeys[k.name]; !option {
			out = append(out, k.name)
		}
	}
	for _, k := range optionKeysListed() {
		if k.changeable {
			out = append(out, k.key)
		}
	}
	return out
}

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
	fields uint32                // bit i: changeKeys[i] is set
	to     [maxChangeKeys]uint64 // the values of the fields set, stored as OptionValues are; the others are zero
}

// Has reports whether the settings set the field named name.
func (s Settings) Has(name string) bool {
	i := changeIndex(name)
	return i >= 0 && s.fields&(1<<i) != 0
}

// Empty reports whether the settings set no field.
func (s Settings) Empty() bool { return s.fields == 0 }

// Fields names the fields set, sorted as the scenario file writes them.
func (s Settings) Fields() []string {
	var out []string
	for i, k := range changeKeys {
		if s.fields&(1<<i) != 0 {
			out = append(out, k.name)
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
	i := changeIndex(name)
	b, err := json.Marshal(changeKeys[i].kind.pointer(changeKeys[i].values, s.to[i]))
	if err != nil { // a changeable field is a duration, a number or a switch
		return err.Error()
	}
	return strings.Trim(string(b), `"`)
}

// With is s with the fields o sets taking o's values.
func (s Settings) With(o Settings) Settings { return s.Without(o).join(o) }

// Without is s without the fields o sets.
func (s Settings) Without(o Settings) Settings {
	out := Settings{fields: s.fields &^ o.fields}
	for i := range changeKeys {
		if out.fields&(1<<i) != 0 {
			out.to[i] = s.to[i]
		}
	}
	return out
}

// join is s and o, which set different fields, together.
func (s Settings) join(o Settings) Settings {
	s.fields |= o.fields
	for i := range changeKeys {
		if o.fields&(1<<i) != 0 {
			s.to[i] = o.to[i]
		}
	}
	return s
}

// applyTo sets the fields on sc.
func (s Settings) applyTo(sc *Scenario) {
	for i, k := range changeKeys {
		if s.fields&(1<<i) != 0 {
			k.set(sc, s.to[i])
		}
	}
}

// Difference is what tells after from before: the fields a change may
// set whose values differ, with after's values, and the names of those
// that differ but shape the whole run (fixed), in the file's order (the
// options of after's design before the faults). The timed lists
// (captions, changes) are not compared.
func Difference(before, after *Scenario) (set Settings, fixed []string) {
	differs := func(name string, get func(sc *Scenario) uint64) {
		if i := changeIndex(name); i >= 0 {
			set.fields |= 1 << i
			set.to[i] = get(after)
		} else {
			fixed = append(fixed, name)
		}
	}
	for _, f := range scenarioFields {
		if f.name == "faults" {
			for _, o := range after.Options.setFor(after).listOrNil() {
				a, _ := before.Options.bitsKey(before, o.Key)
				b, _ := after.Options.bitsKey(after, o.Key)
				if !o.kind.equal(a, b) {
					differs(o.Key, func(sc *Scenario) uint64 { return b })
				}
			}
		}
		if f.equal(before, after) {
			continue
		}
		i := changeIndex(f.name)
		if i < 0 {
			fixed = append(fixed, f.name)
			continue
		}
		differs(f.name, changeKeys[i].get)
	}
	return set, fixed
}

// MarshalJSON writes the settings as the scenario file's "set" object:
// the fields by name, sorted, each written as the file writes it.
func (s Settings) MarshalJSON() ([]byte, error) {
	m := make(map[string]json.RawMessage, len(changeKeys))
	for i, k := range changeKeys {
		if s.fields&(1<<i) == 0 {
			continue
		}
		b, err := json.Marshal(k.kind.pointer(k.values, s.to[i]))
		if err != nil {
			return nil, err
		}
		m[k.name] = b
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
		i := changeIndex(k)
		if i < 0 {
			fields := strings.Join(ChangeableFields(), ", ")
			return FieldErr(k, say("field.notChangeable", "fields", fields), "cannot change during a run (one of %s)", fields)
		}
		v, err := changeKeys[i].kind.decode(changeKeys[i].values, raw[k])
		if err != nil {
			english, w := jsonProblem(err)
			return &FieldError{Field: k, English: english, Words: w}
		}
		out.fields |= 1 << i
		out.to[i] = v
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
