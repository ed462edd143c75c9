package sim

import (
	"sort"
	"time"
)

// checkpointEvery is how many events pass between two checkpoints: seeking
// replays at most this many events from a clone.
const checkpointEvery = 2000

// Recording is a whole run kept for time travel: the verdicts, the trace,
// the timeline, and checkpoints from which any instant is rebuilt quickly.
type Recording struct {
	Scenario *Scenario
	final    *Sim
	points   []*Sim
	times    []time.Duration // distinct instants at which events happened
}

// Record runs the scenario to its end, keeping the trace and checkpoints.
func Record(sc *Scenario) (*Recording, error) {
	s, err := New(sc)
	if err != nil {
		return nil, err
	}
	s.EnableTrace()
	r := &Recording{Scenario: sc, points: []*Sim{s.Clone()}}
	for s.Step() {
		if n := len(r.times); n == 0 || r.times[n-1] != s.now {
			r.times = append(r.times, s.now)
		}
		if s.steps%checkpointEvery == 0 {
			r.points = append(r.points, s.Clone())
		}
	}
	r.final = s
	return r, nil
}

// End is the run's last instant.
func (r *Recording) End() time.Duration { return r.final.end }

// Summary is the verdict of the whole run.
func (r *Recording) Summary() Summary { return r.final.Check.Summary(r.final.end) }

// Trace is every event of the run.
func (r *Recording) Trace() []TraceEvent { return r.final.Trace() }

// Checker holds the whole run's records.
func (r *Recording) Checker() *Checker { return r.final.Check }

// EventTimes lists the distinct instants at which something happened.
func (r *Recording) EventTimes() []time.Duration { return r.times }

// Next is the first event instant after t, or End.
func (r *Recording) Next(t time.Duration) time.Duration {
	i := sort.Search(len(r.times), func(i int) bool { return r.times[i] > t })
	if i == len(r.times) {
		return r.End()
	}
	return r.times[i]
}

// Prev is the last event instant before t, or 0.
func (r *Recording) Prev(t time.Duration) time.Duration {
	i := sort.Search(len(r.times), func(i int) bool { return r.times[i] >= t })
	if i == 0 {
		return 0
	}
	return r.times[i-1]
}

// At rebuilds the state at true time t (after every event at or before t).
func (r *Recording) At(t time.Duration) *Snapshot {
	t = max(0, min(t, r.End()))
	i := sort.Search(len(r.points), func(i int) bool { return r.points[i].now > t }) - 1
	i = max(i, 0)
	s := r.points[i].Clone()
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
	Owned    [][]Interval // per client: a server holds the key for it
	Overlaps []Interval   // two or more clients holding at once
	Faults   []FaultMark
	Grants   []Grant
	Writes   []WriteRecord
}

// Timeline lays out the whole run.
func (r *Recording) Timeline() Timeline {
	c, end := r.final.Check, r.final.end
	return Timeline{
		End:      end,
		Clients:  r.Scenario.ClientNames(),
		Waiting:  c.Waits(end),
		Holding:  c.Beliefs(end),
		Owned:    c.Owned(end),
		Overlaps: c.Overlaps(end),
		Faults:   c.Faults(),
		Grants:   c.Grants(),
		Writes:   c.Writes(),
	}
}
