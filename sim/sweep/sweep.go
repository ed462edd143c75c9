package sweep

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lockscope/lockscope/sim"
)

// milliseconds for durations, a plain number otherwise.
type Axis struct {
	Field  string
	Values []float64
}

// IsDuration reports whether the axis' values are milliseconds.
func (a Axis) IsDuration() bool { return sim.SweepKind(a.Field) == sim.OptionDuration }

// Format renders one value of the axis as a person reads it.
func (a Axis) Format(v float64) string {
	if a.IsDuration() {
		return time.Duration(v * float64(time.Millisecond)).String()
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// ParseAxis reads `field=from:to:steps`, e.g. `ttl=1s:30s:30` or
// `clients=1:8:8`; the values are evenly spaced, both ends included.
func ParseAxis(spec string) (Axis, error) {
	field, rng, ok := strings.Cut(spec, "=")
	if !ok {
		return Axis{}, fmt.Errorf("%q: want field=from:to:steps", spec)
	}
	a := Axis{Field: field}
	if sim.SweepKind(field) == 0 {
		return a, fmt.Errorf("%s: cannot sweep this field (one of %s)", field, strings.Join(sim.SweepFields(), ", "))
	}
	parts := strings.Split(rng, ":")
	if len(parts) != 3 {
		return a, fmt.Errorf("%s: want from:to:steps, got %q", field, rng)
	}
	from, err := a.parseValue(parts[0])
	if err != nil {
		return a, fmt.Errorf("%s: from: %w", field, err)
	}
	to, err := a.parseValue(parts[1])
	if err != nil {
		return a, fmt.Errorf("%s: to: %w", field, err)
	}
	steps, err := strconv.Atoi(parts[2])
	if err != nil || steps < 1 || steps > 1000 {
		return a, fmt.Errorf("%s: steps: want 1 to 1000, got %q", field, parts[2])
	}
	if to < from {
		return a, fmt.Errorf("%s: to (%s) is below from (%s)", field, parts[1], parts[0])
	}
	for i := 0; i < steps; i++ {
		v := from
		if steps > 1 {
			v = from + (to-from)*float64(i)/float64(steps-1)
		}
		if sim.SweepKind(a.Field) == sim.OptionInt {
			v = math.Round(v)
		}
		a.Values = append(a.Values, v)
	}
	return a, nil
}

func (a Axis) parseValue(s string) (float64, error) {
	if a.IsDuration() {
		d, err := time.ParseDuration(s)
		if err != nil {
			return 0, fmt.Errorf("want a duration such as \"10s\", got %q", s)
		}
		if d < 0 {
			return 0, fmt.Errorf("%v is negative", d)
		}
		return float64(d) / float64(time.Millisecond), nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("want a non-negative number, got %q", s)
	}
	return v, nil
}

// Sweep runs a base scenario over a grid of one or two fields with Seeds
// seeds per cell. Each run is independent and seeded, so the numbers do
// not depend on how many cores run them or in what order.
type Sweep struct {
	Base  *sim.Scenario
	X     Axis
	Y     Axis // Field "" for a one-dimensional sweep
	Seeds int
	// PauseAt is where the pause strikes the first holder: PauseBeforeWrite
	// ("" too) or PauseMidWork.
	PauseAt string
	// Runs, when set, is shared with other sweeps of the same Base and
	// PauseAt: a run one of them made is taken from it, not run again.
	Runs *RunCache

	events atomic.Int64 // simulated events of the last Run
}

// Events is the number of simulated events the last Run handled, over
// its paused and crashed runs: the work a grid costs.
func (sw *Sweep) Events() int64 { return sw.events.Load() }

// Where a sweep's pause strikes the first holder.
const (
	// PauseBeforeWrite is the worst moment: after the holder's last check,
	// just before it sends its write (a fault with "when": "before-write").
	PauseBeforeWrite = sim.StepBeforeWrite
	// PauseMidWork is halfway through the work, where a client that checks
	// its lock before writing can still notice.
	PauseMidWork = "mid-work"
)

// PauseAts lists the moments a sweep's pause can strike, the default first.
var PauseAts = []string{PauseBeforeWrite, PauseMidWork}

// Base is the scenario a sweep starts from for a mode: two clients,
// one round each (OneRoundEach), 60 s of simulated time, and clients that
// keep asking until the end (tries 0), so recovery is measured rather than
// given up on.
func Base(mode string) (*sim.Scenario, error) {
	sc, err := sim.Defaults(mode)
	if err != nil {
		return nil, err
	}
	sc.Name = "sweep"
	sc.Duration = sim.Duration(60 * time.Second)
	sc.Clients, sc.Rounds = 2, 1
	sc.Work = sim.Duration(2 * time.Second)
	sc.Tries = 0
	OneRoundEach(sc)
	return sc, nil
}

// OneRoundEach makes sc's one round each a round for every client: an
// election's leader leads once and steps down (sim.LeadsOnce: one period
// of its work, where sc has it lead until it fails), as a lock's client
// takes the lock once and releases it. It returns the periods a leader
// leads, 0 for a lock. A caller that carries a tab's settings into a base
// (the window's map) calls it again after.
func OneRoundEach(sc *sim.Scenario) (periods int) { return sim.LeadsOnce(sc) }

// Cell is the verdict of one grid point over all its seeds.
type Cell struct {
	X, Y           float64
	Runs           int
	UnsafeRate     float64 // runs in which the storage took a stale write
	ViolationRate  float64 // runs in which two clients held at once
	RecoveryMeanMs float64 // crash of the holder to the next grant
	RecoveryP99Ms  float64
	AcquireMeanMs  float64
	UnsafeSeed     int64 // the seed of the first unsafe run, when UnsafeRate > 0
	// Throughput is the grants per second of the cell's paused runs (the
	// seeds' runs with the pause, not the crash runs): each run's grants
	// over its settled length (from 0 to the instant it settled, every
	// client done with its rounds and no write on its way, or the
	// scenario's end when that never came), the mean over the runs. Not
	// over the scenario's duration: a sweep's run stops once settled, and
	// 60 s of idle time after two grants would say nothing about the lock.
	Throughput float64
	// WaitP99Ms is the 99th percentile (nearest rank) of the wait, from a
	// round's first ask to its grant (Grant.At - Grant.Asked, the wait
	// AcquireMeanMs averages), over every grant of the cell's paused runs;
	// 0 when none was granted.
	WaitP99Ms float64
	// SlowestSeed is the seed of the paused run with the cell's longest
	// single wait (SlowestWaitMs, the tail WaitP99Ms summarises): the run
	// a click on the map shows when it is coloured by the p99 wait.
	SlowestSeed   int64
	SlowestWaitMs float64
	// TypicalSeed is the seed of the paused run whose throughput is
	// nearest the cell's mean (the first of those that tie): the run a
	// click shows when the map is coloured by throughput, with its own
	// figure (TypicalThroughput).
	TypicalSeed       int64
	TypicalThroughput float64
}

// CellScenario is the scenario of one grid point and seed. With crash the
// first holder crashes at the instant the pause would start, to measure
// recovery; otherwise it pauses for `pause` there.
func (sw *Sweep) CellScenario(x, y float64, seed int64, crash bool) *sim.Scenario {
	sc := sw.Base.Clone()
	sc.Seed = seed
	pause := -1.0
	for _, ax := range []struct {
		a Axis
		v float64
	}{{sw.X, x}, {sw.Y, y}} {
		if ax.a.Field == "pause" {
			pause = ax.v
			continue
		}
		sim.SetSweepField(sc, ax.a.Field, ax.v)
	}
	at := sim.Duration(2*sc.Latency.D() + sc.Work.D()/2)
	holder := sim.ClientName(0)
	switch {
	case crash:
		sc.Faults = append(sc.Faults, sim.Fault{At: at, Crash: holder})
	case pause > 0 && sw.PauseAt == PauseMidWork:
		sc.Faults = append(sc.Faults, sim.Fault{At: at, Pause: holder, For: sim.Duration(pause * float64(time.Millisecond))})
	case pause > 0:
		sc.Faults = append(sc.Faults, sim.Fault{When: sim.StepBeforeWrite, Pause: holder, For: sim.Duration(pause * float64(time.Millisecond))})
	}
	return sc
}

// Size is the number of simulated runs the sweep makes (two per seed: one
// with the pause, one with a crash).
func (sw *Sweep) Size() int { return len(sw.X.Values) * max(1, len(sw.Y.Values)) * sw.Seeds * 2 }

// Validate checks the base scenario with every value the axes take.
func (sw *Sweep) Validate() error {
	if sw.Seeds < 1 {
		return fmt.Errorf("seeds: %d, want at least 1", sw.Seeds)
	}
	if sw.PauseAt != "" && !slices.Contains(PauseAts, sw.PauseAt) {
		return fmt.Errorf("pause-at: %q, want one of %s", sw.PauseAt, strings.Join(PauseAts, ", "))
	}
	if len(sw.X.Values) == 0 {
		return fmt.Errorf("x: no values")
	}
	ys := sw.Y.Values
	if len(ys) == 0 {
		ys = []float64{0}
	}
	for _, x := range []float64{sw.X.Values[0], sw.X.Values[len(sw.X.Values)-1]} {
		for _, y := range []float64{ys[0], ys[len(ys)-1]} {
			if err := sw.CellScenario(x, y, 1, false).Validate(); err != nil {
				return err
			}
		}
	}
	return nil
}

type runResult struct {
	unsafe, violation bool
	acquireMs         float64
	acquired          bool
	recoveryMs        float64
	throughput        float64   // grants per second of the settled run
	waitsMs           []float64 // each grant's wait, for the cell's p99
}

// Run computes every cell on `workers` goroutines (0: one per core),
// calling progress (from any goroutine) as runs finish. It returns the
// context's error if cancelled.
func (sw *Sweep) Run(ctx context.Context, workers int, progress func(done, total int)) ([]Cell, error) {
	if err := sw.Validate(); err != nil {
		return nil, err
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ys := sw.Y.Values
	if len(ys) == 0 {
		ys = []float64{0}
	}
	cells := make([]Cell, 0, len(sw.X.Values)*len(ys))
	for _, y := range ys {
		for _, x := range sw.X.Values {
			cells = append(cells, Cell{X: x, Y: y})
		}
	}
	results := make([][]runResult, len(cells))
	for i := range results {
		results[i] = make([]runResult, sw.Seeds)
	}
	sw.events.Store(0)
	defer raiseGCPercent()()
	// The workers take the runs in order (line by line, seed by seed) from
	// a shared counter: a caller that hands them out one by one over a
	// channel stalls the workers when its goroutine is slow to wake, as
	// the command line's main goroutine is (locked to its thread by the
	// GUI toolkit), which took a third of a Redlock grid's time. A line
	// is the cells that differ only in the pause (one cell without a
	// pause axis): a worker makes a seed's runs along it together, the
	// events before the pause once (pausedLine).
	var next, done atomic.Int64
	total := len(cells) * sw.Seeds
	lines := sw.pauseLines(len(sw.X.Values), len(ys))
	items := len(lines) * sw.Seeds
	share := sw.newCrashShare(len(sw.X.Values), len(ys))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				j := int(next.Add(1) - 1)
				if j >= items {
					return
				}
				line, si := lines[j/sw.Seeds], j%sw.Seeds
				seed := sw.Base.Seed + int64(si)
				rs := sw.pausedLine(cells, line, seed)
				for k, ci := range line {
					c := cells[ci]
					r := rs[k]
					r.recoveryMs = share.recovery(ci, si, func() float64 { return sw.crashRun(c.X, c.Y, seed) })
					results[ci][si] = r
					n := done.Add(1)
					if progress != nil {
						progress(int(n), total)
					}
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i := range cells {
		summarize(&cells[i], results[i], sw.Base.Seed)
	}
	return cells, nil
}

// runOne is a cell's paused run for seed, made alone.
func (sw *Sweep) runOne(x, y float64, seed int64) runResult {
	// The grid's corners were validated by Run; every cell lies between.
	sc := sw.CellScenario(x, y, seed, false)
	s := sim.NewVerdictRun(sc, true)
	end := s.SettleVerdict()
	sw.events.Add(int64(s.Steps()))
	if s.Tie() {
		// An instant where lazy ticks could change the order of events
		// (sim/lazy.go): the run again as it always ran.
		return sw.strictRun(sc)
	}
	return verdictOf(s, end)
}

// strictRun is the run of sc without lazy ticks: what a lazy run that met
// a tie gives instead.
func (sw *Sweep) strictRun(sc *sim.Scenario) runResult {
	s := sim.NewVerdictRun(sc, false)
	end := s.SettleVerdict()
	sw.events.Add(int64(s.Steps()))
	return verdictOf(s, end)
}

// verdictOf is what the sweep keeps of a settled run, which ended at end.
func verdictOf(s *sim.Sim, end time.Duration) runResult {
	var r runResult
	sum := s.Check.Summary(end)
	r.unsafe = !sum.Safe
	r.violation = sum.Violations > 0
	grants := s.Check.Grants()
	if len(grants) > 0 {
		r.waitsMs = make([]float64, len(grants))
	}
	for i, g := range grants {
		w := sim.Ms(g.At - g.Asked)
		r.waitsMs[i] = w
		r.acquireMs += w
	}
	if n := len(grants); n > 0 {
		r.acquireMs /= float64(n)
		r.acquired = true
		if end > 0 {
			r.throughput = float64(n) / end.Seconds()
		}
	}
	return r
}

// pauseLines groups the nx × ny cells (y outer) into lines that differ
// only in the pause: the columns when the pause runs up the grid, the
// rows when it runs across, each cell alone without a pause axis.
func (sw *Sweep) pauseLines(nx, ny int) [][]int {
	count, length := nx*ny, 1 // without a pause axis
	cell := func(line, _ int) int { return line }
	switch {
	case sw.Y.Field == "pause":
		count, length = nx, ny
		cell = func(x, y int) int { return y*nx + x }
	case sw.X.Field == "pause":
		count, length = ny, nx
		cell = func(y, x int) int { return y*nx + x }
	}
	lines := make([][]int, count)
	for k := range lines {
		lines[k] = make([]int, length)
		for i := range length {
			lines[k][i] = cell(k, i)
		}
	}
	return lines
}

// pauseOf is the pause of a cell, in milliseconds (0 without a pause axis).
func (sw *Sweep) pauseOf(c Cell) float64 {
	switch {
	case sw.X.Field == "pause":
		return c.X
	case sw.Y.Field == "pause":
		return c.Y
	}
	return 0
}

// pausedLine makes a seed's paused runs of a line of cells (pauseLines),
// taking from the cache those a sweep sharing it made. The runs with a
// pause are the same run until the pause strikes, since nothing before
// reads its length (CellScenario adds it as the last fault): they are
// made as one run up to that instant, forked there (forkedRuns).
func (sw *Sweep) pausedLine(cells []Cell, line []int, seed int64) []runResult {
	rs := make([]runResult, len(line))
	var paused []int // positions in line of the runs with a pause to make
	for k, ci := range line {
		c := cells[ci]
		if r, ok := sw.Runs.lookup(sw.runKey(c.X, c.Y, seed)); ok {
			rs[k] = r
			continue
		}
		if sw.pauseOf(c) > 0 {
			paused = append(paused, k)
			continue
		}
		rs[k] = sw.runOne(c.X, c.Y, seed)
		sw.Runs.keep(sw.runKey(c.X, c.Y, seed), rs[k])
	}
	switch len(paused) {
	case 0:
		return rs
	case 1:
		c := cells[line[paused[0]]]
		rs[paused[0]] = sw.runOne(c.X, c.Y, seed)
	default:
		at := make([]Cell, len(paused))
		for i, k := range paused {
			at[i] = cells[line[k]]
		}
		for i, r := range sw.forkedRuns(at, seed, true) {
			rs[paused[i]] = r
		}
	}
	for _, k := range paused {
		c := cells[line[k]]
		sw.Runs.keep(sw.runKey(c.X, c.Y, seed), rs[k])
	}
	return rs
}

// forkedRuns is the paused runs of cells that differ only in the pause
// (every one above 0) for seed. They are one run, the one with the
// longest pause, up to the instant each shorter pause ends (sim's
// pausechain.go): it runs to its pause once, strikes, and at the instant
// each shorter pause would end it is forked, the fork's pause ended there
// and its scenario set to that cell's, whose pause is the only
// difference; the run itself goes on as the longest. A run that ends
// before its pause strikes, or before a pause would end, is the verdict
// of every cell it stands for. With lazy ticks (lazy), a stretch shared
// by several cells that meets a tie is made again without them for
// those; a fork that meets one is made again alone, without them.
func (sw *Sweep) forkedRuns(cells []Cell, seed int64, lazy bool) []runResult {
	out := make([]runResult, len(cells))
	scs := make([]*sim.Scenario, len(cells))
	for i, c := range cells {
		scs[i] = sw.CellScenario(c.X, c.Y, seed, false)
	}
	pause := len(scs[0].Faults) - 1 // CellScenario's pause comes last
	lengths := make([]time.Duration, len(cells))
	order := make([]int, len(cells)) // shortest pause first
	for i, sc := range scs {
		lengths[i], order[i] = sc.Faults[pause].For.D(), i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(lengths[a], lengths[b]) })
	longest := order[len(order)-1]

	s := sim.NewVerdictRun(scs[longest], lazy)
	end, struck := s.SettleUntil(pause)
	done := s.Steps()
	sw.events.Add(int64(done))
	switch {
	case s.Tie():
		s.Release()
		return sw.forkedRuns(cells, seed, false)
	case !struck:
		s.Release()
		r := verdictOf(s, end)
		for i := range out {
			out[i] = r
		}
		return out
	}
	holder := s.Lookup(scs[0].Faults[pause].Pause)
	for k, i := range order[:len(order)-1] {
		end, stopped := s.SettleUntilPauseEnds(holder, lengths[i])
		sw.events.Add(int64(s.Steps() - done))
		done = s.Steps()
		rest := order[k:]
		switch {
		case s.Tie(): // the shared stretch is not to be used from here on
			s.Release()
			sw.strictRuns(cells, scs, rest, seed, out)
			return out
		case !stopped: // over before this pause would end: the same run for the rest
			s.Release()
			r := verdictOf(s, end)
			for _, j := range rest {
				out[j] = r
			}
			return out
		}
		f := s.Fork()
		f.Scenario = scs[i]
		if !f.EndPauseAsIn(pause) {
			f.Release()
			out[i] = sw.runOne(cells[i].X, cells[i].Y, seed)
			continue
		}
		fend := f.SettleVerdict()
		sw.events.Add(int64(f.Steps() - done))
		if f.Tie() {
			out[i] = sw.strictRun(scs[i])
			continue
		}
		out[i] = verdictOf(f, fend)
	}
	end = s.SettleVerdict()
	sw.events.Add(int64(s.Steps() - done))
	if s.Tie() {
		out[longest] = sw.strictRun(scs[longest])
	} else {
		out[longest] = verdictOf(s, end)
	}
	return out
}

// strictRuns makes the paused runs of the cells at positions at of
// forkedRuns' line (scs their scenarios) without lazy ticks, as one
// forked line again, into out.
func (sw *Sweep) strictRuns(cells []Cell, scs []*sim.Scenario, at []int, seed int64, out []runResult) {
	if len(at) == 1 {
		out[at[0]] = sw.strictRun(scs[at[0]])
		return
	}
	sub := make([]Cell, len(at))
	for k, i := range at {
		sub[k] = cells[i]
	}
	for k, r := range sw.forkedRuns(sub, seed, false) {
		out[at[k]] = r
	}
}

// recoveryMs runs a cell's seed with the holder crashed and times the
// crash to the next grant to another client. When the lease had already
// run out and another client held the lock before the crash, nobody
// waited for the crashed holder: recovery is 0.
func (sw *Sweep) recoveryMs(x, y float64, seed int64) float64 {
	crash := sw.CellScenario(x, y, seed, true)
	if ms, ok := sw.recovery(crash, true); ok {
		return ms
	}
	// An instant where lazy ticks could change the order of events
	// (sim/lazy.go): the run again as it always ran.
	ms, _ := sw.recovery(crash, false)
	return ms
}

// recovery is recoveryMs's run, with lazy ticks or without; ok is false
// when the lazy run met a tie before its answer.
func (sw *Sweep) recovery(crash *sim.Scenario, lazy bool) (ms float64, ok bool) {
	c := sim.NewVerdictRun(crash, lazy)
	defer c.Release()
	defer func() { sw.events.Add(int64(c.Steps())) }()
	at := crash.Faults[len(crash.Faults)-1].At.D()
	for c.Step() {
		g := c.Check.Grants()
		if len(g) == 0 || g[len(g)-1].Client == 0 {
			continue
		}
		if last := g[len(g)-1]; last.At >= at {
			return sim.Ms(last.At - at), !c.Tie()
		}
		if c.Now() >= at {
			return 0, !c.Tie() // another client took over before the crash
		}
	}
	return sim.Ms(c.End() - at), !c.Tie() // no grant before the end: censored at the end
}

// crashShare runs each crash run once for all the cells that differ only
// in the pause: a crash run ignores the pause (CellScenario), so on a
// pause axis its recovery is the same for every pause value, and sharing
// it halves the runs of a ttl × pause grid without changing a number.
type crashShare struct {
	once  []sync.Once
	ms    []float64
	key   func(cell int) int // the cell's coordinate off the pause axis
	seeds int
}

// newCrashShare is the share for a grid of nx × ny cells (y outer), nil
// without a pause axis.
func (sw *Sweep) newCrashShare(nx, ny int) *crashShare {
	cs := &crashShare{seeds: sw.Seeds}
	n := 0
	switch {
	case sw.Y.Field == "pause":
		cs.key, n = func(cell int) int { return cell % nx }, nx
	case sw.X.Field == "pause":
		cs.key, n = func(cell int) int { return cell / nx }, ny
	default:
		return nil
	}
	cs.once, cs.ms = make([]sync.Once, n*sw.Seeds), make([]float64, n*sw.Seeds)
	return cs
}

// recovery is the crash run's recovery for a cell and seed: run by the
// first worker to need it, waited for by the others.
func (cs *crashShare) recovery(cell, seed int, run func() float64) float64 {
	if cs == nil {
		return run()
	}
	i := cs.key(cell)*cs.seeds + seed
	cs.once[i].Do(func() { cs.ms[i] = run() })
	return cs.ms[i]
}

func summarize(c *Cell, rs []runResult, baseSeed int64) {
	c.Runs = len(rs)
	var rec []float64
	var acq, tput float64
	nAcq, nWait := 0, 0
	for _, r := range rs {
		nWait += len(r.waitsMs)
	}
	waits := make([]float64, 0, nWait)
	for i, r := range rs {
		tput += r.throughput
		waits = append(waits, r.waitsMs...)
		if r.unsafe {
			if c.UnsafeRate == 0 {
				c.UnsafeSeed = baseSeed + int64(i)
			}
			c.UnsafeRate++
		}
		if r.violation {
			c.ViolationRate++
		}
		if r.acquired {
			acq += r.acquireMs
			nAcq++
		}
		rec = append(rec, r.recoveryMs)
	}
	n := float64(len(rs))
	c.UnsafeRate /= n
	c.ViolationRate /= n
	if nAcq > 0 {
		c.AcquireMeanMs = sim.Round3(acq / float64(nAcq))
	}
	sort.Float64s(rec)
	var sum float64
	for _, v := range rec {
		sum += v
	}
	c.RecoveryMeanMs = sim.Round3(sum / n)
	c.RecoveryP99Ms = sim.Round3(percentile(rec, 0.99))
	c.Throughput = sim.Round3(tput / n)
	c.SlowestSeed, c.TypicalSeed = baseSeed, baseSeed
	slowest, nearest := -1.0, math.Inf(1)
	for i, r := range rs {
		for _, w := range r.waitsMs {
			if w > slowest {
				slowest, c.SlowestSeed = w, baseSeed+int64(i)
			}
		}
		if d := math.Abs(r.throughput - tput/n); d < nearest {
			nearest, c.TypicalSeed, c.TypicalThroughput = d, baseSeed+int64(i), sim.Round3(r.throughput)
		}
	}
	c.SlowestWaitMs = sim.Round3(max(0, slowest))
	sort.Float64s(waits)
	c.WaitP99Ms = sim.Round3(nearestRank(waits, 0.99))
}

// nearestRank is percentile on xs already sorted, without a copy.
func nearestRank(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	k := int(math.Ceil(p*float64(len(xs)))) - 1
	return xs[max(0, min(k, len(xs)-1))]
}

// percentile is nearest-rank on a copy of xs; 0 for no samples (the
// checker's, for the cells' recovery).
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	k := int(math.Ceil(p*float64(len(s)))) - 1
	return s[max(0, min(k, len(s)-1))]
}
