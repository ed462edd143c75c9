package sim

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// An Option is one setting a design declares for itself, once, in its own
// folder: its member in the scenario file (Key, a top-level member like
// every other: the file stays flat), the type and default of its value,
// how its value is checked, whether a change may set it mid-run, what
// another design does with it, the words the window and the command line
// say it with, and whether a sweep can put it on an axis. A design lists
// its options in its Traits (Traits.Options); the scenario (its values,
// its file), changes, sweeps, the window's controls and descriptions
// derive from the declaration, so no core file names a design's setting.
//
// A design reads its options through their typed handles (BoolOption,
// IntOption, FloatOption, DurationOption, ChoiceOption:
// redis.Replica.Of(sc)); the rest
// of the program goes through the Option: Value, SetValue, OptionsOf.
//
// Two designs may declare options with the same key (zookeeper's and
// etcd's herd): a scenario file has one member of that name, so the
// declarations must agree on its type, on Changeable and on Elsewhere;
// each design keeps its own default and check. Reading an option in a
// scenario of another design reads that design's option of the same key,
// the zero value when it has none.
type Option struct {
	// Key is the option's member in the scenario file, its name in
	// errors, in --set and --x, and the key of the window's control.
	Key string
	// Changeable says a change may set it mid-run (a control moved at the
	// cursor becomes a change); otherwise it shapes the whole run.
	Changeable bool
	// Elsewhere is what a design that does not declare the option does
	// when a scenario sets it.
	Elsewhere Elsewhere
	// Refusal is the option's own words for refusing it in a design that
	// does not declare it, given the designs that do (readBy); nil when
	// every such design must give its own (Traits.Refusals).
	Refusal func(readBy []string) *FieldError
	// Words is the stem of the option's translation keys in the window's
	// descriptions: "param.<Words>" in a scenario's parameter line,
	// "tradeoff.field.<Words>" as a trade-off map's axis. The window's
	// control has words of its own (the design's tab).
	Words string
	// Describe is how a scenario's parameter line says the option.
	Describe Describe
	// Applies, when set, says whether the option matters in sc (Sentinel's
	// delay only with a replica): the window greys its control and leaves
	// it out of the description where it does not.
	Applies func(sc *Scenario) bool
	// Axis, for an option a sweep can vary, is the range the window's
	// trade-off map gives it, "from:to:steps" (as `lockscope sweep --x
	// <Key>=from:to:steps` reads it); "" for an option no sweep varies.
	Axis string

	kind   OptionKind
	values []string // a choice's values, in their order (NewChoice)
	def    uint64
	check  func(b uint64) error // the declaration's own check of a value
	set    *optionSet           // the design that declared it, once registered
	slot   int                  // its place in a scenario's OptionValues
}

// OptionKind is the type of an option's value.
type OptionKind uint8

// The kinds of option values.
const (
	OptionBool     OptionKind = iota + 1 // an on/off switch: a toggle in the window
	OptionInt                            // a count: a slider
	OptionFloat                          // a number: a slider
	OptionDuration                       // a length of time: a slider
	OptionChoice                         // one of a few named values: a select
)

// Elsewhere is what a design that does not declare an option does with a
// scenario that sets it.
type Elsewhere uint8

const (
	// Refused: a value other than the option's zero is an error naming the
	// option, in the refusing design's words (Traits.Refusals) or else the
	// option's own (Option.Refusal). The zero value is taken and dropped,
	// as files written before the option was the design's own carry it.
	Refused Elsewhere = iota
	// Ignored: any value of the right type is taken and dropped (a
	// setting every design once had a default for, which files of every
	// design carry, as nodes).
	Ignored
	// IgnoredIfValid: as Ignored, but the value must pass the option's
	// check (of the first design that declares it): a setting every
	// design once checked, whatever design read it (driftFactor).
	IgnoredIfValid
)

// Describe is how a scenario's parameter line (the window's export and
// status line) says an option.
type Describe uint8

const (
	// DescribeNot: the line does not say it.
	DescribeNot Describe = iota
	// DescribeOnOff: "<param.Words> on" or "<param.Words> off".
	DescribeOnOff
	// DescribeWhenOn: "<param.Words> on", and nothing when off.
	DescribeWhenOn
	// DescribePhrase: the words param.<Words> themselves when on ("plain
	// DEL"), nothing when off; for a choice, param.<Words>.<value> when
	// the value is not its first.
	DescribePhrase
	// DescribeFigure: param.<Words> with the value as its figure, "n" for
	// a count and "t" for a length of time ("5 masters", "Sentinel
	// promotes after 3 s").
	DescribeFigure
	// DescribeAsIs: the key and the value as the file writes it
	// ("driftFactor 0.01").
	DescribeAsIs
	// DescribeFigureWhenOn: DescribeFigure when the value is not its zero,
	// nothing when it is ("read–write lock: 2 readers"); its control stays
	// enabled at zero, as Applies would not leave it.
	DescribeFigureWhenOn
)

// IntBetween is the check of a whole-number option that must lie in
// [lo, hi]: "key: 9, want 0 to 5".
func IntBetween(key string, lo, hi int) func(int) error {
	return func(n int) error {
		if n < lo || n > hi {
			return FieldErr(key, say("field.between", "n", strconv.Itoa(n), "lo", strconv.Itoa(lo), "hi", strconv.Itoa(hi)),
				"%d, want %d to %d", n, lo, hi)
		}
		return nil
	}
}

// MaxOptions is the most options one design declares.
const MaxOptions = 12

// BoolOption is a design's handle on an on/off option.
type BoolOption struct{ *Option }

// IntOption is a design's handle on a whole-number option.
type IntOption struct{ *Option }

// FloatOption is a design's handle on a number option.
type FloatOption struct{ *Option }

// DurationOption is a design's handle on a length-of-time option.
type DurationOption struct{ *Option }

// ChoiceOption is a design's handle on an option that is one of a few
// named values; a design compares the value it reads with its names
// (redis.Client.Of(sc) == redis.ClientPlain).
type ChoiceOption struct{ *Option }

// NewBool declares an on/off option with its default.
func NewBool(o Option, def bool) BoolOption {
	return BoolOption{declare(o, OptionBool, boolBits(def), nil)}
}

// NewInt declares a whole-number option with its default and its check
// (nil for none); the check's error names the option.
func NewInt(o Option, def int, check func(v int) error) IntOption {
	var c func(uint64) error
	if check != nil {
		c = func(b uint64) error { return check(int(int64(b))) }
	}
	return IntOption{declare(o, OptionInt, uint64(int64(def)), c)}
}

// NewFloat declares a number option with its default and its check (nil
// for none).
func NewFloat(o Option, def float64, check func(v float64) error) FloatOption {
	var c func(uint64) error
	if check != nil {
		c = func(b uint64) error { return check(math.Float64frombits(b)) }
	}
	return FloatOption{declare(o, OptionFloat, math.Float64bits(def), c)}
}

// NewDuration declares a length-of-time option with its default and its
// check (nil for none). Every length is checked as the scenario's own are
// first: not negative, not longer than MaxDuration (zero is allowed).
func NewDuration(o Option, def time.Duration, check func(v Duration) error) DurationOption {
	c := func(b uint64) error {
		d := Duration(int64(b))
		if err := checkDuration(o.Key, d, true); err != nil {
			return err
		}
		if check != nil {
			return check(d)
		}
		return nil
	}
	return DurationOption{declare(o, OptionDuration, uint64(int64(def)), c)}
}

// NewChoice declares an option that is one of values, with its default
// (one of them). The scenario file writes it as a JSON string, a value
// not among them is refused with the option named and the values listed;
// it is stored as the value's place in values, so the first value is the
// one a design that does not declare the option is taken to have (a file
// of another design may carry it, and any other is refused there, as
// Elsewhere says). A choice is no sweep's axis.
func NewChoice(o Option, def string, values []string) ChoiceOption {
	i := slices.Index(values, def)
	switch {
	case len(values) < 2:
		panic("sim: choice " + o.Key + " needs two values at least")
	case i < 0:
		panic("sim: choice " + o.Key + "'s default " + def + " is none of its values")
	case o.Axis != "":
		panic("sim: choice " + o.Key + " cannot be a sweep's axis")
	}
	for j, v := range values {
		if v == "" || slices.Index(values, v) != j {
			panic("sim: choice " + o.Key + " has an empty or repeated value")
		}
	}
	p := declare(o, OptionChoice, uint64(i), nil)
	p.values = slices.Clone(values)
	return ChoiceOption{p}
}

func declare(o Option, kind OptionKind, def uint64, check func(uint64) error) *Option {
	if o.Key == "" {
		panic("sim: an option without a key")
	}
	o.kind, o.def, o.check = kind, def, check
	return &o
}

// Of is the option's value in sc.
func (o BoolOption) Of(sc *Scenario) bool { return sc.Options.bits(o.Option) != 0 }

// Set sets the option's value in sc.
func (o BoolOption) Set(sc *Scenario, v bool) { sc.Options.put(sc, o.Option, boolBits(v)) }

// Of is the option's value in sc.
func (o IntOption) Of(sc *Scenario) int { return int(int64(sc.Options.bits(o.Option))) }

// Set sets the option's value in sc.
func (o IntOption) Set(sc *Scenario, v int) { sc.Options.put(sc, o.Option, uint64(int64(v))) }

// Of is the option's value in sc.
func (o FloatOption) Of(sc *Scenario) float64 { return math.Float64frombits(sc.Options.bits(o.Option)) }

// Set sets the option's value in sc.
func (o FloatOption) Set(sc *Scenario, v float64) { sc.Options.put(sc, o.Option, math.Float64bits(v)) }

// Of is the option's value in sc.
func (o DurationOption) Of(sc *Scenario) Duration { return Duration(int64(sc.Options.bits(o.Option))) }

// Set sets the option's value in sc.
func (o DurationOption) Set(sc *Scenario, v Duration) { sc.Options.put(sc, o.Option, uint64(int64(v))) }

// Of is the option's value in sc: one of its values.
func (o ChoiceOption) Of(sc *Scenario) string {
	return o.values[min(int(sc.Options.bits(o.Option)), len(o.values)-1)]
}

// Set sets the option's value in sc, one of its values (another panics:
// it is a mistake in the caller).
func (o ChoiceOption) Set(sc *Scenario, v string) { o.SetValue(sc, v) }

// Kind is the type of the option's value.
func (o *Option) Kind() OptionKind { return o.kind }

// Values are a choice's values, in their order; nil for another kind.
func (o *Option) Values() []string { return slices.Clone(o.values) }

// Default is the option's default value in its design's scenarios: a
// bool, an int, a float64, a Duration or a choice's string, as Value.
func (o *Option) Default() any { return o.kind.typed(o.values, o.def) }

// Value is the option's value in sc as a bool, an int, a float64, a
// Duration or a choice's string (by Kind): the value of sc's design's
// option of the same key, the kind's zero (a choice's first value) when
// that design has none.
func (o *Option) Value(sc *Scenario) any {
	b, _ := sc.Options.bitsKey(sc, o.Key)
	return o.kind.typed(o.values, b)
}

// SetValue sets the option in sc to v, a bool, an int, a float64, a
// Duration (by Kind; a time.Duration is taken for a Duration) or one of a
// choice's values. A value of another type, or no value of the choice,
// panics: it is a mistake in the caller.
func (o *Option) SetValue(sc *Scenario, v any) {
	b, ok := o.kind.bitsOf(o.values, v)
	if !ok {
		panic(fmt.Sprintf("sim: option %s takes a %s, not %T %v", o.Key, o.kind, v, v))
	}
	sc.Options.put(sc, o, b)
}

// IsOn says whether the option is not its zero value in sc (a switch on,
// a number other than 0).
func (o *Option) IsOn(sc *Scenario) bool {
	b, _ := sc.Options.bitsKey(sc, o.Key)
	return !o.kind.zero(b)
}

// AppliesTo says whether the option matters in sc (Applies).
func (o *Option) AppliesTo(sc *Scenario) bool { return o.Applies == nil || o.Applies(sc) }

// String names the kind as the scenario file's values are said.
func (k OptionKind) String() string {
	switch k {
	case OptionBool:
		return "bool"
	case OptionInt:
		return "int"
	case OptionFloat:
		return "float64"
	case OptionDuration:
		return "duration"
	case OptionChoice:
		return "choice"
	}
	return "none"
}

// typed is the value b as a Go value of the kind (values: a choice's).
func (k OptionKind) typed(values []string, b uint64) any {
	switch k {
	case OptionBool:
		return b != 0
	case OptionInt:
		return int(int64(b))
	case OptionFloat:
		return math.Float64frombits(b)
	case OptionDuration:
		return Duration(int64(b))
	case OptionChoice:
		if int(b) < len(values) {
			return values[b]
		}
		return ""
	}
	return nil
}

// bitsOf is the stored form of v, a Go value of the kind (values: a
// choice's).
func (k OptionKind) bitsOf(values []string, v any) (uint64, bool) {
	switch x := v.(type) {
	case string:
		i := slices.Index(values, x)
		return uint64(max(i, 0)), k == OptionChoice && i >= 0
	case bool:
		return boolBits(x), k == OptionBool
	case int:
		return uint64(int64(x)), k == OptionInt
	case float64:
		return math.Float64bits(x), k == OptionFloat
	case Duration:
		return uint64(int64(x)), k == OptionDuration
	case time.Duration:
		return uint64(int64(x)), k == OptionDuration
	}
	return 0, false
}

// zero says whether b is the kind's zero value.
func (k OptionKind) zero(b uint64) bool {
	if k == OptionFloat {
		return math.Float64frombits(b) == 0
	}
	return b == 0
}

// equal compares two values of the kind.
func (k OptionKind) equal(a, b uint64) bool {
	if k == OptionFloat {
		return math.Float64frombits(a) == math.Float64frombits(b)
	}
	return a == b
}

// pointer is a new Go variable of the kind holding b, for encoding/json:
// an option's value is written and read as a scenario field of its type
// is, with the same errors (a choice as its value's string).
func (k OptionKind) pointer(values []string, b uint64) any {
	switch k {
	case OptionBool:
		v := b != 0
		return &v
	case OptionInt:
		v := int(int64(b))
		return &v
	case OptionFloat:
		v := math.Float64frombits(b)
		return &v
	case OptionDuration:
		v := Duration(int64(b))
		return &v
	case OptionChoice:
		v, _ := k.typed(values, b).(string)
		return &v
	}
	return nil
}

// decode reads a JSON value of the kind (values: a choice's; a string
// none of them is an error listing them).
func (k OptionKind) decode(values []string, raw json.RawMessage) (uint64, error) {
	p := k.pointer(values, 0)
	if err := json.Unmarshal(raw, p); err != nil {
		return 0, err
	}
	v := derefValue(p)
	b, ok := k.bitsOf(values, v)
	if !ok {
		list, got := strings.Join(values, ", "), strconv.Quote(v.(string))
		return 0, &FieldError{English: fmt.Sprintf("want one of %s, got %s", list, got),
			Words: say("field.wantChoice", "values", list, "got", got)}
	}
	return b, nil
}

// derefValue is the value a pointer made by OptionKind.pointer holds.
func derefValue(p any) any {
	switch x := p.(type) {
	case *bool:
		return *x
	case *int:
		return *x
	case *float64:
		return *x
	case *Duration:
		return *x
	case *string:
		return *x
	}
	return nil
}

// sweepValue is b in the sweep's unit: milliseconds for a length of time.
func (k OptionKind) sweepValue(b uint64) float64 {
	switch k {
	case OptionBool:
		if b != 0 {
			return 1
		}
		return 0
	case OptionInt:
		return float64(int64(b))
	case OptionFloat:
		return math.Float64frombits(b)
	case OptionDuration:
		return Ms(time.Duration(int64(b)))
	case OptionChoice:
		return float64(b)
	}
	return 0
}

// fromSweep is v, in the sweep's unit, stored.
func (k OptionKind) fromSweep(v float64) uint64 {
	switch k {
	case OptionBool:
		return boolBits(v != 0)
	case OptionInt:
		return uint64(int64(v))
	case OptionFloat:
		return math.Float64bits(v)
	case OptionDuration:
		return uint64(int64(v * float64(time.Millisecond)))
	}
	return 0
}

func boolBits(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// optionSet is the options one design declares, bound to it when it
// registers.
type optionSet struct {
	mode  string
	list  []*Option
	byKey map[string]*Option
}

// own is the set's option of o's key: o itself when o is the set's, nil
// when the design declares none.
func (s *optionSet) own(o *Option) *Option {
	if s == nil {
		return nil
	}
	if o.set == s {
		return o
	}
	return s.byKey[o.Key]
}

// optionKey is what the scenario file knows of a member some designs
// declare as an option: what their declarations agree on.
type optionKey struct {
	key        string
	kind       OptionKind
	values     []string // a choice's: its declarations agree on them
	changeable bool
	elsewhere  Elsewhere
	// refusal is the first declaration's own words for refusing it, in
	// the order the designs registered; nil when none has any.
	refusal func(readBy []string) *FieldError
	// axis says a sweep can vary it (some declaration has an Axis).
	axis bool
	// check is the first declaration's check of a value (IgnoredIfValid).
	check func(b uint64) error
}

// optionKeys are the members the registered designs declare, by key, and
// in the order they were first declared.
var (
	optionKeys     = map[string]*optionKey{}
	optionKeyOrder []string
)

// OptionsOf lists the options the mode declares, in its order; nil for a
// mode that declares none or is not registered.
func OptionsOf(mode string) []*Option {
	if s := optionSets[mode]; s != nil {
		return slices.Clone(s.list)
	}
	return nil
}

// optionSets are the registered designs' options, by mode.
var optionSets = map[string]*optionSet{}

// OptionOf is the option of that key the mode declares, nil for none.
func OptionOf(mode, key string) *Option {
	return optionSets[mode].byKeyOrNil(key)
}

func (s *optionSet) byKeyOrNil(key string) *Option {
	if s == nil {
		return nil
	}
	return s.byKey[key]
}

// Option is the option of that key the scenario's design declares, nil
// for none.
func (sc *Scenario) Option(key string) *Option { return sc.Options.setFor(sc).byKeyOrNil(key) }

// bindOptions checks the options a mode about to register declares, and
// returns what registering binds: its set and the keys first declared by
// it. It changes nothing, so a mode refused for another reason after it
// leaves no trace.
func bindOptions(m Mode) (*optionSet, []*optionKey, error) {
	list := m.Traits().Options
	if len(list) > MaxOptions {
		return nil, nil, fmt.Errorf("mode %s declares %d options, at most %d", m.Name(), len(list), MaxOptions)
	}
	set := &optionSet{mode: m.Name(), list: list, byKey: map[string]*Option{}}
	var fresh []*optionKey
	for _, o := range list {
		switch {
		case o == nil || o.kind == 0:
			return nil, nil, fmt.Errorf("mode %s: an option not made by sim.NewBool, NewInt, NewFloat, NewDuration or NewChoice", m.Name())
		case o.set != nil:
			return nil, nil, fmt.Errorf("mode %s: option %s is mode %s's already", m.Name(), o.Key, o.set.mode)
		case set.byKey[o.Key] != nil:
			return nil, nil, fmt.Errorf("mode %s declares option %s twice", m.Name(), o.Key)
		case scenarioFieldKnown(o.Key):
			return nil, nil, fmt.Errorf("mode %s: option %s is a field every design has", m.Name(), o.Key)
		}
		set.byKey[o.Key] = o
		if k, ok := optionKeys[o.Key]; ok {
			if k.kind != o.kind || !slices.Equal(k.values, o.values) || k.changeable != o.Changeable || k.elsewhere != o.Elsewhere {
				return nil, nil, fmt.Errorf("mode %s: option %s is not declared as the other designs declare it (its kind, a choice's values, Changeable and Elsewhere must agree)", m.Name(), o.Key)
			}
			continue
		}
		fresh = append(fresh, &optionKey{key: o.Key, kind: o.kind, values: o.values, changeable: o.Changeable, elsewhere: o.Elsewhere})
	}
	return set, fresh, nil
}

// registerOptions binds a registering mode's options (bindOptions).
func registerOptions(set *optionSet, fresh []*optionKey) {
	for i, o := range set.list {
		o.set, o.slot = set, i
	}
	for _, k := range fresh {
		optionKeys[k.key] = k
		optionKeyOrder = append(optionKeyOrder, k.key)
		if k.changeable {
			addChangeKey(optionChangeKey(k))
		}
	}
	for _, o := range set.list {
		k := optionKeys[o.Key]
		k.axis = k.axis || o.Axis != ""
		if k.refusal == nil {
			k.refusal = o.Refusal
		}
		if k.check == nil {
			k.check = o.check
		}
	}
	optionSets[set.mode] = set
	listedMu.Lock()
	listed = nil
	listedMu.Unlock()
}

// OptionValues are a scenario's values of its design's options, by the
// option's place in the design's declaration, and what the scenario sets
// of other designs' options (a file, a change, a program may set one):
// validation refuses those.
type OptionValues struct {
	set   *optionSet // the scenario's design; nil until a value is set
	v     [MaxOptions]uint64
	other []otherValue // by key, each once; never changed in place
}

// otherValue is a value a scenario sets for an option its design does
// not declare and refuses.
type otherValue struct {
	key  *optionKey
	bits uint64
}

// bits is sc's value of o: of its design's option of o's key, 0 (the
// zero of every kind) for none.
func (v *OptionValues) bits(o *Option) uint64 {
	if s := v.set; s == o.set && s != nil {
		return v.v[o.slot]
	}
	if own := v.set.own(o); own != nil {
		return v.v[own.slot]
	}
	return 0
}

// bitsKey is sc's value of its design's option of that key, and whether
// it has one.
func (v *OptionValues) bitsKey(sc *Scenario, key string) (uint64, bool) {
	if v.set == nil {
		return 0, v.setFor(sc).byKeyOrNil(key) != nil // unset: every value is its zero
	}
	if o := v.set.byKey[key]; o != nil {
		return v.v[o.slot], true
	}
	return 0, false
}

// setFor is the options of the scenario's design: those its values are
// bound to, else its mode's.
func (v *OptionValues) setFor(sc *Scenario) *optionSet {
	if v.set != nil {
		return v.set
	}
	return optionSets[sc.Mode]
}

// put sets sc's value of o's key: its design's option's, or, for a key
// its design does not declare, a value validation refuses (a zero is
// dropped, and so is any value of an option other designs ignore).
func (v *OptionValues) put(sc *Scenario, o *Option, b uint64) {
	if v.set == nil {
		v.set = optionSets[sc.Mode] // a scenario built in code: its values are all zero
	}
	if own := v.set.own(o); own != nil {
		v.v[own.slot] = b
		return
	}
	v.putOther(optionKeys[o.Key], b)
}

// putKey is put by key; it reports whether some design declares the key.
func (v *OptionValues) putKey(sc *Scenario, key string, b uint64) bool {
	if v.set == nil {
		v.set = optionSets[sc.Mode]
	}
	if own := v.set.byKeyOrNil(key); own != nil {
		v.v[own.slot] = b
		return true
	}
	k, ok := optionKeys[key]
	if ok {
		v.putOther(k, b)
	}
	return ok
}

// putOther keeps b for a key the scenario's design does not declare.
func (v *OptionValues) putOther(k *optionKey, b uint64) {
	if k == nil {
		return
	}
	out := make([]otherValue, 0, len(v.other)+1)
	for _, x := range v.other {
		if x.key != k {
			out = append(out, x)
		}
	}
	if k.elsewhere == Refused && !k.kind.zero(b) {
		out = append(out, otherValue{k, b})
	}
	if len(out) == 0 {
		out = nil
	}
	v.other = out
}

// reset binds the values to set with every option at its default.
func (v *OptionValues) reset(set *optionSet) {
	*v = OptionValues{set: set}
	if set == nil {
		return
	}
	for i, o := range set.list {
		v.v[i] = o.def
	}
}

// otherSet says whether sc sets the key, which its design does not
// declare, to a value other than its zero: as a value of its own (a
// file, a change) or as its values bound to another design (a scenario
// whose mode was changed in code).
func (v *OptionValues) otherSet(sc *Scenario, key string) bool {
	for _, x := range v.other {
		if x.key.key == key {
			return true
		}
	}
	if v.set != nil && v.set.mode != sc.Mode {
		if o := v.set.byKey[key]; o != nil && !o.kind.zero(v.v[o.slot]) {
			return true
		}
	}
	return false
}

// validateOptions checks the values of the options sc's design declares,
// in their order.
func validateOptions(sc *Scenario) error {
	set := sc.Options.setFor(sc)
	if set == nil || set.mode != sc.Mode {
		return nil
	}
	for _, o := range set.list {
		if o.check == nil {
			continue
		}
		b, _ := sc.Options.bitsKey(sc, o.Key)
		if err := o.check(b); err != nil {
			return err
		}
	}
	return nil
}

// optionMembers are sc's options as the file writes them, in their
// design's order, then what it sets of other designs' (which make the
// file refused as the scenario is).
func optionMembers(sc *Scenario) []fileMember {
	var out []fileMember
	if set := sc.Options.setFor(sc); set != nil && set.mode == sc.Mode {
		for _, o := range set.list {
			b, _ := sc.Options.bitsKey(sc, o.Key)
			out = append(out, fileMember{o.Key, o.kind.pointer(o.values, b)})
		}
	}
	for _, x := range sc.Options.other {
		out = append(out, fileMember{x.key.key, x.key.kind.pointer(x.key.values, x.bits)})
	}
	return out
}

// fileMember is one member of a scenario file and its value for
// encoding/json.
type fileMember struct {
	name  string
	value any
}

// decodeOption reads the member k of a scenario file when some design
// declares it as an option, into sc (its design's option, or a value of
// another design's that validation refuses or drops). It reports whether
// k is an option's key; a value of the wrong type is an error naming k.
func decodeOption(sc *Scenario, k string, raw json.RawMessage) (bool, error) {
	key, ok := optionKeys[k]
	if !ok {
		return false, nil
	}
	b, err := key.kind.decode(key.values, raw)
	if err != nil {
		english, w := jsonProblem(err)
		return true, &FieldError{Field: k, English: english, Words: w}
	}
	if key.elsewhere == IgnoredIfValid && key.check != nil && sc.Option(k) == nil {
		if err := key.check(b); err != nil {
			return true, err
		}
	}
	sc.Options.putKey(sc, k, b)
	return true, nil
}

// optionChangeKey is the member a change may set for an option's key.
func optionChangeKey(k *optionKey) changeKey {
	return changeKey{name: k.key, kind: k.kind, values: k.values,
		get: func(sc *Scenario) uint64 { b, _ := sc.Options.bitsKey(sc, k.key); return b },
		set: func(sc *Scenario, b uint64) { sc.Options.putKey(sc, k.key, b) },
	}
}

// clone is a copy of v sharing nothing that changes.
func (v OptionValues) clone() OptionValues {
	v.other = slices.Clone(v.other)
	return v
}

// SweepValue is where sc stands on a field a sweep can vary (SweepFields),
// in the sweep's unit (milliseconds for a length of time); ok is false
// when sc has no such value (no pause, an option its design does not
// declare).
func SweepValue(sc *Scenario, field string) (float64, bool) {
	if f, ok := sweepShared[field]; ok {
		return f.get(sc)
	}
	if o := sc.Option(field); o != nil {
		b, _ := sc.Options.bitsKey(sc, field)
		return o.kind.sweepValue(b), true
	}
	return 0, false
}

// listOrNil is the set's options, nil for no set.
func (s *optionSet) listOrNil() []*Option {
	if s == nil {
		return nil
	}
	return s.list
}

// optionKeysListed are the options' keys in the order listings give them:
// the designs in their places (ModeNames), each design's in its order,
// then those of modes without a place (a test's) as they registered.
func optionKeysListed() []*optionKey {
	listedMu.Lock()
	defer listedMu.Unlock()
	if listed != nil {
		return listed
	}
	var out []*optionKey
	seen := map[string]bool{}
	add := func(key string) {
		if !seen[key] {
			seen[key] = true
			out = append(out, optionKeys[key])
		}
	}
	for _, n := range ModeNames() {
		for _, o := range optionSets[n].listOrNil() {
			add(o.Key)
		}
	}
	for _, k := range optionKeyOrder {
		add(k)
	}
	listed = out
	return out
}

// listed is optionKeysListed, worked out once the modes registered (a
// registration forgets it). Scenarios are validated on the window's
// goroutine and on its background jobs (a recording, a sweep) at once,
// so listedMu guards it.
var (
	listed   []*optionKey
	listedMu sync.Mutex
)

// OptionAxis is the range the window's trade-off map gives the option of
// that key on an axis (Option.Axis): the first design's that declares it
// with one, in their places; "" when none does.
func OptionAxis(key string) string {
	for _, n := range ModeNames() {
		if o := OptionOf(n, key); o != nil && o.Axis != "" {
			return o.Axis
		}
	}
	return ""
}

// SweepFieldsOf are the fields a sweep of mode can vary: those every
// design has, then the mode's own options with an Axis.
func SweepFieldsOf(mode string) []string {
	out := slices.Clone(sweepSharedOrder)
	for _, o := range OptionsOf(mode) {
		if o.Axis != "" {
			out = append(out, o.Key)
		}
	}
	return out
}
