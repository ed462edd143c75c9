package sim

import (
	"cmp"
	"slices"
	"time"
)

// MomentKind is what happens at a moment of interest of a run.
type MomentKind uint8

const (
	// MomentCaption: the scenario's narration moves on.
	MomentCaption MomentKind = iota
	// MomentFault: a fault strikes (a pause, a crash, a cut, a jump, a
	// failover or a promotion).
	MomentFault
	// MomentFaultEnd: a pause ends or a partition heals.
	MomentFaultEnd
	// MomentChange: a control was changed from here on (a fork).
	MomentChange
	// MomentGrant: a client comes to believe it holds the lock.
	MomentGrant
	// MomentExpiry: a server lets a key, session or lease expire.
	MomentExpiry
	// MomentStaleWrite: the storage receives a write from a holder whose
	// lock was granted to another since.
	MomentStaleWrite
	// MomentViolation: a second client comes to believe it holds the lock.
	MomentViolation
)

var momentNames = [...]string{"caption", "fault", "faultEnd", "change", "grant", "expiry", "staleWrite", "violation"}

// String names the kind, as the event log's words are keyed.
func (k MomentKind) String() string {
	if int(k) < len(momentNames) {
		return momentNames[k]
	}
	return "moment"
}

// Moment is an instant the story of a run turns on: playback eases down
// around it, and the window's jump keys go from one to the next.
type Moment struct {
	At   time.Duration
	Kind MomentKind
}

// Moments lists the moments of interest of the whole run in time order.
func (r *Recording) Moments() []Moment { return r.final.Moments() }

// Moments lists the moments of interest of the run so far, in time order
// (of equal instants, in the order of MomentKind).
func (s *Sim) Moments() []Moment {
	end := s.end
	var out []Moment
	add := func(at time.Duration, k MomentKind) {
		if at >= 0 && at <= end {
			out = append(out, Moment{at, k})
		}
	}
	for _, c := range s.Scenario.Captions {
		add(c.At.D(), MomentCaption)
	}
	c := s.Check
	for _, f := range c.Faults() {
		switch f.Kind {
		case FaultHeal:
			add(f.At, MomentFaultEnd)
		case FaultChange:
			add(f.At, MomentChange)
		default:
			add(f.At, MomentFault)
			if f.Kind == FaultPause && f.For > 0 {
				add(f.At+f.For, MomentFaultEnd)
			}
		}
	}
	for _, g := range c.Grants() {
		add(g.At, MomentGrant)
	}
	for _, o := range c.Ownerships() {
		if o.Expired {
			add(o.Span.To, MomentExpiry)
		}
	}
	for _, w := range c.Writes() {
		if w.Stale {
			add(w.At, MomentStaleWrite)
		}
	}
	for _, o := range c.Overlaps(end) {
		add(o.From, MomentViolation)
	}
	slices.SortFunc(out, func(a, b Moment) int {
		if a.At != b.At {
			return cmp.Compare(a.At, b.At)
		}
		return cmp.Compare(a.Kind, b.Kind)
	})
	return slices.Compact(out)
}
