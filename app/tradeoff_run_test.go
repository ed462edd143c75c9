package app

import (
	"context"
	"math"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/sweep"
	"github.com/lockscope/lockscope/widgets/designtab"
)

// uiQueue stands in for fyne.Do: the computation hands its functions
// over, and the test runs them on its own goroutine, as the window's
// event loop would.
type uiQueue chan func()

func (q uiQueue) deliver(f func()) { q <- f }

// pumpUntil runs handed-over functions until done holds.
func (q uiQueue) pumpUntil(t *testing.T, done func() bool) {
	t.Helper()
	deadline := time.After(60 * time.Second)
	for !done() {
		select {
		case f := <-q:
			f()
		case <-deadline:
			t.Fatal("the trade-off computation did not finish in 60 s")
		}
	}
}

func parseAxis(t *testing.T, spec string) sweep.Axis {
	t.Helper()
	a, err := sweep.ParseAxis(spec)
	require.NoError(t, err)
	return a
}

// smallAxes is a grid small enough for a test, over the same fields.
func smallAxes(field string) sweep.Axis {
	specs := map[string]string{"ttl": "ttl=2s:10s:5", "pause": "pause=0s:12s:4", "work": "work=0s:8s:3",
		"latency": "latency=0ms:100ms:3", "clockDrift": "clockDrift=0:0.1:3", "clients": "clients=1:4:4", "nodes": "nodes=1:5:3"}
	a, err := sweep.ParseAxis(specs[field])
	if err != nil {
		panic(err)
	}
	return a
}

func TestTradeoffAxesParse(t *testing.T) {
	for _, f := range sim.SweepFields() {
		a := tradeoffAxis(f)
		assert.Equal(t, f, a.Field)
		assert.NotEmpty(t, a.Values)
	}
	assert.Len(t, tradeoffAxis("ttl").Values, 30, "the default grid is 30 ttl …")
	assert.Len(t, tradeoffAxis("pause").Values, 21, "… by 21 pauses")
	assert.NotContains(t, tradeoffFields("redis"), "nodes", "a Redis tab has one server")
	assert.Contains(t, tradeoffFields("redlock"), "nodes")
	assert.Equal(t, "session timeout", fieldName("zookeeper", "ttl"))
	assert.Equal(t, "masters", fieldName("redlock", "nodes"))
}

func TestTradeoffBaseTakesTheSliders(t *testing.T) {
	sc, err := Preset("redis-gc-pause")
	require.NoError(t, err)
	setOption(sc, "watchdog", true)
	sc.Latency = sim.Duration(7 * time.Millisecond)
	ttl, pause := tradeoffAxis("ttl"), tradeoffAxis("pause")

	base, err := tradeoffBase(sc, ttl, pause, sweep.PauseBeforeWrite)
	require.NoError(t, err)
	assert.Equal(t, sc.Work, base.Work)
	assert.Equal(t, sc.Clients, base.Clients)
	assert.Equal(t, sc.Latency, base.Latency)
	assert.True(t, isOn(base, "watchdog"))
	assert.Equal(t, 1, base.Rounds, "one round each, as sim.SweepBase")
	assert.Zero(t, base.Tries, "clients keep asking, so recovery is measured")
	assert.Empty(t, base.Faults, "the pause is the map's axis; the scenario's faults stay out")
	assert.Equal(t, sim.Duration(time.Second), base.TTL, "an axis' field takes its first value …")
	moved := sc.Clone()
	moved.TTL = sim.Duration(25 * time.Second)
	again, err := tradeoffBase(moved, ttl, pause, sweep.PauseBeforeWrite)
	require.NoError(t, err)
	assert.Equal(t, base, again, "… so a slider along an axis keeps the map")

	// Without a pause axis the scenario's pause goes where the sweep puts
	// its own: by default just before client-1 sends its write …
	work := tradeoffAxis("work")
	base, err = tradeoffBase(sc, ttl, work, sweep.PauseBeforeWrite)
	require.NoError(t, err)
	require.Len(t, base.Faults, 1)
	f := base.Faults[0]
	assert.Equal(t, "client-1", f.Pause)
	assert.Equal(t, sim.Duration(15*time.Second), f.For)
	assert.Equal(t, sim.StepBeforeWrite, f.When, "tied to client-1's step, as sweep --pause-at before-write")
	assert.Zero(t, f.At)
	assert.GreaterOrEqual(t, base.Duration.D(), 60*time.Second)
	require.NoError(t, base.Validate())

	desc := describeBase(designtab.Tabs()[0], base, ttl, work, TradeoffSeeds, sweep.PauseBeforeWrite)
	for _, s := range []string{"50 seeds of redis", "2 clients", "latency 7 ms", "Watchdog on", "Fencing off",
		"pauses for 15 s (the Pause slider) just before it sends its write, after its last check (Pause at: before the write)"} {
		assert.Contains(t, desc, s)
	}
	assert.NotContains(t, desc, "checkValidity", "said only when on, and only Redlock reads it")

	// … or halfway through its work, with mid-work.
	base, err = tradeoffBase(sc, ttl, work, sweep.PauseMidWork)
	require.NoError(t, err)
	require.Len(t, base.Faults, 1)
	f = base.Faults[0]
	assert.Empty(t, f.When)
	assert.Equal(t, sim.Duration(2*7*time.Millisecond), f.At, "work is the axis: its first value, 0 s, halves to 0")
	assert.Contains(t, describeBase(designtab.Tabs()[0], base, ttl, work, TradeoffSeeds, sweep.PauseMidWork),
		"pauses for 15 s (the Pause slider) halfway through its work, before its last check (Pause at: mid-work)")

	// A Redlock scenario with checkValidity says so under the map.
	rl, err := Preset("redlock-check-then-pause")
	require.NoError(t, err)
	require.True(t, isOn(rl, "checkValidity"))
	base, err = tradeoffBase(rl, ttl, tradeoffAxis("pause"), sweep.PauseBeforeWrite)
	require.NoError(t, err)
	assert.True(t, isOn(base, "checkValidity"))
	redlockTab, ok := tabFor("redlock")
	require.True(t, ok)
	assert.Contains(t, describeBase(redlockTab, base, ttl, tradeoffAxis("pause"), TradeoffSeeds, sweep.PauseBeforeWrite),
		"checkValidity on")
}

func TestCoarsePlanFitsTheBudget(t *testing.T) {
	kx, ky, s, ok := coarsePlan(30, 21, 50, 600)
	require.True(t, ok)
	assert.Equal(t, coarseSeeds, s)
	assert.InDelta(t, 600, kx*ky*s, 200, "about the budget: %d×%d×%d", kx, ky, s)
	assert.InDelta(t, 30.0/21, float64(kx)/float64(ky), 0.5, "the grid keeps its shape")
	_, _, _, ok = coarsePlan(5, 4, 4, 600)
	assert.False(t, ok, "a grid within the budget needs no coarse pass")
	kx, ky, _, ok = coarsePlan(30, 0, 50, 10)
	require.True(t, ok)
	assert.Equal(t, 4, kx, "one row: the cells all go along it")
	assert.Zero(t, ky)

	ttl := tradeoffAxis("ttl")
	sub := subsample(ttl, 4)
	assert.Equal(t, []float64{1000, 11000, 20000, 30000}, sub.Values, "both ends kept")
}

func TestQuickPlanFitsTheTarget(t *testing.T) {
	// The Kubernetes tab's map as measured here: 630 cells of 50 seeds,
	// 0.4 ms of one core a seed, two cores: 6.3 s refined.
	s, ok := quickPlan(30*21, 50, 0, 1900*time.Millisecond, 4e-4, 2)
	require.True(t, ok)
	assert.Equal(t, 12, s)
	assert.LessOrEqual(t, float64(30*21*s)*4e-4/2, 1.9, "the quick pass stands within the time left")
	s, ok = quickPlan(30*21, 50, 4, 1200*time.Millisecond, 4e-4, 2)
	require.True(t, ok)
	assert.Equal(t, 11, s, "a top-up adds what the time left holds to the seeds already made")
	_, ok = quickPlan(30*21, 50, 0, 1900*time.Millisecond, 3e-5, 2)
	assert.False(t, ok, "the Redis map, 0.5 s refined, needs none")
	_, ok = quickPlan(30*21, 50, 0, 1900*time.Millisecond, 1.5e-4, 2)
	assert.False(t, ok, "2.4 s refined: a quick pass of 28 seeds would save little")
	_, ok = quickPlan(30*21, 50, 0, 1900*time.Millisecond, 3e-3, 2)
	assert.False(t, ok, "under two seeds a cell in the time left: no quick pass")
	_, ok = quickPlan(30*21, 50, 11, 100*time.Millisecond, 4e-4, 2)
	assert.False(t, ok, "no time left: no top-up")
}

// TestTradeoffQuickPassStandsOnEveryCell: with a quick pass, the map
// stands at every point of its grid, over that pass's seeds, before the
// refined map fills in; the refined map is still the sweep's own.
func TestTradeoffQuickPassStandsOnEveryCell(t *testing.T) {
	base, err := sweep.Base("redis")
	require.NoError(t, err)
	x, y := parseAxis(t, "ttl=1s:6s:6"), parseAxis(t, "pause=0s:6s:4")
	q := make(uiQueue, 1024)
	r := newTradeoffRunner(q.deliver)
	job := coarseFirst(t, r, base, x, y, sweep.PauseBeforeWrite)
	job.quickSeeds = 2

	maps := withMaps(runJob(t, r, q, job))
	require.GreaterOrEqual(t, len(maps), 3)
	quick := maps[1]
	assert.Equal(t, stageRefining, quick.stage)
	assert.Zero(t, quick.partsDone)
	for i, c := range quick.cells {
		assert.True(t, c.Coarse, "cell %d is hatched until refined", i)
		assert.Equal(t, 2, c.Runs, "cell %d: the quick pass's seeds", i)
		assert.Equal(t, x.Values[i%len(x.Values)], c.X, "cell %d is its own point, not the nearest coarse one", i)
		assert.Equal(t, y.Values[i/len(x.Values)], c.Y)
	}
	assert.Contains(t, quick.String(), "every cell at 2 seeds in")

	assertTheSweepsMap(t, maps[len(maps)-1], &sweep.Sweep{Base: base, X: x, Y: y, Seeds: 6, PauseAt: sweep.PauseBeforeWrite})
}

// coarseFirst is the job of a 6-seed map of x × y with its pause at
// pauseAt and ttl along x, at a pair cost that makes the coarse budget 40
// seeds: a coarse pass comes first.
func coarseFirst(t *testing.T, r *tradeoffRunner, base *sim.Scenario, x, y sweep.Axis, pauseAt string) *tradeoffJob {
	t.Helper()
	job, err := newTradeoffJob(base, x, y, 6, pauseAt, x, CoarseBudget.Seconds()*float64(r.workers)/40, r.workers)
	require.NoError(t, err)
	require.NotNil(t, job.coarse)
	return job
}

// withMaps keeps the updates that hand the view a map.
func withMaps(ups []tradeoffUpdate) []tradeoffUpdate {
	var out []tradeoffUpdate
	for _, u := range ups {
		if u.cells != nil {
			out = append(out, u)
		}
	}
	return out
}

// assertTheSweepsMap holds the last update's map to sw's own cells, none
// of them hatched, and its count of runs to its total; it returns the cells.
func assertTheSweepsMap(t *testing.T, last tradeoffUpdate, sw *sweep.Sweep) []sweep.Cell {
	t.Helper()
	want, err := sw.Run(context.Background(), 1, nil)
	require.NoError(t, err)
	require.Len(t, last.cells, len(want))
	for i, c := range last.cells {
		assert.False(t, c.Coarse)
		assert.Equal(t, want[i], c.Cell, "cell %d", i)
	}
	assert.Equal(t, last.total, last.done)
	return want
}

// runJob runs a job to completion through a queue and returns every
// update applied.
func runJob(t *testing.T, r *tradeoffRunner, q uiQueue, job *tradeoffJob) []tradeoffUpdate {
	t.Helper()
	var got []tradeoffUpdate
	r.start(job, func(u tradeoffUpdate) { got = append(got, u) })
	q.pumpUntil(t, func() bool { return len(got) > 0 && got[len(got)-1].stage == stageDone })
	return got
}

// TestTradeoffMatchesSweep: the map the view shows, computed coarse first
// and then a row at a time, has exactly sweep.Sweep's numbers for the grid,
// with the pause where the map says (sweep --pause-at). A Redis client
// checks nothing before its write, so a pause anywhere in the work delays
// the write alike: the two maps are the same (Redlock's checkValidity
// tells them apart, TestTradeoffViewPausesWhereItIsTold).
func TestTradeoffMatchesSweep(t *testing.T) {
	var maps [][]sweep.Cell
	for _, at := range sweep.PauseAts {
		maps = append(maps, tradeoffMatchesSweep(t, at))
	}
	assert.Equal(t, maps[0], maps[1])
}

func tradeoffMatchesSweep(t *testing.T, pauseAt string) []sweep.Cell {
	base, err := sweep.Base("redis")
	require.NoError(t, err)
	x, y := parseAxis(t, "ttl=1s:6s:6"), parseAxis(t, "pause=0s:6s:4")
	q := make(uiQueue, 1024)
	r := newTradeoffRunner(q.deliver)
	job := coarseFirst(t, r, base, x, y, pauseAt)
	assert.Equal(t, pauseAt, job.coarse.PauseAt, "the coarse pass pauses where the map does")
	assert.Nil(t, job.rec, "ttl × pause carries its own recovery")

	cells := withMaps(runJob(t, r, q, job))
	require.GreaterOrEqual(t, len(cells), 2)
	first := cells[0]
	assert.Equal(t, stageRefining, first.stage)
	assert.Positive(t, first.coarseIn)
	for _, c := range first.cells {
		assert.True(t, c.Coarse, "the first map is the coarse pass")
		assert.Equal(t, job.coarse.Seeds, c.Runs)
	}

	last := cells[len(cells)-1]
	want := assertTheSweepsMap(t, last, &sweep.Sweep{Base: base, X: x, Y: y, Seeds: 6, PauseAt: pauseAt})
	assert.Equal(t, want[:len(x.Values)], last.recovery, "recovery along ttl is the pause-0 row")
	assert.Equal(t, len(x.Values), last.partsDone, "refined a column at a time: each column shares its crash runs")
	assert.True(t, last.columns)
	assert.Contains(t, last.String(), "6×4×6 seeds done in")
	assert.Contains(t, last.String(), "coarse map in")
	return want
}

// TestTradeoffHandsOverEveryPartItCounts: an update never counts a part
// of the refined map the view has not been given. The runs' progress and
// the parts' maps share one turn every publishEvery; when the parts are
// quicker than that, progress took every turn and the map stayed coarse
// until it was complete (the Kubernetes tab's map, 30 columns in 6 s,
// showed none of them before the end). A clock that steps 100 ms at each
// reading, on one worker, makes the turns fall the same way every time.
func TestTradeoffHandsOverEveryPartItCounts(t *testing.T) {
	base, err := sweep.Base("redis")
	require.NoError(t, err)
	q := make(uiQueue, 1024)
	r := newTradeoffRunner(q.deliver)
	r.workers = 1
	var readings atomic.Int64
	r.since = func(time.Time) time.Duration { return time.Duration(readings.Add(1)) * 100 * time.Millisecond }
	job, err := newTradeoffJob(base, parseAxis(t, "ttl=1s:6s:6"), parseAxis(t, "pause=0s:6s:4"), 4, sweep.PauseBeforeWrite, tradeoffAxis("ttl"), 1e-9, r.workers)
	require.NoError(t, err)
	require.Nil(t, job.coarse, "at this cost the refined map needs no coarse pass")

	ups := runJob(t, r, q, job)
	shown, withMap := 0, 0
	for i, u := range ups {
		if u.cells != nil {
			shown = u.partsDone
			withMap++
			for k, c := range u.cells {
				col := k % len(job.fine.X.Values)
				assert.Equal(t, col >= shown, c.Runs == 0, "update %d, cell %d: refined exactly when its column is counted", i, k)
			}
		}
		assert.LessOrEqual(t, u.partsDone, shown, "update %d counts %d parts; the view was given %d", i, u.partsDone, shown)
	}
	assert.Greater(t, withMap, 2, "the map is handed over part by part, not only at the end")
}

func TestTradeoffSeparateRecoverySweep(t *testing.T) {
	base, err := sweep.Base("redis")
	require.NoError(t, err)
	x, y, ttl := parseAxis(t, "ttl=2s:6s:3"), parseAxis(t, "work=1s:3s:2"), parseAxis(t, "ttl=2s:8s:4")
	q := make(uiQueue, 1024)
	r := newTradeoffRunner(q.deliver)
	job, err := newTradeoffJob(base, x, y, 3, sweep.PauseBeforeWrite, ttl, 1, r.workers)
	require.NoError(t, err)
	require.NotNil(t, job.rec, "ttl × work: recovery depends on the work, so it gets its own sweep at the base")
	ups := runJob(t, r, q, job)
	last := ups[len(ups)-1]
	want, err := job.rec.Run(context.Background(), 1, nil)
	require.NoError(t, err)
	assert.Equal(t, want, last.recovery)
	assert.False(t, last.recCoarse)
}

// TestTradeoffCancelsStaleWork: starting a map cancels the one before; no
// late result of the old one reaches the view.
func TestTradeoffCancelsStaleWork(t *testing.T) {
	base, err := sweep.Base("redis")
	require.NoError(t, err)
	q := make(uiQueue, 1024)
	r := newTradeoffRunner(q.deliver)
	big, err := newTradeoffJob(base, tradeoffAxis("ttl"), tradeoffAxis("pause"), TradeoffSeeds, sweep.PauseBeforeWrite, tradeoffAxis("ttl"), 1e-3, r.workers)
	require.NoError(t, err)
	var stale []tradeoffUpdate
	oldCtx := r.start(big, func(u tradeoffUpdate) { stale = append(stale, u) })
	time.Sleep(20 * time.Millisecond) // let it get going

	small, err := newTradeoffJob(base, parseAxis(t, "ttl=2s:4s:2"), parseAxis(t, "pause=0s:4s:2"), 2, sweep.PauseBeforeWrite, tradeoffAxis("ttl"), 1e-3, r.workers)
	require.NoError(t, err)
	var fresh []tradeoffUpdate
	r.start(small, func(u tradeoffUpdate) { fresh = append(fresh, u) })
	assert.ErrorIs(t, oldCtx.Err(), context.Canceled, "the old map's work is cancelled")
	staleBefore := len(stale)
	q.pumpUntil(t, func() bool { return len(fresh) > 0 && fresh[len(fresh)-1].stage == stageDone })
	// Drain what the cancelled job had queued before it stopped.
	for len(q) > 0 {
		(<-q)()
	}
	assert.Equal(t, staleBefore, len(stale), "nothing of the old map is applied after the new one started")
	for _, u := range fresh {
		assert.Same(t, small, u.job)
	}
	for _, u := range stale {
		assert.NotEqual(t, stageDone, u.stage, "the old map never completed")
	}
}

// BenchmarkTradeoffCoarsePass is the first pass the map draws while a
// slider is dragged, sized as the view sizes it after timing a pass: its
// target is CoarseBudget.
func BenchmarkTradeoffCoarsePass(b *testing.B) {
	base, err := sweep.Base("redis")
	if err != nil {
		b.Fatal(err)
	}
	r := newTradeoffRunner(func(func()) {})
	ttl, pause := tradeoffAxis("ttl"), tradeoffAxis("pause")
	calibrate := &sweep.Sweep{Base: base, X: subsample(ttl, 10), Y: subsample(pause, 7), Seeds: 3}
	start := time.Now()
	if _, err := calibrate.Run(context.Background(), r.workers, nil); err != nil {
		b.Fatal(err)
	}
	r.measured(10*7*3, time.Since(start))
	job, err := newTradeoffJob(base, ttl, pause, TradeoffSeeds, sweep.PauseBeforeWrite, ttl, r.pairCost(), r.workers)
	if err != nil || job.coarse == nil {
		b.Fatal("no coarse pass planned", err)
	}
	for b.Loop() {
		if _, err := job.coarse.Run(context.Background(), r.workers, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(job.coarse.X.Values)*len(job.coarse.Y.Values)*job.coarse.Seeds), "seeds")
}

// The map runs what the tab shows: every toggle of every tab, flipped, is
// the same in the map's base (and so in the words under the map), and so
// is every slider that is not on an axis.
func TestTradeoffBaseKeepsEveryControl(t *testing.T) {
	x, y := tradeoffAxis("clients"), tradeoffAxis("latency")
	for _, tab := range designtab.Tabs() {
		sc, err := Preset(tab.Preset)
		require.NoError(t, err)
		for _, key := range tab.Toggles {
			tg := tab.Toggle(key)
			c := sc.Clone()
			tg.Apply(c, !tg.Value(c))
			if c.Validate() != nil {
				continue // a toggle the scenario refuses (Redlock's fencing)
			}
			base, err := tradeoffBase(c, x, y, sweep.PauseBeforeWrite)
			require.NoError(t, err)
			assert.Equal(t, tg.Value(c), tg.Value(base), "%s: %s", tab.Mode, key)
		}
		for _, key := range tab.Sliders {
			s := tab.Slider(key)
			if key == "clients" || strings.HasSuffix(strings.ToLower(key), "latency") {
				continue // the map's axes
			}
			c := sc.Clone()
			if v, ok := s.Value(c); ok {
				s.Apply(c, math.Min(s.Max, v+s.Step))
			}
			if c.Validate() != nil {
				continue
			}
			base, err := tradeoffBase(c, x, y, sweep.PauseBeforeWrite)
			require.NoError(t, err)
			want, wok := s.Value(c)
			got, gok := s.Value(base)
			assert.Equal(t, wok, gok, "%s: %s", tab.Mode, key)
			assert.Equal(t, want, got, "%s: %s", tab.Mode, key)
		}
	}
}

// BenchmarkTradeoffDefaultMap times each tab's default map as the window
// computes it (the coarse pass, then the refined map a column at a time,
// every update handed over and dropped) against the same refined grid in
// one sweep.Sweep.Run, as `lockscope sweep` runs it: what the window's
// computation adds, apart from its drawing.
func BenchmarkTradeoffDefaultMap(b *testing.B) {
	x, y := tradeoffAxis("ttl"), tradeoffAxis("pause")
	at := sweep.PauseAts[0]
	for _, tab := range designtab.Tabs() {
		sc, err := Preset(tab.Preset)
		require.NoError(b, err)
		base, err := tradeoffBase(sc, x, y, at)
		require.NoError(b, err)
		b.Run(tab.Mode+"/window", func(b *testing.B) {
			for b.Loop() {
				r := newTradeoffRunner(func(f func()) { f() })
				job, err := newTradeoffJob(base, x, y, TradeoffSeeds, at, x, r.pairCost(), r.workers)
				require.NoError(b, err)
				done := make(chan struct{})
				r.start(job, func(u tradeoffUpdate) {
					if u.stage == stageDone || u.stage == stageFailed {
						close(done)
					}
				})
				<-done
			}
		})
		b.Run(tab.Mode+"/sweep", func(b *testing.B) {
			for b.Loop() {
				sw := &sweep.Sweep{Base: base, X: x, Y: y, Seeds: TradeoffSeeds, PauseAt: at}
				_, err := sw.Run(context.Background(), 0, nil)
				require.NoError(b, err)
			}
		})
	}
}
