package sim

import (
	"errors"
	"sort"
	"strconv"
	"time"
	"unsafe"
)

// The bounds of a recording. Checkpoints start firstSpacing events apart;
// when they would take more than the checkpoint budget every other one is
// dropped, so the spacing doubles and the memory stays within the budget
// for a run of any length. A seek replays at most the spacing, so a run
// whose spacing would pass maxSpacing is refused before it is recorded:
// its seeks would be slower than time travel allows (50 ms).
const (
	DefaultCheckpointBudget = 256 << 20
	DefaultTraceBudget      = 96 << 20
	firstSpacing            = 2000
	maxSpacing              = 1 << 15
	// projectAfter is how many events a recording runs before it projects
	// the whole run's size and refuses one that cannot fit.
	projectAfter = 100_000
	// progressEvery is how many events pass between two progress reports.
	progressEvery = 20_000
)

// ErrCancelled is what Record returns when its Progress asked it to stop.
var ErrCancelled = errors.New("recording cancelled")

// RecordOptions bound a recording and report on it; the zero value takes
// the defaults.
type RecordOptions struct {
	// CheckpointBudget is the memory the checkpoints may take, in bytes.
	CheckpointBudget int
	// TraceBudget is the memory the compact trace may take, in bytes; the
	// rest goes to a temporary file in TraceDir ("" for the system's).
	TraceBudget int
	TraceDir    string
	// Progress, when set, is called every few thousand events with how far
	// the run is; returning false cancels the recording (ErrCancelled).
	Progress func(at, end time.Duration) bool
}

// Recording is a whole run kept for time travel: the verdicts, the trace,
// the timeline, and checkpoints from which any instant is rebuilt quickly.
type Recording struct {
	Scenario *Scenario
	final    *Sim
	points   []*Sim
	sizes    []int // estimated bytes of each checkpoint
	spacing  int   // events between two checkpoints
	trace    *TraceStore
}

// Record runs the scenario to its end, keeping the trace and checkpoints
// within the default budgets.
func Record(sc *Scenario) (*Recording, error) { return RecordWith(sc, RecordOptions{}) }

// RecordWith runs the scenario to its end within opts' budgets. A run too
// long to fit is refused after its first events with a *FieldError that
// names the limit and the duration that would fit.
func RecordWith(sc *Scenario, opts RecordOptions) (*Recording, error) {
	if opts.CheckpointBudget <= 0 {
		opts.CheckpointBudget = DefaultCheckpointBudget
	}
	if opts.TraceBudget <= 0 {
		opts.TraceBudget = DefaultTraceBudget
	}
	s, err := New(sc)
	if err != nil {
		return nil, err
	}
	r := &Recording{Scenario: sc, spacing: firstSpacing, trace: newTraceStore(opts.TraceBudget, opts.TraceDir)}
	s.TraceTo(r.trace.add)
	r.keep(s.Clone(), opts.CheckpointBudget)
	for s.Step() {
		if s.steps%r.spacing == 0 {
			r.keep(s.Clone(), opts.CheckpointBudget)
			// A run busier later than its start projected: refused as
			// soon as its seeks would be too slow.
			if r.spacing > maxSpacing {
				r.Close()
				return nil, tooBig(s, float64(s.steps)*float64(s.end)/float64(max(1, s.now)), float64(s.steps))
			}
		}
		if s.steps%progressEvery != 0 {
			continue
		}
		if s.steps == projectAfter {
			if err := r.fits(s, opts.CheckpointBudget); err != nil {
				r.Close()
				return nil, err
			}
		}
		if opts.Progress != nil && !opts.Progress(s.now, s.end) {
			r.Close()
			return nil, ErrCancelled
		}
	}
	s.TraceTo(nil)
	r.trace.finish()
	r.final = s
	return r, nil
}

// keep adds a checkpoint and, past the budget, drops every other one.
func (r *Recording) keep(p *Sim, budget int) {
	r.points = append(r.points, p)
	r.sizes = append(r.sizes, p.footprint())
	for r.total() > budget && len(r.points) > 2 {
		r.spacing *= 2
		points, sizes := r.points[:0], r.sizes[:0]
		for i, p := range r.points {
			if p.steps%r.spacing == 0 {
				points, sizes = append(points, p), append(sizes, r.sizes[i])
			}
		}
		clear(r.points[len(points):])
		r.points, r.sizes = points, sizes
	}
}

// Footprint estimates the bytes the recording keeps in memory: its
// checkpoints, the part of its trace not spilled, and the run's end, so a
// holder of several (the window's undo history) can bound them.
func (r *Recording) Footprint() int {
	return r.total() + r.trace.InMemory() + r.final.footprint() +
		r.final.flights.Footprint(int(unsafe.Sizeof(sentFlight{}))) + len(r.final.reboots)*int(unsafe.Sizeof(nodeReboot{}))
}

func (r *Recording) total() int {
	n := 0
	for _, z := range r.sizes {
		n += z
	}
	return n
}

// fits projects the whole run from its first events and refuses one whose
// checkpoints would be too far apart for a quick seek.
func (r *Recording) fits(s *Sim, budget int) error {
	if s.now <= 0 {
		return nil
	}
	projected := float64(s.steps) * float64(s.end) / float64(s.now)
	limit := float64(budget/max(1, s.footprint())) * maxSpacing
	if projected <= limit {
		return nil
	}
	return tooBig(s, projected, limit)
}

// tooBig is the refusal of a run of about projected events when a
// recording keeps limit with quick seeks.
func tooBig(s *Sim, projected, limit float64) error {
	fit := time.Duration(float64(s.end) * limit / projected).Truncate(time.Minute)
	if fit < time.Minute {
		fit = time.Duration(float64(s.end) * limit / projected).Truncate(time.Second)
	}
	millions := func(x float64) string { return strconv.FormatFloat(x/1e6, 'f', 0, 64) }
	return FieldErr("duration",
		say("record.tooBig", "value", s.end.String(), "events", millions(projected),
			"limit", millions(limit), "fit", fit.String()),
		"%s of this scenario is about %s million events, more than the %s million a recording keeps with seeks under 50 ms: shorten duration to %s or less, or take fewer clients",
		s.end, millions(projected), millions(limit), fit)
}

// footprint estimates the bytes a checkpoint of the run holds of its own
// (what it shares with other checkpoints is counted once, by the run).
func (s *Sim) footprint() int {
	const ev = int(unsafe.Sizeof(event{}))
	n := int(unsafe.Sizeof(*s)) + len(s.queue.slab)*ev + s.queue.len()*int(unsafe.Sizeof(slot{})) +
		len(s.queue.free)*4 + len(s.sendsDue)*16 + len(s.parts)*64
	for _, nd := range s.Nodes {
		n += int(unsafe.Sizeof(nd)) + (len(nd.backlog)+len(nd.held))*ev
		if f, ok := nd.Proc.(Sized); ok {
			n += f.Footprint()
		} else {
			n += 1 << 10
		}
	}
	return n + len(s.Check.clients)*int(unsafe.Sizeof(clientRecord{}))
}

// Close gives back what the recording holds outside memory (the trace's
// temporary file); the recording's trace is unreadable after.
func (r *Recording) Close() error {
	if r == nil {
		return nil
	}
	return r.trace.Close()
}

// End is the run's last instant.
func (r *Recording) End() time.Duration { return r.final.end }

// Summary is the verdict of the whole run.
func (r *Recording) Summary() Summary { return r.final.Check.Summary(r.final.end) }

// Metrics is the dashboard of the run up to t (metrics.go).
func (r *Recording) Metrics(t time.Duration) Metrics {
	s, c := r.final, r.final.Check
	if t >= s.end {
		return c.Metrics(s.end)
	}
	// A traced run keeps a flight per message sent, in the order sent; past
	// the last one kept (a very long run) the instant is replayed.
	fs := &s.flights
	n := sort.Search(fs.Len(), func(i int) bool { return fs.At(i).sent > t })
	if n == fs.Len() && fs.Len() >= maxFlights {
		return c.metrics(t, r.At(t).Metrics.Messages)
	}
	return c.metrics(max(0, t), n)
}

// Events is the run's trace, kept compactly.
func (r *Recording) Events() *TraceStore { return r.trace }

// Trace is every event of the run, decoded: for tests and small runs; the
// window and the exports read Events.
func (r *Recording) Trace() []TraceEvent {
	out := make([]TraceEvent, 0, r.trace.Len())
	_ = r.trace.Each(func(e *TraceEvent) error {
		out = append(out, *e)
		return nil
	})
	return out
}

// Checker holds the whole run's records.
func (r *Recording) Checker() *Checker { return r.final.Check }

// Checkpoints is how many checkpoints the recording keeps and how many
// events apart they are.
func (r *Recording) Checkpoints() (n, spacing int) { return len(r.points), r.spacing }

// EventTimes lists the distinct instants at which something happened. It
// replays the whole run: for tests; Next and Prev answer the window.
func (r *Recording) EventTimes() []time.Duration {
	var out []time.Duration
	s := r.points[0].Clone()
	for s.step(s.end) {
		if n := len(out); n == 0 || out[n-1] != s.now {
			out = append(out, s.now)
		}
	}
	return out
}

// from is a replaying copy of the last checkpoint at or before t (before,
// when strictly).
func (r *Recording) from(t time.Duration, strictly bool) *Sim {
	i := sort.Search(len(r.points), func(i int) bool {
		if strictly {
			return r.points[i].now >= t
		}
		return r.points[i].now > t
	}) - 1
	return r.points[max(i, 0)].Clone()
}

// Next is the first event instant after t, or End.
func (r *Recording) Next(t time.Duration) time.Duration {
	t = max(0, min(t, r.End()))
	s := r.from(t, false)
	for s.step(t) {
	}
	if s.step(s.end) {
		return s.now
	}
	return r.End()
}

// Prev is the last event instant before t, or 0.
func (r *Recording) Prev(t time.Duration) time.Duration {
	if t <= 0 {
		return 0
	}
	s := r.from(min(t, r.End()+1), true)
	last := s.now
	for s.step(t - 1) {
		last = s.now
	}
	return last
}

// At rebuilds the state at true time t (after every event at or before t).
func (r *Recording) At(t time.Duration) *Snapshot {
	t = max(0, min(t, r.End()))
	s := r.from(t, false)
	s.RunUntil(t)
	snap := s.Snapshot()
	m := r.final.Check.Summary(t)
	m.Messages, m.WatchNotifications = s.Check.Messages, s.Check.WatchNotifications
	snap.Metrics = m
	return snap
}

// Timeline is the whole run laid out for the swimlanes.
type Timeline struct {
	End      time.Duration
	Clients  []string
	Waiting  [][]Interval // per client: asking for the lock
	Holding  [][]Interval // per client: believes it holds the lock
	Reading  [][]Interval // per client: those of Holding that were read holds of a read–write lock (Grant.Shared)
	Owned    [][]Interval // per client: a server holds the key for it
	Overlaps []Interval   // two or more clients holding at once
	Election bool         // the clients elected a leader (Elects): holding is leading
	// Primaries are the stretches in which two or more servers acted as
	// the primary at once (a paused master that woke beside the replica
	// promoted meanwhile); empty for a design whose servers never say.
	Primaries []Interval
	Faults    []FaultMark
	Grants    []Grant
	Writes    []WriteRecord
}

// Timeline lays out the whole run.
func (r *Recording) Timeline() Timeline {
	c, end := r.final.Check, r.final.end
	return Timeline{
		End:       end,
		Clients:   r.Scenario.ClientNames(),
		Waiting:   c.Waits(end),
		Holding:   c.Beliefs(end),
		Reading:   c.SharedBeliefs(end),
		Owned:     c.Owned(end),
		Overlaps:  c.Overlaps(end),
		Election:  Elects(r.Scenario),
		Primaries: c.Primaries(end),
		Faults:    c.Faults(),
		Grants:    c.Grants(),
		Writes:    c.Writes(),
	}
}
