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
	i := len(q.heap) - 1
	q.pos[ix] = int32(i)
	q.up(i)
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
// written there overwrites every field.
func (q *eventQueue) done(ix int32) { q.slab[ix] = event{}; q.free = append(q.free, ix) }

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
		q.swap(i, last)
	}
	q.heap = q.heap[:last]
	if i != last {
		if !q.down(i) {
			q.up(i)
		}
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

func (q *eventQueue) less(i, j int) bool {
	a, b := &q.heap[i], &q.heap[j]
	return a.at < b.at || a.at == b.at && a.seq < b.seq
}

func (q *eventQueue) swap(i, j int) {
	q.heap[i], q.heap[j] = q.heap[j], q.heap[i]
	q.pos[q.heap[i].ix] = int32(i)
	q.pos[q.heap[j].ix] = int32(j)
}

func (q *eventQueue) up(j int) {
	for {
		i := (j - 1) / 2
		if i == j || !q.less(j, i) {
			break
		}
		q.swap(i, j)
		j = i
	}
}

func (q *eventQueue) down(i0 int) bool {
	i, n := i0, len(q.heap)
	for {
		j1 := 2*i + 1
		if j1 >= n || j1 < 0 {
			break
		}
		j := j1
		if j2 := j1 + 1; j2 < n && q.less(j2, j1) {
			j = j2
		}
		if !q.less(j, i) {
			break
		}
		q.swap(i, j)
		i = j
	}
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
