package sim

import "time"

// Settle runs the rest of the run and returns the instant it stopped: the
// end, or earlier once every client has done all its rounds and no request
// is on its way to the storage, since nothing after that can change a
// verdict (a crashed client counts as done, but a write it sent before
// may still land, and is judged when it does). The run's event queue goes
// back to the pool, so afterwards only its checker may be read; the run is
// quiet (the sentences a person would read are not built). The sweep and
// the fault-schedule search run thousands of these.
func (s *Sim) Settle() time.Duration {
	s.quiet = true
	defer s.release()
	for s.Step() {
		if s.steps%64 == 0 && s.clientsFinished() && !s.storageAwaits() {
			break
		}
	}
	return s.now
}

// NewVerdictRun prepares a run of sc, already validated, made for its
// checker's verdict alone, as a sweep makes its runs (package sim/sweep):
// quiet (Settle), and with lazy ticks when lazy (lazy.go), in which case a
// run that meets a tie says so (Tie) and is to be made again without.
func NewVerdictRun(sc *Scenario, lazy bool) *Sim {
	s := build(sc)
	s.quiet, s.lazy = true, lazy
	return s
}

// Tie reports whether a run with lazy ticks met an instant where they could
// change the order of events (lazy.go): its verdict is not to be used, the
// run is to be made again without them.
func (s *Sim) Tie() bool { return s.tie }

// Release hands the run's event queue back for reuse by the next run (a
// sweep makes thousands); only its checker may be read afterwards.
func (s *Sim) Release() { s.release() }

// Fork is a copy of the run that goes on as a run of its own, checker and
// all (where Clone's copy replays silently): a sweep runs a seed's events
// up to its pause once (SettleUntil) and forks them there for each length
// of the pause, setting the fork's Scenario to the one with that length.
func (s *Sim) Fork() *Sim { return s.fork() }

// SettleVerdict is Settle for a run of of which only the checker's verdict is
// read (the sweep's): it stops at the first event after which every client
// has done its rounds and no request is on its way to the storage, not at
// the next 64th step, so it runs no event the verdict cannot use. That can
// become true only when a client, the storage or a fault (a crash) acts, so
// only those events look (a client only once it is done itself). Settle keeps its instant of stopping, which the
// fault-schedule search reads (its horizon), as it was.
func (s *Sim) SettleVerdict() time.Duration {
	defer s.release()
	end, _ := s.SettleUntil(noFault)
	return end
}

// noFault is SettleUntil's stop when it stops at no fault.
const noFault = -1

// SettleUntil is SettleVerdict's loop without handing the queue back, and
// with a stop: it returns early, with stopped, when fault number stop
// (of the scenario's Faults) is the next event, before it is handled, so
// the sweep can fork the run there (Fork) and strike it with several
// pauses. Nothing before that event reads the fault's duration.
func (s *Sim) SettleUntil(stop int) (end time.Duration, stopped bool) {
	return s.settleUntil(stop, None, 0)
}

// settleUntil is SettleUntil, and with paused a node (not None) it also
// stops before the first event that node's resume would precede were the
// pause it is in d long (SettleUntilPauseEnds).
func (s *Sim) settleUntil(stop int, paused NodeID, d time.Duration) (end time.Duration, stopped bool) {
	s.quiet = true
	// The clients come first among the nodes; a run keeps its processes.
	var done []interface{ Finished() bool }
	for i := range s.Nodes {
		if !s.Nodes[i].Client {
			break
		}
		f, _ := s.Nodes[i].Proc.(interface{ Finished() bool })
		done = append(done, f)
	}
	// The servers lie between the clients and the storage (New): an
	// event of theirs, most of a run's, cannot end it.
	servers, storage := NodeID(len(done)), s.storage
	q := &s.queue
	for {
		// takeUpTo(s.end), written out: its call was a tenth of the
		// loop's own work, and next, first and pop inline here.
		l := q.next()
		if paused != None { // before the end's test: the resume may be all that is left before it
			if n := &s.Nodes[paused]; n.Paused && n.resume > 0 {
				key := slot{at: n.pausedAt + d, seq: q.slab[n.resume-1].seq}
				if key.at <= s.end && (l == nil || before(key, *l.first())) {
					return s.now, true
				}
			}
		}
		if l == nil || l.first().at > s.end {
			s.now = max(s.now, s.end)
			return s.now, false
		}
		if stop != noFault {
			if e := &q.slab[l.first().ix]; e.kind == evFault && e.fault == stop {
				return s.now, true
			}
		}
		ix := l.pop()
		e := &q.slab[ix]
		e.queued = false
		node := e.node
		counted := s.handle(e)
		q.done(ix)
		if !counted {
			continue
		}
		s.steps++
		if node >= servers && node < storage {
			continue
		}
		if (node < 0 || node == storage || int(node) < len(done) && done[node] != nil && done[node].Finished()) &&
			s.clientsFinished() && !s.storageAwaits() {
			return s.now, false
		}
	}
}

// storageAwaits reports whether a message is still on its way to the
// storage: queued for delivery, or held while the storage is paused.
func (s *Sim) storageAwaits() bool {
	l := s.queue.lane(evDeliver)
	for _, sl := range l.s[l.head:] {
		if e := &s.queue.slab[sl.ix]; e.kind == evDeliver && e.node == s.storage {
			return true
		}
	}
	for _, e := range s.Nodes[s.storage].backlog {
		if e.kind == evDeliver {
			return true
		}
	}
	return false
}

// NodeName is the name of node id in the checker's run, so records that
// carry a NodeID can be said after the run is gone.
func (c *Checker) NodeName(id NodeID) string {
	if id < 0 || int(id) >= len(c.s.Nodes) {
		return ""
	}
	return c.s.Nodes[id].Name
}

// finished reports whether a client node has done all its rounds.
func finished(n *Node) bool {
	f, ok := n.Proc.(interface{ Finished() bool })
	return ok && f.Finished()
}

// clientsFinished reports whether every client has done all its rounds.
func (s *Sim) clientsFinished() bool {
	for i := range s.Nodes {
		n := &s.Nodes[i]
		if !n.Client {
			break
		}
		if !n.Crashed && !finished(n) {
			return false
		}
	}
	return true
}
