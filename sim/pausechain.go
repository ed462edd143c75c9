package sim

import (
	"slices"
	"time"
)

// A sweep's runs along its pause axis differ only in the length of the
// one pause they are struck with, and nothing reads that length before
// the pause ends: the run with the longest pause is every shorter one's
// until that one ends. The sweep makes it once, stops it at the instant
// each shorter pause would end (SettleUntilPauseEnds), forks it there and
// ends the fork's pause (EndPauseAsIn), so the paused stretch of a line
// of pauses is simulated once, not once a pause.

// SettleUntilPauseEnds runs on as SettleUntil(noFault) does, and stops,
// with stopped, before the first event that node id's resume would
// precede were the pause it is in d long: the instant a run whose pause
// was d long resumes it, the events of that instant queued before the
// pause struck handled, as that run handles them. A pause not yet struck
// stops nothing until it strikes. stopped is false when the run ended
// first (its end, or every client done).
func (s *Sim) SettleUntilPauseEnds(id NodeID, d time.Duration) (end time.Duration, stopped bool) {
	return s.settleUntil(noFault, id, d)
}

// EndPauseAsIn ends the pause fault number `fault` of the run's scenario
// struck as that fault says, in a run SettleUntilPauseEnds stopped for its
// length, the scenario set to one whose pause is the only difference: its
// node's resume comes next, in the place in the order it has in a run made
// with that scenario (the pause's resume event, retimed, keeps its place
// among the events of its instant), and the checker's record of the pause
// says its length. It reports false, changing nothing, for a pause it
// cannot end so (not struck, one a second fault made longer, or one
// ending before now).
func (s *Sim) EndPauseAsIn(fault int) bool {
	f := s.Scenario.Faults[fault]
	id := s.Lookup(f.Pause)
	n := &s.Nodes[id]
	if f.Kind() != FaultPause || !n.Paused || n.resume == 0 {
		return false
	}
	ix := n.resume - 1
	e := &s.queue.slab[ix]
	end := n.pausedAt + f.For.D()
	if !e.queued || e.kind != evResume || e.node != id || end < s.now {
		return false
	}
	n.PauseEnd = end
	s.queue.retime(ix, end)
	s.Check.pauseWas(n.pausedAt, f)
	return true
}

// pauseWas makes the record of the pause that began at `at` the one fault
// f makes (EndPauseAsIn); a fork's records are its own (Checker.fork
// clones them).
func (c *Checker) pauseWas(at time.Duration, f Fault) {
	i := slices.IndexFunc(c.faults, func(m FaultMark) bool { return m.Kind == FaultPause && m.Target == f.Pause && m.At == at })
	if i >= 0 {
		c.faults[i].For, c.faults[i].Note = f.For.D(), faultNote(f)
	}
}
