package app

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"

	"github.com/lockscope/lockscope/assets"
	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/widgets/designtab"
)

// The keys LockScope keeps in Fyne's Preferences. A per-mode key is the
// prefix followed by the mode ("preset.redis").
const (
	prefLanguage     = "language"  // "en", "zh"; absent: follow the system locale
	prefTheme        = "theme"     // a ThemeChoice
	prefMode         = "mode"      // the mode of the tab on show
	prefSpeed        = "speedStop" // the speed control's stop (Speed.String)
	prefWindowWidth  = "window.width"
	prefWindowHeight = "window.height"
	prefPreset       = "preset."    // the preset a tab showed
	prefSliders      = "sliders."   // its slider values, "key=value;key=value"
	prefToggles      = "toggles."   // its toggles, "key=1;key=0"
	prefChoices      = "choices."   // its toggles that are a choice, "key=value"
	prefStoryStops   = "storyStops" // a run with captions plays as a story; absent: on
)

// Settings are what LockScope remembers between runs, kept with Fyne's
// Preferences (one file per user, per app ID).
type Settings struct {
	p fyne.Preferences
}

// NewSettings reads and writes settings in p.
func NewSettings(p fyne.Preferences) Settings { return Settings{p: p} }

// Language is the saved language; ok is false when the user never chose
// one, so the system locale decides.
func (s Settings) Language() (l i18n.Lang, ok bool) {
	return i18n.Parse(s.p.String(prefLanguage))
}

// SetLanguage saves the language.
func (s Settings) SetLanguage(l i18n.Lang) { s.p.SetString(prefLanguage, string(l)) }

// Theme is the saved theme choice, ThemeSystem when none is.
func (s Settings) Theme() ThemeChoice { return parseThemeChoice(s.p.String(prefTheme)) }

// SetTheme saves the theme choice.
func (s Settings) SetTheme(c ThemeChoice) { s.p.SetString(prefTheme, string(c)) }

// Mode is the mode of the tab last on show, "" for none.
func (s Settings) Mode() string { return s.p.String(prefMode) }

// Speed is the saved stop of the speed control, SpeedStory when none is.
func (s Settings) Speed() Speed {
	if sp, ok := ParseSpeed(s.p.String(prefSpeed)); ok {
		return sp
	}
	return SpeedStory
}

// StoryStops reports whether a run with captions plays as a story,
// stopping at each caption (on when never set).
func (s Settings) StoryStops() bool { return s.p.BoolWithFallback(prefStoryStops, true) }

// SetStoryStops keeps whether a run with captions plays as a story.
func (s Settings) SetStoryStops(on bool) { s.p.SetBool(prefStoryStops, on) }

// WindowSize is the saved window size, DefaultSize when none is.
func (s Settings) WindowSize() fyne.Size {
	if size, ok := s.SavedWindowSize(); ok {
		return size
	}
	return DefaultSize
}

// SavedWindowSize is the size the user left the window at; ok is false
// when none is saved.
func (s Settings) SavedWindowSize() (size fyne.Size, ok bool) {
	w := s.p.FloatWithFallback(prefWindowWidth, 0)
	h := s.p.FloatWithFallback(prefWindowHeight, 0)
	if w < 320 || h < 240 {
		return fyne.Size{}, false
	}
	return fyne.NewSize(float32(w), float32(h)), true
}

// TabState is what a tab remembers: the preset it showed and the values of
// its sliders and toggles.
type TabState struct {
	Preset  string
	Sliders map[string]float64
	Toggles map[string]bool
	Choices map[string]string // the toggles that are a choice among values
}

// Tab is the saved state of a mode's tab; ok is false when nothing is saved.
func (s Settings) Tab(mode string) (st TabState, ok bool) {
	st.Preset = s.p.String(prefPreset + mode)
	st.Sliders = map[string]float64{}
	st.Toggles = map[string]bool{}
	st.Choices = map[string]string{}
	for k, v := range pairs(s.p.String(prefSliders + mode)) {
		if x, err := strconv.ParseFloat(v, 64); err == nil && !math.IsNaN(x) && !math.IsInf(x, 0) {
			st.Sliders[k] = x
		}
	}
	for k, v := range pairs(s.p.String(prefToggles + mode)) {
		st.Toggles[k] = v == "1"
	}
	for k, v := range pairs(s.p.String(prefChoices + mode)) {
		st.Choices[k] = v
	}
	return st, st.Preset != "" || len(st.Sliders) > 0 || len(st.Toggles) > 0 || len(st.Choices) > 0
}

// SaveTab keeps the state of a mode's tab.
func (s Settings) SaveTab(mode string, st TabState) {
	s.p.SetString(prefPreset+mode, st.Preset)
	var sl, tg, ch []string
	for k, v := range st.Sliders {
		sl = append(sl, k+"="+strconv.FormatFloat(v, 'g', -1, 64))
	}
	for k, on := range st.Toggles {
		b := "0"
		if on {
			b = "1"
		}
		tg = append(tg, k+"="+b)
	}
	for k, v := range st.Choices {
		ch = append(ch, k+"="+v)
	}
	sort.Strings(sl)
	sort.Strings(tg)
	sort.Strings(ch)
	s.p.SetString(prefSliders+mode, strings.Join(sl, ";"))
	s.p.SetString(prefToggles+mode, strings.Join(tg, ";"))
	s.p.SetString(prefChoices+mode, strings.Join(ch, ";"))
}

// SaveSession keeps the window's mode, speed and size.
func (s Settings) SaveSession(mode string, speed Speed, size fyne.Size) {
	s.p.SetString(prefMode, mode)
	s.p.SetString(prefSpeed, speed.String())
	if size.Width >= 320 && size.Height >= 240 {
		s.p.SetFloat(prefWindowWidth, float64(size.Width))
		s.p.SetFloat(prefWindowHeight, float64(size.Height))
	}
}

// Reset forgets every setting LockScope keeps, so the next start (and the
// window, which applies the defaults at once) is like the first: these
// settings, the event log's switch and the session each tab would reopen
// with. The recent-files list is history, not a setting, and stays.
func (s Settings) Reset() {
	for _, k := range []string{prefLanguage, prefTheme, prefMode, prefSpeed, prefWindowWidth, prefWindowHeight, prefStoryStops} {
		s.p.RemoveValue(k)
	}
	s.p.RemoveValue(prefEventLog)
	s.p.RemoveValue(prefDashboard)
	s.p.RemoveValue(prefTourSeen)
	for _, m := range sim.ModeNames() {
		for _, prefix := range []string{prefPreset, prefSliders, prefToggles, prefChoices} {
			s.p.RemoveValue(prefix + m)
		}
		for _, what := range []string{"scenario", "origin", "cursor", "file"} {
			s.p.RemoveValue(sessionKey(m, what))
		}
	}
}

// pairs reads "k=v;k=v".
func pairs(s string) map[string]string {
	out := map[string]string{}
	for _, kv := range strings.Split(s, ";") {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			out[k] = v
		}
	}
	return out
}

// tabState reads the state worth keeping from a tab: its preset (when it
// shows one of its mode's presets) and every slider and toggle that
// applies to its scenario.
func tabState(spec designtab.ModeTab, c *Controller) TabState {
	st := TabState{Sliders: map[string]float64{}, Toggles: map[string]bool{}, Choices: map[string]string{}}
	sc := c.Scenario()
	if sc == nil {
		return st
	}
	if contains(assets.PresetsFor(spec.Mode), c.Origin()) {
		st.Preset = c.Origin()
	}
	for _, k := range spec.Sliders {
		if x, ok := spec.Slider(k).Value(sc); ok {
			st.Sliders[k] = x
		}
	}
	for _, k := range spec.Toggles {
		if t := spec.Toggle(k); t.IsChoice() {
			st.Choices[k] = t.Choice(sc)
		} else {
			st.Toggles[k] = t.Value(sc)
		}
	}
	return st
}

// savedUnder is the value saved for the tab's control of that key, or
// under a key the control had before it was shared (ModeTab.Formerly).
func savedUnder[T any](spec designtab.ModeTab, saved map[string]T, key string) (T, bool) {
	if v, ok := saved[key]; ok {
		return v, true
	}
	for old, now := range spec.Formerly {
		if v, ok := saved[old]; ok && now == key {
			return v, true
		}
	}
	var none T
	return none, false
}

// restoreTab puts a saved state back into a tab's controller: the preset,
// then every saved slider and toggle that differs from it, in one edit.
// What no longer applies (a preset that is gone, a slider the scenario
// has nothing for, values the simulator refuses, such as fencing on a
// Redlock scenario) is dropped quietly: the tab then shows its preset as
// it comes.
func restoreTab(spec designtab.ModeTab, c *Controller, st TabState) {
	if st.Preset != "" && st.Preset != c.Origin() && contains(assets.PresetsFor(spec.Mode), st.Preset) {
		if err := c.LoadPreset(st.Preset); err != nil {
			return
		}
	}
	sc := c.Scenario()
	if sc == nil {
		return
	}
	changed := false
	apply := func(edit *sim.Scenario) {
		for _, k := range spec.Sliders {
			x, saved := savedUnder(spec, st.Sliders, k)
			s := spec.Slider(k)
			if old, ok := s.Value(edit); saved && ok && old != x {
				s.Apply(edit, math.Max(s.Min, math.Min(s.Max, x)))
				changed = true
			}
		}
		for _, k := range spec.Toggles {
			if t := spec.Toggle(k); t.IsChoice() {
				x, saved := savedUnder(spec, st.Choices, k)
				if saved && slices.Contains(t.Values, x) && t.Choice(edit) != x {
					t.Choose(edit, x)
					changed = true
				}
				continue
			}
			on, saved := savedUnder(spec, st.Toggles, k)
			if t := spec.Toggle(k); saved && t.Value(edit) != on {
				t.Apply(edit, on)
				changed = true
			}
		}
	}
	apply(sc.Clone())
	if !changed {
		return
	}
	// An edit the simulator refuses leaves the preset as it was.
	_ = c.Edit(i18n.T("settings.restored"), apply)
}
