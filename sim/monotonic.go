package sim

import "time"

// stepMonotonic steps node id's monotonic clock by d with its wall clock
// (Fault.Monotonic): what the node reads there (Ctx.Mono) moves by d, and
// every timer it set on that clock (After, Tick) comes due as much sooner
// by it, at once when its time has passed, since Go's timers run on the
// runtime's nanotime, which reads CLOCK_MONOTONIC (golang/go
// src/runtime/sys_linux_amd64.s), as Java's run on System.nanoTime. Its
// work (Exec) is execution, not time read off a clock, and does not move;
// neither does a timer set for a wall-clock time (AtWall), which the jump
// of the wall clock moves. A lazy tick (lazy.go) is first brought back to
// its next firing (TestLazyTicksChangeNothing holds the two runs equal).
func (s *Sim) stepMonotonic(id NodeID, d time.Duration) {
	n := &s.Nodes[id]
	n.Clock.Step += d
	if n.lazy.p != nil {
		// As for a pause: count the firings skipped before now and queue
		// the tick at its next firing, where the loop below finds it as
		// it finds the tick of a run without lazy ticks.
		s.pauseLazily(id)
	}
	var moved []int32
	s.queue.each(func(ix int32, e *event) {
		if e.node == id && !e.wall && (e.kind == evTimer || e.kind == evTick) {
			moved = append(moved, ix)
		}
	})
	// The true time by which the step brings a deadline on this clock closer.
	sooner := time.Duration(float64(d) / (1 + n.Clock.Rate))
	for _, ix := range moved {
		s.queue.retime(ix, max(s.now, s.queue.slab[ix].at-sooner))
	}
	if l := &n.lazy; l.p != nil {
		// The tick's next firing has moved: the firings counted stop one
		// period before it, so none is counted twice or for nothing.
		l.last = s.queue.slab[l.ix].at - l.step
	}
}

// traceJump traces a clock jump of node id: its size, and that the
// monotonic clock stepped with it when it did.
func (s *Sim) traceJump(id NodeID, f Fault) {
	by := f.By.D().String()
	if !f.Monotonic {
		s.trace(id, TraceFault, FaultClockJump.String(), None, by)
		return
	}
	s.traceSaid(id, TraceFault, FaultClockJump.String(), None, by+", monotonic clock too", Say("note.monotonicJump", "by", by))
}
