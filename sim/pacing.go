package sim

import (
	"slices"
	"sort"
	"time"
)

// Pacing: how playback spends real time on a recorded run.
//
// A lock's timings span five orders of magnitude: a message crosses a LAN
// in 2 ms while a lease lasts 10 s. At one speed either the messages are
// never seen or the leases take hours. RaftScope, the Raft visualisation,
// plays its model uniformly slowed (ongardie/raftscope, script.js: the
// animation step divides wall-clock time by the speed slider's factor) and
// gets away with it because its RPC latency is a tenth of its election
// timeout (raft.js: MIN_RPC_LATENCY 10 ms, ELECTION_TIMEOUT 100 ms). Ours
// is a five-thousandth, so the clock must change pace within the run: while
// a message is on show playback slows until each message takes a set time
// of real time to cross, and between messages it runs at the chosen speed.

// Flight is one message on the wire as the cluster view draws it.
type Flight struct {
	From, To NodeID
	Sent     time.Duration // it left its sender
	Due      time.Duration // it reaches its receiver
	// Shown are the parts of [Sent, Due) in which a Snapshot lists it among
	// InFlight: a partition between its ends hides it while it lasts, and
	// the receiver's crash or restart drops it for good.
	Shown []Interval
	inc   int // the receiver's incarnation when it was sent
}

// nodeReboot is one crash or restart: the node's incarnation changed.
type nodeReboot struct {
	node NodeID
	at   time.Duration
	inc  int // the incarnation from then on
}

// maxFlights is how many messages a traced run keeps for its pacing: a
// run of hours sends tens of millions, which would not fit in memory.
// Playback after the last one kept runs at the chosen speed.
const maxFlights = 1 << 20

// recordFlight keeps a message for the pacing of a traced run.
func (s *Sim) recordFlight(from, to NodeID, due time.Duration) {
	if !s.tracing || s.replay || len(s.flights) >= maxFlights {
		return
	}
	s.flights = append(s.flights, Flight{From: from, To: to, Sent: s.now, Due: due, inc: s.Nodes[to].inc})
}

// recordReboot keeps a crash or restart, which drops the messages in
// flight to the node.
func (s *Sim) recordReboot(id NodeID) {
	if !s.tracing || s.replay {
		return
	}
	s.reboots = append(s.reboots, nodeReboot{node: id, at: s.now, inc: s.Nodes[id].inc})
}

// Flights lists every message of the run in the order sent (the first
// maxFlights of a very long run), each with the
// stretches in which the cluster view shows it (those of Snapshot.InFlight).
func (r *Recording) Flights() []Flight {
	s := r.final
	out := make([]Flight, 0, len(s.flights))
	for _, f := range s.flights {
		until := min(f.Due, s.end)
		for _, rb := range s.reboots {
			if rb.node == f.To && rb.inc > f.inc {
				until = min(until, rb.at)
				break
			}
		}
		shown := []Interval{{From: f.Sent, To: until}}
		for _, p := range s.parts {
			if p.cuts(f.From, f.To) {
				shown = cutOut(shown, Interval{From: p.start, To: p.end})
			}
		}
		f.Shown = nil
		for _, iv := range shown {
			if iv.To > iv.From {
				f.Shown = append(f.Shown, iv)
			}
		}
		out = append(out, f)
	}
	return out
}

// cutOut removes the stretch gap from every interval of ivs.
func cutOut(ivs []Interval, gap Interval) []Interval {
	var out []Interval
	for _, iv := range ivs {
		if gap.To <= iv.From || gap.From >= iv.To {
			out = append(out, iv)
			continue
		}
		if gap.From > iv.From {
			out = append(out, Interval{From: iv.From, To: gap.From})
		}
		if gap.To < iv.To {
			out = append(out, Interval{From: gap.To, To: iv.To})
		}
	}
	return out
}

// Pacing is how playback spends real time on a run: at the chosen speed
// while no message is on show, and slower while one is, so that at 1× a
// message takes at least the flight time to cross however short its trip.
// It is a pure function of the run's flights; the window's clock only asks
// it where the run is after so much real time.
type Pacing struct {
	starts []time.Duration // stretch i runs from starts[i] to starts[i+1] (the last to end)
	share  []float64       // the part of the playback speed kept in each stretch: 1 when quiet
	end    time.Duration
}

// NewPacing lays out a run of the given end: while messages are on show
// the speed is scaled so that the shortest of them takes flightTime of real
// time at 1× (a share of trip/flightTime, never above 1). A message with no
// trip time cannot be seen and does not slow anything.
func NewPacing(flights []Flight, end, flightTime time.Duration) *Pacing {
	p := &Pacing{end: end}
	type piece struct {
		Interval
		share float64
	}
	var pieces []piece
	cuts := []time.Duration{0}
	for _, f := range flights {
		trip := f.Due - f.Sent
		if trip <= 0 || flightTime <= 0 || trip >= flightTime {
			continue
		}
		share := float64(trip) / float64(flightTime)
		for _, iv := range f.Shown {
			iv.From, iv.To = max(0, iv.From), min(end, iv.To)
			if iv.To > iv.From {
				pieces = append(pieces, piece{iv, share})
				cuts = append(cuts, iv.From, iv.To)
			}
		}
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	if n := len(cuts); n > 1 && cuts[n-1] >= end {
		cuts = cuts[:n-1] // a stretch starting at the end would be empty
	}
	share := make([]float64, len(cuts))
	for i := range share {
		share[i] = 1
	}
	for _, pc := range pieces {
		i, _ := slices.BinarySearch(cuts, pc.From)
		for ; i < len(cuts) && cuts[i] < pc.To; i++ {
			share[i] = min(share[i], pc.share)
		}
	}
	for i := range cuts { // merge neighbours at the same pace
		if i > 0 && share[i] == p.share[len(p.share)-1] {
			continue
		}
		p.starts = append(p.starts, cuts[i])
		p.share = append(p.share, share[i])
	}
	return p
}

// stretch is the index of the stretch holding t.
func (p *Pacing) stretch(t time.Duration) int {
	return max(0, sort.Search(len(p.starts), func(i int) bool { return p.starts[i] > t })-1)
}

// stretchEnd is where stretch i ends.
func (p *Pacing) stretchEnd(i int) time.Duration {
	if i+1 < len(p.starts) {
		return p.starts[i+1]
	}
	return p.end
}

// Share is the part of the playback speed kept at t: 1 when no message is
// on show, less while one is.
func (p *Pacing) Share(t time.Duration) float64 {
	if len(p.share) == 0 {
		return 1
	}
	return p.share[p.stretch(t)]
}

// Advance is the instant of the run reached from t after wall of real time
// at speed (simulated seconds per real second between messages); it stops
// at the end of the run.
func (p *Pacing) Advance(t, wall time.Duration, speed float64) time.Duration {
	if speed <= 0 || wall <= 0 || len(p.starts) == 0 {
		return min(t, p.end)
	}
	left := float64(wall)
	for i := p.stretch(t); t < p.end; i++ {
		next := p.stretchEnd(i)
		rate := speed * p.share[i]
		need := float64(next-t) / rate
		if need > left {
			return min(next, t+time.Duration(left*rate))
		}
		left -= need
		t = next
	}
	return p.end
}

// Wall is the real time playback takes from a to b at speed.
func (p *Pacing) Wall(a, b time.Duration, speed float64) time.Duration {
	a, b = max(0, a), min(b, p.end)
	if speed <= 0 || b <= a || len(p.starts) == 0 {
		return 0
	}
	var wall float64
	for i := p.stretch(a); a < b; i++ {
		next := min(b, p.stretchEnd(i))
		wall += float64(next-a) / (speed * p.share[i])
		a = next
	}
	return time.Duration(wall)
}
