package app

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/sweep"
	"github.com/lockscope/lockscope/widgets"
)

// TradeoffSeeds is how many seeds each cell of the refined trade-off map
// runs: enough that a 2 % unsafe rate is one run in fifty, not noise.
const TradeoffSeeds = 50

// CoarseBudget is how long the first, coarse pass of the map should take,
// so the map follows a dragged slider.
const CoarseBudget = 100 * time.Millisecond

// coarseSeeds is the seeds per cell of the coarse pass.
const coarseSeeds = 3

// MapTarget is how soon a map should stand at every point of its grid.
// When the refined map would take longer (the Kubernetes tab's: an
// election never settles, so every run lasts its 60 s, with the etcd
// members heartbeating under the apiserver throughout), a quick pass over
// every cell with as many of its seeds as fit about three quarters of
// this comes after the coarse pass; the refined map then adds the rest of
// each cell's seeds, a column or row at a time, reusing the quick pass's
// runs (sweep.RunCache).
const MapTarget = 2 * time.Second

// publishEvery is the least time between two updates the computation hands
// the view, but for those that change its stage (the coarse map, the last
// part), which go at once. Each update repaints the window: under a
// software renderer a repaint costs the CPU the sweep's workers need
// (a quarter of the process's CPU while a Redlock map computed with
// updates every 80 ms, the map's parts and its progress each repainting).
const publishEvery = 250 * time.Millisecond

// tradeoffJob is one computation of a trade-off map: the refined sweep,
// the quick coarse pass drawn first, and the sweep along ttl that feeds
// the recovery chart when the map's own grid cannot.
type tradeoffJob struct {
	key    string       // the base, axes and seeds: equal keys, equal maps
	fine   *sweep.Sweep // the map as refined
	coarse *sweep.Sweep // nil when the refined map is as quick as a coarse one
	// quickSeeds is the seeds a cell of the quick pass over the whole grid
	// (MapTarget): 0 to size the passes from the measured cost (quickPlan),
	// below 0 for none.
	quickSeeds int
	// rec and recCoarse sweep ttl alone for the recovery chart; nil when
	// the map's own cells give it (ttl against pause, which a crash run
	// does not depend on).
	rec, recCoarse *sweep.Sweep
}

// newTradeoffJob plans the passes of a map with its pause at pauseAt (one
// of sweep.PauseAts): the coarse one sized to take about CoarseBudget at
// pairCost seconds of one core per seed (a paused run and a crashed one).
func newTradeoffJob(base *sim.Scenario, x, y sweep.Axis, seeds int, pauseAt string, ttl sweep.Axis, pairCost float64, workers int) (*tradeoffJob, error) {
	fine := &sweep.Sweep{Base: base, X: x, Y: y, Seeds: seeds, PauseAt: pauseAt}
	if err := fine.Validate(); err != nil {
		return nil, err
	}
	doc, err := json.Marshal(struct {
		Base    *sim.Scenario
		X, Y    sweep.Axis
		Seeds   int
		PauseAt string
	}{base, x, y, seeds, pauseAt})
	if err != nil {
		return nil, err
	}
	// The refined map takes the runs of the passes before it (the coarse
	// and the quick one), whose cells and seeds are among its own, from
	// this cache rather than running them again.
	fine.Runs = sweep.NewRunCache()
	j := &tradeoffJob{key: string(doc), fine: fine}
	budget := CoarseBudget.Seconds() * float64(workers) / pairCost
	if kx, ky, s, ok := coarsePlan(len(x.Values), len(y.Values), seeds, budget); ok {
		j.coarse = &sweep.Sweep{Base: base, X: subsample(x, kx), Y: subsample(y, ky), Seeds: s, PauseAt: pauseAt, Runs: fine.Runs}
	}
	if !gridHasRecovery(x, y) {
		recBase := base.Clone()
		recBase.Faults = nil // a crash run needs no pause
		j.rec = &sweep.Sweep{Base: recBase, X: ttl, Seeds: seeds}
		if err := j.rec.Validate(); err != nil {
			return nil, err
		}
		if j.coarse != nil {
			j.rec.Runs = sweep.NewRunCache()
			j.recCoarse = &sweep.Sweep{Base: recBase, X: subsample(ttl, max(5, len(j.coarse.X.Values))), Seeds: j.coarse.Seeds, Runs: j.rec.Runs}
		}
	}
	return j, nil
}

// coarsePlan sizes the coarse pass of an nx × ny grid (ny 0 for one row)
// to about budget seeds in all; ok is false when the refined grid fits
// the budget itself.
func coarsePlan(nx, ny, seeds int, budget float64) (kx, ky, s int, ok bool) {
	rows := max(ny, 1)
	if float64(nx*rows*seeds) <= budget {
		return 0, 0, 0, false
	}
	s = min(seeds, coarseSeeds)
	cells := math.Max(budget/float64(s), 4)
	kx = int(math.Round(math.Sqrt(cells * float64(nx) / float64(rows))))
	if ny == 0 {
		kx = int(math.Round(cells))
	}
	kx = max(min(kx, nx), min(nx, 3))
	ky = 0
	if ny > 0 {
		ky = int(math.Round(cells / float64(kx)))
		ky = max(min(ky, ny), min(ny, 2))
	}
	return kx, ky, s, true
}

// minCostSample is the least time a coarse pass must take for the cost it
// measures to size a quick pass: a shorter one is mostly its own start and
// end (the Redis map's coarse pass, 23 ms, measured twice what its runs
// cost, and a quick pass was planned for a map that takes under a second).
const minCostSample = 50 * time.Millisecond

// quickPlan sizes a quick pass over all cells of a map (MapTarget): the
// seeds a cell that fit about four fifths of left, the time the target
// leaves, at pairCost seconds of one core per seed on workers, counting
// the done seeds a cell that an earlier quick pass made (they come from
// the cache). ok is false when the rest of the refined map fits left
// itself, or when the pass would add under two seeds a cell or reach half
// the refined map's (it would save little).
func quickPlan(cells, seeds, done int, left time.Duration, pairCost float64, workers int) (s int, ok bool) {
	perSeed := float64(cells) * pairCost / float64(workers) // seconds for one seed of every cell
	if perSeed*float64(seeds-done) <= left.Seconds() {
		return 0, false
	}
	s = done + int(0.8*left.Seconds()/perSeed)
	if s < done+2 || 2*s >= seeds {
		return 0, false
	}
	return s, true
}

// subsample keeps k values of an axis spread evenly, both ends included.
func subsample(a sweep.Axis, k int) sweep.Axis {
	n := len(a.Values)
	if k <= 0 || k >= n {
		return a
	}
	out := sweep.Axis{Field: a.Field}
	for i := 0; i < k; i++ {
		idx := 0
		if k > 1 {
			idx = int(math.Round(float64(i) * float64(n-1) / float64(k-1)))
		}
		out.Values = append(out.Values, a.Values[idx])
	}
	return out
}

// gridHasRecovery reports whether a map's cells carry the recovery along
// ttl: with ttl on one axis and nothing but the pause on the other, which
// a crash run ignores.
func gridHasRecovery(x, y sweep.Axis) bool {
	return (x.Field == "ttl" && (y.Field == "" || y.Field == "pause")) || (x.Field == "pause" && y.Field == "ttl")
}

// recoveryFromGrid reads the recovery series out of a map's cells: the
// first row with ttl across, the first column with ttl up.
func recoveryFromGrid(x, y sweep.Axis, cells []widgets.HeatCell) (pts []sweep.Cell, coarse bool) {
	nx := len(x.Values)
	if nx == 0 || len(cells) < nx {
		return nil, false
	}
	take := func(c widgets.HeatCell) {
		pts = append(pts, c.Cell)
		coarse = coarse || c.Coarse
	}
	if x.Field == "ttl" {
		for _, c := range cells[:nx] {
			take(c)
		}
		return pts, coarse
	}
	for r := 0; r*nx < len(cells); r++ {
		take(cells[r*nx])
	}
	return pts, coarse
}

// tradeoffStage is how far a computation has got.
type tradeoffStage int

const (
	stageCoarse   tradeoffStage = iota // the coarse pass is running
	stageQuick                         // the coarse map is drawn, the quick pass over every cell runs
	stageRefining                      // the coarse (or quick) map is drawn, the refined one fills in
	stageDone                          // the refined map is complete
	stageFailed                        // the sweep refused its base
)

// tradeoffUpdate is one hand-over from the computation to the view.
type tradeoffUpdate struct {
	job       *tradeoffJob
	stage     tradeoffStage
	cells     []widgets.HeatCell // the refined grid, coarse where not yet refined; nil: progress only
	recovery  []sweep.Cell
	recCoarse bool
	done      int // simulated runs finished (two per seed)
	total     int
	parts     int // the refined map comes in parts: its rows or columns
	partsDone int
	columns   bool          // the parts are columns
	coarseIn  time.Duration // how long the coarse pass took
	quick     int           // the quick pass's seeds a cell (MapTarget); 0 without one
	quickIn   time.Duration // when the quick pass stood complete
	elapsed   time.Duration
	err       error
}

// tradeoffRunner computes trade-off maps off the UI goroutine, one at a
// time: starting another cancels the one before, and a late result of a
// cancelled one never reaches the view.
type tradeoffRunner struct {
	// deliver runs a function on the UI goroutine (fyne.Do in the window).
	deliver func(func())
	workers int

	// gen bumps at each start and stop. Written on the UI goroutine, read
	// where deliver runs the update: the UI goroutine in the window, the
	// sweep's own goroutine under Fyne's test driver, hence atomic.
	gen    atomic.Int64
	cancel context.CancelFunc
	cost   atomic.Uint64 // float64 bits: seconds of one core per seed pair
	// since is how long a computation has run, by which its updates are
	// spaced (publishEvery): time.Since, but for a test that steps it.
	since func(start time.Time) time.Duration
}

// initialPairCost is the guess of one seed's cost before a pass has been
// timed: the slowest modes' (Redlock's five masters) order of magnitude.
const initialPairCost = 1e-3

func newTradeoffRunner(deliver func(func())) *tradeoffRunner {
	r := &tradeoffRunner{deliver: deliver, workers: runtime.GOMAXPROCS(0), since: time.Since}
	r.cost.Store(math.Float64bits(initialPairCost))
	return r
}

// pairCost is the measured seconds of one core per seed.
func (r *tradeoffRunner) pairCost() float64 { return math.Float64frombits(r.cost.Load()) }

func (r *tradeoffRunner) measured(pairs int, took time.Duration) {
	if pairs >= 20 && took > 0 {
		r.cost.Store(math.Float64bits(took.Seconds() * float64(r.workers) / float64(pairs)))
	}
}

// stop cancels the computation in progress, if any.
func (r *tradeoffRunner) stop() {
	r.gen.Add(1)
	if r.cancel != nil {
		r.cancel()
		r.cancel = nil
	}
}

// start cancels the computation in progress and begins job; apply gets
// its updates on the UI goroutine while it is still the latest. It
// returns the job's context, done when the job is cancelled.
func (r *tradeoffRunner) start(job *tradeoffJob, apply func(tradeoffUpdate)) context.Context {
	r.stop()
	gen := r.gen.Load()
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	publish := func(u tradeoffUpdate) {
		r.deliver(func() {
			if r.gen.Load() == gen && ctx.Err() == nil {
				apply(u)
			}
		})
	}
	go r.run(ctx, job, publish)
	return ctx
}

// run is the computation: the coarse pass, then the refined map a row at
// a time, publishing after each and between them as runs finish.
func (r *tradeoffRunner) run(ctx context.Context, job *tradeoffJob, publish func(tradeoffUpdate)) {
	start := time.Now()
	defer sweep.KeepGCRaised()() // the passes run one after another
	fine := job.fine
	nx, rows := len(fine.X.Values), max(1, len(fine.Y.Values))
	pairs := func(sw *sweep.Sweep) int {
		if sw == nil {
			return 0
		}
		return len(sw.X.Values) * max(1, len(sw.Y.Values)) * sw.Seeds
	}
	total := pairs(fine) + pairs(job.coarse) + pairs(job.rec) + pairs(job.recCoarse)
	chunks := refineChunks(fine)
	u := tradeoffUpdate{job: job, stage: stageCoarse, total: 2 * total, parts: len(chunks), columns: fine.Y.Field == "pause"}
	if job.coarse == nil {
		u.stage = stageRefining
	}

	var offset int
	var lastPublish atomic.Int64 // since start
	// unsent is set when the map has parts the view has not been handed:
	// the update that claims the next turn carries them, be it a part's
	// own or one of the runs' progress, which would otherwise take every
	// turn while parts are quicker than publishEvery and leave the map
	// coarse until it is complete.
	var unsent atomic.Bool
	// due claims the next update if publishEvery has passed since the last.
	due := func() (time.Duration, bool) {
		now := r.since(start)
		last := lastPublish.Load()
		return now, now-time.Duration(last) >= publishEvery && lastPublish.CompareAndSwap(last, int64(now))
	}
	// withMap is u with a copy of the map as it stands, for the view.
	withMap := func(u tradeoffUpdate) tradeoffUpdate {
		u.cells = append([]widgets.HeatCell(nil), u.cells...)
		u.recovery = append([]sweep.Cell(nil), u.recovery...)
		return u
	}
	progress := func(done, _ int) {
		now, ok := due()
		if !ok {
			return
		}
		// u changes only between passes, when no run calls this.
		p := u
		if unsent.CompareAndSwap(true, false) {
			p = withMap(u)
		} else {
			p.cells, p.recovery = nil, nil
		}
		p.done, p.elapsed = 2*(offset+done), now
		publish(p)
	}
	pass := func(sw *sweep.Sweep) ([]sweep.Cell, bool) {
		t0 := time.Now()
		cells, err := sw.Run(ctx, r.workers, progress)
		if err != nil {
			if ctx.Err() == nil {
				u.stage, u.err = stageFailed, err
				publish(u)
			}
			return nil, false
		}
		r.measured(pairs(sw), time.Since(t0))
		offset += pairs(sw)
		u.done = 2 * offset
		return cells, true
	}
	// snapshot hands over the map as it is: at once when force (a new
	// stage), else only when an update is due (the next part's snapshot
	// carries this one's cells).
	snapshot := func(force bool) {
		if force {
			lastPublish.Store(int64(r.since(start)))
		} else if _, ok := due(); !ok {
			unsent.Store(true)
			return
		}
		unsent.Store(false)
		u.elapsed = r.since(start)
		publish(withMap(u))
	}
	seal := func(sweeps ...*sweep.Sweep) {
		for _, sw := range sweeps {
			if sw != nil && sw.Runs != nil {
				sw.Runs.Seal()
			}
		}
	}
	recovery := func() {
		if job.rec == nil {
			u.recovery, u.recCoarse = recoveryFromGrid(fine.X, fine.Y, u.cells)
		}
	}

	u.cells = make([]widgets.HeatCell, nx*rows)
	sampled := false // the coarse pass measured the cost well enough to size a quick pass
	if job.coarse != nil {
		t0 := time.Now()
		cc, ok := pass(job.coarse)
		if !ok {
			return
		}
		sampled = time.Since(t0) >= minCostSample
		fillFromCoarse(u.cells, fine, job.coarse, cc)
		recovery()
		if job.recCoarse != nil {
			rc, ok := pass(job.recCoarse)
			if !ok {
				return
			}
			u.recovery, u.recCoarse = rc, true
		}
		u.coarseIn = r.since(start)
		u.stage = stageRefining
		snapshot(true)
	}
	// The quick passes: the first sized by the cost the coarse pass
	// measured, a second topping it up by the first one's own, truer
	// figure (the coarse pass's few cells weigh a map's costliest column
	// as much as the others). No third: a top-up's measured cost counts
	// the runs it took from the cache.
	first := job.quickSeeds
	if first == 0 && !sampled {
		first = -1
	}
	for quick, done, n := first, 0, 0; quick >= 0 && n < 2; quick, n = 0, n+1 {
		if quick == 0 {
			s, ok := quickPlan(nx*rows, fine.Seeds, done, MapTarget-r.since(start), r.pairCost(), r.workers)
			if !ok {
				break
			}
			quick = s
		}
		sw := &sweep.Sweep{Base: fine.Base, X: fine.X, Y: fine.Y, Seeds: quick, PauseAt: fine.PauseAt, Runs: fine.Runs}
		u.total += 2 * pairs(sw)
		u.quick, u.stage = quick, stageQuick
		cells, ok := pass(sw)
		if !ok {
			return
		}
		for i, c := range cells {
			u.cells[i] = widgets.HeatCell{Cell: c, Coarse: true}
		}
		recovery()
		u.quickIn, u.stage = r.since(start), stageRefining
		snapshot(true)
		if job.quickSeeds > 0 {
			break // as many seeds as the job was given, once
		}
		done = quick
	}
	// The refined passes take from the caches the passes before filled,
	// and keep nothing more: each of their own runs is met once.
	seal(fine, job.rec)
	if job.rec != nil {
		rc, ok := pass(job.rec)
		if !ok {
			return
		}
		u.recovery, u.recCoarse = rc, false
		snapshot(true)
	}
	for k, ch := range chunks {
		cells, ok := pass(ch.sweep)
		if !ok {
			return
		}
		for i, c := range cells {
			u.cells[ch.index(i)] = widgets.HeatCell{Cell: c}
		}
		u.partsDone = k + 1
		recovery()
		if u.partsDone == len(chunks) {
			u.stage = stageDone
		}
		snapshot(u.stage == stageDone)
	}
}

// refineChunk is one part of the refined map: a sweep over some of its
// cells, and where each of its cells goes in the map.
type refineChunk struct {
	sweep *sweep.Sweep
	index func(i int) int
}

// refineChunks cuts the refined map into parts, so it is drawn as it
// fills in: columns when the pause runs up the map (a part then holds
// every pause of its column and runs each crash run once for them all,
// see sweep.Sweep.Run), rows otherwise (a row holds every pause when the
// pause runs across).
func refineChunks(fine *sweep.Sweep) []refineChunk {
	nx := len(fine.X.Values)
	if len(fine.Y.Values) == 0 {
		return []refineChunk{{sweep: fine, index: func(i int) int { return i }}}
	}
	var out []refineChunk
	if fine.Y.Field == "pause" {
		for col := range fine.X.Values {
			sw := &sweep.Sweep{Base: fine.Base, X: sweep.Axis{Field: fine.X.Field, Values: fine.X.Values[col : col+1]}, Y: fine.Y, Seeds: fine.Seeds, PauseAt: fine.PauseAt, Runs: fine.Runs}
			out = append(out, refineChunk{sweep: sw, index: func(i int) int { return i*nx + col }})
		}
		return out
	}
	for row := range fine.Y.Values {
		sw := &sweep.Sweep{Base: fine.Base, X: fine.X, Y: sweep.Axis{Field: fine.Y.Field, Values: fine.Y.Values[row : row+1]}, Seeds: fine.Seeds, PauseAt: fine.PauseAt, Runs: fine.Runs}
		out = append(out, refineChunk{sweep: sw, index: func(i int) int { return row*nx + i }})
	}
	return out
}

// fillFromCoarse fills every cell of the refined grid with the coarse
// cell nearest to it, marked coarse.
func fillFromCoarse(dst []widgets.HeatCell, fine, coarse *sweep.Sweep, cells []sweep.Cell) {
	near := func(values []float64, v float64) int {
		best := 0
		for i, w := range values {
			if math.Abs(w-v) < math.Abs(values[best]-v) {
				best = i
			}
		}
		return best
	}
	cnx := len(coarse.X.Values)
	nx := len(fine.X.Values)
	for i := range dst {
		col, row := i%nx, i/nx
		cc := near(coarse.X.Values, fine.X.Values[col])
		cr := 0
		if len(fine.Y.Values) > 0 {
			cr = near(coarse.Y.Values, fine.Y.Values[row])
		}
		dst[i] = widgets.HeatCell{Cell: cells[cr*cnx+cc], Coarse: true}
	}
}

// String describes an update's progress for the view's status line; the
// progress bar counts the runs.
func (u tradeoffUpdate) String() string {
	fine := u.job.fine
	grid := i18n.F("tradeoff.grid", "x", len(fine.X.Values), "y", max(1, len(fine.Y.Values)), "seeds", fine.Seeds)
	coarse := ""
	if u.coarseIn > 0 {
		coarse = i18n.F("tradeoff.coarseIn", "t", roundDur(u.coarseIn))
	}
	if u.quickIn > 0 {
		coarse += i18n.F("tradeoff.quickIn", "seeds", u.quick, "t", roundDur(u.quickIn))
	}
	switch u.stage {
	case stageFailed:
		return i18n.F("tradeoff.cannot", "err", u.err.Error())
	case stageCoarse:
		return i18n.T("tradeoff.coarse")
	case stageQuick:
		return i18n.F("tradeoff.quick", "seeds", u.quick, "t", roundDur(u.elapsed), "coarse", coarse)
	case stageDone:
		return i18n.F("tradeoff.done", "grid", grid, "t", roundDur(u.elapsed), "coarse", coarse)
	}
	key := "tradeoff.refiningRow"
	if u.columns {
		key = "tradeoff.refiningColumn"
	}
	return i18n.F(key, "i", min(u.partsDone+1, u.parts), "n", u.parts, "t", roundDur(u.elapsed), "coarse", coarse)
}

// roundDur writes a wall-clock time as the widgets write times: to the
// millisecond below a second, to a tenth of a second above.
func roundDur(d time.Duration) string {
	if d < time.Second {
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return fmt.Sprintf("%.1f s", d.Seconds())
}
