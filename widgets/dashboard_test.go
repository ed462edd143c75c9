package widgets

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/widgets/widgettest"
)

func TestHistogramBars(t *testing.T) {
	d := sim.DistributionOf([]float64{0.5, 3, 3, 10, 1000})
	bars := HistogramBars(d, 110, 40)
	require.Len(t, bars, len(d.Histogram))
	assert.Equal(t, float32(0), bars[0].X)
	for i, b := range bars {
		assert.InDelta(t, float64(i)*110/float64(len(bars)), float64(b.X), 1e-3, "side by side")
		assert.LessOrEqual(t, b.X+b.W, float32(110)+1e-3, "inside the width")
		assert.LessOrEqual(t, b.H, float32(40))
	}
	assert.Equal(t, float32(40), bars[2].H, "the fullest bin (2-4 ms, two values) is the chart's height")
	assert.Equal(t, float32(20), bars[0].H, "one value: half")
	assert.Zero(t, bars[1].H, "an empty bin has no height")
	assert.Nil(t, HistogramBars(sim.Distribution{}, 100, 40))
}

func TestWaitRowsLongestFirst(t *testing.T) {
	rows := WaitRows([]sim.ClientMetrics{{Client: "a", LongestWaitMs: 1}, {Client: "b", LongestWaitMs: 9}, {Client: "c", LongestWaitMs: 1}, {Client: "d", LongestWaitMs: 5}})
	var names []string
	for _, r := range rows {
		names = append(names, r.Client)
	}
	assert.Equal(t, []string{"b", "d", "a", "c"}, names)
}

// The dashboard draws the run's figures inside its width, as tall as its
// MinSize says, and lists the clients' waits longest first, the starved in
// the warning colour; with 200 clients it lists MaxWaitRows and counts the
// rest.
func TestDashboardDrawsTheRunsFigures(t *testing.T) {
	test.NewTempApp(t)
	rec := widgettest.RecordPreset(t, "redis-gc-pause")
	d := NewDashboard()
	d.SetMetrics(rec.Metrics(rec.End()))
	w := test.NewWindow(d)
	defer w.Close()
	min := d.MinSize()
	w.Resize(fyne.NewSize(300, min.Height+40))
	d.Resize(fyne.NewSize(300, min.Height))
	r := test.WidgetRenderer(d).(*dashboardRenderer)
	texts := widgettest.Texts(r.Objects())
	all := strings.Join(texts, "\n")
	for _, want := range []string{"Taking the lock", "contention", "98 % · 97 of 99 tries failed", "expired while held", "105", "client-1", "client-2", "1: client-2"} {
		assert.Contains(t, all, want)
	}
	lowest := float32(0)
	for _, o := range r.Objects() {
		if !o.Visible() {
			continue
		}
		assert.LessOrEqual(t, o.Position().X+o.Size().Width, float32(300)+1, "%T %v inside the width", o, o.Position())
		lowest = max(lowest, o.Position().Y+o.Size().Height)
	}
	assert.InDelta(t, float64(min.Height), float64(lowest), float64(theme12*2), "MinSize is as tall as it draws")
	var warned bool
	for _, o := range r.Objects() {
		if rc, ok := o.(*canvas.Rectangle); ok && rc.Visible() && rc.FillColor == r.warn {
			warned = true
		}
	}
	assert.True(t, warned, "client-2 starved: its bar in the warning colour")

	sc := widgettest.RecordPreset(t, "etcd-happy-path").Scenario.Clone()
	sc.Clients, sc.Duration = 200, sim.Duration(20*1e9)
	big, err := sim.Record(sc)
	require.NoError(t, err)
	d.SetMetrics(big.Metrics(big.End()))
	d.Resize(fyne.NewSize(300, d.MinSize().Height))
	all = strings.Join(widgettest.Texts(r.Objects()), "\n")
	assert.Contains(t, all, "… and 189 more clients", "MaxWaitRows lines: 11 clients and the count")
}

// theme12 is the caption size the test theme draws the dashboard in.
const theme12 = 12

// An election's dashboard speaks of leading, and says how long two led
// at once and how long none did (Metrics.SeveralHoldersMs, NoHolderMs).
func TestDashboardOfAnElection(t *testing.T) {
	test.NewTempApp(t)
	rec := widgettest.RecordPreset(t, "k8s-paused-leader")
	m := rec.Metrics(rec.End())
	require.True(t, m.Election)
	d := NewDashboard()
	d.SetMetrics(m)
	w := test.NewWindow(d)
	defer w.Close()
	w.Resize(fyne.NewSize(340, d.MinSize().Height+40))
	d.Resize(fyne.NewSize(340, d.MinSize().Height))
	all := strings.Join(widgettest.Texts(test.WidgetRenderer(d).Objects()), "\n")
	for _, want := range []string{"Becoming leader", "Leading", "time as leader", "two leaders at once", "no leader",
		FormatTime(time.Duration(m.SeveralHoldersMs * float64(time.Millisecond))), FormatTime(time.Duration(m.NoHolderMs * float64(time.Millisecond)))} {
		assert.Contains(t, all, want)
	}
	assert.NotContains(t, all, "Taking the lock")
}
