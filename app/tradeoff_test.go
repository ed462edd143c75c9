package app

import (
	"context"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
)

// tradeoffWindow opens the window with the Redis tab's map on a small grid
// and its hand-overs under the test's control.
func tradeoffWindow(t *testing.T) (*Window, *tabView, uiQueue) {
	t.Helper()
	a := test.NewTempApp(t)
	w := NewWindow(a)
	t.Cleanup(w.Close)
	v := w.tab("redis")
	require.NotNil(t, v)
	require.NoError(t, v.ctl.LoadPreset("redis-gc-pause"))
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

	// The numbers on show are sim.Sweep's for the same grid and base.
	want, err := (&sim.Sweep{Base: to.job.fine.Base, X: smallAxes("ttl"), Y: smallAxes("pause"), Seeds: 6}).Run(context.Background(), 1, nil)
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
	ttl := v.sliders[0]
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
	for _, s := range v.sliders {
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
