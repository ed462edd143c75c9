package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/widgets"
)

// forkAt is the instant a change made at the cursor takes effect: the
// cursor to the millisecond, so the scenario file stays readable.
func (c *Controller) forkAt() time.Duration { return c.cursor.Truncate(time.Millisecond) }

// SetControl moves a control (a slider, a toggle) at the cursor. At 0 it
// edits the scenario itself, as the whole run changes. Later it forks the
// run: the fields the control changes are recorded into the scenario as a
// sim.Change at the cursor and the run is simulated again, so everything
// before the cursor stays exactly as it was and the old future is gone. A
// control whose field shapes the whole run (clients, servers, a pause's
// length) cannot move mid-run: it edits the scenario from 0 and says so.
func (c *Controller) SetControl(what string, apply func(sc *sim.Scenario)) error {
	if c.rec == nil {
		return fmt.Errorf("%s: no scenario loaded", what)
	}
	at := c.forkAt()
	if at == 0 {
		return c.Edit(what, apply)
	}
	before, err := c.effectiveAt(at)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	after := before.Clone()
	apply(after)
	set, err := changedFields(before, after)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if len(set) == 0 {
		return nil
	}
	var fixed []string
	for k := range set {
		if !slices.Contains(sim.ChangeableFields, k) {
			fixed = append(fixed, fieldName(c.mode, k)) // in the reader's words where it has them
		}
	}
	if len(fixed) > 0 {
		sort.Strings(fixed)
		if err := c.Edit(what, apply); err != nil {
			return err
		}
		c.note = i18n.F("status.fixedField", "what", what, "fields", strings.Join(fixed, ", "))
		c.history[c.at].note = c.note
		return nil
	}
	sc := c.scenario.Clone()
	sc.Changes = forkChanges(sc.Changes, sim.Change{At: sim.Duration(at), Set: set})
	rec, err := c.record(sc)
	if err != nil {
		return fmt.Errorf("%s at %s: %w", what, widgets.FormatTime(at), err)
	}
	c.setRun(sc, rec)
	c.note = i18n.F("status.forked", "what", what, "t", widgets.FormatTime(at))
	c.commit(what)
	return nil
}

// forkChanges adds ch to the scenario's changes: into a change at the
// same instant, or as a new one in time order. Later changes of the same
// fields belonged to the old future, so they are dropped.
func forkChanges(old []sim.Change, ch sim.Change) []sim.Change {
	var out []sim.Change
	merged := false
	for _, o := range old {
		switch {
		case o.At == ch.At:
			for k, v := range ch.Set {
				o.Set[k] = v
			}
			merged = true
		case o.At > ch.At:
			for k := range ch.Set {
				delete(o.Set, k)
			}
			if len(o.Set) == 0 {
				continue
			}
		}
		out = append(out, o)
	}
	if !merged {
		out = append(out, ch)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At < out[j].At })
	return out
}

// changedFields lists, as scenario-file JSON, the fields whose values
// differ between two scenarios.
func changedFields(before, after *sim.Scenario) (map[string]json.RawMessage, error) {
	a, err := fieldsOf(before)
	if err != nil {
		return nil, err
	}
	b, err := fieldsOf(after)
	if err != nil {
		return nil, err
	}
	out := map[string]json.RawMessage{}
	for k, v := range b {
		if !bytes.Equal(a[k], v) {
			out[k] = v
		}
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			out[k] = json.RawMessage("null")
		}
	}
	return out, nil
}

// fieldsOf is a scenario's file members, without the timed lists (changes
// and captions), which are not controls.
func fieldsOf(sc *sim.Scenario) (map[string]json.RawMessage, error) {
	b, err := json.Marshal(sc)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	delete(m, "changes")
	delete(m, "captions")
	return m, nil
}

// effectiveAt is the scenario as it stands at t: the changes at or before
// t applied in the order the simulator applies them.
func (c *Controller) effectiveAt(t time.Duration) (*sim.Scenario, error) {
	return EffectiveScenario(c.scenario, t)
}

// EffectiveScenario is sc with its changes at or before t applied, in the
// simulator's order (by time, then by position in the file), and no
// changes left: what the controls show at t.
func EffectiveScenario(sc *sim.Scenario, t time.Duration) (*sim.Scenario, error) {
	var due []sim.Change
	for _, ch := range sc.Changes {
		if ch.At.D() <= t {
			due = append(due, ch)
		}
	}
	base := sc.Clone()
	base.Changes = nil
	if len(due) == 0 {
		return base, nil
	}
	sort.SliceStable(due, func(i, j int) bool { return due[i].At < due[j].At })
	b, err := json.Marshal(base)
	if err != nil {
		return nil, err
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, err
	}
	for _, ch := range due {
		for k, v := range ch.Set {
			doc[k] = v
		}
	}
	if b, err = json.Marshal(doc); err != nil {
		return nil, err
	}
	return sim.ParseScenario(b)
}

// Effective is the scenario as it stands at the cursor, with the changes
// made up to it applied: the controls show its values. Treat it as
// read-only.
func (c *Controller) Effective() *sim.Scenario {
	if c.scenario == nil {
		return nil
	}
	n := 0
	for _, ch := range c.scenario.Changes {
		if ch.At.D() <= c.cursor {
			n++
		}
	}
	if n == 0 {
		return c.scenario
	}
	if c.eff != nil && c.effFor == c.scenario && c.effN == n {
		return c.eff
	}
	eff, err := c.effectiveAt(c.cursor)
	if err != nil { // the scenario validated when it was recorded
		return c.scenario
	}
	c.eff, c.effFor, c.effN = eff, c.scenario, n
	return eff
}
