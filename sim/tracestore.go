package sim

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"sort"
	"time"
	"unsafe"
)

// traceBlockSize is the capacity of a block of the compact trace: small
// enough to decode for one row of the event log, large enough that the
// index stays small. It is one of Go's allocation size classes: a block
// allocated a little larger (it was 32 KiB + 512 B) is rounded up to
// 40 KiB, and the trace held a quarter more memory than its budget said
// (heap profile of TestLongEtcdRecording: 126 MiB for a 96 MiB budget).
const traceBlockSize = 32 << 10

// traceBlockSlack is the room a block keeps for its last event: a block
// closes once fewer bytes than this are left, so an event (a few bytes to
// a few hundred with its note) seldom makes it grow past traceBlockSize.
const traceBlockSlack = 512

// TraceStore is a run's trace kept compactly: each event a few bytes of
// varints, its kind by number, with node names, ops and translation keys interned, in
// blocks; blocks past the memory budget go to a temporary file. It answers
// the event log's questions (the n-th event, the event at a time, the
// n-th event that is not a message) by decoding one block.
type TraceStore struct {
	strs  []string
	ids   map[string]uint32
	blks  []traceBlock
	cur   []byte // the open block
	n     int    // events stored
	quiet int    // events that are not messages (send, recv, drop)

	budget int // bytes of closed blocks kept in memory
	inMem  int // bytes of closed blocks in memory
	file   *os.File
	fileAt int64
	dir    string
	err    error // the first error writing the spill file

	cache    int // the block decoded last, -1 for none
	cacheEvs []TraceEvent
}

// traceBlock is one closed block of the compact trace and where it lives.
type traceBlock struct {
	first, firstQuiet int           // events before the block, and non-message events before it
	firstAt           time.Duration // the first event's time
	data              []byte        // nil once spilled
	off               int64         // in the spill file
	size              int
}

// newTraceStore returns an empty store that keeps budget bytes in memory
// and spills the rest to a file in dir ("" for the system's temporary
// directory).
func newTraceStore(budget int, dir string) *TraceStore {
	return &TraceStore{ids: map[string]uint32{}, budget: budget, dir: dir, cache: -1}
}

// messageKind reports whether a trace kind is a message on the wire.
func messageKind(kind TraceKind) bool {
	return kind == TraceSend || kind == TraceRecv || kind == TraceDrop
}

func (t *TraceStore) intern(s string) uint32 {
	if id, ok := t.ids[s]; ok {
		return id
	}
	id := uint32(len(t.strs))
	t.strs = append(t.strs, s)
	t.ids[s] = id
	return id
}

func (t *TraceStore) putUint(v uint64) { t.cur = binary.AppendUvarint(t.cur, v) }
func (t *TraceStore) putStr(s string) {
	t.putUint(uint64(len(s)))
	t.cur = append(t.cur, s...)
}
func (t *TraceStore) putID(s string) { t.putUint(uint64(t.intern(s))) }

// putWords writes w with its map keys sorted, so a store is the same bytes
// for the same run.
func (t *TraceStore) putWords(w Words) {
	t.putID(w.Key)
	if w.Key == "" {
		return
	}
	for _, m := range []map[string]string{w.Args, w.Terms} {
		if m == nil {
			t.putUint(0)
			continue
		}
		t.putUint(uint64(len(m)) + 1)
		for _, k := range slices.Sorted(maps.Keys(m)) {
			t.putID(k)
			t.putStr(m[k])
		}
	}
	if w.Parts == nil {
		t.putUint(0)
		return
	}
	t.putUint(uint64(len(w.Parts)) + 1)
	for _, k := range slices.Sorted(maps.Keys(w.Parts)) {
		t.putID(k)
		t.putWords(w.Parts[k])
	}
}

// add appends one event.
func (t *TraceStore) add(e *TraceEvent) {
	if len(t.cur) == 0 {
		t.blks = append(t.blks, traceBlock{first: t.n, firstQuiet: t.quiet, firstAt: e.At})
	}
	t.putUint(uint64(e.At))
	t.putID(e.Node)
	t.putUint(uint64(e.Kind))
	t.putID(e.Op)
	t.putID(e.Peer)
	t.putStr(e.Note)
	t.putWords(e.NoteWords)
	t.n++
	if !messageKind(e.Kind) {
		t.quiet++
	}
	if len(t.cur) >= traceBlockSize-traceBlockSlack {
		t.closeBlock()
	}
}

// closeBlock ends the open block, in memory or, past the budget, in the
// spill file.
func (t *TraceStore) closeBlock() {
	if len(t.cur) == 0 {
		return
	}
	b := &t.blks[len(t.blks)-1]
	b.size = len(t.cur)
	if t.inMem+cap(t.cur) <= t.budget || !t.spill(b) {
		b.data = slices.Clip(t.cur)
		t.inMem += cap(b.data)
		t.cur = make([]byte, 0, traceBlockSize)
		return
	}
	t.cur = t.cur[:0]
}

// spill writes the open block to the file; false if it could not, in
// which case the block stays in memory.
func (t *TraceStore) spill(b *traceBlock) bool {
	if t.err != nil {
		return false
	}
	if t.file == nil {
		f, err := os.CreateTemp(t.dir, "lockscope-trace-*")
		if err != nil {
			t.err = err
			return false
		}
		// Unlinked at once where the system allows it: the file goes when
		// the program does, whatever happens.
		if os.Remove(f.Name()) == nil {
			t.dir = ""
		}
		t.file = f
	}
	if _, err := t.file.WriteAt(t.cur, t.fileAt); err != nil {
		t.err = err
		return false
	}
	b.off = t.fileAt
	t.fileAt += int64(len(t.cur))
	return true
}

// finish closes the last block; the store is read-only after.
func (t *TraceStore) finish() {
	t.closeBlock()
	t.cur = nil
}

// Close removes the spill file, if any.
func (t *TraceStore) Close() error {
	if t == nil || t.file == nil {
		return nil
	}
	name := t.file.Name()
	err := t.file.Close()
	t.file = nil
	if t.dir != "" {
		err = errors.Join(err, os.Remove(name))
	}
	return err
}

// Len is the number of events.
func (t *TraceStore) Len() int { return t.n }

// QuietLen is the number of events that are not messages on the wire.
func (t *TraceStore) QuietLen() int { return t.quiet }

// InMemory is how many bytes of the trace are kept in memory: the blocks
// not spilled and the interned strings.
func (t *TraceStore) InMemory() int {
	n := t.inMem + len(t.cur) + len(t.blks)*int(unsafe.Sizeof(traceBlock{}))
	for _, s := range t.strs {
		n += len(s) + 48
	}
	return n
}

// Spilled is how many bytes of the trace live in the temporary file.
func (t *TraceStore) Spilled() int64 { return t.fileAt }

// block decodes block k, keeping the last one decoded.
func (t *TraceStore) block(k int) ([]TraceEvent, error) {
	if k == t.cache {
		return t.cacheEvs, nil
	}
	b := t.blks[k]
	data := b.data
	if data == nil {
		if t.file == nil {
			return nil, fmt.Errorf("trace: block %d is in a file that is closed", k)
		}
		data = make([]byte, b.size)
		if _, err := t.file.ReadAt(data, b.off); err != nil {
			return nil, fmt.Errorf("trace: reading the spilled trace: %w", err)
		}
	}
	d := traceDecoder{t: t, data: data}
	evs := t.cacheEvs[:0]
	for len(d.data) > 0 && d.err == nil {
		evs = append(evs, d.event())
	}
	if d.err != nil {
		return nil, fmt.Errorf("trace: block %d: %w", k, d.err)
	}
	t.cache, t.cacheEvs = k, evs
	return evs, nil
}

// At is event i (0-based); the zero event if the store cannot be read.
func (t *TraceStore) At(i int) TraceEvent {
	k := sort.Search(len(t.blks), func(k int) bool { return t.blks[k].first > i }) - 1
	evs, err := t.block(k)
	if err != nil || i-t.blks[k].first >= len(evs) {
		return TraceEvent{}
	}
	return evs[i-t.blks[k].first]
}

// QuietAt is the event of the i-th non-message event, and its index.
func (t *TraceStore) QuietAt(i int) (TraceEvent, int) {
	k := sort.Search(len(t.blks), func(k int) bool { return t.blks[k].firstQuiet > i }) - 1
	evs, err := t.block(k)
	if err != nil {
		return TraceEvent{}, -1
	}
	q := t.blks[k].firstQuiet
	for j, e := range evs {
		if !messageKind(e.Kind) {
			if q == i {
				return e, t.blks[k].first + j
			}
			q++
		}
	}
	return TraceEvent{}, -1
}

// Before counts the events at or before time at, and those of them that
// are not messages.
func (t *TraceStore) Before(at time.Duration) (all, quiet int) {
	k := sort.Search(len(t.blks), func(k int) bool { return t.blks[k].firstAt > at }) - 1
	if k < 0 {
		return 0, 0
	}
	evs, err := t.block(k)
	if err != nil {
		return t.blks[k].first, t.blks[k].firstQuiet
	}
	all, quiet = t.blks[k].first, t.blks[k].firstQuiet
	for _, e := range evs {
		if e.At > at {
			break
		}
		all++
		if !messageKind(e.Kind) {
			quiet++
		}
	}
	return all, quiet
}

// Each calls f with every event in order until f returns an error.
func (t *TraceStore) Each(f func(*TraceEvent) error) error {
	for k := range t.blks {
		evs, err := t.block(k)
		if err != nil {
			return err
		}
		for i := range evs {
			if err := f(&evs[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// traceDecoder reads events back from a block.
type traceDecoder struct {
	t    *TraceStore
	data []byte
	err  error
}

func (d *traceDecoder) uint() uint64 {
	v, n := binary.Uvarint(d.data)
	if n <= 0 {
		d.err, d.data = errors.New("truncated varint"), nil
		return 0
	}
	d.data = d.data[n:]
	return v
}

func (d *traceDecoder) str() string {
	n := d.uint()
	if n > uint64(len(d.data)) {
		d.err, d.data = errors.New("truncated string"), nil
		return ""
	}
	s := string(d.data[:n])
	d.data = d.data[n:]
	return s
}

func (d *traceDecoder) id() string {
	v := d.uint()
	if v >= uint64(len(d.t.strs)) {
		d.err, d.data = errors.New("unknown string id"), nil
		return ""
	}
	return d.t.strs[v]
}

func (d *traceDecoder) words() Words {
	w := Words{Key: d.id()}
	if w.Key == "" {
		return w
	}
	for m := range 2 {
		n := int(d.uint())
		if n == 0 {
			continue
		}
		n--
		mp := make(map[string]string, n)
		for range n {
			k := d.id()
			mp[k] = d.str()
		}
		if m == 0 {
			w.Args = mp
		} else {
			w.Terms = mp
		}
	}
	if n := int(d.uint()); n > 0 {
		w.Parts = make(map[string]Words, n-1)
		for range n - 1 {
			k := d.id()
			w.Parts[k] = d.words()
		}
	}
	return w
}

func (d *traceDecoder) event() TraceEvent {
	e := TraceEvent{At: time.Duration(d.uint())}
	e.AtMs = Ms(e.At)
	e.Node = d.id()
	e.Kind = TraceKind(d.uint())
	e.Op, e.Peer = d.id(), d.id()
	e.Note = d.str()
	e.NoteWords = d.words()
	return e
}
