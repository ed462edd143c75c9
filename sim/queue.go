package sim

import "time"

// slot is a heap entry: the ordering key and where the event lives.
type slot struct {
	at  time.Duration
	seq uint64
	ix  int32
}

// eventQueue is a binary min-heap of (at, seq) over a slab of events with
// a free list, so pushing and popping move 24-byte slots instead of whole
// events, allocate nothing in steady state, and a timer can be removed in
// O(log n) through the position its slab entry keeps.
type eventQueue struct {
	heap []slot
	slab []event
	pos  []int32 // heap position of each slab entry; -1 when free
	free []int32
}

func (q *eventQueue) len() int { return len(q.heap) }

// headAt is the time of the earliest event; ok is false when empty.
func (q *eventQueue) headAt() (time.Duration, bool) {
	if len(q.heap) == 0 {
		return 0, false
	}
	return q.heap[0].at, true
}

// reserve takes a slab entry for an event the caller writes in place and
// then queues with insert: an event is built once, where it stays, rather
// than copied through every call on its way into the queue.
func (q *eventQueue) reserve() int32 {
	if n := len(q.free); n > 0 {
		ix := q.free[n-1]
		q.free = q.free[:n-1]
		return ix
	}
	q.slab = append(q.slab, event{})
	q.pos = append(q.pos, -1)
	return int32(len(q.slab) - 1)
}

// insert queues the event written at slab entry ix.
func (q *eventQueue) insert(ix int32) {
	e := &q.slab[ix]
	q.heap = append(q.heap, slot{at: e.at, seq: e.seq, ix: ix})
	q.up(len(q.heap) - 1)
}

func (q *eventQueue) push(e event) int32 {
	ix := q.reserve()
	q.slab[ix] = e
	q.insert(ix)
	return ix
}

// take removes the earliest event from the heap and returns its slab
// entry, which stays reserved (readable, not reused) until done.
func (q *eventQueue) take() int32 { return q.unlink(0) }

// done frees a slab entry from take. It is not cleared: the next event
// written there overwrites every field it reads (a timer leaves the
// message part as it was, which nothing reads of a timer).
func (q *eventQueue) done(ix int32) { q.free = append(q.free, ix) }

// pop removes and returns the earliest event.
func (q *eventQueue) pop() event {
	return q.removeAt(0)
}

func (q *eventQueue) removeAt(i int) event {
	ix := q.unlink(i)
	e := q.slab[ix]
	q.done(ix)
	return e
}

// unlink takes heap position i out of the heap and returns its slab entry.
func (q *eventQueue) unlink(i int) int32 {
	ix := q.heap[i].ix
	last := len(q.heap) - 1
	if i != last {
		q.heap[i] = q.heap[last]
		q.heap = q.heap[:last]
		if !q.down(i) {
			q.up(i)
		}
	} else {
		q.heap = q.heap[:last]
	}
	q.pos[ix] = -1
	return ix
}

// removeSlab takes the event at slab index ix out of the queue.
func (q *eventQueue) removeSlab(ix int32) event {
	return q.removeAt(int(q.pos[ix]))
}

// live reports whether slab entry ix holds a queued event.
func (q *eventQueue) live(ix int32) bool {
	return ix >= 0 && int(ix) < len(q.pos) && q.pos[ix] >= 0
}

// retime moves slab entry ix to a new time.
func (q *eventQueue) retime(ix int32, at time.Duration) {
	q.slab[ix].at = at
	i := int(q.pos[ix])
	q.heap[i].at = at
	if !q.down(i) {
		q.up(i)
	}
}

// each calls f for every queued event, in no particular order.
func (q *eventQueue) each(f func(ix int32, e *event)) {
	for _, s := range q.heap {
		f(s.ix, &q.slab[s.ix])
	}
}

// before orders slots by time, then by the order they were queued.
func before(a, b slot) bool {
	return a.at < b.at || a.at == b.at && a.seq < b.seq
}

// The heap is 4-ary: a run's queue holds a few dozen events, and four
// children a level halve the levels a slot sifts through (the order of
// events is the same as with any heap: (at, seq) is unique).
const heapArity = 4

// up sifts the slot at j towards the root: parents later than it move
// down into the hole it leaves, and it is written once where it stops.
func (q *eventQueue) up(j int) {
	h := q.heap
	s := h[j]
	for j > 0 {
		i := (j - 1) / heapArity
		if !before(s, h[i]) {
			break
		}
		h[j] = h[i]
		q.pos[h[j].ix] = int32(j)
		j = i
	}
	h[j] = s
	q.pos[s.ix] = int32(j)
}

// down sifts the slot at i0 away from the root the same way; it reports
// whether the slot moved.
func (q *eventQueue) down(i0 int) bool {
	h := q.heap
	n := len(h)
	s := h[i0]
	i := i0
	for {
		c := heapArity*i + 1
		if c >= n {
			break
		}
		// the earliest of the (up to four) children
		m := c
		for k := c + 1; k < min(c+heapArity, n); k++ {
			if before(h[k], h[m]) {
				m = k
			}
		}
		if !before(h[m], s) {
			break
		}
		h[i] = h[m]
		q.pos[h[i].ix] = int32(i)
		i = m
	}
	h[i] = s
	q.pos[s.ix] = int32(i)
	return i > i0
}

func (q *eventQueue) clone() eventQueue {
	return eventQueue{
		heap: append([]slot(nil), q.heap...),
		slab: append([]event(nil), q.slab...),
		pos:  append([]int32(nil), q.pos...),
		free: append([]int32(nil), q.free...),
	}
}
