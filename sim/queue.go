package sim

import (
	"sort"
	"time"
)

// slot is a queue entry: the ordering key and where the event lives.
type slot struct {
	at  time.Duration
	seq uint64
	ix  int32
}

// before orders slots by time, then by the order they were queued.
func before(a, b slot) bool {
	return a.at < b.at || a.at == b.at && a.seq < b.seq
}

// lane is a sorted run of slots, earliest first from head on. A slot is
// inserted by walking back from the latest, so a slot that belongs near
// the end — a new event is usually among the latest of its kind — moves
// few others, or, when it belongs in the lane's first half, forward from
// the earliest into the room taken slots left before head; the earliest
// is taken from the front without moving any: no sift compares a key it
// cannot predict, which is where a binary heap spent its time.
type lane struct {
	s    []slot
	head int
}

func (l *lane) len() int { return len(l.s) - l.head }

// first is the earliest slot; the lane must not be empty.
func (l *lane) first() *slot { return &l.s[l.head] }

// makeRoom moves a full lane's slots to the front when the taken ones
// are at least half of it, else append doubles it: a short lane (the
// ticks) that moved its few slots on every other insert now moves them
// once per as many takes.
func (l *lane) makeRoom() {
	if len(l.s) == cap(l.s) && l.head > 0 && l.head >= len(l.s)/2 {
		n := copy(l.s, l.s[l.head:])
		l.s, l.head = l.s[:n], 0
	}
}

// insert puts x in its place by time, then seq: a slot moved to a new
// time (retime) may be older than others at that time.
func (l *lane) insert(x slot) {
	l.makeRoom()
	l.s = append(l.s, x)
	i := len(l.s) - 1
	for i > l.head && before(x, l.s[i-1]) {
		l.s[i] = l.s[i-1]
		i--
	}
	l.s[i] = x
}

// pop removes the earliest slot and returns its slab entry.
func (l *lane) pop() int32 {
	ix := l.s[l.head].ix
	l.head++
	if l.head == len(l.s) {
		l.s, l.head = l.s[:0], 0
	}
	return ix
}

// find is the position of the slot with key (at, seq), -1 if none.
func (l *lane) find(at time.Duration, seq uint64) int {
	q := slot{at: at, seq: seq}
	i := l.head + sort.Search(l.len(), func(k int) bool { return !before(l.s[l.head+k], q) })
	if i < len(l.s) && l.s[i].at == at && l.s[i].seq == seq {
		return i
	}
	return -1
}

// remove takes out the slot at position i.
func (l *lane) remove(i int) {
	if i == l.head {
		l.pop()
		return
	}
	copy(l.s[i:], l.s[i+1:])
	l.s = l.s[:len(l.s)-1]
}

// eventQueue orders a run's events by (at, seq) over a slab of events
// with a free list, so queueing and taking move 24-byte slots instead of
// whole events and allocate nothing in steady state. Messages and every
// other event (timers, ticks, faults) wait in two lanes: a message is due
// a latency from now, a timer mostly later, so each kind arrives near the
// end of its own lane; the earlier of the two fronts goes first, which is
// the order one queue of all events would give.
type eventQueue struct {
	lanes [2]lane // laneMsgs, laneTimers
	slab  []event
	free  []int32
}

// The lanes: messages, and the rest.
const (
	laneMsgs = iota
	laneTimers
)

// laneOf is the lane of each kind of event (a table, not a branch: the
// kinds of successive events alternate unpredictably).
var laneOf = [...]uint8{evDeliver: laneMsgs, evTimer: laneTimers, evTick: laneTimers, evExec: laneTimers, evStart: laneTimers,
	evFault: laneTimers, evResume: laneTimers, evHeal: laneTimers, evChange: laneTimers}

func (q *eventQueue) len() int { return q.lanes[0].len() + q.lanes[1].len() }

// lane is the lane an event of this kind waits in.
func (q *eventQueue) lane(k eventKind) *lane { return &q.lanes[laneOf[k]] }

// next is the lane whose front is the earliest event; nil when empty.
func (q *eventQueue) next() *lane {
	// A lane is empty when its head is at its end (pop starts an emptied
	// lane again at 0), which saves computing both lengths.
	m, t := &q.lanes[laneMsgs], &q.lanes[laneTimers]
	if m.head == len(m.s) {
		if t.head == len(t.s) {
			return nil
		}
		return t
	}
	if t.head < len(t.s) && before(t.s[t.head], m.s[m.head]) {
		return t
	}
	return m
}

// headAt is the time of the earliest event; ok is false when empty.
func (q *eventQueue) headAt() (time.Duration, bool) {
	l := q.next()
	if l == nil {
		return 0, false
	}
	return l.first().at, true
}

// reserve takes a slab entry for an event the caller writes in place and
// then queues with Sim.enqueue: an event is built once, where it stays, rather
// than copied through every call on its way into the queue.
func (q *eventQueue) reserve() int32 {
	if n := len(q.free); n > 0 {
		ix := q.free[n-1]
		q.free = q.free[:n-1]
		return ix
	}
	q.slab = append(q.slab, event{})
	return int32(len(q.slab) - 1)
}

// take removes the earliest event from the queue and returns its slab
// entry, which stays reserved (readable, not reused) until done. The
// queue must not be empty.
func (q *eventQueue) take() int32 {
	ix := q.next().pop()
	q.slab[ix].queued = false
	return ix
}

// takeUpTo is take when the earliest event is due at or before limit;
// ok is false (and nothing taken) otherwise.
func (q *eventQueue) takeUpTo(limit time.Duration) (ix int32, ok bool) {
	l := q.next()
	if l == nil || l.first().at > limit {
		return 0, false
	}
	ix = l.pop()
	q.slab[ix].queued = false
	return ix, true
}

// done frees a slab entry from take. It is not cleared: the next event
// written there overwrites every field it reads (a timer leaves the
// message part as it was, which nothing reads of a timer).
func (q *eventQueue) done(ix int32) { q.free = append(q.free, ix) }

// unlink takes slab entry ix, which is queued, out of its lane.
func (q *eventQueue) unlink(ix int32) {
	e := &q.slab[ix]
	l := q.lane(e.kind)
	l.remove(l.find(e.at, e.seq))
	e.queued = false
}

// removeSlab takes the event at slab index ix out of the queue.
func (q *eventQueue) removeSlab(ix int32) event {
	q.unlink(ix)
	e := q.slab[ix]
	q.done(ix)
	return e
}

// live reports whether slab entry ix holds a queued event.
func (q *eventQueue) live(ix int32) bool {
	return ix >= 0 && int(ix) < len(q.slab) && q.slab[ix].queued
}

// retime moves slab entry ix to a new time.
func (q *eventQueue) retime(ix int32, at time.Duration) {
	q.unlink(ix)
	e := &q.slab[ix]
	e.at = at
	q.lane(e.kind).insert(slot{at: at, seq: e.seq, ix: ix})
	e.queued = true
}

// each calls f for every queued event, in no particular order.
func (q *eventQueue) each(f func(ix int32, e *event)) {
	for i := range q.lanes {
		l := &q.lanes[i]
		for _, s := range l.s[l.head:] {
			f(s.ix, &q.slab[s.ix])
		}
	}
}

// reset empties the queue, keeping its room for the next run.
func (q *eventQueue) reset() {
	for i := range q.lanes {
		q.lanes[i] = lane{s: q.lanes[i].s[:0]}
	}
	q.slab, q.free = q.slab[:0], q.free[:0]
}

func (q *eventQueue) clone() eventQueue {
	var c eventQueue
	q.cloneInto(&c)
	return c
}

// cloneInto makes c a copy of q in c's own arrays, which it reuses: a
// fork of a sweep's run takes a pooled queue (Sim.fork), so forking
// allocates no new queue.
func (q *eventQueue) cloneInto(c *eventQueue) {
	c.slab = append(c.slab[:0], q.slab...)
	c.free = append(c.free[:0], q.free...)
	for i, l := range q.lanes {
		c.lanes[i] = lane{s: append(c.lanes[i].s[:0], l.s[l.head:]...)}
	}
}
