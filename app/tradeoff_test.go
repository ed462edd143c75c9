package app

import (
	"context"
	"math"
	"strconv"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/sweep"
	"github.com/lockscope/lockscope/widgets"
	"github.com/lockscope/lockscope/widgets/designtab"
)

// tradeoffWindow opens the window with the Redis tab's map on a small grid
// and its hand-overs under the test's control.
func tradeoffWindow(t *testing.T) (*Window, *tabView, uiQueue) {
	return tradeoffWindowOn(t, "redis", "redis-gc-pause")
}

// tradeoffWindowOn is tradeoffWindow with a mode's tab and a preset.
func tradeoffWindowOn(t *testing.T, mode, preset string) (*Window, *tabView, uiQueue) {
	t.Helper()
	a := test.NewTempApp(t)
	w := NewWindow(a)
	t.Cleanup(w.Close)
	v := w.tab(mode)
	require.NotNil(t, v)
	require.NoError(t, v.ctl.LoadPreset(preset))
	v.showRun()
	q := make(uiQueue, 4096)
	v.tradeoff.runner.deliver = q.deliver
	v.tradeoff.axis = smallAxes
	v.tradeoff.seeds = 6
	return w, v, q
}

func TestTradeoffViewShowsTheSweepAndOpensAnUnsafeRun(t *testing.T) {
	_, v, q := tradeoffWindow(t)
	to := v.tradeoff
	assert.False(t, to.content.Visible())
	assert.Nil(t, to.job, "a hidden map computes nothing")

	to.button.OnTapped()
	require.True(t, to.shown)
	assert.True(t, to.content.Visible())
	assert.False(t, v.pics.Content().Visible(), "the map takes the run's place")
	assert.Equal(t, "Run view", to.button.Text)
	require.NotNil(t, to.job)
	q.pumpUntil(t, func() bool { return to.last.stage == stageDone })

	// The numbers on show are sweep.Sweep's for the same grid and base.
	want, err := (&sweep.Sweep{Base: to.job.fine.Base, X: smallAxes("ttl"), Y: smallAxes("pause"), Seeds: 6}).Run(context.Background(), 1, nil)
	require.NoError(t, err)
	got := to.heat.Cells()
	require.Len(t, got, len(want))
	for i := range want {
		assert.Equal(t, want[i], got[i].Cell)
	}
	assert.Contains(t, to.about.Text, "6 seeds of redis")
	assert.Contains(t, to.about.Text, "work 5 s")
	assert.Equal(t, 1.0, to.progress.Value)
	// With 5 s of work, a 2 s TTL has run out before the crash at 2.5 s:
	// client-2 already holds the lock, nobody waits, recovery is 0 — a
	// point on the chart, not a run censored at the end.
	assert.Len(t, to.chart.Points(), len(smallAxes("ttl").Values))
	assert.Equal(t, 2000.0, to.chart.Points()[0].X)
	assert.Zero(t, to.chart.Points()[0].RecoveryMeanMs)
	assert.Empty(t, got[0].NoRecovery)
	assert.Empty(t, got[1].NoRecovery)

	// The crosshair stands at the sliders: TTL 10 s, the 15 s pause.
	cx, xok, cy, yok := to.heat.Crosshair()
	assert.Equal(t, []any{10000.0, true, 15000.0, true}, []any{cx, xok, cy, yok})

	// A click on a partly unsafe cell opens the run of its unsafe seed.
	idx := -1
	for i, c := range got {
		if c.UnsafeRate > 0 && (idx < 0 || c.UnsafeRate < got[idx].UnsafeRate) {
			idx = i
		}
	}
	require.GreaterOrEqual(t, idx, 0, "the grid has an unsafe cell")
	cell := got[idx]
	hint := to.hint(cell)
	assert.Contains(t, hint, "an unsafe run")
	pos, size := to.heat.CellRect(idx)
	to.heat.Tapped(&fyne.PointEvent{Position: pos.AddXY(size.Width/2, size.Height/2)})

	assert.False(t, to.shown, "the tab is back on its run")
	assert.True(t, v.pics.Content().Visible())
	sc := v.ctl.Scenario()
	wantSc := to.job.fine.CellScenario(cell.X, cell.Y, cell.UnsafeSeed, false)
	assert.Equal(t, cell.UnsafeSeed, sc.Seed)
	sc2 := sc.Clone()
	sc2.Name, sc2.NameZh, sc2.Captions = wantSc.Name, wantSc.NameZh, wantSc.Captions
	assert.Equal(t, wantSc, sc2)
	assert.Contains(t, sc.Captions[0].Text, "took a stale write")
	assert.Equal(t, OriginTradeoff, v.ctl.Origin())
	assert.Equal(t, "Trade-off map: TTL 2 s, pause of the holder 0 s, seed 1", sc.Name)
	assert.Equal(t, "权衡图：TTL 2 s，持有者的暂停 0 s，种子 1", sc.NameZh, "a generated name is written in both languages")
	s, err := sim.New(sc)
	require.NoError(t, err)
	assert.False(t, s.Run().Safe, "the run opened is one of the unsafe ones")
}

func TestTradeoffViewFollowsTheSliders(t *testing.T) {
	_, v, q := tradeoffWindow(t)
	to := v.tradeoff
	to.setShown(true)
	q.pumpUntil(t, func() bool { return to.last.stage == stageDone })
	job := to.job

	// TTL is an axis: the crosshair moves, the map stays.
	ttl := v.controls.sliders[0]
	require.Equal(t, "ttl", ttl.spec.Key)
	ttl.set(6)
	assert.Same(t, job, to.job, "moving along an axis recomputes nothing")
	cx, _, _, _ := to.heat.Crosshair()
	assert.Equal(t, 6000.0, cx)
	cur, _ := to.chart.Cursor()
	assert.Equal(t, 6000.0, cur)

	// Work is not: the map starts again, coarse first, and the old
	// computation is cancelled.
	var work *sliderControl
	for _, s := range v.controls.sliders {
		if s.spec.Key == "work" {
			work = s
		}
	}
	require.NotNil(t, work)
	work.set(3)
	require.NotSame(t, job, to.job)
	assert.Equal(t, sim.Duration(3*time.Second), to.job.fine.Base.Work)
	for _, c := range to.heat.Cells() {
		assert.True(t, c.Coarse, "the old map is hatched until the new one lands")
	}
	q.pumpUntil(t, func() bool { return to.last.stage == stageDone })
	assert.Contains(t, to.about.Text, "work 3 s")

	// Hidden, the map does not compute for a changed base.
	to.setShown(false)
	work.set(4)
	assert.Equal(t, sim.Duration(3*time.Second), to.job.fine.Base.Work, "a finished map waits to be shown")
	to.setShown(true)
	assert.Equal(t, sim.Duration(4*time.Second), to.job.fine.Base.Work, "shown, it catches up")
	q.pumpUntil(t, func() bool { return to.last.stage == stageDone })

	// Axes: picking the other axis' field swaps them.
	to.xSel.SetSelected(fieldName("redis", "pause"))
	assert.Equal(t, "pause", to.xField)
	assert.Equal(t, "ttl", to.yField)
	q.pumpUntil(t, func() bool { return to.last.stage == stageDone })
	assert.Nil(t, to.job.rec, "pause × ttl still carries its recovery")
	assert.NotEmpty(t, to.chart.Points())
}

// TestTradeoffViewPausesWhereItIsTold: the map offers sweep --pause-at's
// two moments, before the write by default; picking the other recomputes
// the map, which is then sweep.Sweep's with that PauseAt, and the words
// under the map say which one is shown. With checkValidity a Redlock
// holder paused mid-work sees its validity gone and skips its write; paused
// before the write, after its look, it writes late.
func TestTradeoffViewPausesWhereItIsTold(t *testing.T) {
	_, v, q := tradeoffWindowOn(t, "redlock", "redlock-check-then-pause")
	to := v.tradeoff
	assert.Equal(t, []string{"before the write", "mid-work"}, to.pauseSel.Options)
	assert.Equal(t, "before the write", to.pauseSel.Selected)
	to.setShown(true)
	q.pumpUntil(t, func() bool { return to.last.stage == stageDone })
	before, beforeCells := to.job, to.heat.Cells()
	assert.Equal(t, sweep.PauseBeforeWrite, before.fine.PauseAt)
	assert.Contains(t, to.about.Text, "just before it sends its write, after its last check (Pause at: before the write)")

	to.pauseSel.SetSelected("mid-work")
	require.NotSame(t, before, to.job, "another moment is another map")
	assert.Equal(t, sweep.PauseMidWork, to.pauseAt)
	assert.Equal(t, sweep.PauseMidWork, to.job.fine.PauseAt)
	assert.Contains(t, to.about.Text, "halfway through its work, before its last check (Pause at: mid-work)")
	assert.NotContains(t, to.about.Text, "before the write")
	q.pumpUntil(t, func() bool { return to.last.stage == stageDone })

	want, err := (&sweep.Sweep{Base: to.job.fine.Base, X: smallAxes("ttl"), Y: smallAxes("pause"), Seeds: 6,
		PauseAt: sweep.PauseMidWork}).Run(context.Background(), 1, nil)
	require.NoError(t, err)
	got := to.heat.Cells()
	require.Len(t, got, len(want))
	for i := range want {
		assert.Equal(t, want[i], got[i].Cell)
	}
	unsafe := func(cells []widgets.HeatCell) (n int) {
		for _, c := range cells {
			n += int(math.Round(c.UnsafeRate * float64(c.Runs)))
		}
		return n
	}
	assert.Positive(t, unsafe(beforeCells), "paused after its look, the holder writes late")
	assert.Zero(t, unsafe(got), "paused mid-work, it looks after the pause and does not write")

	// A click opens a run paused the way the map shows: halfway through
	// the work, at an instant, not at client-1's step.
	idx := -1
	for i, c := range got {
		if c.Y > 0 {
			idx = i
			break
		}
	}
	require.GreaterOrEqual(t, idx, 0, "the map has a paused cell")
	to.open(got[idx])
	sc := v.ctl.Scenario()
	require.Len(t, sc.Faults, 1)
	assert.Empty(t, sc.Faults[0].When)
	assert.Positive(t, sc.Faults[0].At.D())

	// Back to before the write: the first map's key again.
	to.setShown(true)
	to.pauseSel.SetSelected("before the write")
	assert.Equal(t, before.key, to.job.key)
}

func TestTradeoffPauseAtIsSaidInChinese(t *testing.T) {
	i18n.Set(i18n.Chinese)
	t.Cleanup(func() { i18n.Set(i18n.English) })
	assert.Equal(t, "写入前", pauseAtName(sweep.PauseBeforeWrite))
	assert.Equal(t, "工作进行到一半时", pauseAtName(sweep.PauseMidWork))
	base, err := sweep.Base("redis")
	require.NoError(t, err)
	for at, want := range map[string]string{sweep.PauseBeforeWrite: "暂停时机：写入前", sweep.PauseMidWork: "暂停时机：工作进行到一半时"} {
		assert.Contains(t, describeBase(designtab.Tabs()[0], base, smallAxes("ttl"), smallAxes("pause"), 6, at), want)
	}
}

// The map's status ("30×21×50 seeds done in 2.6 s · coarse map in 26 ms")
// is never cut with "…" where the window has the room for it: at 1024 and
// 1366 points, in both languages, it is as wide as its text, on a row of
// its own when the choices leave too little beside them.
func TestTradeoffStatusIsWhole(t *testing.T) {
	w := layoutWindow(t)
	for _, l := range i18n.Langs {
		w.SetLanguage(l)
		quietMaps(w)
		for i, v := range w.tabs {
			to := v.tradeoff
			w.appTabs.SelectIndex(i)
			to.setShown(true)
			grid := i18n.F("tradeoff.grid", "x", 30, "y", 21, "seeds", 50) // the default map's
			to.state.SetText(i18n.F("tradeoff.done", "grid", grid, "t", "2.6 s", "coarse", i18n.F("tradeoff.coarseIn", "t", "26 ms")))
			for _, width := range []float32{1024, 1366, 1920} {
				layOut(w, fyne.NewSize(width, 768))
				text := fyne.MeasureText(to.state.Text, theme.TextSize(), to.state.TextStyle).Width
				assert.GreaterOrEqual(t, to.state.Size().Width, text+2*theme.InnerPadding()-0.5,
					"%s %s at %v: %q is whole", l, v.spec.Mode, width, to.state.Text)
			}
			to.setShown(false)
		}
	}
}

// The colour shows the price of safety too: throughput and the p99 wait
// beside the unsafe runs, named in both languages, and clients is an axis.
func TestTradeoffColoursShowThePriceOfSafety(t *testing.T) {
	_, v, q := tradeoffWindow(t)
	to := v.tradeoff
	assert.Equal(t, []string{"unsafe runs", "runs with 2 holders", "throughput", "p99 wait"}, to.colour.Options)
	assert.Contains(t, to.xSel.Options, fieldName("redis", "clients"))
	to.button.OnTapped()
	q.pumpUntil(t, func() bool { return to.last.stage == stageDone })
	cells := to.heat.Cells()
	require.NotEmpty(t, cells)

	for _, tc := range []struct {
		name   string
		metric widgets.HeatMetric
		value  func(sweep.Cell) float64
	}{
		{"throughput", widgets.MetricThroughput, func(c sweep.Cell) float64 { return c.Throughput }},
		{"p99 wait", widgets.MetricWaitP99, func(c sweep.Cell) float64 { return c.WaitP99Ms }},
		{"unsafe runs", widgets.MetricUnsafe, func(c sweep.Cell) float64 { return c.UnsafeRate }},
	} {
		to.colour.SetSelected(tc.name)
		require.Equal(t, tc.metric, to.heat.Metric(), tc.name)
		top := 0.0
		for _, c := range cells {
			top = max(top, tc.value(c.Cell))
		}
		if tc.metric.IsShare() {
			top = 1
		}
		require.Positive(t, top, tc.name)
		assert.Equal(t, top, to.heat.Top(), "%s: the ramp's top is the grid's highest", tc.name)
		for _, c := range cells {
			assert.InDelta(t, tc.value(c.Cell)/top, to.heat.Level(c.Cell), 1e-12, tc.name)
		}
		assert.Equal(t, tc.name, tc.metric.LegendFor(false))
		assert.Equal(t, heatTitle(tc.metric), to.heatPanel.Title, tc.name)
	}
	assert.Contains(t, i18n.T(heatTitle(widgets.MetricWaitP99)), "price of safety")
	// The longest pause costs throughput: at each TTL, fewer grants a second
	// with a 12 s pause than with none (the grid runs x first, pause up).
	nx := len(smallAxes("ttl").Values)
	for i := 0; i < nx; i++ {
		assert.Less(t, cells[len(cells)-nx+i].Throughput, cells[i].Throughput, "ttl %v", cells[i].X)
	}
	// The read-out says both figures.
	lines := to.heat.Readout(cells[0])
	assert.Contains(t, lines, "throughput: "+strconv.FormatFloat(cells[0].Throughput, 'f', 2, 64)+" grants/s (paused runs, until settled)")
	assert.Contains(t, lines, "acquire latency: mean "+widgets.FormatMs(cells[0].AcquireMeanMs)+" · p99 "+widgets.FormatMs(cells[0].WaitP99Ms))

	i18n.Set(i18n.Chinese)
	t.Cleanup(func() { i18n.Set(i18n.English) })
	assert.Equal(t, []string{"不安全的运行", "出现 2 个持有者的运行", "吞吐量", "p99 等待"}, colourNames(false))
	assert.Equal(t, "0.49/秒", widgets.MetricThroughput.Format(0.494))
}

// TestTradeoffPriceColoursOpenTheRunTheyDescribe: coloured by the p99
// wait, a click opens the cell's run with the longest wait and says how
// long; coloured by throughput, the run nearest the cell's mean, with its
// figure; the caption says why in both languages.
func TestTradeoffPriceColoursOpenTheRunTheyDescribe(t *testing.T) {
	_, v, q := tradeoffWindow(t)
	to := v.tradeoff
	to.button.OnTapped()
	q.pumpUntil(t, func() bool { return to.last.stage == stageDone })
	cells := to.heat.Cells()
	last := len(cells) - 1 // the longest pause: someone waits it out
	for _, tc := range []struct {
		colour  string
		seed    func(widgets.HeatCell) int64
		hint    string
		caption string
	}{
		{"p99 wait", func(c widgets.HeatCell) int64 { return c.SlowestSeed }, "the run with the longest wait",
			"its longest wait in 6 runs was " + widgets.FormatMs(cells[last].SlowestWaitMs)},
		{"throughput", func(c widgets.HeatCell) int64 { return c.TypicalSeed }, "a run near the mean throughput",
			"the run nearest that, at " + widgets.MetricThroughput.Format(cells[last].TypicalThroughput)},
	} {
		to.button.OnTapped()
		q.pumpUntil(t, func() bool { return to.last.stage == stageDone })
		to.colour.SetSelected(tc.colour)
		c := to.heat.Cells()[last]
		assert.Contains(t, to.hint(c), tc.hint, tc.colour)
		pos, size := to.heat.CellRect(last)
		to.heat.Tapped(&fyne.PointEvent{Position: pos.AddXY(size.Width/2, size.Height/2)})
		sc := v.ctl.Scenario()
		assert.Equal(t, tc.seed(c), sc.Seed, tc.colour)
		assert.Contains(t, sc.Captions[0].Text, tc.caption, tc.colour)
		assert.NotContains(t, sc.Captions[0].Zh, "{{", tc.colour)
		if tc.colour == "p99 wait" {
			s, err := sim.New(sc)
			require.NoError(t, err)
			s.Run()
			longest := 0.0
			for _, g := range s.Check.Grants() {
				longest = max(longest, sim.Ms(g.At-g.Asked))
			}
			assert.GreaterOrEqual(t, longest, c.SlowestWaitMs-0.001, "the run opened waited that long")
		}
	}
}

// A map of runs that elect a leader speaks of leaders: its colour choice,
// its legend and its read-out; the ZooKeeper tab's map follows its
// preset's use, keeping the colour chosen.
func TestTradeoffSpeaksOfLeadersForAnElection(t *testing.T) {
	_, v, q := tradeoffWindowOn(t, "zookeeper", "zk-leader-latch")
	to := v.tradeoff
	to.button.OnTapped()
	q.pumpUntil(t, func() bool { return to.last.stage == stageDone })
	assert.Equal(t, []string{"unsafe runs", "runs with 2 leaders", "throughput", "p99 wait"}, to.colour.Options)
	to.colour.SetSelected("runs with 2 leaders")
	require.Equal(t, widgets.MetricViolations, to.heat.Metric())
	assert.Contains(t, to.heat.Readout(to.heat.Cells()[0]), "two leaders at once: "+widgets.FormatPercent(to.heat.Cells()[0].ViolationRate)+" of runs")

	v.toolbar.selectPreset("zk-happy-path")
	q.pumpUntil(t, func() bool { return to.last.stage == stageDone })
	assert.Equal(t, []string{"unsafe runs", "runs with 2 holders", "throughput", "p99 wait"}, to.colour.Options)
	assert.Equal(t, "runs with 2 holders", to.colour.Selected, "the colour chosen stays")
	assert.Equal(t, widgets.MetricViolations, to.heat.Metric())
	assert.Contains(t, to.heat.Readout(to.heat.Cells()[0]), "two holders at once: "+widgets.FormatPercent(to.heat.Cells()[0].ViolationRate)+" of runs")
}
