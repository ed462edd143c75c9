package breaker

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// Options are a search's budget, seed and cores.
type Options struct {
	Budget Budget
	// Seed draws the schedules; the same seed finds the same schedule on
	// any number of cores.
	Seed int64
	// Workers is how many runs go at once; 0 means one per core.
	Workers int
	// Progress, when set, is called from the searching goroutine after
	// every batch of runs and shrink step.
	Progress func(Progress)
}

// Progress is how far a search has come.
type Progress struct {
	Phase      string // PhaseSearch or PhaseShrink
	Runs       int    // schedules the search has run
	Of         int    // its budget of runs
	ShrinkRuns int    // runs the shrink has made
}

// The phases a Progress reports.
const (
	PhaseSearch = "search"
	PhaseShrink = "shrink"
)

// Result is what a search found: the shrunk schedule and its run, or what
// was searched in vain.
type Result struct {
	Found bool
	// Runs counts the schedules the search ran, up to and including the
	// first that broke the scenario.
	Runs int
	// ShrinkRuns counts the runs the shrink made.
	ShrinkRuns int
	// Seed and Budget say what was searched.
	Seed   int64
	Budget Budget
	// Faults are the shrunk schedule, in place of the scenario's own
	// faults; empty when the settings break the scenario without a fault.
	Faults []sim.Fault
	// Scenario is the scenario with Faults in place of its own; nil when
	// nothing was found. Captioned adds the story as captions.
	Scenario *sim.Scenario
	// Summary is the verdict of the shrunk schedule's run (of the
	// scenario without faults when nothing was found).
	Summary sim.Summary
	// Margins are the smallest lengths that break, one per fault that has
	// a length or a size, with the largest that does not.
	Margins []Margin
	// Sentence is the result in one sentence, said in the reader's
	// language by whoever shows it.
	Sentence sim.Words
	// Story is the found run's captions and the instant of its first
	// stale write.
	Story Story

	genes schedule
}

// batchSize is how many schedules go out between two looks at the
// results: fixed, so the first failing schedule is the same however many
// cores run the batch.
const batchSize = 64

// elites is how many of the closest calls the guided search mutates.
const elites = 16

// outcome is what one run of a schedule came to.
type outcome struct {
	unsafe bool
	// slack is the least time from a write the storage accepted to the
	// next grant to another client: negative for a stale write, small for
	// a near miss. The guided search mutates the runs with the least.
	slack time.Duration
}

// env is one search's scenario and space.
type env struct {
	base  *sim.Scenario
	space space
	runs  atomic.Int64 // every run made, search and shrink
	// quorum: the lock is held by a majority of servers the client counts
	// itself (Redlock), so a run comes closer as each of them lets go.
	quorum bool
}

// Search looks for the smallest fault schedule that makes the scenario
// accept a stale write. It returns ctx's error if cancelled.
func Search(ctx context.Context, sc *sim.Scenario, o Options) (*Result, error) {
	if err := sc.Validate(); err != nil {
		return nil, err
	}
	b := o.Budget.withDefaults(sc)
	if err := b.validate(sc); err != nil {
		return nil, err
	}
	e, baseOut, err := newEnv(sc, b)
	if err != nil {
		return nil, err
	}
	res := &Result{Seed: o.Seed, Budget: b}
	if baseOut.unsafe {
		res.Found = true
		return e.finish(res, nil, nil)
	}
	var deadline time.Time
	if b.Time > 0 {
		deadline = time.Now().Add(b.Time)
	}
	randomFirst := min(b.Runs/4, 1024)
	type scored struct {
		s     schedule
		slack time.Duration
		i     int
	}
	var pop []scored
	var found schedule
	for start := 0; start < b.Runs && found == nil; start += batchSize {
		n := min(batchSize, b.Runs-start)
		batch := make([]schedule, n)
		for j := range batch {
			i := start + j
			r := newRand(o.Seed, i, 0)
			if i < randomFirst || len(pop) == 0 || r.IntN(4) == 0 {
				batch[j] = e.space.randomSchedule(r)
			} else {
				batch[j] = e.space.mutate(r, pop[r.IntN(len(pop))].s)
			}
		}
		outs, err := e.runAll(ctx, batch, o.Workers)
		if err != nil {
			return nil, err
		}
		res.Runs = start + n
		for j, out := range outs {
			if out.unsafe {
				found, res.Runs = batch[j], start+j+1
				break
			}
			pop = append(pop, scored{batch[j], out.slack, start + j})
		}
		slices.SortStableFunc(pop, func(a, b scored) int {
			if a.slack != b.slack {
				return cmpDur(a.slack, b.slack)
			}
			return a.i - b.i
		})
		pop = pop[:min(len(pop), elites)]
		if o.Progress != nil {
			o.Progress(Progress{Phase: PhaseSearch, Runs: res.Runs, Of: b.Runs})
		}
		if !deadline.IsZero() && time.Now().After(deadline) {
			break
		}
	}
	if found == nil {
		return e.finish(res, nil, nil)
	}
	res.Found = true
	shrunk, margins, err := e.shrink(ctx, found, func(n int) {
		res.ShrinkRuns = n
		if o.Progress != nil {
			o.Progress(Progress{Phase: PhaseShrink, Runs: res.Runs, Of: b.Runs, ShrinkRuns: n})
		}
	})
	if err != nil {
		return nil, err
	}
	return e.finish(res, shrunk, margins)
}

func cmpDur(a, b time.Duration) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// newEnv runs the scenario's settings without faults, to learn when its
// clients are granted the lock and how long they are busy. The scenario's
// own faults are set aside: the question is the least that has to go
// wrong with these settings, and a schedule the search finds replaces them.
func newEnv(sc *sim.Scenario, b Budget) (*env, outcome, error) {
	e := &env{base: sc.Clone(), quorum: sim.TraitsOf(sc.Mode).ClientQuorum}
	e.base.Captions, e.base.Faults = nil, nil
	s, err := sim.New(e.base)
	if err != nil {
		return nil, outcome{}, err
	}
	end := s.Settle()
	out := judge(s.Check, end, e.quorum)
	e.base.Duration = sim.Duration(roomToPlayOut(sc, b, end))
	sp := space{budget: b, clients: sc.ClientNames(), servers: sc.ServerNames(), failover: failoverTargets(sc),
		work: sc.Work.D(), horizon: max(end, time.Millisecond)}
	sp.jumps = sp.servers
	if b.Monotonic {
		sp.jumps = append(slices.Clone(sp.clients), sp.servers...)
	}
	sp.crashes = slices.Clone(sp.servers)
	if sc.UsesStorage() && !b.SpareStorage {
		sp.crashes = append(sp.crashes, sim.StorageName)
	}
	sp.nodes = append(slices.Clone(sp.clients), sp.crashes...)
	sp.rounds = map[string]int{}
	for _, g := range s.Check.Grants() {
		sp.anchors = append(sp.anchors, g.At)
		sp.rounds[s.Check.NodeName(g.Client)]++
	}
	e.space = sp
	return e, out, nil
}

// roomToPlayOut is how long the search runs each schedule: the scenario's
// duration, or, when its clients stop after their rounds, long enough
// after the last round ends (at end, without faults) for the longest pause
// or partition of the budget and two TTLs more to play out — a scenario
// that ends when its rounds do (zk-happy-path: 10 s) could not show a
// holder outliving a 10 s session. The found scenario keeps that length.
func roomToPlayOut(sc *sim.Scenario, b Budget, end time.Duration) time.Duration {
	d := sc.Duration.D()
	if sc.Rounds == 0 {
		return d
	}
	need := end + max(b.MaxPause, b.MaxPartition) + 2*sc.TTL.D()
	if need > d {
		d = min((need + time.Second - 1).Truncate(time.Second), sim.MaxDuration)
	}
	return d
}

// run runs the scenario with the schedule's faults added.
func (e *env) run(s schedule) (outcome, error) {
	e.runs.Add(1)
	r, err := sim.New(e.with(s))
	if err != nil {
		return outcome{}, fmt.Errorf("breaker: a generated schedule is invalid: %w", err)
	}
	end := r.Settle()
	return judge(r.Check, end, e.quorum), nil
}

// with is the base scenario with the schedule's faults; it shares the
// rest with the base, which no run changes.
func (e *env) with(s schedule) *sim.Scenario {
	c := *e.base
	c.Faults = s.faults()
	if c.Faults == nil {
		c.Faults = []sim.Fault{}
	}
	return &c
}

// runAll runs a batch on workers goroutines (one per core when workers is
// 0); outcomes are in batch order.
func (e *env) runAll(ctx context.Context, batch []schedule, workers int) ([]outcome, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	outs := make([]outcome, len(batch))
	var next atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	for range min(workers, len(batch)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(batch) || ctx.Err() != nil {
					return
				}
				out, err := e.run(batch[i])
				if err != nil {
					mu.Lock()
					first = cmpFirst(first, err)
					mu.Unlock()
					return
				}
				outs[i] = out
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return outs, first
}

func cmpFirst(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// judge reads a run's verdict and how close it came to a stale write:
// for each write the storage accepted, the least of the time to the next
// grant to another client and the time from the writer losing its lock on
// the servers (their mean over a quorum of them, so each master of a
// Redlock that lets go brings the run closer) to the write.
func judge(c *sim.Checker, end time.Duration, quorum bool) outcome {
	sum := c.Summary(end)
	out := outcome{unsafe: failed(sum), slack: end}
	grants := c.Grants()
	owners := c.Ownerships()
	var ends []time.Duration
	for _, w := range c.Writes() {
		if !w.Accepted {
			continue
		}
		next := end
		issued := issuedOf(c, w)
		for _, g := range grants {
			if g.Issued > issued && g.Client != w.Client {
				next = min(next, g.At)
			}
		}
		out.slack = min(out.slack, next-w.At)
		ends = ends[:0]
		for _, o := range owners {
			if o.Client != w.Client || o.Span.From > w.At {
				continue
			}
			to := o.Span.To
			if o.Open {
				to = end
			}
			if to < w.GrantAt {
				continue
			}
			ends = append(ends, to-w.At)
		}
		if len(ends) == 0 {
			continue
		}
		slices.Sort(ends)
		k := 1
		if quorum {
			k = len(ends)/2 + 1
		}
		var mean time.Duration
		for _, d := range ends[:k] {
			mean += d / time.Duration(k)
		}
		out.slack = min(out.slack, mean)
	}
	return out
}

// failed is the search's goal: the storage took a stale write.
func failed(sum sim.Summary) bool { return sum.StaleWritesAccepted > 0 }
