// Package designtab is what a lock design's tab in the window is made of,
// so that a design's window folder (widgets/<design>/) can describe its
// tab beside its state picture without importing app: the state picture's
// interface (StateView), the tab's description (ModeTab), the sliders and
// toggles a tab can show (SliderSpec, ToggleSpec, the ones several tabs
// share), the formatting helpers their values use, and the one list of
// tabs the list of designs (package designs) adds each design's to at start
// (Register). The window (app) builds one tab per entry of Tabs. Like every widget
// package, it never imports app.
package designtab

import (
	"slices"

	"fyne.io/fyne/v2"

	"github.com/lockscope/lockscope/sim"
)

// StateView is a mode's own picture of the lock (the Redis key with its
// TTL bar, the Redlock vote tally, the znode tree, the etcd keys): a widget
// drawn from a snapshot.
type StateView interface {
	fyne.CanvasObject
	// SetSnapshot shows the lock state of the snapshot's instant.
	SetSnapshot(s *sim.Snapshot)
}

// Drawn is a state picture that says how tall what it draws is, so the
// tab gives the notes under it the height it leaves rather than a gap.
type Drawn interface {
	// DrawnHeight is the height of what it draws in a box of size: the
	// box's height where that fills it (it is drawn smaller than it
	// would like).
	DrawnHeight(size fyne.Size) float32
}

// ModeTab describes one mode's tab: its state widget, the preset it opens
// with, and the keys of the Sliders and Toggles that apply to it. A
// design's tab lives in the design's own window folder (widgets/<design>/)
// beside its state picture, with its own sliders, toggles and protocol
// lines, and is added to the window by Register.
type ModeTab struct {
	Mode       string // the sim mode it runs
	Title      string // the tab's title
	StateTitle string // translation key of the title over the state picture
	Preset     string // the preset shown at start
	NewState   func() StateView
	// Sliders and Toggles are the keys of the tab's controls, in order:
	// keys into Sliders and Toggles, or the keys of the design's options
	// (sim.Option.Key), whose controls are OptionSlider and OptionToggle.
	Sliders []string
	Toggles []string
	// SliderRules and ToggleRules are the design's own rule for a shared
	// control it lists, by key, where the design truly differs from the
	// shared one: its words (what it calls the field, what it is in the
	// real system), its range, how a value is rounded or shown. A rule
	// changes only that, on a copy of the shared control (Slider, Toggle).
	SliderRules map[string]func(s *SliderSpec)
	ToggleRules map[string]func(t *ToggleSpec)
	// Formerly maps a key the tab's saved settings may still hold, from
	// before its control was shared, to the control's key now.
	Formerly map[string]string
	// Protocol spells out, for the scenario on show, what the clients and
	// servers actually send, under the state picture; nil for none.
	Protocol func(sc *sim.Scenario) []string
}

// Slider is the tab's slider of that key: the control in Sliders, or the
// slider of its design's option of that key, with the design's rule for
// it applied.
func (t ModeTab) Slider(key string) SliderSpec {
	s := t.SliderBase(key)
	if rule := t.SliderRules[key]; rule != nil {
		rule(&s)
	}
	return s
}

// SliderBase is the tab's slider of that key before the design's rule:
// the control in Sliders, or OptionSlider of the design's option.
func (t ModeTab) SliderBase(key string) SliderSpec {
	if o := sim.OptionOf(t.Mode, key); o != nil && o.Kind() != sim.OptionBool && o.Kind() != sim.OptionChoice {
		return OptionSlider(o)
	}
	return Sliders[key]
}

// Toggle is the tab's toggle of that key: the control in Toggles, or the
// toggle of its design's option of that key, with the design's rule for
// it applied.
func (t ModeTab) Toggle(key string) ToggleSpec {
	c := t.ToggleBase(key)
	if rule := t.ToggleRules[key]; rule != nil {
		rule(&c)
	}
	return c
}

// ToggleBase is the tab's toggle of that key before the design's rule:
// the control in Toggles, or OptionToggle of the design's option.
func (t ModeTab) ToggleBase(key string) ToggleSpec {
	if o := sim.OptionOf(t.Mode, key); o != nil && (o.Kind() == sim.OptionBool || o.Kind() == sim.OptionChoice) {
		return OptionToggle(o)
	}
	return Toggles[key]
}

// registered holds the tabs by mode, as Register added them.
var registered = map[string]ModeTab{}

// Register adds a design's tab to the window, with the sliders and toggles
// only it shows that are none of its options' (added to Sliders and
// Toggles); the list of designs (package designs) calls it for each of
// its entries at start, after the simulator side. The tab's mode must be
// one the simulator has (sim.AddMode), so no tab is left out. A mode has
// one tab, and a control's key is one control's for good (settings and
// translations are keyed by it), so either given twice is a mistake and
// panics, as is a rule for a control the tab does not list and a key the
// tab lists that is no control's.
func Register(tab ModeTab, sliders map[string]SliderSpec, toggles map[string]ToggleSpec) {
	if tab.Mode == "" {
		panic("designtab: a tab without a mode")
	}
	if _, err := sim.LookupMode(tab.Mode); err != nil {
		panic("designtab: the tab of mode " + tab.Mode + " has no simulator side: " + err.Error())
	}
	if _, dup := registered[tab.Mode]; dup {
		panic("designtab: mode " + tab.Mode + " has a tab already")
	}
	for key := range tab.SliderRules {
		if !slices.Contains(tab.Sliders, key) {
			panic("designtab: mode " + tab.Mode + " has a rule for slider " + key + " it does not list")
		}
	}
	for key := range tab.ToggleRules {
		if !slices.Contains(tab.Toggles, key) {
			panic("designtab: mode " + tab.Mode + " has a rule for toggle " + key + " it does not list")
		}
	}
	addControls(sliders, toggles)
	for _, key := range tab.Sliders {
		if tab.SliderBase(key).Value == nil {
			panic("designtab: mode " + tab.Mode + " lists slider " + key + ", which is no slider and none of its options")
		}
	}
	for _, key := range tab.Toggles {
		if tab.ToggleBase(key).Value == nil {
			panic("designtab: mode " + tab.Mode + " lists toggle " + key + ", which is no toggle and none of its options")
		}
	}
	registered[tab.Mode] = tab
}

// Tabs lists the registered tabs in window order: the simulator's order of
// its designs (their Traits.Place, sim.ModeNames). Register refuses a tab
// of a mode the simulator does not have, so none is left out; a design the
// simulator has without a tab (a test's) has none in the window.
func Tabs() []ModeTab {
	var out []ModeTab
	for _, mode := range sim.ModeNames() {
		if tab, ok := registered[mode]; ok {
			out = append(out, tab)
		}
	}
	return out
}
