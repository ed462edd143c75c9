package sim

import "time"

// Lazy ticks: in a sweep's run an idle follower's raft tick is not queued
// at all. When a Tick firing is idle and its process says the next k would
// be too if nothing reached it (IdleAhead), the timer is queued k+1 periods
// on, at the first firing that may act; the k firings between are counted
// (SkipIdle) only when something does reach the node, before it is handled,
// and the timer comes back earlier if that something made an earlier firing
// act. The firings happen at the instants they always did: the node's
// period D on its own clock, added up from its last handled firing.
//
// A skipped firing has no seq of its own, so what the order of events at
// one instant decides could differ: an event of the node at exactly a
// skipped firing's instant (does it come before or after the count?), and
// any event sharing the instant of a timer queued early (it was queued
// periods before its time, not one). Instants are nanoseconds drawn from
// the random source, so such a tie is rare (but for a member resumed from
// a pause: its raft and lessor ticks restart at one instant and meet every
// fifth raft tick); a run that meets one says so (Sim.tie) and the sweep
// runs it again without lazy ticks. Nothing is guessed:
// TestLazyTicksChangeNothing compares the two on every etcd preset and
// fault case, over three seeds.

// LazyIdler is an Idler that can tell how many of its next Tick firings
// would be idle, and count them all at once.
type LazyIdler interface {
	Idler
	// IdleAhead is how many of the firings of t after the last one
	// (handled or counted) would each be idle, in a row, if nothing but
	// them reached the process; it changes nothing. A process whose state
	// changes so that this may fall calls Ctx.WakeTick.
	// t is the timer where it lies in the queue: read it, never keep it.
	IdleAhead(t *Timer) int
	// SkipIdle makes the changes of n idle firings of t in a row, as n
	// calls of FireIdle that each reported true would.
	SkipIdle(t *Timer, n int)
}

// lazyTick is a node's Tick timer queued past idle firings (one a node):
// its process (nil when there is none), the event at slab entry ix, the
// node's period step in true time, the instant of the last firing handled
// or counted, and ahead, how many firings after it the queued one skips.
type lazyTick struct {
	p     LazyIdler
	ix    int32
	step  time.Duration
	last  time.Duration
	ahead int
	wake  bool // the process called WakeTick during the event being handled
}

// tickLazily queues the Tick timer t of node id, just fired idle at now
// with period d, past the firings after it that would be idle; false
// (nothing queued) when the next one may act, or the node already has a
// lazy tick.
func (s *Sim) tickLazily(id NodeID, p LazyIdler, t *Timer, d time.Duration) bool {
	n := &s.Nodes[id]
	if n.lazy.p != nil {
		return false
	}
	k := p.IdleAhead(t)
	if k <= 0 {
		return false
	}
	step := n.Clock.trueAfter(0, d)
	// A firing past the end of the run is never handled: no need to count further.
	k = int(min(int64(k), int64((s.end-s.now)/step)+1))
	ix := s.queue.reserve()
	s.nextID++
	e := &s.queue.slab[ix]
	e.at, e.kind, e.node, e.from, e.sentAt = s.now+time.Duration(k+1)*step, evTick, id, 0, 0
	e.timer, e.id, e.wall, e.local, e.fault = *t, TimerID(s.nextID<<32)|TimerID(ix+1), false, d, 0
	s.enqueue(ix, e)
	n.lazy = lazyTick{p: p, ix: ix, step: step, last: s.now, ahead: k}
	s.lazyNodes++
	return true
}

// catchUp counts the skipped firings of node id's lazy tick before now,
// ahead of an event at the node. A skipped firing at now itself is a tie.
func (s *Sim) catchUp(id NodeID, now time.Duration) {
	l := &s.Nodes[id].lazy
	since := now - l.last
	if since < l.step {
		return
	}
	k := since / l.step
	if since%l.step == 0 {
		if k <= time.Duration(l.ahead) {
			s.tie = true // a skipped firing at this very instant
		}
		k-- // the firing at now is the queued one, or the tie
	}
	if k > 0 {
		l.p.SkipIdle(&s.queue.slab[l.ix].timer, int(k))
		l.last += k * l.step
		l.ahead -= int(k)
	}
}

// replan brings node id's lazy tick forward when the event just handled
// (which called WakeTick) made a firing before the queued one act.
func (s *Sim) replan(id NodeID) {
	l := &s.Nodes[id].lazy
	l.wake = false
	e := &s.queue.slab[l.ix]
	if k := l.p.IdleAhead(&e.timer); k < l.ahead {
		l.ahead = k
		s.queue.unlink(l.ix)
		e.at = l.last + time.Duration(k+1)*l.step
		s.enqueue(l.ix, e)
	}
}

// takeLazy is called when node id's lazy tick e is about to be handled:
// the firings it skipped are counted and it is no longer lazy. It must be
// alone at its instant: queued periods early, it would otherwise stand
// before the events queued in between. An event handled at this instant
// before it has moved the clock here; one that waits in the paused node's
// backlog is the backlog's last; one still queued is the queue's next.
func (s *Sim) takeLazy(id NodeID, e *event) {
	s.catchUp(id, e.at)
	s.dropLazy(id)
	n := &s.Nodes[id]
	next, ok := s.queue.headAt()
	if s.now == e.at || ok && next == e.at || n.Paused && len(n.backlog) > 0 && n.backlog[len(n.backlog)-1].at == e.at {
		s.tie = true
	}
}

// dropLazy forgets node id's lazy tick: it is handled, or died.
func (s *Sim) dropLazy(id NodeID) {
	s.Nodes[id].lazy = lazyTick{}
	s.lazyNodes--
}

// pauseLazily counts node id's skipped firings before the pause that
// starts now and queues its lazy tick again at its next firing: the first
// firing during a pause waits in the backlog, as it always did.
func (s *Sim) pauseLazily(id NodeID) {
	s.catchUp(id, s.now)
	l := &s.Nodes[id].lazy
	if l.ahead > 0 {
		l.ahead = 0
		e := &s.queue.slab[l.ix]
		s.queue.unlink(l.ix)
		e.at = l.last + l.step
		s.enqueue(l.ix, e)
	}
}
