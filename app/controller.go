package app

import (
	"fmt"
	"time"

	"github.com/lockscope/lockscope/assets"
	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/widgets"
	"github.com/lockscope/lockscope/widgets/designtab"
)

// Controller is one tab's state apart from its widgets: the scenario, its
// recording, the cursor, and whether and how fast it plays. Every user
// action goes through it; it never touches Fyne, so it is tested without a
// display, and the widgets only draw what it hands out.
type Controller struct {
	mode     string
	scenario *sim.Scenario
	origin   string // the preset or file the scenario came from
	rec      *sim.Recording
	timeline sim.Timeline
	cursor   time.Duration
	playing  bool
	note     string

	playback // how fast it plays, its pacing, story stops and moments (playback.go)

	snap *sim.Snapshot // the snapshot at cursor, built on demand

	// progress, when set, hears how far a recording is and may cancel it.
	progress func(at, end time.Duration) bool

	eff    *sim.Scenario // the scenario in effect at the cursor (Effective)
	effFor *sim.Scenario // the scenario eff was computed from
	effN   int           // how many changes eff applies

	story // what was loaded, what its captions narrate, undo (history.go)
}

// NewController returns the controller of a mode's tab with nothing
// loaded; Load or LoadPreset gives it a run.
func NewController(mode string) *Controller {
	return &Controller{mode: mode, playback: playback{storyStops: true}}
}

// Mode is the tab's mode.
func (c *Controller) Mode() string { return c.mode }

// Preset parses one of the bundled scenarios (assets holds their files,
// as data; the window and the command line parse them).
func Preset(name string) (*sim.Scenario, error) {
	b, ok := assets.PresetFile(name)
	if !ok {
		return nil, fmt.Errorf("no preset named %q", name)
	}
	sc, err := sim.ParseScenario(b)
	if err != nil {
		return nil, fmt.Errorf("preset %s: %w", name, err)
	}
	return sc, nil
}

// LoadPreset loads one of the bundled scenarios.
func (c *Controller) LoadPreset(name string) error {
	sc, err := Preset(name)
	if err != nil {
		return err
	}
	return c.Load(sc, name)
}

// Load records a scenario and shows it from the start, paused. On error
// the tab keeps what it had.
func (c *Controller) Load(sc *sim.Scenario, origin string) error {
	sc, rec, err := c.Record(sc, sim.RecordOptions{Progress: c.progress})
	if err != nil {
		return err
	}
	c.Install(sc, rec, origin)
	return nil
}

// Record checks a scenario is this tab's and records a copy of it. It
// reads nothing the tab changes, so the window runs it off the UI
// goroutine for a long run and hands the result to Install.
func (c *Controller) Record(sc *sim.Scenario, opts sim.RecordOptions) (*sim.Scenario, *sim.Recording, error) {
	if sc.Mode != c.mode {
		return nil, nil, fmt.Errorf("mode: %q scenario in the %s tab", sc.Mode, c.mode)
	}
	sc = sc.Clone()
	rec, err := sim.RecordWith(sc, opts)
	if err != nil {
		return nil, nil, err
	}
	return sc, rec, nil
}

// Install shows a recorded scenario (Record's result) from the start,
// paused, as a new load: the undo history starts again.
func (c *Controller) Install(sc *sim.Scenario, rec *sim.Recording, origin string) {
	c.origin = origin
	c.cursor, c.playing = 0, false
	c.setRun(sc, rec)
	c.story = newStory(sc, rec, origin)
	c.speed = c.defaultSpeed(c.speed)
	c.note = i18n.F("status.loaded", "origin", OriginText(origin))
}

// setRun puts a recorded scenario on show, keeping the cursor where it is
// (within the run): every change of run goes through it.
func (c *Controller) setRun(sc *sim.Scenario, rec *sim.Recording) {
	c.scenario, c.rec = sc, rec
	c.timeline = rec.Timeline()
	c.cursor = min(c.cursor, rec.End())
	c.snap, c.eff = nil, nil
	c.pacing, c.moments, c.held = nil, nil, false
}

// SetProgress makes the controller's recordings report how far they are
// to f, which may cancel one by returning false (sim.ErrCancelled); nil
// records silently.
func (c *Controller) SetProgress(f func(at, end time.Duration) bool) { c.progress = f }

// record records a scenario within the recording budgets.
func (c *Controller) record(sc *sim.Scenario) (*sim.Recording, error) {
	return sim.RecordWith(sc, sim.RecordOptions{Progress: c.progress})
}

// Close gives back what the recording holds outside memory.
func (c *Controller) Close() error { return c.rec.Close() }

// Loaded reports whether a run is loaded.
func (c *Controller) Loaded() bool { return c.rec != nil }

// Edit applies change to a copy of the scenario and records it again from
// 0, keeping the cursor time. If the changed scenario is invalid nothing
// changes and the error names the field.
func (c *Controller) Edit(what string, change func(sc *sim.Scenario)) error {
	if c.rec == nil {
		return fmt.Errorf("%s: no scenario loaded", what)
	}
	sc := c.scenario.Clone()
	change(sc)
	rec, err := c.record(sc)
	if err != nil {
		return err
	}
	c.setRun(sc, rec)
	c.note = i18n.F("status.edited", "what", what)
	c.commit(what)
	return nil
}

// InjectFault adds a fault at the cursor (to the millisecond, so the file
// stays readable) and records the run again.
func (c *Controller) InjectFault(f sim.Fault) error {
	f.At = sim.Duration(c.cursor.Truncate(time.Millisecond))
	what := FaultText(f)
	err := c.Edit(what, func(sc *sim.Scenario) { sc.Faults = append(sc.Faults, f) })
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if f.At == 0 {
		c.note = i18n.F("status.added", "what", what)
	} else {
		c.note = i18n.F("status.addedFork", "what", what)
	}
	c.history[c.at].note = c.note
	return nil
}

// Scenario is the scenario on show. Treat it as read-only: changes go
// through Edit.
func (c *Controller) Scenario() *sim.Scenario { return c.scenario }

// Origin is the preset or file the scenario came from.
func (c *Controller) Origin() string { return c.origin }

// Recording is the current run.
func (c *Controller) Recording() *sim.Recording { return c.rec }

// Timeline is the whole run laid out for the swimlanes.
func (c *Controller) Timeline() sim.Timeline { return c.timeline }

// Cursor is the instant on show.
func (c *Controller) Cursor() time.Duration { return c.cursor }

// End is the last instant of the run, 0 with nothing loaded.
func (c *Controller) End() time.Duration {
	if c.rec == nil {
		return 0
	}
	return c.rec.End()
}

// Snapshot is the state at the cursor.
func (c *Controller) Snapshot() *sim.Snapshot {
	if c.rec == nil {
		return nil
	}
	if c.snap == nil || c.snap.At != c.cursor {
		c.snap = c.rec.At(c.cursor)
	}
	return c.snap
}

// Seek puts the cursor at t, clamped to the run.
func (c *Controller) Seek(t time.Duration) {
	if c.rec == nil {
		return
	}
	c.cursor = max(0, min(t, c.rec.End()))
	c.held = false
}

// Step pauses and moves the cursor to the next instant something happens;
// held at a story stop, it goes on with the story instead (as Space does).
func (c *Controller) Step() {
	if c.rec == nil {
		return
	}
	if c.held {
		c.Play()
		return
	}
	c.playing = false
	c.cursor = c.rec.Next(c.cursor)
}

// DeltaT is the step of "+Δt": a hundredth of the run, so a run of any
// length is crossed in a hundred steps.
func (c *Controller) DeltaT() time.Duration {
	return max(time.Millisecond, c.End()/100)
}

// StepDelta pauses and moves the cursor Δt forward, events or not.
func (c *Controller) StepDelta() {
	if c.rec == nil {
		return
	}
	c.playing, c.held = false, false
	c.cursor = min(c.rec.End(), c.cursor+c.DeltaT())
}

// StepBack pauses and moves the cursor to the previous event instant.
func (c *Controller) StepBack() {
	if c.rec == nil {
		return
	}
	c.playing, c.held = false, false
	c.cursor = c.rec.Prev(c.cursor)
}

// Reset pauses and rewinds to 0.
func (c *Controller) Reset() {
	c.playing, c.held = false, false
	c.cursor = 0
}

// Playing reports whether the run plays.
func (c *Controller) Playing() bool { return c.playing }

// Play starts playback; at the end of the run it starts again from 0.
func (c *Controller) Play() {
	if c.rec == nil {
		return
	}
	if c.cursor >= c.rec.End() {
		c.cursor = 0
	}
	c.playing, c.held = true, false
}

// Pause stops playback where it is.
func (c *Controller) Pause() { c.playing, c.held = false, false }

// TogglePlay plays when paused and pauses when playing.
func (c *Controller) TogglePlay() {
	if c.playing {
		c.Pause()
	} else {
		c.Play()
	}
}

// Caption is the scenario's narration for the cursor: the caption with the
// latest time at or before it.
func (c *Controller) Caption() (sim.Caption, bool) {
	if c.scenario == nil {
		return sim.Caption{}, false
	}
	var best sim.Caption
	found := false
	for _, cp := range c.scenario.Captions {
		if cp.At.D() <= c.cursor && (!found || cp.At >= best.At) {
			best, found = cp, true
		}
	}
	return best, found
}

// PauseLength is the length of the scenario's pause faults, and whether
// it has any.
func (c *Controller) PauseLength() (time.Duration, bool) {
	if c.scenario == nil {
		return 0, false
	}
	return designtab.PauseLength(c.scenario)
}

// Note is what the last action did, for the status line.
func (c *Controller) Note() string { return c.note }

// Status is the one-line summary under the tab: where the cursor is, how
// the run plays (its speed, and while playing how fast its time passes,
// in words), and what the last action did.
func (c *Controller) Status() string {
	if c.rec == nil {
		return i18n.T("status.nothing")
	}
	state := i18n.F("status.paused", "speed", c.speed.Name())
	switch {
	case c.held:
		state = i18n.F("status.storyStop", "speed", c.speed.Name())
	case c.playing:
		state = i18n.F("status.playing", "speed", c.speed.Name(), "pace", PaceWords(c.Rate()))
	}
	s := i18n.F("status.line", "name", c.Title(), "at", widgets.FormatTime(c.cursor), "end", widgets.FormatTime(c.rec.End()),
		"state", state)
	if c.note != "" {
		s += " · " + c.note
	}
	return s
}
