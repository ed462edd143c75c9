package app

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"time"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/widgets"
)

// NoDivergence is Divergence of a run that has not changed from the one
// loaded.
const NoDivergence = time.Duration(math.MaxInt64)

// MaxUndo is how many edits undo can take back; older ones are forgotten.
const MaxUndo = 100

// historyBudget is the memory the recordings of versions not on show may
// keep, in bytes; past it the oldest give theirs back and are recorded
// again (the same run: the simulator is deterministic) when undo or redo
// returns to them. A long run's recording is hundreds of megabytes.
const historyBudget = 384 << 20

// story is what a controller keeps of the run as it was loaded, so that
// what the program says about the run stays true after an edit: the
// loaded scenario (a run that differs is "edited"), the loaded recording
// (what the scenario's captions narrate), the first instant at which the
// run on show departs from it, and the versions undo and redo move
// between.
type story struct {
	loaded   []byte         // the scenario as loaded (or last saved), as file JSON
	authored *sim.Recording // the run the captions were written for
	diverge  time.Duration  // first instant the run on show differs from authored
	edited   bool           // the scenario on show is not the one loaded

	history []version // every run since the load, oldest first
	at      int       // the index in history of the run on show
}

// version is one run undo and redo can return to.
type version struct {
	scenario *sim.Scenario
	rec      *sim.Recording
	what     string // the edit that made it ("" for the loaded run)
	note     string // what the status line said after it
	// base, when set, is what this version and the ones after it are
	// judged against: the loaded run, a saved one, the one Break it found.
	base *base
}

// base is a scenario as loaded (or saved, or found by Break it), the run
// its captions narrate, and where it came from: what "edited" and a
// caption that no longer holds are judged against. Break it's fork is an
// edit undo takes back, yet a run of its own with its own captions.
type base struct {
	loaded   []byte
	authored *sim.Recording
	origin   string
}

func newStory(sc *sim.Scenario, rec *sim.Recording, origin string) story {
	b, _ := sc.Marshal()
	return story{loaded: b, authored: rec, diverge: NoDivergence,
		history: []version{{scenario: sc, rec: rec, base: &base{loaded: b, authored: rec, origin: origin}}}}
}

// Rebase shows sc as an edit undo takes back (Ctrl+Z returns to the run
// before it) that is also a run of its own, from origin: its captions
// narrate it and it is not marked edited. Break it's found schedule is
// loaded so; what names the edit.
func (c *Controller) Rebase(what string, sc *sim.Scenario, origin string) error {
	sc, rec, err := c.Record(sc, sim.RecordOptions{Progress: c.progress})
	if err != nil {
		return err
	}
	c.setRun(sc, rec)
	b, _ := sc.Marshal()
	c.loaded, c.authored, c.origin = b, rec, origin
	c.note = i18n.F("status.loaded", "origin", OriginText(origin))
	c.commit(what)
	c.history[c.at].base = &base{loaded: b, authored: rec, origin: origin}
	return nil
}

// useBase takes the base version i is judged against: its own, else the
// nearest before it.
func (c *Controller) useBase(i int) {
	for j := i; j >= 0; j-- {
		if b := c.history[j].base; b != nil {
			c.loaded, c.authored, c.origin = b.loaded, b.authored, b.origin
			return
		}
	}
}

// commit adds the run now on show to the history as the edit what; the
// versions undone before it are dropped, as in any editor.
func (c *Controller) commit(what string) {
	c.history = append(c.history[:c.at+1], version{scenario: c.scenario, rec: c.rec, what: what, note: c.note})
	if len(c.history) > MaxUndo+1 {
		c.history = append(c.history[:0], c.history[len(c.history)-MaxUndo-1:]...)
	}
	c.at = len(c.history) - 1
	c.judge()
	c.trimHistory()
}

// trimHistory drops the recordings of the versions not on show, oldest
// first, until those kept fit historyBudget.
func (c *Controller) trimHistory() {
	kept := 0
	for i := len(c.history) - 1; i >= 0; i-- {
		v := &c.history[i]
		if v.rec == nil || v.rec == c.rec || v.rec == c.authored {
			continue
		}
		if kept += v.rec.Footprint(); kept > historyBudget {
			v.rec = nil
		}
	}
}

// judge works out, for the run now on show, whether it is edited and
// where it departs from the run the captions narrate.
func (c *Controller) judge() {
	b, err := c.scenario.Marshal()
	c.edited = err != nil || !bytes.Equal(b, c.loaded)
	c.diverge = Divergence(c.authored, c.rec)
}

// CanUndo reports whether there is an edit to take back.
func (c *Controller) CanUndo() bool { return c.rec != nil && c.at > 0 }

// CanRedo reports whether an undone edit can be made again.
func (c *Controller) CanRedo() bool { return c.rec != nil && c.at < len(c.history)-1 }

// Undo takes back the last fork, fault or control change: the run before
// it is on show again, the cursor where it was. It reports whether there
// was one.
func (c *Controller) Undo() bool {
	if !c.CanUndo() {
		return false
	}
	what := c.editText(c.at)
	if err := c.show(c.at - 1); err != nil {
		c.note = err.Error()
		return false
	}
	c.note = i18n.F("status.undone", "what", what)
	return true
}

// Redo makes an undone edit again.
func (c *Controller) Redo() bool {
	if !c.CanRedo() {
		return false
	}
	if err := c.show(c.at + 1); err != nil {
		c.note = err.Error()
		return false
	}
	c.note = i18n.F("status.redone", "what", c.editText(c.at))
	return true
}

// editText says what the edit that made version i of the history was, in
// the current language: how its scenario differs from the one before it
// (scenarioEdits), else the words the edit was made with.
func (c *Controller) editText(i int) string {
	if i > 0 && i < len(c.history) {
		if d := scenarioEdits(c.history[i-1].scenario, c.history[i].scenario); len(d) > 0 {
			return strings.Join(d, " · ")
		}
	}
	if i < len(c.history) {
		return c.history[i].what
	}
	return ""
}

// UndoText says what Undo would take back, "" when nothing.
func (c *Controller) UndoText() string {
	if !c.CanUndo() {
		return ""
	}
	return c.editText(c.at)
}

// RedoText says what Redo would make again, "" when nothing.
func (c *Controller) RedoText() string {
	if !c.CanRedo() {
		return ""
	}
	return c.editText(c.at + 1)
}

// show puts version i of the history on show, recording it again if its
// recording was given back (trimHistory).
func (c *Controller) show(i int) error {
	v := &c.history[i]
	if v.rec == nil {
		rec, err := c.record(v.scenario)
		if err != nil {
			return err
		}
		v.rec = rec
	}
	c.at = i
	c.playing = false
	c.setRun(v.scenario, v.rec)
	c.useBase(i)
	c.judge()
	c.trimHistory()
	return nil
}

// Edited reports whether the run on show differs from the scenario as it
// was loaded (or last saved): a fork, a fault, a moved control.
func (c *Controller) Edited() bool { return c.rec != nil && c.edited }

// Divergence is the first instant at which run b's trace differs from
// run a's (an event added, missing or different), NoDivergence when
// they are the same run. Everything before it happened exactly as in a.
func Divergence(a, b *sim.Recording) time.Duration {
	if a == nil || b == nil {
		return 0
	}
	if a == b {
		return NoDivergence
	}
	// The traces are read block by block from their compact stores: a
	// long run is never decoded whole.
	ta, tb := a.Events(), b.Events()
	na, nb := ta.Len(), tb.Len()
	for i := range min(na, nb) {
		x, y := ta.At(i), tb.At(i)
		if x.At != y.At || x.Node != y.Node || x.Kind != y.Kind || x.Op != y.Op || x.Peer != y.Peer || x.Note != y.Note {
			return min(x.At, y.At)
		}
	}
	switch {
	case na > nb:
		return min(ta.At(nb).At, b.End())
	case nb > na:
		return min(tb.At(na).At, a.End())
	case a.End() != b.End():
		return min(a.End(), b.End())
	}
	sa, sb := a.Summary(), b.Summary()
	sa.Name, sb.Name = "", "" // a name is not something that happened
	if !reflect.DeepEqual(sa, sb) {
		return a.End()
	}
	return NoDivergence
}

// Divergence is the first instant at which the run on show departs from
// the run its captions were written for; NoDivergence when it does not.
func (c *Controller) Divergence() time.Duration { return c.diverge }

// CaptionHolds reports whether a caption of the scenario is still true of
// the run on show. A caption narrates the run from its instant until the
// next caption (the last one: to the end, and the verdict); it holds when
// the run on show is the run it was written for up to there. An edit
// before that point changed what the caption tells of, so the window
// marks it instead of showing it as true.
func (c *Controller) CaptionHolds(cp sim.Caption) bool {
	if c.scenario == nil {
		return false
	}
	if c.diverge == NoDivergence {
		return true
	}
	until := NoDivergence
	for _, o := range c.scenario.Captions {
		if o.At > cp.At && o.At.D() < until {
			until = o.At.D()
		}
	}
	return until != NoDivergence && until <= c.diverge
}

// Saveable is the scenario on show as a file should keep it: the captions
// that no longer hold are left out, so a saved edit, opened again, does
// not narrate a run it is not.
func (c *Controller) Saveable() *sim.Scenario {
	if c.scenario == nil {
		return nil
	}
	sc := c.scenario.Clone()
	sc.Captions = sc.Captions[:0]
	for _, cp := range c.scenario.Captions {
		if c.CaptionHolds(cp) {
			sc.Captions = append(sc.Captions, cp)
		}
	}
	if len(sc.Captions) == 0 {
		sc.Captions = nil
	}
	return sc
}

// Saved tells the controller its run was written as data: from now on it
// is the run as loaded (not edited, its captions the ones that held).
func (c *Controller) Saved(data []byte) {
	sc, err := sim.ParseScenario(data)
	if err != nil {
		return
	}
	c.scenario, c.eff = sc, nil
	c.history[c.at].scenario = sc
	c.loaded, _ = sc.Marshal()
	c.authored = c.rec
	c.history[c.at].base = &base{loaded: c.loaded, authored: c.authored, origin: c.origin}
	c.judge()
}

// Name is the scenario's name in the current language: a preset's title,
// a generated name's Chinese words (NameZh), else the name it has.
func (c *Controller) Name() string {
	if c.scenario == nil {
		return ""
	}
	return ScenarioName(c.scenario, c.origin)
}

// ScenarioName is a scenario's name in the current language (see
// Controller.Name).
func ScenarioName(sc *sim.Scenario, origin string) string {
	return ScenarioNameIn(i18n.Current(), sc, origin)
}

// ScenarioNameIn is ScenarioName in language l.
func ScenarioNameIn(l i18n.Lang, sc *sim.Scenario, origin string) string {
	if key := "preset." + origin; i18n.Has(i18n.English, key) && sc.Name == i18n.In(i18n.English, key) {
		return i18n.In(l, key)
	}
	if l == i18n.Chinese && sc.NameZh != "" {
		return sc.NameZh
	}
	return sc.Name
}

// Title is the name of the run on show as the status line, the window's
// title and an exported picture give it: marked when it was edited, so a
// forked run is never passed off as the preset or the map cell it came
// from.
func (c *Controller) Title() string {
	name := c.Name()
	if name == "" {
		name = i18n.T("picture.untitled")
	}
	if c.Edited() {
		return i18n.F("title.edited", "name", name)
	}
	return name
}

// Edits says, in the reader's words, how the run on show differs from the
// scenario as loaded: the parameters it sets otherwise, the faults added
// and the changes made mid-run, as the parameter line writes them. Empty
// when it does not differ (or only in what the line does not show).
func (c *Controller) Edits() []string {
	if !c.Edited() {
		return nil
	}
	was, err := sim.ParseScenario(c.loaded)
	if err != nil {
		return nil
	}
	return scenarioEdits(was, c.scenario)
}

// scenarioEdits says, in the reader's words, how scenario now differs from
// was: the parameters it sets otherwise, the faults added and the changes
// made mid-run, as the parameter line writes them.
func scenarioEdits(was, now *sim.Scenario) []string {
	var out []string
	old := map[string]bool{}
	for _, p := range parameterParts(was) {
		old[p] = true
	}
	for _, p := range parameterParts(now) {
		if !old[p] {
			out = append(out, p)
		}
	}
	oldFaults := map[string]bool{}
	for _, f := range was.Faults {
		oldFaults[FaultText(f)] = true
	}
	for _, f := range now.Faults {
		if t := FaultText(f); !oldFaults[t] {
			out = append(out, t)
		}
	}
	oldChanges := map[string]bool{}
	for _, ch := range was.Changes {
		oldChanges[ch.At.D().String()+ch.String()] = true
	}
	for _, ch := range now.Changes {
		if !oldChanges[ch.At.D().String()+ch.String()] {
			out = append(out, i18n.F("param.change", "t", widgets.ShortTime(ch.At.D()), "change", ChangeText(now, ch)))
		}
	}
	return out
}

// OriginTradeoff is the origin of a run opened from a cell of the
// trade-off map.
const OriginTradeoff = "trade-off map"

// OriginText is where a run came from in the current language: a preset's
// or file's name as it is, the trade-off map in words.
func OriginText(origin string) string {
	switch origin {
	case OriginTradeoff:
		return i18n.T("origin.tradeoff")
	case OriginBreak:
		return i18n.T("origin.break")
	}
	return origin
}
