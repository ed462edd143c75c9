package widgets

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim/sweep"
	"github.com/lockscope/lockscope/widgets/widgettest"
)

func recoverySeries(t *testing.T) (sweep.Axis, []sweep.Cell) {
	t.Helper()
	x, err := sweep.ParseAxis("ttl=4s:16s:4")
	require.NoError(t, err)
	var pts []sweep.Cell
	for _, v := range x.Values {
		pts = append(pts, sweep.Cell{X: v, Runs: 50, RecoveryMeanMs: v - 2500, RecoveryP99Ms: v - 2000})
	}
	return x, pts
}

// newTestRecoveryChart is a 420 × 320 chart of recoverySeries in a window
// of its own.
func newTestRecoveryChart(t *testing.T, coarse bool) (*RecoveryChart, *recRenderer, []sweep.Cell) {
	t.Helper()
	test.NewTempApp(t)
	c := NewRecoveryChart()
	w := test.NewTempWindow(t, c)
	w.Resize(fyne.NewSize(420, 320))
	x, pts := recoverySeries(t)
	c.SetSeries(x, "TTL", pts, coarse)
	return c, test.TempWidgetRenderer(t, c).(*recRenderer), pts
}

func TestRecoveryChartDrawsMeanAndP99Band(t *testing.T) {
	c, r, pts := newTestRecoveryChart(t, false)

	assert.Equal(t, 2*(len(pts)-1), r.series.used, "a p99 edge and a mean line between each pair of points")
	f := c.frame()
	// The mean line starts at the first point.
	mean := r.series.items[len(pts)-1]
	assert.InDelta(t, f.xs.at(4000), mean.Position1.X, 0.01)
	assert.InDelta(t, f.ys.at(1500), mean.Position1.Y, 0.01)
	assert.Equal(t, recLineColor, mean.StrokeColor)

	// The band spans the mean to the p99, 500 ms tall everywhere.
	require.NotEmpty(t, r.fills)
	for _, fl := range r.fills {
		assert.InDelta(t, f.ys.at(0)-f.ys.at(500), fl.h, 0.6)
	}
	shown := visibleTexts(r.Objects())
	for _, s := range []string{"TTL (s)", "lock out of reach (s)", "mean", "mean to p99"} {
		assert.Contains(t, shown, s)
	}

	c.SetCursor(10000, true)
	assert.True(t, r.cursor.Visible())
	assert.Equal(t, "┼ 10 s: 7.50 s", r.curText.Text, "the slider's TTL reads the mean recovery it buys")
	assert.InDelta(t, f.xs.at(10000), r.cursor.Position1.X, 0.01)
	c.SetCursor(40000, true)
	assert.False(t, r.cursor.Visible(), "off the chart")

	px := f.xs.at(8000)
	c.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(px+3, f.pos.Y+20)}})
	assert.True(t, r.read.Visible())
	assert.Equal(t, "TTL 8 s: stuck for 5.50 s on average, 6.00 s at p99 (50 runs)", r.read.Text)
	c.MouseOut()
	assert.False(t, r.read.Visible())

	c.SetNote("TTL 1–2 s left out: the lease ran out before the crash.")
	assert.Contains(t, strings.Join(visibleTexts(r.Objects()), " "), "TTL 1–2 s left out: the lease ran out before the crash.",
		"the note wraps in the chart's empty upper left")
}

func TestRecoveryChartEmpty(t *testing.T) {
	test.NewTempApp(t)
	c := NewRecoveryChart()
	w := test.NewTempWindow(t, c)
	w.Resize(fyne.NewSize(300, 240))
	c.SetMessage("computing…")
	r := test.TempWidgetRenderer(t, c).(*recRenderer)
	assert.Contains(t, visibleTexts(r.Objects()), "computing…")
	assert.Zero(t, r.series.used)
	_, ok := c.PointAt(fyne.NewPos(150, 120))
	assert.False(t, ok)
}

// The legend's words never run into the y axis' title: a coarse pass says
// so where there is room and leaves it out where there is not.
func TestRecoveryLegendClearsTheAxisTitle(t *testing.T) {
	test.NewTempApp(t)
	for _, width := range []float32{340, 420, 700} {
		c := NewRecoveryChart()
		w := test.NewTempWindow(t, c)
		w.Resize(fyne.NewSize(width, 320))
		x, pts := recoverySeries(t)
		c.SetSeries(x, "TTL", pts, true)
		r := test.TempWidgetRenderer(t, c).(*recRenderer)
		var texts []*canvas.Text
		for _, o := range r.Objects() {
			if tx, ok := o.(*canvas.Text); ok && tx.Visible() && tx.Text != "" && tx.Position().Y < 10 {
				texts = append(texts, tx)
			}
		}
		for i, a := range texts {
			for _, b := range texts[i+1:] {
				apart := a.Position().X+a.MinSize().Width <= b.Position().X || b.Position().X+b.MinSize().Width <= a.Position().X
				assert.True(t, apart, "width %v: %q and %q overlap", width, a.Text, b.Text)
			}
		}
		if width == 700 {
			assert.Contains(t, visibleTexts(r.Objects()), "coarse pass")
		}
	}
}

// The chart follows Fyne's idiom: Refresh works out the axes' span of the
// points and takes the theme; a resize only lays the chart out again, with
// the cursor and the read-out where the new size puts them.
func TestRecoveryChartResizeLaysOutWithoutRebuilding(t *testing.T) {
	c, r, _ := newTestRecoveryChart(t, true)
	c.SetCursor(10000, true)
	widgettest.AssertResizeOnlyLaysOut(t, c, func() int { return r.builds }, fyne.NewSize(800, 500))
	assert.InDelta(t, c.frame().xs.at(10000), r.cursor.Position1.X, 0.01, "the cursor follows the new size")
}
