package sim

import "time"

// Settle runs the rest of the run and returns the instant it stopped: the
// end, or earlier once every client has done all its rounds, since nothing
// after the last round can change a verdict. The run's event queue goes
// back to the pool, so afterwards only its checker may be read; the run is
// quiet (the sentences a person would read are not built). The sweep and
// the fault-schedule search run thousands of these.
func (s *Sim) Settle() time.Duration {
	s.quiet = true
	defer s.release()
	for s.Step() {
		if s.steps%64 == 0 && s.clientsFinished() {
			break
		}
	}
	return s.now
}

// NodeName is the name of node id in the checker's run, so records that
// carry a NodeID can be said after the run is gone.
func (c *Checker) NodeName(id NodeID) string {
	if id < 0 || int(id) >= len(c.s.Nodes) {
		return ""
	}
	return c.s.Nodes[id].Name
}
