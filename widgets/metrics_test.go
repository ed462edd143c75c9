package widgets

import (
	"image/color"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/widgets/widgettest"
)

func TestCellsAndVerdict(t *testing.T) {
	s := sim.Summary{Acquisitions: 2, Releases: 1, Violations: 1, OverlapMs: 4935.285, Writes: 2,
		StaleWritesAccepted: 1, ExpiredWhileHeld: 1, Messages: 195, AcquireLatencyP50Ms: 5.631, AcquireLatencyP99Ms: 9964.715}
	cells := Cells(s)
	byLabel := map[string]MetricCell{}
	for _, c := range cells {
		byLabel[c.Label] = c
	}
	assert.Equal(t, MetricCell{Label: "violations", Value: "1", Detail: "4935.285 ms overlap", Alarm: true}, byLabel["violations"])
	assert.Equal(t, "1", byLabel["stale writes accepted"].Value)
	assert.True(t, byLabel["stale writes accepted"].Alarm)
	assert.Equal(t, "0", byLabel["stale writes rejected"].Value)
	assert.False(t, byLabel["stale writes rejected"].Alarm, "a refused stale write is fencing working")
	assert.Equal(t, "5.631 ms", byLabel["acquire latency p50"].Value)
	assert.Equal(t, "195", byLabel["messages"].Value)
	assert.Equal(t, "2", byLabel["acquisitions"].Value)

	text, why, state := Verdict(s, false)
	assert.Equal(t, VerdictUnsafe, state)
	assert.Equal(t, "× UNSAFE", text, "an accepted stale write is final: no \"so far\"")
	assert.Equal(t, "a stale write was accepted", why)
}

// With no lock taken yet the latency cell shows a dash, not a latency of
// 0 ms nobody measured (redlock-majority-down: every try fails).
func TestLatencyBeforeAnyAcquisitionIsADash(t *testing.T) {
	for _, c := range Cells(sim.Summary{Messages: 147}) {
		if c.Label == "acquire latency p50" {
			assert.Equal(t, "—", c.Value)
			assert.Equal(t, "p99 —", c.Detail)
			return
		}
	}
	t.Fatal("no latency cell")
}

func TestVerdictHasThreeStatesAndSaysSoFarOnlyBeforeTheEnd(t *testing.T) {
	for _, tc := range []struct {
		name     string
		sum      sim.Summary
		finished bool
		state    VerdictState
		text     string
		colour   color.NRGBA
	}{
		{"safe, mid-run", sim.Summary{Safe: true}, false, VerdictSafe, "✓ SAFE so far", ColorDone},
		{"safe, at the end", sim.Summary{Safe: true}, true, VerdictSafe, "✓ SAFE", ColorDone},
		{"two holders, fencing refused the late write", sim.Summary{Safe: true, Violations: 1, StaleWritesRejected: 1}, false,
			VerdictOverlap, "! 2 HOLDERS · DATA SAFE so far", ColorCaution},
		{"two holders, finished", sim.Summary{Safe: true, Violations: 1}, true, VerdictOverlap, "! 2 HOLDERS · DATA SAFE", ColorCaution},
		{"stale write accepted", sim.Summary{Violations: 1, StaleWritesAccepted: 1}, false, VerdictUnsafe, "× UNSAFE", ColorViolation},
		{"stale write accepted, finished", sim.Summary{StaleWritesAccepted: 1}, true, VerdictUnsafe, "× UNSAFE", ColorViolation},
		{"two leaders, finished", sim.Summary{Safe: true, Violations: 1, Election: true}, true, VerdictOverlap, "! 2 LEADERS · DATA SAFE", ColorCaution},
		{"two leaders, mid-run", sim.Summary{Safe: true, Violations: 1, Election: true}, false, VerdictOverlap, "! 2 LEADERS · DATA SAFE so far", ColorCaution},
		{"an election, safe", sim.Summary{Safe: true, Election: true}, false, VerdictSafe, "✓ SAFE so far", ColorDone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text, _, state := Verdict(tc.sum, tc.finished)
			assert.Equal(t, tc.state, state)
			assert.Equal(t, tc.text, text)
			assert.Equal(t, tc.colour, state.Color())
		})
	}
}

func TestMetricsStripShowsTheSummary(t *testing.T) {
	test.NewTempApp(t)
	m := NewMetrics()
	w := test.NewTempWindow(t, m)
	w.Resize(fyne.NewSize(1300, 60))
	r := test.TempWidgetRenderer(t, m).(*metricsRenderer)
	assert.Empty(t, widgettest.Texts(r.Objects()), "nothing before the first summary")

	m.SetSummary(sim.Summary{Acquisitions: 2, Violations: 1, OverlapMs: 1944.854, Messages: 194, Safe: true}, false)
	shown := widgettest.Texts(r.Objects())
	for _, s := range []string{"acquisitions", "2", "violations", "1", "1944.854 ms overlap", "194", "! 2 HOLDERS · DATA SAFE so far"} {
		assert.Contains(t, shown, s)
	}
	require.Len(t, r.cells, len(Cells(sim.Summary{})))
	assert.True(t, r.cells[1].alarm.Visible(), "a violation is flagged by a bar, not colour alone")
	assert.Equal(t, ColorViolation, r.cells[1].value.Color)
	assert.False(t, r.cells[0].alarm.Visible())
	assert.Equal(t, ColorCaution, r.verdictBg.FillColor, "two holders and no damage: amber, not green")

	m.SetSummary(sim.Summary{StaleWritesAccepted: 1, Writes: 2}, true)
	assert.Contains(t, widgettest.Texts(r.Objects()), "× UNSAFE")
	assert.Contains(t, widgettest.Texts(r.Objects()), "a stale write was accepted")
	for _, o := range []fyne.CanvasObject{r.verdict, r.why} {
		assert.GreaterOrEqual(t, o.Position().X, r.verdictBg.Position().X, "the verdict stays in its box")
		assert.LessOrEqual(t, o.Position().X+o.Size().Width, r.verdictBg.Position().X+r.verdictBg.Size().Width)
	}
	assert.Equal(t, ColorViolation, r.verdictBg.FillColor)
	assert.Equal(t, 1, m.Summary().StaleWritesAccepted)
}

func TestFormatTime(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0 s"},
		{2500 * time.Microsecond, "2.5 ms"},
		{12 * time.Second, "12.000 s"},
		{10064715361, "10.065 s"},
		{-10 * time.Second, "−10.000 s"},
		{90 * time.Second, "90.000 s"},
		{754500 * time.Millisecond, "12 min 34.500 s"},
		{10 * time.Minute, "10 min"},
		{194 * time.Minute, "3 h 14 min"},
		{3*time.Hour + 14*time.Minute + 5*time.Second, "3 h 14 min 5 s"},
		{2*time.Hour + 59*time.Minute + 36123*time.Millisecond, "2 h 59 min 36.123 s"},
		{time.Hour + 500*time.Millisecond, "1 h 0.500 s"},
		{6 * time.Hour, "6 h"},
		{24 * time.Hour, "24 h"},
		{-90 * time.Minute, "−1 h 30 min"},
	} {
		assert.Equal(t, tc.want, FormatTime(tc.d), "%v", tc.d)
	}
	// The units of hours and minutes are words: Chinese has its own.
	widgettest.InChinese(t)
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{194 * time.Minute, "3 小时 14 分钟"},
		{3*time.Hour + 14*time.Minute + 5*time.Second, "3 小时 14 分钟 5 s"},
		{12 * time.Minute, "12 分钟"},
		{12 * time.Second, "12.000 s"},
	} {
		assert.Equal(t, tc.want, FormatTime(tc.d), "%v", tc.d)
	}
	assert.Equal(t, "+10.000 s", FormatSkew(10*time.Second))
	assert.Equal(t, "−2.5 ms", FormatSkew(-2500*time.Microsecond))
}

func TestMetricsStripMarkup(t *testing.T) {
	test.NewTempApp(t)
	m := NewMetrics()
	m.Resize(fyne.NewSize(1300, 60))
	m.SetSummary(sim.Summary{Acquisitions: 2, Releases: 2, Violations: 1, OverlapMs: 5000, Writes: 2,
		StaleWritesAccepted: 1, ExpiredWhileHeld: 1, Messages: 198, AcquireLatencyP50Ms: 5.631, AcquireLatencyP99Ms: 9964.715}, true)
	test.AssertObjectRendersToMarkup(t, "metrics_unsafe.xml", m)
}

// At 1024 points a label too long for its cell wraps onto a second line,
// whole, instead of ending in "…".
func TestMetricsStripWrapsLongLabels(t *testing.T) {
	test.NewTempApp(t)
	m := NewMetrics()
	w := test.NewTempWindow(t, m)
	w.Resize(fyne.NewSize(1000, 60))
	r := test.TempWidgetRenderer(t, m).(*metricsRenderer)
	m.SetSummary(sim.Summary{Acquisitions: 2, Writes: 2, Messages: 12}, true)
	wrapped := false
	for i, c := range Cells(m.Summary()) {
		o := r.cells[i]
		shown := o.label.Text
		if o.label2.Visible() {
			shown += " " + o.label2.Text
			wrapped = true
			assert.GreaterOrEqual(t, o.value.Position().Y, o.label2.Position().Y+o.label2.MinSize().Height-2, "the figure is under the label's second line")
			assert.LessOrEqual(t, o.value.Position().Y+o.value.MinSize().Height, m.Size().Height, "the figure stays inside the strip")
		}
		assert.Equal(t, c.Label, shown, "the whole label is shown")
		assert.NotContains(t, shown, "…")
	}
	assert.True(t, wrapped, "at 1000 points some label needs two lines")
}

// The strip follows Fyne's idiom: Refresh takes the theme for the summary
// on show and lays out; a resize only lays the cells out again.
func TestMetricsResizeLaysOutWithoutRefreshing(t *testing.T) {
	test.NewTempApp(t)
	m := NewMetrics()
	w := test.NewTempWindow(t, m)
	w.Resize(fyne.NewSize(1000, 60))
	m.SetSummary(sim.Summary{Acquisitions: 2, Violations: 1, OverlapMs: 12, Messages: 194, Safe: true}, false)
	widgettest.AssertResizeOnlyLaysOut(t, m, func() int { return m.refreshes }, fyne.NewSize(1300, 70))
}
