package sim

import (
	"slices"
	"sort"
	"time"
)

// Metrics: the efficiency side of a run, what a team would watch on a
// lock service's dashboard. The brief asks three properties of a lock
// (safety, liveness, efficiency) and lists what to monitor in production:
// the acquire success rate and latency, the hold time, contention (the
// share of failed tries), lease-timeout events and the watchdog's renewal
// success. The Summary says safety; these say the price of it. A sweep's
// quiet runs keep no record of the tries and renewals: nothing reads
// their dashboard.

// renewal is one renewal of a holder's lease the client learnt the outcome
// of: a watchdog's PEXPIRE, an etcd keepalive, a ZooKeeper session ping.
type renewal struct {
	at time.Duration
	ok bool
}

// failedTry records a failed try for the lock: a SET NX answered nil, a vote
// lost, a call refused. Its next try, if any, is the client's own.
func (c *Checker) failedTry(now time.Duration, id NodeID) {
	if r := c.client(id); r != nil && !c.s.replay && !c.s.quiet {
		r.failed = append(r.failed, now)
	}
}

// renewed records the outcome of a renewal of the client's lease.
func (c *Checker) renewed(now time.Duration, id NodeID, ok bool) {
	if r := c.client(id); r != nil && !c.s.replay && !c.s.quiet {
		r.renewals = append(r.renewals, renewal{now, ok})
	}
}

// Renewed records the outcome of a renewal of this client's lease or
// session as the client learnt it: a watchdog's renewal answered 1 or 0, a
// keepalive answered with a TTL or not at all, a session ping answered or
// timed out. The dashboard's renewal success rate counts them.
func (c Ctx) Renewed(ok bool) { c.s.Check.renewed(c.s.now, c.id, ok) }

// Distribution is a sample of lengths in milliseconds: its median, 99th
// percentile (nearest rank) and largest, and a histogram.
type Distribution struct {
	Count int     `json:"count"`
	P50Ms float64 `json:"p50Ms"`
	P99Ms float64 `json:"p99Ms"`
	MaxMs float64 `json:"maxMs"`
	// Histogram counts the sample in bins whose edges grow by powers of
	// two from 1 ms (under 1 ms, 1–2 ms, 2–4 ms, ...), up to the largest.
	Histogram []Bin `json:"histogram"`
}

// Bin is one bar of a histogram: the sample in [FromMs, ToMs).
type Bin struct {
	FromMs float64 `json:"fromMs"`
	ToMs   float64 `json:"toMs"`
	Count  int     `json:"count"`
}

// DistributionOf is the distribution of a sample of milliseconds.
func DistributionOf(ms []float64) Distribution {
	d := Distribution{Count: len(ms), Histogram: []Bin{}}
	if len(ms) == 0 {
		return d
	}
	s := slices.Clone(ms)
	slices.Sort(s)
	d.P50Ms, d.P99Ms, d.MaxMs = Round3(percentile(s, 0.5)), Round3(percentile(s, 0.99)), Round3(s[len(s)-1])
	for from, to := 0.0, 1.0; from <= s[len(s)-1]; from, to = to, to*2 {
		lo := sort.SearchFloat64s(s, from)
		hi := sort.SearchFloat64s(s, to)
		d.Histogram = append(d.Histogram, Bin{FromMs: from, ToMs: to, Count: hi - lo})
	}
	return d
}

// ClientMetrics are the dashboard's figures of one client, or of the whole
// run.
type ClientMetrics struct {
	Client string `json:"client,omitempty"`
	// Rounds is how many times the client set out to take the lock
	// (a lock() call); Acquisitions how many of them got it, GaveUp how
	// many it abandoned (its tries ran out), Waiting how many are still
	// asking at the instant.
	Rounds       int `json:"rounds"`
	Acquisitions int `json:"acquisitions"`
	GaveUp       int `json:"gaveUp"`
	Waiting      int `json:"waiting"`
	// AcquireSuccessRate is Acquisitions over the rounds that ended
	// (acquired or given up); null before any did.
	AcquireSuccessRate *float64 `json:"acquireSuccessRate"`
	// Tries are the single attempts (one SET NX, one round of Redlock's
	// votes, one lock call), FailedTries those refused; ContentionRatio
	// is FailedTries over Tries, null before any try ended.
	Tries           int      `json:"tries"`
	FailedTries     int      `json:"failedTries"`
	ContentionRatio *float64 `json:"contentionRatio"`
	// AcquireLatency is from the start of a round to its grant; HoldTime
	// the length of each belief that the lock was held (an open one up to
	// the instant).
	AcquireLatency Distribution `json:"acquireLatency"`
	HoldTime       Distribution `json:"holdTime"`
	// ExpiredWhileHeld counts leases or sessions that expired on a server
	// while their client believed it held the lock.
	ExpiredWhileHeld int `json:"expiredWhileHeld"`
	// Renewals are the lease renewals whose outcome the client learnt
	// (watchdog, keepalive, session pings), RenewalsFailed those refused
	// or unanswered; RenewalSuccessRate is null where nothing renews.
	Renewals           int      `json:"renewals"`
	RenewalsFailed     int      `json:"renewalsFailed"`
	RenewalSuccessRate *float64 `json:"renewalSuccessRate"`
	// LongestWaitMs is the longest round of asking, a round still waiting
	// counted up to the instant.
	LongestWaitMs float64 `json:"longestWaitMs"`
}

// Fairness compares the order clients were granted the lock with the order
// they asked for it: a fair lock (ZooKeeper's and etcd's queues) grants in
// request order; one that leaves each client to retry on its own (Redis,
// Redlock) does not.
type Fairness struct {
	// Inversions counts the pairs of grants given in the opposite order
	// of their requests: a round that began later granted first.
	Inversions int `json:"inversions"`
	// MedianWaitMs and LongestWaitMs are over every round of asking (a
	// round still waiting up to the instant).
	MedianWaitMs  float64 `json:"medianWaitMs"`
	LongestWaitMs float64 `json:"longestWaitMs"`
	// Starved are the clients whose longest wait is over five times the
	// median wait.
	Starved []string `json:"starved"`
}

// Metrics are the dashboard of a run up to an instant: the figures of the
// whole run, of each client, and its fairness. `lockscope run --json`
// reports them as "metrics" (DESIGN.md).
type Metrics struct {
	Run ClientMetrics `json:"run"`
	// MessagesPerAcquisition is every message of the run over its
	// acquisitions (the herd effect's cost), null before the first.
	MessagesPerAcquisition *float64 `json:"messagesPerAcquisition"`
	// GrantsPerSecond is the acquisitions per second of the run so far.
	GrantsPerSecond float64 `json:"grantsPerSecond"`
	// SeveralHoldersMs is the time, from 0 to the instant, during which
	// two or more clients believed they held the lock or led at once (two
	// leaders of an election), not counting readers of a read–write lock
	// holding together (Checker.Overlaps: a writer overlaps no one);
	// NoHolderMs the time none did (no leader).
	// Together they say an election's price: split brain against
	// vacancy.
	SeveralHoldersMs float64         `json:"severalHoldersMs"`
	NoHolderMs       float64         `json:"noHolderMs"`
	Fairness         Fairness        `json:"fairness"`
	Clients          []ClientMetrics `json:"clients"`
	// Election is the summary's Election (Elects), for the dashboard's
	// words; the JSON says it once, in the summary.
	Election bool `json:"-"`
}

// rate is n over d as a figure of three decimals, nil for d == 0.
func rate(n, d int) *float64 {
	if d == 0 {
		return nil
	}
	x := Round3(float64(n) / float64(d))
	return &x
}

// Metrics computes the dashboard over everything recorded up to t, the
// run having sent all its messages by then (a run's own checker at its
// end; Recording.Metrics counts those of an earlier instant).
func (c *Checker) Metrics(t time.Duration) Metrics { return c.metrics(t, c.Messages) }

// metrics is Metrics with the messages sent up to t.
func (c *Checker) metrics(t time.Duration, messages int) Metrics {
	m := Metrics{Clients: make([]ClientMetrics, len(c.clients)), Fairness: Fairness{Starved: []string{}}, Election: Elects(c.s.Scenario)}
	names := c.s.Scenario.ClientNames()
	lat := make([][]float64, len(c.clients))
	var waits []float64
	longest := make([]float64, len(c.clients))
	for _, g := range c.grants {
		if g.At > t {
			break
		}
		ms := Ms(g.At - g.Asked)
		lat[g.Client] = append(lat[g.Client], ms)
	}
	var all, holds []float64
	for i := range c.clients {
		r := &c.clients[i]
		cm := ClientMetrics{Client: names[i]}
		cm.Acquisitions = len(lat[i])
		for _, w := range clip(r.waits, r.asking, r.askedAt, t) {
			waits = append(waits, Ms(w.To-w.From))
			longest[i] = max(longest[i], Ms(w.To-w.From))
		}
		if r.asking && r.askedAt <= t {
			cm.Waiting = 1
		}
		for _, w := range r.waits {
			if w.From <= t && t < w.To {
				cm.Waiting = 1 // asking at t, though it stopped since
			}
		}
		for _, at := range r.gaveUpAt {
			if at <= t {
				cm.GaveUp++
			}
		}
		cm.Rounds = cm.Acquisitions + cm.GaveUp + cm.Waiting
		for _, at := range r.failed {
			if at <= t {
				cm.FailedTries++
			}
		}
		cm.Tries = cm.Acquisitions + cm.FailedTries
		var hold []float64
		for _, b := range clip(r.beliefs, r.holding, r.heldFrom, t) {
			hold = append(hold, Ms(b.To-b.From))
		}
		for _, at := range r.expiredAt {
			if at <= t {
				cm.ExpiredWhileHeld++
			}
		}
		for _, rn := range r.renewals {
			if rn.at <= t {
				cm.Renewals++
				if !rn.ok {
					cm.RenewalsFailed++
				}
			}
		}
		cm.AcquireLatency, cm.HoldTime = DistributionOf(lat[i]), DistributionOf(hold)
		cm.LongestWaitMs = Round3(longest[i])
		all, holds = append(all, lat[i]...), append(holds, hold...)
		m.Clients[i] = cm

		run := &m.Run
		run.Rounds += cm.Rounds
		run.Acquisitions += cm.Acquisitions
		run.GaveUp += cm.GaveUp
		run.Waiting += cm.Waiting
		run.Tries += cm.Tries
		run.FailedTries += cm.FailedTries
		run.Renewals += cm.Renewals
		run.RenewalsFailed += cm.RenewalsFailed
		run.ExpiredWhileHeld += cm.ExpiredWhileHeld
		run.LongestWaitMs = max(run.LongestWaitMs, cm.LongestWaitMs)
	}
	m.Run.AcquireLatency, m.Run.HoldTime = DistributionOf(all), DistributionOf(holds)
	for i := range m.Clients {
		finishRates(&m.Clients[i])
	}
	finishRates(&m.Run)
	m.MessagesPerAcquisition = rate(messages, m.Run.Acquisitions)
	if t > 0 {
		m.GrantsPerSecond = Round3(float64(m.Run.Acquisitions) / t.Seconds())
	}
	m.Fairness = c.fairness(t, waits, longest, names)
	m.SeveralHoldersMs, m.NoHolderMs = c.occupancy(t)
	return m
}

// occupancy is the time up to t with two or more believers at once and
// the time with none.
func (c *Checker) occupancy(t time.Duration) (several, none float64) {
	var all []Interval
	for _, bs := range c.Beliefs(t) {
		for _, iv := range bs {
			if iv.To > iv.From {
				all = append(all, iv)
			}
		}
	}
	held := time.Duration(0)
	for _, iv := range union(all) {
		held += iv.To - iv.From
	}
	for _, iv := range c.Overlaps(t) {
		several += Ms(iv.To - iv.From)
	}
	return Round3(several), Round3(Ms(max(0, t-held)))
}

// finishRates fills the rates of a client's counts.
func finishRates(cm *ClientMetrics) {
	cm.AcquireSuccessRate = rate(cm.Acquisitions, cm.Acquisitions+cm.GaveUp)
	cm.ContentionRatio = rate(cm.FailedTries, cm.Tries)
	if cm.Renewals > 0 {
		cm.RenewalSuccessRate = rate(cm.Renewals-cm.RenewalsFailed, cm.Renewals)
	}
}

// fairness is the grant order against the request order up to t, and the
// waits.
func (c *Checker) fairness(t time.Duration, waits, longest []float64, names []string) Fairness {
	f := Fairness{Starved: []string{}}
	var asked []time.Duration // the grants' request instants, in the order granted
	for _, g := range c.grants {
		if g.At <= t {
			asked = append(asked, g.Asked)
		}
	}
	f.Inversions = Inversions(asked)
	if len(waits) > 0 {
		s := slices.Clone(waits)
		slices.Sort(s)
		f.MedianWaitMs, f.LongestWaitMs = Round3(percentile(s, 0.5)), Round3(s[len(s)-1])
		for i, l := range longest {
			if f.MedianWaitMs > 0 && l > 5*f.MedianWaitMs {
				f.Starved = append(f.Starved, names[i])
			}
		}
	}
	return f
}

// Inversions counts the pairs i < j with xs[i] > xs[j] (by merge sort):
// with xs the request instants in the order granted, the grants given
// against the order asked.
func Inversions(xs []time.Duration) int {
	if len(xs) < 2 {
		return 0
	}
	buf := make([]time.Duration, len(xs))
	var sortCount func(a, tmp []time.Duration) int
	sortCount = func(a, tmp []time.Duration) int {
		if len(a) < 2 {
			return 0
		}
		mid := len(a) / 2
		n := sortCount(a[:mid], tmp[:mid]) + sortCount(a[mid:], tmp[mid:])
		i, j, k := 0, mid, 0
		for i < mid && j < len(a) {
			if a[j] < a[i] {
				n += mid - i
				tmp[k] = a[j]
				j++
			} else {
				tmp[k] = a[i]
				i++
			}
			k++
		}
		k += copy(tmp[k:], a[i:mid])
		copy(tmp[k:], a[j:])
		copy(a, tmp[:len(a)])
		return n
	}
	return sortCount(slices.Clone(xs), buf)
}
