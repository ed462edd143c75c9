package sim

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"strconv"
	"time"
)

// The core's trace kinds; their names are in sim/vocab.go.
const (
	TraceSend   TraceKind = iota + 1 // send: a message leaves (its op and peer)
	TraceRecv                        // recv: a message is handled
	TraceDrop                        // drop: a message is lost (a node down, a partition)
	TraceStart                       // start: a node boots
	TraceResume                      // resume: a pause ends
	TraceFault                       // fault: a fault strikes (its FaultKind in the op column)
	TraceHeal                        // heal: a partition heals
	TraceChange                      // change: a control changed from here on (a fork)
	TraceGrant                       // grant: a client believes it holds the lock
	TraceUnheld                      // unheld: a client learns it lost the lock
	TraceGiveUp                      // giveup: a client stops trying
	TraceRead                        // read: the storage's verdict on a read
	TraceWrite                       // write: the verdict on a write
	TraceScript                      // script: a scripted client's step
)

// TraceEvent is one step of a run as the trace file and event log show it.
type TraceEvent struct {
	At   time.Duration `json:"-"`
	AtMs float64       `json:"t"`
	Node string        `json:"node,omitempty"`
	Kind TraceKind     `json:"kind"`
	Op   string        `json:"op,omitempty"`
	Peer string        `json:"peer,omitempty"`
	Note string        `json:"note,omitempty"`
	// NoteWords is Note as a translation key and its figures, for the
	// window; the trace files keep the English.
	NoteWords Words `json:"-"`
}

// EnableTrace makes the run keep every event in memory; sweeps leave it
// off, and long runs hand them to TraceTo instead.
func (s *Sim) EnableTrace() { s.TraceTo(func(e *TraceEvent) { s.events = append(s.events, *e) }) }

// TraceTo hands every event of the run to sink as it happens, so a trace
// can go to a file or a compact store instead of memory. The event is
// only valid during the call.
func (s *Sim) TraceTo(sink func(*TraceEvent)) {
	s.tracing, s.sink = sink != nil, sink
	s.flying = s.flying || s.tracing
}

// Trace is every event kept by EnableTrace so far, in order.
func (s *Sim) Trace() []TraceEvent { return s.events }

func (s *Sim) trace(id NodeID, kind TraceKind, op string, peer NodeID, note string) {
	if s.tracing && !s.replay { // checked here too, so an untraced run makes no call
		s.traceSaid(id, kind, op, peer, note, Words{})
	}
}

// traceOp traces a message sent or handled: the op's name is looked up
// only when the run keeps a trace, and an untraced run makes no call
// (the check is inlined).
func (s *Sim) traceOp(id NodeID, kind TraceKind, op Op, peer NodeID) {
	if s.tracing && !s.replay {
		s.traceNamed(id, kind, op, peer)
	}
}

func (s *Sim) traceNamed(id NodeID, kind TraceKind, op Op, peer NodeID) {
	s.traceSaid(id, kind, op.String(), peer, "", Words{})
}

// traceSaid is trace with the note's words for the window.
func (s *Sim) traceSaid(id NodeID, kind TraceKind, op string, peer NodeID, note string, words Words) {
	if !s.tracing || s.replay {
		return
	}
	e := TraceEvent{At: s.now, AtMs: Ms(s.now), Kind: kind, Op: op, Note: note, NoteWords: words}
	if id >= 0 {
		e.Node = s.Nodes[id].Name
	}
	if peer >= 0 {
		e.Peer = s.Nodes[peer].Name
	}
	s.sink(&e)
}

// TraceWriter writes events as they come, as JSON lines (t in ms, node,
// kind, op, peer, note) or as CSV for spreadsheets: a run can stream its
// trace to a file instead of keeping it.
type TraceWriter struct {
	enc *json.Encoder
	csv *csv.Writer
	err error
	n   int
}

// NewTraceWriter writes to w, as CSV (with a header) when asCSV is true.
func NewTraceWriter(w io.Writer, asCSV bool) *TraceWriter {
	if !asCSV {
		return &TraceWriter{enc: json.NewEncoder(w)}
	}
	t := &TraceWriter{csv: csv.NewWriter(w)}
	t.err = t.csv.Write([]string{"t_ms", "node", "kind", "op", "peer", "note"})
	return t
}

// Write writes one event; after an error it writes nothing more and
// returns that error.
func (t *TraceWriter) Write(e *TraceEvent) error {
	if t.err != nil {
		return t.err
	}
	if t.enc != nil {
		t.err = t.enc.Encode(e)
	} else {
		t.err = t.csv.Write([]string{strconv.FormatFloat(e.AtMs, 'f', -1, 64), e.Node, e.Kind.String(), e.Op, e.Peer, e.Note})
	}
	t.n++
	return t.err
}

// Sink is Write for Sim.TraceTo, which has no use for the error: Flush
// returns it.
func (t *TraceWriter) Sink(e *TraceEvent) { _ = t.Write(e) }

// Count is the number of events written.
func (t *TraceWriter) Count() int { return t.n }

// Flush writes what is buffered and returns the first error.
func (t *TraceWriter) Flush() error {
	if t.csv != nil {
		t.csv.Flush()
		if t.err == nil {
			t.err = t.csv.Error()
		}
	}
	return t.err
}

// WriteTraceJSONL writes one JSON object per line: t (ms), node, kind, op,
// peer, note.
func WriteTraceJSONL(w io.Writer, events []TraceEvent) error { return writeTrace(w, events, false) }

// WriteTraceCSV writes the trace as CSV for spreadsheets.
func WriteTraceCSV(w io.Writer, events []TraceEvent) error { return writeTrace(w, events, true) }

func writeTrace(w io.Writer, events []TraceEvent, asCSV bool) error {
	t := NewTraceWriter(w, asCSV)
	for i := range events {
		if err := t.Write(&events[i]); err != nil {
			return err
		}
	}
	return t.Flush()
}
