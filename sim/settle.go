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
