package sweep

import (
	"runtime/debug"
	"sync"
)

// sweepGCPercent is the garbage collector's target while a sweep runs. A
// sweep keeps about 2 MB live (the runs' verdicts) while its runs allocate
// 400 to 900 MB a grid, a few kilobytes each, so at the default 100 the
// collector ran 354 times in a 2.4 s etcd grid (GODEBUG=gctrace=1), with
// its write barriers on a quarter of the time. At 400 it runs about a
// quarter as often for about 10 MB more heap.
const sweepGCPercent = 400

// gcRaise counts the sweeps running, so the target goes back when the last
// one ends (the window's coarse and fine passes overlap).
var gcRaise struct {
	sync.Mutex
	running int
	prev    int
	raised  bool
}

// KeepGCRaised raises the collector's target as a running sweep does, and
// returns what puts it back. A caller that runs sweeps one after another
// (the window computes a map as a coarse pass and then one sweep a column)
// holds it across them: otherwise the target drops to the default between
// two sweeps, and the collector and the scavenger give back the heap the
// next sweep grows again, thirty times a map (a Redlock map's process spent
// 2.3 % of its CPU in the scavenger and more in the kernel's page faults).
func KeepGCRaised() (restore func()) { return raiseGCPercent() }

// raiseGCPercent raises the collector's target to sweepGCPercent, unless it
// is higher already or off (GOGC), and returns what puts it back.
func raiseGCPercent() (restore func()) {
	gcRaise.Lock()
	defer gcRaise.Unlock()
	if gcRaise.running == 0 {
		gcRaise.prev = debug.SetGCPercent(sweepGCPercent)
		gcRaise.raised = gcRaise.prev >= 0 && gcRaise.prev < sweepGCPercent
		if !gcRaise.raised {
			debug.SetGCPercent(gcRaise.prev)
		}
	}
	gcRaise.running++
	return func() {
		gcRaise.Lock()
		defer gcRaise.Unlock()
		gcRaise.running--
		if gcRaise.running == 0 && gcRaise.raised {
			debug.SetGCPercent(gcRaise.prev)
			gcRaise.raised = false
		}
	}
}
