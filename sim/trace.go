package sim

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"strconv"
	"time"
)

// TraceEvent is one step of a run as the trace file and event log show it.
type TraceEvent struct {
	At   time.Duration `json:"-"`
	AtMs float64       `json:"t"`
	Node string        `json:"node,omitempty"`
	Kind string        `json:"kind"`
	Op   string        `json:"op,omitempty"`
	Peer string        `json:"peer,omitempty"`
	Note string        `json:"note,omitempty"`
	// NoteWords is Note as a translation key and its figures, for the
	// window; the trace files keep the English.
	NoteWords Words `json:"-"`
}

// EnableTrace makes the run keep every event; sweeps leave it off.
func (s *Sim) EnableTrace() { s.tracing = true }

// Trace is every event recorded so far, in order.
func (s *Sim) Trace() []TraceEvent { return s.events }

func (s *Sim) trace(id NodeID, kind, op string, peer NodeID, note string) {
	s.traceSaid(id, kind, op, peer, note, Words{})
}

// traceSaid is trace with the note's words for the window.
func (s *Sim) traceSaid(id NodeID, kind, op string, peer NodeID, note string, words Words) {
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
	s.events = append(s.events, e)
}

// WriteTraceJSONL writes one JSON object per line: t (ms), node, kind, op,
// peer, note.
func WriteTraceJSONL(w io.Writer, events []TraceEvent) error {
	enc := json.NewEncoder(w)
	for _, e := range events {
		if err := enc.Encode(e); err != nil {
			return err
		}
	}
	return nil
}

// WriteTraceCSV writes the trace as CSV for spreadsheets.
func WriteTraceCSV(w io.Writer, events []TraceEvent) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"t_ms", "node", "kind", "op", "peer", "note"}); err != nil {
		return err
	}
	for _, e := range events {
		rec := []string{strconv.FormatFloat(e.AtMs, 'f', -1, 64), e.Node, e.Kind, e.Op, e.Peer, e.Note}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
