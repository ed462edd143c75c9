package app

import (
	"fmt"
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
	before := c.scenario.At(at)
	after := before.Clone()
	apply(after)
	set, fixed := sim.Difference(before, after)
	if len(fixed) > 0 {
		for i, k := range fixed {
			fixed[i] = fieldName(c.mode, k) // in the reader's words where it has them
		}
		sort.Strings(fixed)
		if err := c.Edit(what, apply); err != nil {
			return err
		}
		c.note = i18n.F("status.fixedField", "what", what, "fields", strings.Join(fixed, ", "))
		c.history[c.at].note = c.note
		return nil
	}
	if set.Empty() {
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
			o.Set = o.Set.With(ch.Set)
			merged = true
		case o.At > ch.At:
			if o.Set = o.Set.Without(ch.Set); o.Set.Empty() {
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
	c.eff, c.effFor, c.effN = c.scenario.At(c.cursor), c.scenario, n
	return c.eff
}
