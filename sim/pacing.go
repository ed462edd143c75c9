package sim

import (
	"cmp"
	"math"
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
// is a five-thousandth, so the clock changes pace within the run, by what
// matters to the story:
//
//   - a key message (Flight.Key: one that changes what a client believes
//     or what a server stores) is on show for at least PaceRules.KeyDwell
//     of real time; heartbeats, a waiter's repeated tries and their
//     answers cross at the pace of the stretch they are in;
//   - around each moment of interest (Moments: a caption, a fault's start
//     and end, a grant, an expiry, a stale write, a violation) playback
//     eases down, ring by ring, to PaceRules.MomentRate;
//   - the rest, the quiet stretches where everyone waits on a timer, plays
//     at one rate, chosen so that the whole run takes PaceRules.Target
//     (within PaceRules.MinRate and MaxRate): a run of hours passes its
//     quiet stretches faster, a run of seconds slower.

// Flight is one message on the wire as the cluster view draws it.
type Flight struct {
	From, To NodeID
	Op       Op            // what it is, as drawn on it
	Sent     time.Duration // it left its sender
	Due      time.Duration // it reaches its receiver
	// Shown are the parts of [Sent, Due) in which a Snapshot lists it among
	// InFlight: a partition between its ends hides it while it lasts, and
	// the receiver's crash or restart drops it for good.
	Shown []Interval
	// Key says the message changes what a client believes or what a server
	// stores: a lock request and its answer, a grant, a renewal, a release,
	// a read or write of the protected value, an expiry notice, a vote, a
	// watch event, a replicated entry. The rest are a process's background
	// messages (Background), a waiter's tries after its first failed one this round,
	// and the answers sent the instant those arrive, unless that answer is
	// a grant (then it and the try it answers are key).
	Key     bool
	inc     int  // the receiver's incarnation when it was sent
	routine bool // a heartbeat or a repeated try, as sent
}

// sentFlight is a Flight as the run keeps it while it goes on: no Shown
// (worked out when Flights lists them), so it holds no pointer, and a
// million of them are neither scanned by the collector nor copied under
// its write barriers as the list grows.
type sentFlight struct {
	from, to  NodeID
	op        Op
	sent, due time.Duration
	inc       int
	routine   bool
}

// nodeReboot is one crash or restart: the node's incarnation changed.
type nodeReboot struct {
	node NodeID
	at   time.Duration
	inc  int // the incarnation from then on
}

// maxFlights is how many messages a traced run keeps for its pacing: a
// run of hours sends tens of millions, which would not fit in memory.
// Playback after the last one kept runs at the quiet rate.
const maxFlights = 1 << 20

// KeepFlights makes the run keep its messages for its pacing (Pace)
// without a trace: `lockscope run --json` reports the playback of a run
// whose sentences nobody reads. A traced run keeps them anyway.
func (s *Sim) KeepFlights() { s.flying = true }

// recordFlight keeps a message for the pacing of a traced run.
func (s *Sim) recordFlight(from, to NodeID, due time.Duration, m *Msg) {
	if !s.flying || s.replay || s.flights.Len() >= maxFlights {
		return
	}
	s.flights.Append(sentFlight{from: from, to: to, op: m.Op, sent: s.now, due: due, inc: s.Nodes[to].inc,
		routine: s.routine(from, m)})
}

// routine says whether m, as from sends it now, repeats what was said
// before: a background message (Background), or a try of a client asking
// again.
func (s *Sim) routine(from NodeID, m *Msg) bool {
	p := s.Nodes[from].Proc
	if b, ok := p.(Background); ok && b.Background(m) {
		return true
	}
	l, ok := p.(looping)
	return ok && l.retrying()
}

// recordReboot keeps a crash or restart, which drops the messages in
// flight to the node.
func (s *Sim) recordReboot(id NodeID) {
	if !s.flying || s.replay {
		return
	}
	s.reboots = append(s.reboots, nodeReboot{node: id, at: s.now, inc: s.Nodes[id].inc})
}

// Flights lists every message of the run in the order sent (the first
// maxFlights of a very long run), each with the
// stretches in which the cluster view shows it (those of Snapshot.InFlight).
func (r *Recording) Flights() []Flight { return r.final.Flights() }

// Flights lists every message of a traced run so far (Recording.Flights).
func (s *Sim) Flights() []Flight {
	out := make([]Flight, 0, s.flights.Len())
	s.flights.Range(0, func(_ int, sf sentFlight) bool {
		f := Flight{From: sf.from, To: sf.to, Op: sf.op, Sent: sf.sent, Due: sf.due, inc: sf.inc, routine: sf.routine}
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
		f.Key = !f.routine
		out = append(out, f)
		return true
	})
	s.markAnswers(out)
	return out
}

// markAnswers judges the answer to each routine message with it: the
// first message its receiver sends back the instant it arrives. An answer
// that grants the lock is key, and so is the try it answers; so is the
// whole try that won after failed ones (each of Redlock's votes), with
// its answers.
func (s *Sim) markAnswers(fs []Flight) {
	answer := func(i int) int { // the index of fs[i]'s answer, -1 for none
		f := fs[i]
		for j := sort.Search(len(fs), func(j int) bool { return fs[j].Sent >= f.Due }); j < len(fs) && fs[j].Sent == f.Due; j++ {
			if j > i && fs[j].From == f.To && fs[j].To == f.From {
				return j
			}
		}
		return -1
	}
	defer func() {
		for _, g := range s.Check.Grants() {
			r := s.Check.client(g.Client)
			if r == nil {
				continue
			}
			from, retried := g.Asked, false
			for _, at := range r.failed {
				if at >= from && at < g.At {
					from, retried = at, true
				}
			}
			if !retried {
				continue // a first try: its messages are key already
			}
			for i := sort.Search(len(fs), func(i int) bool { return fs[i].Sent > from }); i < len(fs) && fs[i].Sent <= g.At; i++ {
				if fs[i].From == g.Client && fs[i].routine {
					fs[i].Key = true
					if j := answer(i); j >= 0 {
						fs[j].Key = true
					}
				}
			}
		}
	}()
	type grant struct {
		client NodeID
		at     time.Duration
	}
	grants := map[grant]bool{}
	for _, g := range s.Check.Grants() {
		grants[grant{g.Client, g.At}] = true
	}
	for i := range fs {
		f := &fs[i]
		if !f.routine {
			continue
		}
		// Flights are in the order sent: the answer is among those sent at f.Due.
		if j := answer(i); j >= 0 {
			if grants[grant{f.From, fs[j].Due}] {
				f.Key, fs[j].Key = true, true
			} else {
				fs[j].Key = false
			}
		}
	}
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

// PaceRules are the figures of paced playback; StoryPace is the window's.
type PaceRules struct {
	// KeyDwell is the least real time a key message is on show.
	KeyDwell time.Duration
	// Target is the real time a whole run aims at.
	Target time.Duration
	// MomentRate is the pace, in run seconds per real second, at a moment
	// of interest; EaseStep is how much faster each ring around it plays,
	// EaseRing how much real time each ring lasts on either side.
	MomentRate float64
	EaseStep   float64
	EaseRing   time.Duration
	EaseRings  int // how many rings: past the last, no easing
	// MinRate and MaxRate bound the quiet stretches' pace.
	MinRate, MaxRate float64
	// Longest is what a run may take before its moments' easing shrinks.
	Longest time.Duration
	// Most is what a run's key messages alone may take before their dwell
	// shrinks (a crowd of clients over minutes); 0 for no bound.
	Most time.Duration
}

// StoryPace is how the window plays a run at its default speed: each key
// message on show for 0.3 s at least, a moment eased down to a quarter of
// real time over about a second, and the whole run in about 30 s (up to
// 55 s where its key messages need it, and no more than about ten
// minutes however many they are).
var StoryPace = PaceRules{
	KeyDwell:   301 * time.Millisecond, // 0.3 s, with room for rounding
	Target:     30 * time.Second,
	MomentRate: 0.25,
	EaseStep:   3,
	EaseRing:   200 * time.Millisecond,
	EaseRings:  5, // 0.25× to 20×
	MinRate:    0.01,
	MaxRate:    10000,
	Longest:    55 * time.Second,
	Most:       10 * time.Minute,
}

// Pacing is how playback spends real time on a run: a pace (run seconds
// per real second) for each stretch of it, built once from the run's
// flights and moments by the rules; a speed multiplies it. It is a pure
// function of the run; the window's clock only asks it where the run is
// after so much real time, and `lockscope run --json` reports its figures.
type Pacing struct {
	starts []time.Duration // stretch i runs from starts[i] to starts[i+1] (the last to end)
	rate   []float64       // the pace of each stretch
	end    time.Duration
	quiet  float64 // the pace of the quiet stretches
	sum    PlaybackSummary
}

// PlaybackSummary is what a run's paced playback takes, the "playback"
// object of `lockscope run --json` (DESIGN.md).
type PlaybackSummary struct {
	// Seconds is the real time from the start to the end at the default
	// speed, without story stops.
	Seconds float64 `json:"seconds"`
	// KeyMessages is how many key messages are on show at some instant.
	KeyMessages int `json:"keyMessages"`
	// MinKeyMessageSeconds is the least real time any of them is on show.
	MinKeyMessageSeconds float64 `json:"minKeyMessageSeconds"`
	// QuietRate is the pace of the quiet stretches, in run seconds per
	// real second (not in the JSON contract).
	QuietRate float64 `json:"-"`
}

// paceLimit is a stretch of the run that may not play faster than rate.
type paceLimit struct {
	Interval
	rate float64
}

// NewPacing lays out the playback of a run of the given end (Flights,
// Moments) by the rules. Where the key messages and the eased moments
// would take more than rules.Longest, the easing around the moments
// shrinks (by halves, to none) before the run gets longer: a key message's
// dwell never does.
func NewPacing(flights []Flight, moments []Moment, end time.Duration, rules PaceRules) *Pacing {
	keyedAt := func(dwell float64) paceSteps {
		var limits []paceLimit
		for _, f := range flights {
			if !f.Key || dwell <= 0 {
				continue
			}
			shown := shownWithin(f.Shown, end)
			if shown <= 0 {
				continue
			}
			for _, iv := range f.Shown {
				limits = addLimit(limits, iv.From, iv.To, shown.Seconds()/dwell, end)
			}
		}
		return paint(limits, end)
	}
	keyed := keyedAt(rules.KeyDwell.Seconds()) // what the key messages ask, the same at every easing
	// A crowd's key messages alone may ask for hours: past rules.Most each
	// is on show for less, in proportion, so the run takes about Most.
	if most := rules.Most.Seconds(); most > 0 {
		if alone := layOut(keyed, nil, end, rules, 0).Wall(0, end, 1).Seconds(); alone > most {
			keyed = keyedAt(rules.KeyDwell.Seconds() * most / alone)
		}
	}
	p := layOut(keyed, moments, end, rules, 1)
	if rules.Longest > 0 && len(moments) > 0 && p.Wall(0, end, 1) > rules.Longest {
		bare := layOut(keyed, moments, end, rules, 0)
		p = bare
		if bare.Wall(0, end, 1) <= rules.Longest {
			for ease := 0.5; ease >= 1.0/16; ease /= 2 {
				if q := layOut(keyed, moments, end, rules, ease); q.Wall(0, end, 1) <= rules.Longest {
					p = q
					break
				}
			}
		}
	}
	p.sum = PlaybackSummary{Seconds: p.Wall(0, end, 1).Seconds(), QuietRate: p.quiet}
	for _, f := range flights {
		if !f.Key || shownWithin(f.Shown, end) <= 0 {
			continue
		}
		var wall time.Duration
		for _, iv := range f.Shown {
			wall += p.Wall(iv.From, iv.To, 1)
		}
		if p.sum.KeyMessages == 0 || wall.Seconds() < p.sum.MinKeyMessageSeconds {
			p.sum.MinKeyMessageSeconds = wall.Seconds()
		}
		p.sum.KeyMessages++
	}
	return p
}

// addLimit adds the limit of [from, to) to rate, within the run.
func addLimit(limits []paceLimit, from, to time.Duration, rate float64, end time.Duration) []paceLimit {
	from, to = max(0, from), min(end, to)
	if to > from && rate > 0 {
		limits = append(limits, paceLimit{Interval{from, to}, rate})
	}
	return limits
}

// layOut paces the run: the key messages' steps, the moments eased ring
// by ring (each ring lasting ease × rules.EaseRing of real time on either
// side), and the quiet rate that makes the whole last rules.Target.
func layOut(keyed paceSteps, moments []Moment, end time.Duration, rules PaceRules, ease float64) *Pacing {
	p := &Pacing{end: end}
	if end <= 0 {
		return p
	}
	steps := keyed
	if ring := ease * float64(rules.EaseRing); ring > 0 && rules.MomentRate > 0 && rules.EaseStep > 1 && len(moments) > 0 {
		var rings []paceLimit
		for _, m := range moments {
			reach, rate := time.Duration(0), rules.MomentRate
			for range rules.EaseRings {
				reach += time.Duration(rate * ring)
				rings = addLimit(rings, m.At-reach, m.At+reach, rate, end)
				rate *= rules.EaseStep
			}
		}
		steps = lower(keyed, paint(rings, end))
	}
	p.quiet = quietRate(steps, end, rules)
	for i, c := range steps.caps {
		r := min(c, p.quiet)
		if i > 0 && r == p.rate[len(p.rate)-1] {
			continue
		}
		p.starts = append(p.starts, steps.starts[i])
		p.rate = append(p.rate, r)
	}
	return p
}

// shownWithin is how long a message is on show before end.
func shownWithin(shown []Interval, end time.Duration) time.Duration {
	var d time.Duration
	for _, iv := range shown {
		if to := min(iv.To, end); to > iv.From {
			d += to - iv.From
		}
	}
	return d
}

// paceSteps is a pace limit over the whole run, as steps: from starts[i]
// to starts[i+1] (the last to the end) no faster than caps[i], +Inf where
// nothing limits it. starts[0] is 0.
type paceSteps struct {
	starts []time.Duration
	caps   []float64
}

// paint cuts [0, end) into stretches at every limit's ends and gives each
// the least rate of the limits over it: the limits are laid slowest
// first, and each stretch is taken by the first that covers it, so every
// stretch is painted once however wide the limits.
func paint(limits []paceLimit, end time.Duration) paceSteps {
	// Every limit's ends in time order, each knowing its limit, give the
	// cuts and each limit's first and last stretch in one walk.
	type edge struct {
		at    time.Duration
		limit int32 // the limit's index; its To when negative (-1 - index)
	}
	edges := make([]edge, 0, 2*len(limits))
	for i, l := range limits {
		edges = append(edges, edge{l.From, int32(i)}, edge{l.To, -1 - int32(i)})
	}
	slices.SortFunc(edges, func(a, b edge) int { return cmp.Compare(a.at, b.at) })
	cuts := make([]time.Duration, 1, len(edges)+1) // cuts[0] = 0
	span := make([][2]int32, len(limits))          // a limit's stretches, from and to
	for _, e := range edges {
		if e.at != cuts[len(cuts)-1] {
			cuts = append(cuts, e.at)
		}
		if e.limit >= 0 {
			span[e.limit][0] = int32(len(cuts) - 1)
		} else {
			span[-1-e.limit][1] = int32(len(cuts) - 1)
		}
	}
	if n := len(cuts); n > 1 && cuts[n-1] >= end {
		cuts = cuts[:n-1] // a stretch starting at the end would be empty
	}
	caps := make([]float64, len(cuts))
	for i := range caps {
		caps[i] = math.Inf(1)
	}
	order := make([]int32, len(limits))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return cmp.Compare(limits[a].rate, limits[b].rate) })
	// next[i] is the first stretch at or after i not painted yet.
	next := make([]int32, len(cuts)+1)
	for i := range next {
		next[i] = int32(i)
	}
	find := func(i int32) int32 {
		root := i
		for next[root] != root {
			root = next[root]
		}
		for next[i] != root { // halve the paths walked
			next[i], i = root, next[i]
		}
		return root
	}
	for _, l := range order {
		lo, hi := span[l][0], span[l][1]
		for i := find(lo); i < hi; i = find(i) {
			caps[i] = limits[l].rate
			next[i] = i + 1
		}
	}
	return paceSteps{cuts, caps}.compact()
}

// compact merges neighbouring steps of the same cap.
func (st paceSteps) compact() paceSteps {
	n := 0
	for i := range st.starts {
		if n > 0 && st.caps[i] == st.caps[n-1] {
			continue
		}
		st.starts[n], st.caps[n] = st.starts[i], st.caps[i]
		n++
	}
	return paceSteps{st.starts[:n], st.caps[:n]}
}

// lower is the tighter of two limits at every instant.
func lower(a, b paceSteps) paceSteps {
	out := paceSteps{make([]time.Duration, 0, len(a.starts)+len(b.starts)), make([]float64, 0, len(a.starts)+len(b.starts))}
	i, j := 0, 0
	for i < len(a.starts) || j < len(b.starts) {
		var at time.Duration
		switch {
		case j == len(b.starts) || i < len(a.starts) && a.starts[i] < b.starts[j]:
			at = a.starts[i]
			i++
		case i == len(a.starts) || b.starts[j] < a.starts[i]:
			at = b.starts[j]
			j++
		default:
			at = a.starts[i]
			i, j = i+1, j+1
		}
		out.starts = append(out.starts, at)
		out.caps = append(out.caps, min(a.caps[i-1], b.caps[j-1]))
	}
	return out.compact()
}

// quietRate is the pace of the stretches no limit slows, chosen so that
// the whole run takes rules.Target, within MinRate and MaxRate. At a pace
// R the run takes the sum of each stretch's length over min(R, its cap),
// which falls as R grows; R is bracketed by halving, then found exactly
// from the stretches slower and faster than it.
func quietRate(st paceSteps, end time.Duration, rules PaceRules) float64 {
	target := rules.Target.Seconds()
	length := func(i int) float64 {
		if i+1 < len(st.starts) {
			return (st.starts[i+1] - st.starts[i]).Seconds()
		}
		return (end - st.starts[i]).Seconds()
	}
	// at is the playback's length at R, and the parts of it: the real time
	// of the stretches capped below R, and the length of the rest.
	at := func(r float64) (total, slow, rest float64) {
		for i, c := range st.caps {
			if c < r {
				slow += length(i) / c
			} else {
				rest += length(i)
			}
		}
		return slow + rest/r, slow, rest
	}
	lo, hi := rules.MinRate, rules.MaxRate
	if total, _, _ := at(hi); total >= target {
		return hi // even at the fastest the run takes the target or more
	}
	if total, _, _ := at(lo); total <= target {
		return lo
	}
	for range 60 {
		mid := math.Sqrt(lo * hi)
		if total, _, _ := at(mid); total > target {
			lo = mid
		} else {
			hi = mid
		}
		if hi-lo <= hi*1e-12 {
			break
		}
	}
	// Between lo and hi no cap lies (or the bracket is as tight as it gets):
	// the run takes slow + rest/R there, which is the target at one R.
	_, slow, rest := at(hi)
	if r := rest / (target - slow); target > slow && r >= lo*(1-1e-9) && r <= hi*(1+1e-9) {
		return max(rules.MinRate, min(r, rules.MaxRate))
	}
	return hi
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

// Rate is the pace at t, in run seconds per real second at speed 1.
func (p *Pacing) Rate(t time.Duration) float64 {
	if len(p.rate) == 0 {
		return 1
	}
	return p.rate[p.stretch(t)]
}

// Summary is what the whole playback takes (PlaybackSummary).
func (p *Pacing) Summary() PlaybackSummary { return p.sum }

// Advance is the instant of the run reached from t after wall of real time
// at speed (a multiple of the pace); it stops at the end of the run.
func (p *Pacing) Advance(t, wall time.Duration, speed float64) time.Duration {
	if speed <= 0 || wall <= 0 || len(p.starts) == 0 {
		return min(t, p.end)
	}
	left := float64(wall)
	for i := p.stretch(t); t < p.end; i++ {
		next := p.stretchEnd(i)
		rate := speed * p.rate[i]
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
		wall += float64(next-a) / (speed * p.rate[i])
		a = next
	}
	return time.Duration(wall)
}

// Pace lays out the playback of the whole recorded run by the rules.
func (r *Recording) Pace(rules PaceRules) *Pacing { return r.final.Pace(rules) }

// Pace lays out the playback of a traced run by the rules; what `lockscope
// run --json` reports is the window's own.
func (s *Sim) Pace(rules PaceRules) *Pacing {
	return NewPacing(s.Flights(), s.Moments(), s.end, rules)
}
