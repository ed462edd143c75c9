package designtab

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/widgets"
)

// SliderSpec is one scenario parameter a slider edits: how to read it from
// a scenario, how to write it back, its range and how to show its value.
// Tabs list the keys of the sliders that apply to their mode; a design
// that differs from a shared slider gives its own rule for it
// (ModeTab.SliderRules).
type SliderSpec struct {
	Key   string // the control's key, one per scenario field: settings are keyed by it
	Label string // the name beside the slider (Name gives it in the current language)
	// Words is the stem of the slider's translation keys, Key when empty:
	// its name is "slider.<Words>" and its hover help (what the parameter
	// is in the real system and its real default) "slider.<Words>.tip", in
	// assets/translations/en.json and zh.json. A design with words of its
	// own for a shared slider sets it in its rule.
	Words string
	Min   float64
	Max   float64
	Step  float64
	// Value reads the parameter; ok is false when the scenario has nothing
	// for the slider to edit (the slider is then disabled).
	Value func(sc *sim.Scenario) (v float64, ok bool)
	// Apply writes the parameter into a copy of the scenario.
	Apply func(sc *sim.Scenario, v float64)
	// Format shows a value beside the slider.
	Format func(v float64) string
	// FormatIn, when set, shows the value as it stands in sc, for a
	// setting whose figure depends on others (Kubernetes's RenewDeadline
	// at 0 is two thirds of LeaseDuration): the window shows it whenever
	// it sets its controls from the scenario, after every change; Format
	// is what the value reads the instant the slider moves.
	FormatIn func(sc *sim.Scenario, v float64) string
	// Widest, when set, is the longest text the value shows (in the
	// current language), which widens its cell where the usual width is
	// too narrow for it.
	Widest func() string
	// Log puts the slider on a logarithmic scale, for a time that matters
	// as much at half a second as at a minute (a lock's TTL): each step of
	// the track is the same share of the value (logStep), and the value is
	// rounded to two significant digits, then to a multiple of Step.
	Log bool
	// Round, when set, is the value the track lands on for a value v
	// instead of the multiple of Step: a design's own rounding, which its
	// simulator owns (etcd asks for its lease in whole seconds).
	Round func(v float64) float64
	// Shown, when set, says whether a scenario needs the slider on show:
	// a design's rule for a setting only some of its scenarios use, where
	// its tab has no room to show it always (ZooKeeper's and etcd's
	// readers, on at 1024 points only beside a read–write lock's
	// scenario). Once on show it stays until another scenario is loaded,
	// so dragging it to its zero does not take it away.
	Shown func(sc *sim.Scenario) bool
}

// Text is what the value beside the slider reads for v in sc.
func (s SliderSpec) Text(sc *sim.Scenario, v float64) string {
	if s.FormatIn != nil {
		return s.FormatIn(sc, v)
	}
	return s.Format(v)
}

// logStep is a step of a logarithmic slider's track, in log10 units: each
// is 1.2 % of the value, so a TTL is set to a tenth of a second below 10 s
// and to a second above.
const logStep = 0.005

// Position is where value v sits on the slider's track.
func (s SliderSpec) Position(v float64) float64 {
	if s.Log {
		return math.Log10(max(v, s.Min))
	}
	return v
}

// ValueAt is the value at position p of the slider's track.
func (s SliderSpec) ValueAt(p float64) float64 {
	if !s.Log {
		return p
	}
	v := math.Pow(10, p)
	unit := math.Pow(10, math.Floor(math.Log10(v))-1) // two significant digits
	v = math.Round(v/unit) * unit
	switch {
	case s.Round != nil:
		v = s.Round(v)
	case s.Step > 0:
		v = math.Round(v/s.Step) * s.Step
	}
	return max(s.Min, min(s.Max, math.Round(v*1e6)/1e6))
}

// TrackStep is the step of the slider's track (Step, or logStep).
func (s SliderSpec) TrackStep() float64 {
	if s.Log {
		return logStep
	}
	return s.Step
}

// ToggleSpec is one on/off scenario parameter, or one that is one of a
// few named values (a choice: a select among the toggles, Values).
type ToggleSpec struct {
	Key   string // the control's key, one per scenario field: settings are keyed by it
	Label string // the check box's text (Name gives it in the current language)
	// Words is the stem of the toggle's translation keys, Key when empty:
	// its text is "toggle.<Words>" and its hover help "toggle.<Words>.tip".
	Words string
	Value func(sc *sim.Scenario) bool
	Apply func(sc *sim.Scenario, on bool)
	// Disabled says why the toggle cannot be used with the scenario ("" when
	// it can); the window then shows it greyed, with the reason as its tip.
	// Nil for a toggle that always applies.
	Disabled func(sc *sim.Scenario) string
	// Values, for a choice, are the values its select offers, in their
	// order (each one's words "toggle.<Words>.<value>"); nil for a check
	// box. Choice reads the value and Choose writes it; Value and Apply
	// then say and set whether it is other than the first.
	Values []string
	Choice func(sc *sim.Scenario) string
	Choose func(sc *sim.Scenario, v string)
}

// IsChoice says whether the toggle is a choice among Values (a select).
func (t ToggleSpec) IsChoice() bool { return len(t.Values) > 0 }

// ValueName is a choice's value v in the current language: the words
// under "toggle.<Words>.<v>", else v.
func (t ToggleSpec) ValueName(v string) string { return specWord(t.NameKey()+"."+v, v) }

// ValueOf is the choice's value whose words are name (ValueName), "" for
// none.
func (t ToggleSpec) ValueOf(name string) string {
	for _, v := range t.Values {
		if t.ValueName(v) == name {
			return v
		}
	}
	return ""
}

// NameKey is the translation key of the slider's name, "slider.<Words>".
func (s SliderSpec) NameKey() string { return "slider." + cmp.Or(s.Words, s.Key) }

// Tip is the translation key of the slider's hover help.
func (s SliderSpec) Tip() string { return s.NameKey() + ".tip" }

// Name is the slider's name in the current language: the words under
// NameKey, else its Label.
func (s SliderSpec) Name() string { return specWord(s.NameKey(), s.Label) }

// Help is the slider's hover help in the current language.
func (s SliderSpec) Help() string { return i18n.T(s.Tip()) }

// NameKey is the translation key of the toggle's text, "toggle.<Words>".
func (t ToggleSpec) NameKey() string { return "toggle." + cmp.Or(t.Words, t.Key) }

// Tip is the translation key of the toggle's hover help.
func (t ToggleSpec) Tip() string { return t.NameKey() + ".tip" }

// Name is the toggle's text in the current language: the words under
// NameKey, else its Label.
func (t ToggleSpec) Name() string { return specWord(t.NameKey(), t.Label) }

// Help is the toggle's hover help in the current language.
func (t ToggleSpec) Help() string { return i18n.T(t.Tip()) }

// specWord is the text of key, or fallback when no language has the key.
func specWord(key, fallback string) string {
	if i18n.Has(i18n.English, key) {
		return i18n.T(key)
	}
	return fallback
}

// DisabledWhy is the reason the toggle is off limits for sc, "" for none.
func (t ToggleSpec) DisabledWhy(sc *sim.Scenario) string {
	if t.Disabled == nil || sc == nil {
		return ""
	}
	return t.Disabled(sc)
}

// Seconds is a scenario duration as a slider's seconds.
func Seconds(d sim.Duration) float64 { return d.D().Seconds() }

// FromSeconds turns a slider's seconds into a scenario duration, to the
// millisecond.
func FromSeconds(v float64) sim.Duration {
	return sim.Duration(time.Duration(math.Round(v*1000)) * time.Millisecond)
}

// FormatSeconds shows a slider's seconds with no more digits than its step.
func FormatSeconds(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) + " s" }

// FromMs turns a slider's milliseconds into a scenario duration.
func FromMs(v float64) sim.Duration {
	return sim.Duration(time.Duration(v * float64(time.Millisecond)))
}

// FormatMs shows a slider's milliseconds.
func FormatMs(v float64) string { return fmt.Sprintf("%.0f ms", v) }

// FormatCount shows a slider's whole number (clients, servers).
func FormatCount(v float64) string { return fmt.Sprintf("%.0f", v) }

// FormatClockDrift shows a clock-rate bound as a percentage.
func FormatClockDrift(v float64) string {
	if v == 0 {
		return "0"
	}
	return "±" + strconv.FormatFloat(v*100, 'f', -1, 64) + " %"
}

// Refusal says why the scenario's mode refuses a change a toggle would
// make (the design's own validation error, as a person reads it), "" when
// it takes it; a toggle's Disabled can be built on it.
func Refusal(sc *sim.Scenario, change func(sc *sim.Scenario)) string {
	if sim.ValidateDesign(sc) != nil {
		return ""
	}
	c := sc.Clone()
	change(c)
	if err := sim.ValidateDesign(c); err != nil {
		return widgets.ErrorText(err)
	}
	return ""
}

// PauseLength is the length of the first pause fault, if any.
func PauseLength(sc *sim.Scenario) (time.Duration, bool) { return sc.PauseLength() }

// Sliders is every slider a tab can show but for its design's options
// (OptionSlider), by key: here one per scenario field several tabs edit,
// with the rule they share (a design that truly differs gives its own
// rule for its tab, ModeTab.SliderRules); a design's tab may add ones
// only it shows (Register).
var Sliders = map[string]SliderSpec{
	"ttl": {
		Key: "ttl", Label: "TTL", Min: 0.5, Max: 60, Step: 0.01, Log: true,
		Value:  func(sc *sim.Scenario) (float64, bool) { return Seconds(sc.TTL), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.TTL = FromSeconds(v) },
		Format: FormatSeconds,
	},
	"latency": {
		Key: "latency", Label: "Latency", Min: 0, Max: 200, Step: 1,
		Value:  func(sc *sim.Scenario) (float64, bool) { return sim.Ms(sc.Latency.D()), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.Latency = FromMs(v) },
		Format: FormatMs,
	},
	"work": {
		Key: "work", Label: "Work", Min: 0, Max: 90, Step: 0.5,
		Value:  func(sc *sim.Scenario) (float64, bool) { return Seconds(sc.Work), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.Work = FromSeconds(v) },
		Format: FormatSeconds,
	},
	"pause": {
		Key: "pause", Label: "Pause", Min: 0.5, Max: 60, Step: 0.5,
		Value: func(sc *sim.Scenario) (float64, bool) {
			d, ok := PauseLength(sc)
			return d.Seconds(), ok
		},
		Apply: func(sc *sim.Scenario, v float64) {
			for i := range sc.Faults {
				if sc.Faults[i].Kind() == sim.FaultPause {
					sc.Faults[i].For = FromSeconds(v)
				}
			}
		},
		Format: FormatSeconds,
	},
	"clockDrift": {
		Key: "clockDrift", Label: "Clock drift", Min: 0, Max: 0.1, Step: 0.001,
		Value:  func(sc *sim.Scenario) (float64, bool) { return sc.ClockDrift, true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.ClockDrift = math.Round(v*1000) / 1000 },
		Format: FormatClockDrift,
	},
	"clients": {
		Key: "clients", Label: "Clients", Min: 1, Max: 12, Step: 1,
		Value:  func(sc *sim.Scenario) (float64, bool) { return float64(sc.Clients), true },
		Apply:  func(sc *sim.Scenario, v float64) { sc.Clients = int(math.Round(v)) },
		Format: FormatCount,
	},
}

// Toggles is every toggle a tab can show but for its design's options
// (OptionToggle), by key: here one per scenario field several tabs edit
// (a design's own words for one are its rule, ModeTab.ToggleRules); a
// design's tab may add ones only it shows (Register).
var Toggles = map[string]ToggleSpec{
	// fencing is off limits where the design refuses it (Redlock has no
	// ordered token): the design's own validation says why.
	"fencing": {
		Key: "fencing", Label: "Fencing",
		Value: func(sc *sim.Scenario) bool { return sc.Fencing },
		Apply: func(sc *sim.Scenario, on bool) { sc.Fencing = on },
		Disabled: func(sc *sim.Scenario) string {
			return Refusal(sc, func(c *sim.Scenario) { c.Fencing = true })
		},
	},
}

// OptionSlider is the slider of a design's option (sim.Option, a number
// or a length of time): it reads and writes the option in the scenario,
// a length of time in seconds, and is off where the option does not
// apply (Option.Applies). Its words are under its key, "slider.<Key>",
// as a shared control's are; its range, the design's words and how it
// shows a value are the design's rule for it (ModeTab.SliderRules). A
// design lists the option's key among its tab's sliders.
func OptionSlider(o *sim.Option) SliderSpec {
	s := SliderSpec{Key: o.Key, Label: o.Key, Min: 0, Max: 1, Step: 1, Format: FormatCount}
	switch o.Kind() {
	case sim.OptionDuration:
		s.Max, s.Step, s.Format = 60, 0.5, FormatSeconds
		s.Value = func(sc *sim.Scenario) (float64, bool) {
			return Seconds(o.Value(sc).(sim.Duration)), o.AppliesTo(sc)
		}
		s.Apply = func(sc *sim.Scenario, v float64) { o.SetValue(sc, FromSeconds(v)) }
	case sim.OptionFloat:
		s.Step, s.Format = 0.001, func(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }
		s.Value = func(sc *sim.Scenario) (float64, bool) { return o.Value(sc).(float64), o.AppliesTo(sc) }
		s.Apply = func(sc *sim.Scenario, v float64) { o.SetValue(sc, v) }
	case sim.OptionInt:
		s.Value = func(sc *sim.Scenario) (float64, bool) { return float64(o.Value(sc).(int)), o.AppliesTo(sc) }
		s.Apply = func(sc *sim.Scenario, v float64) { o.SetValue(sc, int(math.Round(v))) }
	default:
		panic("designtab: option " + o.Key + " is a switch: a toggle, not a slider")
	}
	return s
}

// OptionToggle is the toggle of a design's on/off option (sim.Option),
// or the select of its choice (sim.OptionChoice, among the toggles): it
// reads and writes the option in the scenario. Its words are under its
// key, "toggle.<Key>" (a choice's values "toggle.<Key>.<value>"), as a
// shared control's are; the design's own words are its rule for it
// (ModeTab.ToggleRules). A design lists the option's key among its tab's
// toggles.
func OptionToggle(o *sim.Option) ToggleSpec {
	switch o.Kind() {
	case sim.OptionBool:
		return ToggleSpec{Key: o.Key, Label: o.Key,
			Value: func(sc *sim.Scenario) bool { return o.Value(sc).(bool) },
			Apply: func(sc *sim.Scenario, on bool) { o.SetValue(sc, on) },
		}
	case sim.OptionChoice:
		values := o.Values()
		return ToggleSpec{Key: o.Key, Label: o.Key, Values: values,
			Choice: func(sc *sim.Scenario) string { return o.Value(sc).(string) },
			Choose: func(sc *sim.Scenario, v string) { o.SetValue(sc, v) },
			Value:  func(sc *sim.Scenario) bool { return o.Value(sc).(string) != values[0] },
			Apply: func(sc *sim.Scenario, on bool) {
				o.SetValue(sc, values[boolIndex(on)])
			},
		}
	}
	panic("designtab: option " + o.Key + " is a number: a slider, not a toggle")
}

// boolIndex is 1 for on, 0 for off.
func boolIndex(on bool) int {
	if on {
		return 1
	}
	return 0
}

// addControls adds a design's own sliders and toggles to Sliders and
// Toggles; a key given twice panics (Register).
func addControls(sliders map[string]SliderSpec, toggles map[string]ToggleSpec) {
	for k, s := range sliders {
		if _, dup := Sliders[k]; dup {
			panic("designtab: slider " + k + " added twice")
		}
		Sliders[k] = s
	}
	for k, t := range toggles {
		if _, dup := Toggles[k]; dup {
			panic("designtab: toggle " + k + " added twice")
		}
		Toggles[k] = t
	}
}
