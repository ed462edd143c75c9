package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Limits keep a scenario small enough to simulate interactively; a file past
// them is refused with an error naming the field.
const (
	MaxClients  = 200
	MaxFaults   = 10000
	MaxDuration = 24 * time.Hour
)

// Duration is a time.Duration that reads and writes Go duration strings
// ("10s", "250ms") so scenario files stay human-editable.
type Duration time.Duration

// D is shorthand for converting a Duration back to time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// MarshalJSON writes the duration as a Go duration string.
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// UnmarshalJSON accepts a Go duration string, or a bare number of milliseconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		var ms float64
		if err2 := json.Unmarshal(b, &ms); err2 != nil {
			return FieldErr("", say("field.wantDuration", "got", string(b)), "want a duration such as \"10s\", got %s", b)
		}
		*d = Duration(ms * float64(time.Millisecond))
		return nil
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return FieldErr("", say("field.wantDuration", "got", strconv.Quote(s)), "want a duration such as \"10s\", got %q", s)
	}
	*d = Duration(v)
	return nil
}

// Caption narrates one moment of a scenario, like a guided tour.
type Caption struct {
	At   Duration `json:"at"`
	Text string   `json:"text"`
	Zh   string   `json:"zh,omitempty"`
}

// Fault is one injected failure: exactly one of the action fields is set.
// It strikes at a true instant (At), or, with When, at a step of the
// client it names: right after its grant, or after its last check just
// before it sends its write, in its Round (default 1).
type Fault struct {
	At        Duration `json:"at"`
	When      string   `json:"when,omitempty"`
	Round     int      `json:"round,omitempty"`
	Pause     string   `json:"pause,omitempty"`
	For       Duration `json:"for,omitempty"`
	ClockJump string   `json:"clockJump,omitempty"`
	By        Duration `json:"by,omitempty"`
	// Monotonic, with ClockJump, steps the node's monotonic clock by By as
	// well as its wall clock: what a time change (settimeofday, NTP's
	// step) never does, and what a timeout measured with Go's time.Since
	// or Java's System.nanoTime needs to move (stepMonotonic).
	Monotonic bool       `json:"monotonic,omitempty"`
	Partition [][]string `json:"partition,omitempty"`
	Crash     string     `json:"crash,omitempty"`
	Restart   string     `json:"restart,omitempty"`
	Persist   bool       `json:"persist,omitempty"`
	Failover  string     `json:"failover,omitempty"`
}

// Steps a fault's When may name.
var FaultSteps = []string{StepGranted, StepBeforeWrite}

// WhenRound is the client round a fault tied to a step strikes in.
func (f Fault) WhenRound() int { return max(f.Round, 1) }

// MarshalJSON writes a fault tied to a step without "at", so the file
// reads back the same.
func (f Fault) MarshalJSON() ([]byte, error) {
	type plain Fault
	b, err := json.Marshal(plain(f))
	if err != nil || f.When == "" {
		return b, err
	}
	// "at" is the first member and 0 (Validate holds it so): drop it.
	return bytes.Replace(b, []byte(`"at":"0s",`), nil, 1), nil
}

// Kind is the fault's action, decided by the one action field its file
// sets; NoFault when none is.
func (f Fault) Kind() FaultKind {
	switch {
	case f.Pause != "":
		return FaultPause
	case f.ClockJump != "":
		return FaultClockJump
	case f.Partition != nil:
		return FaultPartition
	case f.Crash != "":
		return FaultCrash
	case f.Restart != "":
		return FaultRestart
	case f.Failover != "":
		return FaultFailover
	}
	return NoFault
}

// Targets lists the nodes the fault names.
func (f Fault) Targets() []string {
	switch f.Kind() {
	case FaultPause:
		return []string{f.Pause}
	case FaultClockJump:
		return []string{f.ClockJump}
	case FaultCrash:
		return []string{f.Crash}
	case FaultRestart:
		return []string{f.Restart}
	case FaultFailover:
		return []string{f.Failover}
	case FaultPartition:
		var out []string
		for _, g := range f.Partition {
			out = append(out, g...)
		}
		return out
	}
	return nil
}

// Scenario is the user-facing description of one experiment; it is the
// .lockscope.json file format of DESIGN.md.
type Scenario struct {
	Name string `json:"name,omitempty"`
	// NameZh is the name in Chinese, for names a program writes in both
	// languages (a run opened from the trade-off map), as a caption's Zh.
	NameZh     string   `json:"nameZh,omitempty"`
	Mode       string   `json:"mode"`
	Seed       int64    `json:"seed"`
	Duration   Duration `json:"duration"`
	Clients    int      `json:"clients"`
	Stagger    Duration `json:"stagger"`
	Rounds     int      `json:"rounds"`
	TTL        Duration `json:"ttl"`
	Work       Duration `json:"work"`
	Think      Duration `json:"think"`
	Latency    Duration `json:"latency"`
	Jitter     Duration `json:"jitter"`
	Fencing    bool     `json:"fencing"`
	ClockDrift float64  `json:"clockDrift"`
	Tries      int      `json:"tries"`
	RetryDelay Duration `json:"retryDelay"`
	// Options are the values of the settings the scenario's design
	// declares for itself (Traits.Options: Redis's replica, ZooKeeper's
	// herd, a number of servers...), read and written through the
	// options. The file has them as top-level members like the fields
	// above.
	Options  OptionValues `json:"-"`
	Faults   []Fault      `json:"faults"`
	Captions []Caption    `json:"captions,omitempty"`
	Changes  []Change     `json:"changes,omitempty"`
}

// Defaults returns the scenario a mode starts from before a file overrides
// fields; the figures are those of the reference clients.
func Defaults(mode string) (*Scenario, error) {
	m, err := LookupMode(mode)
	if err != nil {
		return nil, err
	}
	sc := &Scenario{
		Mode:       mode,
		Seed:       1,
		Duration:   Duration(40 * time.Second),
		Clients:    2,
		Stagger:    Duration(100 * time.Millisecond),
		Rounds:     1,
		TTL:        Duration(10 * time.Second),
		Work:       Duration(5 * time.Second),
		Think:      Duration(1 * time.Second),
		Latency:    Duration(2 * time.Millisecond),
		Jitter:     Duration(1 * time.Millisecond),
		RetryDelay: Duration(100 * time.Millisecond),
		Faults:     []Fault{},
	}
	sc.Options.reset(optionSets[m.Name()]) // the design's options at their defaults
	m.Defaults(sc)
	return sc, nil
}

// Clone returns a deep copy, so an edited scenario never aliases the original.
func (sc *Scenario) Clone() *Scenario {
	c := *sc
	c.Options = sc.Options.clone()
	c.Faults = cloneFaults(sc.Faults)
	c.Captions = append([]Caption(nil), sc.Captions...)
	if sc.Changes != nil { // a change is a plain value
		c.Changes = append(make([]Change, 0, len(sc.Changes)), sc.Changes...)
	}
	return &c
}

// cloneFaults is a deep copy of faults (never nil).
func cloneFaults(faults []Fault) []Fault {
	out := make([]Fault, len(faults))
	for i, f := range faults {
		out[i] = f
		if f.Partition != nil {
			out[i].Partition = make([][]string, len(f.Partition))
			for j, g := range f.Partition {
				out[i].Partition[j] = append([]string(nil), g...)
			}
		}
	}
	return out
}

// ClientName is the name of client i (0-based index).
func ClientName(i int) string { return "client-" + strconv.Itoa(i+1) }

// ClientNames lists the scenario's clients in order.
func (sc *Scenario) ClientNames() []string {
	out := make([]string, sc.Clients)
	for i := range out {
		out[i] = ClientName(i)
	}
	return out
}

// ServerNames lists the scenario's servers in order, as its mode names them.
func (sc *Scenario) ServerNames() []string {
	m, err := LookupMode(sc.Mode)
	if err != nil {
		return nil
	}
	return m.Servers(sc)
}

// ParseScenario reads a scenario file. Omitted fields take the mode's
// defaults; any problem is one error naming the field (`faults[2].at: ...`).
func ParseScenario(data []byte) (*Scenario, error) {
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&raw); err != nil {
		english, _ := jsonProblem(err)
		return nil, FieldErr("scenario", say("field.notJSON", "detail", english), "not a JSON object: %s", english)
	}
	if dec.More() {
		return nil, FieldErr("scenario", say("field.trailingData"), "unexpected data after the JSON object")
	}
	if raw == nil {
		return nil, FieldErr("scenario", say("field.notObject"), "not a JSON object")
	}
	modeRaw, ok := raw["mode"]
	if !ok {
		modes := strings.Join(ModeNames(), ", ")
		return nil, FieldErr("mode", say("field.modeMissing", "modes", modes), "missing (one of %s)", modes)
	}
	var mode string
	if err := json.Unmarshal(modeRaw, &mode); err != nil {
		return nil, FieldErr("mode", say("field.wantString", "got", string(modeRaw)), "want a string, got %s", modeRaw)
	}
	sc, err := Defaults(mode)
	if err != nil {
		return nil, unknownMode(mode, err)
	}
	option := func(k string, raw json.RawMessage) (bool, error) { return decodeOption(sc, k, raw) }
	if err := decodeFields(reflect.ValueOf(sc).Elem(), raw, "", option); err != nil {
		return nil, err
	}
	if err := sc.Validate(); err != nil {
		return nil, err
	}
	return sc, nil
}

// decodeFields sets each JSON member on the struct field with that tag, so a
// bad value is reported with its path and an unknown member is refused;
// extra, when set, is asked first of a member no field has (a design's
// option) and says whether it took it.
func decodeFields(v reflect.Value, raw map[string]json.RawMessage, prefix string, extra func(k string, raw json.RawMessage) (bool, error)) error {
	fields := map[string]int{}
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		name := strings.Split(t.Field(i).Tag.Get("json"), ",")[0]
		if name != "" && name != "-" {
			fields[name] = i
		}
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		i, ok := fields[k]
		if !ok && extra != nil {
			took, err := extra(k, raw[k])
			if err != nil {
				return err
			}
			if took {
				continue
			}
		}
		if !ok {
			return FieldErr(prefix+k, say("field.unknown"), "unknown field")
		}
		f := v.Field(i)
		if f.Type() == reflect.TypeOf([]Fault(nil)) {
			if err := decodeFaults(f, raw[k], prefix+k); err != nil {
				return err
			}
			continue
		}
		if f.Type() == reflect.TypeOf([]Change(nil)) {
			if err := decodeChanges(f, raw[k], prefix+k); err != nil {
				return err
			}
			continue
		}
		if err := json.Unmarshal(raw[k], f.Addr().Interface()); err != nil {
			english, w := jsonProblem(err)
			return &FieldError{Field: prefix + k, English: english, Words: w}
		}
	}
	return nil
}

func decodeFaults(f reflect.Value, data json.RawMessage, path string) error {
	var items []json.RawMessage
	if err := json.Unmarshal(data, &items); err != nil {
		return FieldErr(path, say("field.wantFaults"), "want a list of faults")
	}
	if len(items) > MaxFaults {
		return tooManyFaults(path, len(items))
	}
	out := make([]Fault, len(items))
	for i, it := range items {
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(it, &raw); err != nil || raw == nil {
			return FieldErr(fmt.Sprintf("%s[%d]", path, i), say("field.wantObject"), "want an object")
		}
		if err := decodeFields(reflect.ValueOf(&out[i]).Elem(), raw, fmt.Sprintf("%s[%d].", path, i), nil); err != nil {
			return err
		}
		_, at := raw["at"]
		_, when := raw["when"]
		switch {
		case at && when:
			return FieldErr(fmt.Sprintf("%s[%d].when", path, i), say("field.atAndWhen"), "give either at or when, not both")
		case !at && !when:
			return FieldErr(fmt.Sprintf("%s[%d].at", path, i), say("field.missing"), "missing")
		}
	}
	f.Set(reflect.ValueOf(out))
	return nil
}

// decodeChanges reads the scenario's changes, each once into typed
// settings (Change.UnmarshalJSON), so a problem names the entry and its
// member ("changes[1].set.ttl").
func decodeChanges(f reflect.Value, data json.RawMessage, path string) error {
	var items []json.RawMessage
	if json.Unmarshal(data, &items) != nil {
		// not a list: said as encoding/json says it of the field's type
		english, w := jsonProblem(json.Unmarshal(data, f.Addr().Interface()))
		return &FieldError{Field: path, English: english, Words: w}
	}
	var out []Change
	if items != nil {
		out = make([]Change, len(items))
	}
	for i, it := range items {
		if err := json.Unmarshal(it, &out[i]); err != nil {
			return within(fmt.Sprintf("%s[%d]", path, i), err)
		}
	}
	f.Set(reflect.ValueOf(out))
	return nil
}

// jsonProblem is what encoding/json found wrong, in English and as words;
// a message of the decoder's own has no key and is shown as it is.
func jsonProblem(err error) (string, Words) {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("want %s, got %s", te.Type, te.Value), say("field.wantType", "type", te.Type.String(), "got", te.Value)
	}
	var fe *FieldError
	if errors.As(err, &fe) && fe.Field == "" && fe.English == err.Error() {
		return fe.English, fe.Words
	}
	return err.Error(), Words{}
}

// unknownMode is err, LookupMode's refusal of mode, as the mode field's
// problem.
func unknownMode(mode string, err error) error {
	return &FieldError{Field: "mode", English: err.Error(), Err: err,
		Words: say("field.unknownMode", "mode", strconv.Quote(mode), "modes", strings.Join(ModeNames(), ", "))}
}

// tooManyFaults is the problem of a fault list longer than MaxFaults.
func tooManyFaults(field string, n int) error {
	return FieldErr(field, say("field.tooManyFaults", "n", strconv.Itoa(n), "max", strconv.Itoa(MaxFaults)),
		"%d faults, at most %d", n, MaxFaults)
}

// outside is the problem of an instant outside 0..MaxDuration.
func outside(field string, d Duration) error {
	return FieldErr(field, say("field.outside", "value", d.D().String(), "max", MaxDuration.String()),
		"%v is outside 0..%v", d.D(), MaxDuration)
}

// MarshalJSON writes the scenario as its file has it: the fields every
// design has in their order, the design's options (flat, as top-level
// members like the others) before the faults, then the captions and
// changes.
func (sc Scenario) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range fileMembers(&sc) {
		v, err := json.Marshal(m.value)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", m.name, err)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.name)
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// fileMembers are the members of sc's file in order, as MarshalJSON
// writes them; the name, the captions and the changes only when given.
func fileMembers(sc *Scenario) []fileMember {
	var out []fileMember
	for _, f := range scenarioFields {
		if f.omitEmpty && !f.isSet(sc) {
			continue
		}
		if f.name == "faults" {
			out = append(out, optionMembers(sc)...)
		}
		out = append(out, fileMember{f.name, f.value(sc)})
	}
	if len(sc.Captions) > 0 {
		out = append(out, fileMember{"captions", sc.Captions})
	}
	if len(sc.Changes) > 0 {
		out = append(out, fileMember{"changes", sc.Changes})
	}
	return out
}

// Marshal writes the scenario as an indented .lockscope.json document.
func (sc *Scenario) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(sc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Validate checks the scenario against its mode; the error names the field.
func (sc *Scenario) Validate() error {
	m, err := LookupMode(sc.Mode)
	if err != nil {
		return unknownMode(sc.Mode, err)
	}
	durs := []struct {
		name string
		d    Duration
		zero bool // may be zero
	}{
		{"duration", sc.Duration, false},
		{"stagger", sc.Stagger, true},
		{"ttl", sc.TTL, false},
		{"work", sc.Work, true},
		{"think", sc.Think, true},
		{"latency", sc.Latency, true},
		{"jitter", sc.Jitter, true},
		{"retryDelay", sc.RetryDelay, true},
	}
	for _, d := range durs {
		if err := checkDuration(d.name, d.d, d.zero); err != nil {
			return err
		}
	}
	if sc.Clients < 1 || sc.Clients > MaxClients {
		return FieldErr("clients", say("field.clients", "n", strconv.Itoa(sc.Clients), "max", strconv.Itoa(MaxClients)),
			"%d, want 1 to %d", sc.Clients, MaxClients)
	}
	if sc.Rounds < 0 {
		return FieldErr("rounds", say("field.negativeCount", "n", strconv.Itoa(sc.Rounds)), "%d is negative (0 means until the end)", sc.Rounds)
	}
	if sc.Tries < 0 {
		return FieldErr("tries", say("field.negativeCount", "n", strconv.Itoa(sc.Tries)), "%d is negative (0 means until the end)", sc.Tries)
	}
	if math.IsNaN(sc.ClockDrift) || sc.ClockDrift < 0 || sc.ClockDrift > 0.5 {
		return FieldErr("clockDrift", say("field.fraction", "value", fmt.Sprint(sc.ClockDrift)), "%v, want 0 to 0.5", sc.ClockDrift)
	}
	if err := validateDesign(sc, m); err != nil {
		return err
	}
	if len(sc.Faults) > MaxFaults {
		return tooManyFaults("faults", len(sc.Faults))
	}
	known := map[string]bool{}
	for _, n := range sc.ClientNames() {
		known[n] = true
	}
	servers := append(m.Servers(sc), StorageName)
	for _, n := range servers {
		known[n] = true
	}
	for i, f := range sc.Faults {
		p := fmt.Sprintf("faults[%d]", i)
		if f.At < 0 || f.At.D() > MaxDuration {
			return outside(p+".at", f.At)
		}
		if f.For < 0 || f.For.D() > MaxDuration {
			return outside(p+".for", f.For)
		}
		if f.By.D() > MaxDuration || f.By.D() < -MaxDuration {
			return FieldErr(p+".by", say("field.tooLarge", "value", f.By.D().String(), "max", MaxDuration.String()),
				"%v is larger than %v", f.By.D(), MaxDuration)
		}
		n := 0
		for _, set := range []bool{f.Pause != "", f.ClockJump != "", f.Partition != nil, f.Crash != "", f.Restart != "", f.Failover != ""} {
			if set {
				n++
			}
		}
		if n != 1 {
			return FieldErr(p, say("field.oneAction"), "want exactly one of pause, clockJump, partition, crash, restart, failover")
		}
		field := f.Kind()
		if err := validateWhen(sc, p, f); err != nil {
			return err
		}
		for _, t := range f.Targets() {
			if !known[t] {
				names := strings.Join(append(sc.ClientNames()[:min(3, sc.Clients)], servers...), ", ")
				return FieldErr(p+"."+field.String(), say("field.unknownNode", "node", strconv.Quote(t), "known", names), "unknown node %q (known: %s)", t, names)
			}
		}
		switch field {
		case FaultPause:
			if f.For <= 0 {
				return FieldErr(p+".for", say("field.pauseLength"), "a pause needs a length such as \"5s\"")
			}
		case FaultClockJump:
			if f.By == 0 {
				return FieldErr(p+".by", say("field.jumpSize"), "a clock jump needs a size such as \"10s\"")
			}
		}
		if f.Monotonic && field != FaultClockJump {
			return FieldErr(p+".monotonic", say("field.monotonicJump"), "only for a clockJump: it steps the monotonic clock with the wall clock")
		}
		switch field {
		case FaultPartition:
			if len(f.Partition) == 0 {
				return FieldErr(p+".partition", say("field.partitionGroups"), "want at least one group of nodes")
			}
			seen := map[string]bool{}
			for _, g := range f.Partition {
				for _, t := range g {
					if seen[t] {
						return FieldErr(p+".partition", say("field.twoGroups", "node", strconv.Quote(t)), "%q is in two groups", t)
					}
					seen[t] = true
				}
			}
			if f.For <= 0 {
				return FieldErr(p+".for", say("field.partitionLength"), "a partition needs a length such as \"5s\"")
			}
		case FaultFailover:
			if err := m.CanFailover(sc, f.Failover); err != nil {
				return fmt.Errorf("%s.failover: %w", p, err)
			}
		}
	}
	cur := sc
	for i, ch := range sc.Changes {
		p := fmt.Sprintf("changes[%d]", i)
		if ch.At < 0 || ch.At.D() > MaxDuration {
			return outside(p+".at", ch.At)
		}
		if ch.Set.Empty() {
			return FieldErr(p+".set", say("field.wantSetField"), "want at least one field")
		}
		next := ch.apply(cur) // a field a change may not set was refused when the file was read
		next.Changes = nil
		if err := next.Validate(); err != nil {
			return fmt.Errorf("%s.set: %w", p, err)
		}
		cur = next
	}
	for i, c := range sc.Captions {
		if c.At < 0 || c.At.D() > MaxDuration {
			return outside(fmt.Sprintf("captions[%d].at", i), c.At)
		}
	}
	return nil
}

// checkDuration checks a length of the scenario named name: not negative,
// not longer than MaxDuration, and more than 0 unless zero may be.
func checkDuration(name string, d Duration, zero bool) error {
	switch {
	case d < 0:
		return FieldErr(name, say("field.negative", "value", d.D().String()), "%v is negative", d.D())
	case d == 0 && !zero:
		return FieldErr(name, say("field.notPositive"), "must be more than 0")
	case d.D() > MaxDuration:
		return FieldErr(name, say("field.tooLong", "value", d.D().String(), "max", MaxDuration.String()),
			"%v is longer than %v", d.D(), MaxDuration)
	}
	return nil
}

// validateWhen checks a fault tied to a client's step: a known step, a
// round, and a client named in the fault's own field.
func validateWhen(sc *Scenario, p string, f Fault) error {
	if f.When == "" {
		if f.Round != 0 {
			return FieldErr(p+".round", say("field.roundWithoutWhen"), "a round needs \"when\"")
		}
		return nil
	}
	if f.At != 0 {
		return FieldErr(p+".when", say("field.atAndWhen"), "give either at or when, not both")
	}
	if !contains(FaultSteps, f.When) {
		steps := strings.Join(FaultSteps, ", ")
		return FieldErr(p+".when", say("field.whenStep", "got", strconv.Quote(f.When), "steps", steps), "%q is not a step (one of %s)", f.When, steps)
	}
	if f.Round < 0 {
		return FieldErr(p+".round", say("field.roundNegative", "n", strconv.Itoa(f.Round)), "%d is negative", f.Round)
	}
	field := f.Kind()
	switch field {
	case FaultPause, FaultCrash, FaultClockJump:
	default:
		return FieldErr(p+"."+field.String(), say("field.whenKind"), "a fault with \"when\" is a pause, crash or clockJump of one client")
	}
	if t := f.Targets()[0]; !contains(sc.ClientNames(), t) {
		return FieldErr(p+"."+field.String(), say("field.whenClient", "node", strconv.Quote(t)), "%q is not a client: \"when\" ties the fault to a client's step", t)
	}
	return nil
}
