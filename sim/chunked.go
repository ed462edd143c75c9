package sim

// chunkLen is how many items one chunk of a chunked sequence holds.
const chunkLen = 256

// firstChunkLen is the room the first chunk starts with.
const firstChunkLen = 16

// chunked is an append-mostly sequence (a raft log, an MVCC history) whose
// chunks a run shares with its clones: a checkpoint of a long run then
// costs what changed since the last one, not the whole history again.
// Chunks before shared may belong to a clone too and are copied before
// they are written; the zero value is an empty sequence.
type Chunked[T any] struct {
	chunks [][]T
	n      int
	shared int
}

// Len is the number of items.
func (c *Chunked[T]) Len() int { return c.n }

// At is item i (0-based).
func (c *Chunked[T]) At(i int) T { return c.chunks[i/chunkLen][i%chunkLen] }

// Last is the last item; the zero T when there is none.
func (c *Chunked[T]) Last() T {
	var zero T
	if c.n == 0 {
		return zero
	}
	return c.At(c.n - 1)
}

// Append adds x at the end.
func (c *Chunked[T]) Append(x T) {
	k := c.n / chunkLen
	if k == len(c.chunks) {
		// The first chunk grows as a slice does, from room for
		// firstChunkLen items: most runs (a sweep's) never fill it, and a
		// whole chunk per log was most of what they allocated; a sweep's
		// raft or Zab log holds 5 to 10 entries, which then take one
		// allocation instead of five.
		fresh := make([]T, 0, firstChunkLen)
		if k > 0 {
			fresh = make([]T, 0, chunkLen)
		}
		c.chunks = append(c.chunks, fresh)
	} else if k < c.shared {
		c.chunks[k] = c.own(k)
		c.shared = k
	}
	c.chunks[k] = append(c.chunks[k], x)
	c.n++
}

// own is a copy of shared chunk k to write to, with the room the chunk
// has: a first chunk that is still growing stays small, so a sweep's run
// forked at its pause (Sim.fork), whose raft log holds a few entries,
// does not copy them into a whole chunk.
func (c *Chunked[T]) own(k int) []T {
	return append(make([]T, 0, cap(c.chunks[k])), c.chunks[k]...)
}

// Truncate keeps the first n items.
func (c *Chunked[T]) Truncate(n int) {
	if n >= c.n {
		return
	}
	keep := (n + chunkLen - 1) / chunkLen
	clear(c.chunks[keep:])
	c.chunks = c.chunks[:keep]
	if keep > 0 {
		c.chunks[keep-1] = c.chunks[keep-1][:n-(keep-1)*chunkLen]
	}
	c.n = n
	c.shared = min(c.shared, keep)
}

// Range calls f with each item from index from on, in order, until f
// returns false.
func (c *Chunked[T]) Range(from int, f func(i int, x T) bool) {
	for i := max(from, 0); i < c.n; {
		ch := c.chunks[i/chunkLen]
		for j := i % chunkLen; j < len(ch); j, i = j+1, i+1 {
			if !f(i, ch[j]) {
				return
			}
		}
	}
}

// Clone returns a copy that shares the chunks; both copy a chunk before
// writing to it.
func (c *Chunked[T]) Clone() Chunked[T] {
	c.shared = len(c.chunks)
	return Chunked[T]{chunks: append([][]T(nil), c.chunks...), n: c.n, shared: len(c.chunks)}
}

// Footprint is the bytes a clone of the sequence holds of its own: the
// chunk list and the chunks not shared (items of size bytes each).
func (c *Chunked[T]) Footprint(size int) int {
	return len(c.chunks)*24 + (len(c.chunks)-c.shared)*chunkLen*size
}

// Set replaces item i.
func (c *Chunked[T]) Set(i int, x T) {
	k := i / chunkLen
	if k < c.shared {
		c.chunks[k] = c.own(k)
	}
	c.chunks[k][i%chunkLen] = x
}
