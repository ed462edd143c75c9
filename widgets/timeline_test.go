package widgets

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
)

const sec = time.Second

// gcPauseTimeline is the GC-pause run laid out by hand.
func gcPauseTimeline() sim.Timeline {
	return sim.Timeline{
		End:      30 * sec,
		Clients:  []string{"client-1", "client-2"},
		Waiting:  [][]sim.Interval{nil, {{From: 0, To: 10 * sec}}},
		Holding:  [][]sim.Interval{{{From: 0, To: 20 * sec}}, {{From: 10 * sec, To: 15 * sec}}},
		Owned:    [][]sim.Interval{{{From: 0, To: 10 * sec}}, {{From: 10 * sec, To: 15 * sec}}},
		Overlaps: []sim.Interval{{From: 10 * sec, To: 15 * sec}},
		Faults:   []sim.FaultMark{{At: sec, Kind: "pause", Target: "client-1", Note: "15s"}},
		Grants:   []sim.Grant{{At: 0, Client: 0, Token: 1}, {At: 10 * sec, Client: 1, Token: 2}},
		Writes: []sim.WriteRecord{
			{At: 15 * sec, Client: 1, Token: 2, Accepted: true},
			{At: 20 * sec, Client: 0, Token: 1, Stale: true, Accepted: true},
		},
	}
}

func newTestTimeline(t *testing.T) (*Timeline, *timelineRenderer) {
	test.NewTempApp(t)
	tl := NewTimeline()
	w := test.NewTempWindow(t, tl)
	w.Resize(fyne.NewSize(1000, 300))
	tl.SetTimeline(gcPauseTimeline())
	return tl, test.TempWidgetRenderer(t, tl).(*timelineRenderer)
}

func TestTimelineMapsTimeAndX(t *testing.T) {
	tl, _ := newTestTimeline(t)
	x0, x1 := tl.plotSpan()
	assert.Equal(t, x0, tl.XAt(0))
	assert.Equal(t, x1, tl.XAt(30*sec))
	for _, at := range []time.Duration{0, 1 * sec, 12 * sec, 29500 * time.Millisecond, 30 * sec} {
		assert.InDelta(t, float64(at), float64(tl.TimeAt(tl.XAt(at))), float64(time.Millisecond), "%v", at)
	}
	assert.Equal(t, time.Duration(0), tl.TimeAt(0), "left of the lanes is the start")
	assert.Equal(t, 30*sec, tl.TimeAt(5000), "right of the lanes is the end")
}

func TestTimelineTapAndDragSeek(t *testing.T) {
	tl, _ := newTestTimeline(t)
	var got []time.Duration
	tl.OnSeek = func(at time.Duration) { got = append(got, at) }
	test.TapAt(tl, fyne.NewPos(tl.XAt(12*sec), 100))
	// A drag event carries where the mouse is now: at 20 s, having come
	// from 16 s.
	d := fyne.CurrentApp().Driver()
	at := d.AbsolutePositionForObject(tl).Add(fyne.NewPos(tl.XAt(20*sec), 100))
	test.Drag(d.CanvasForObject(tl), at, tl.XAt(20*sec)-tl.XAt(16*sec), 0)
	require.Len(t, got, 2)
	assert.InDelta(t, float64(12*sec), float64(got[0]), float64(time.Millisecond))
	assert.InDelta(t, float64(20*sec), float64(got[1]), float64(time.Millisecond))
}

func TestTimelineDrawsTheRun(t *testing.T) {
	tl, r := newTestTimeline(t)
	shown := texts(r.Objects())
	for _, s := range []string{"client-1", "client-2", "key on server", "‖ client-1 15s", "paused",
		"2 holders · 5.000 s", "✓ write", "✓ write · stale", "#1", "#2", "0 s", "30 s",
		"waiting", "believes it holds", "server holds its key", "two holders", "fault"} {
		assert.Contains(t, shown, s)
	}

	// The overlap is hatched across every lane, and the hatch stays inside.
	lanes := tl.lanes()
	top, bottom := lanes[0].top, tl.lanesBottom()
	a, b := tl.XAt(10*sec), tl.XAt(15*sec)
	require.Positive(t, r.hatch.used)
	for _, l := range r.hatch.items[:r.hatch.used] {
		for _, p := range []fyne.Position{l.Position1, l.Position2} {
			assert.True(t, p.X >= a-0.01 && p.X <= b+0.01 && p.Y >= top-0.01 && p.Y <= bottom+0.01, "hatch point %v outside the overlap", p)
		}
	}
	found := false
	for _, rect := range r.bands.items[:r.bands.used] {
		if rect.FillColor == fade(ColorViolation, 0.20) {
			found = true
			assert.InDelta(t, a, rect.Position().X, 0.01)
			assert.InDelta(t, bottom-top, rect.Size().Height, 0.01, "the overlap spans every lane")
		}
	}
	assert.True(t, found, "the overlap band is drawn")
}

func TestTimelineCursorMovesAlone(t *testing.T) {
	tl, r := newTestTimeline(t)
	before := append([]fyne.Size(nil), sizes(r)...)
	objs := r.Objects()
	tl.SetCursor(12 * sec)
	assert.InDelta(t, tl.XAt(12*sec), r.cursor.Position1.X, 0.01)
	assert.InDelta(t, tl.XAt(12*sec), r.dim.Position().X, 0.01, "the future after the cursor is dimmed")
	assert.Contains(t, texts(r.Objects()), "12.000 s")
	assert.Equal(t, before, sizes(r), "a cursor move leaves the lanes alone")
	assert.Equal(t, len(objs), len(r.Objects()))
	assert.Equal(t, 12*sec, tl.Cursor())
}

func sizes(r *timelineRenderer) []fyne.Size {
	var out []fyne.Size
	for _, b := range r.bands.items {
		out = append(out, b.Size())
	}
	return out
}

func TestTickStep(t *testing.T) {
	for _, tc := range []struct {
		end   time.Duration
		width float32
		want  time.Duration
	}{
		{30 * sec, 1200, 2 * sec},
		{30 * sec, 300, 10 * sec},
		{20 * time.Millisecond, 1000, 2 * time.Millisecond},
		{10 * time.Minute, 1200, time.Minute},
		{2 * time.Minute, 1200, 10 * sec},
		{24 * time.Hour, 1200, 2 * time.Hour},
		{0, 1000, sec},
	} {
		assert.Equal(t, tc.want, TickStep(tc.end, tc.width, 80), "%v over %v px", tc.end, tc.width)
	}
	assert.Equal(t, "12 s", tickLabel(12*sec, 2*sec))
	assert.Equal(t, "2.5 ms", tickLabel(2500*time.Microsecond, 500*time.Microsecond))
	assert.Equal(t, "0 s", tickLabel(0, time.Millisecond))
	assert.Equal(t, "10m", tickLabel(10*time.Minute, time.Minute))
	assert.Equal(t, "1h", tickLabel(time.Hour, 15*time.Minute))
	assert.Equal(t, "1h15m", tickLabel(75*time.Minute, 15*time.Minute))
}

func TestFaultGlyphsDiffer(t *testing.T) {
	seen := map[string]string{}
	for _, k := range []string{"pause", "crash", "restart", "clockJump", "partition", "heal", "failover"} {
		g := faultGlyph(k)
		assert.NotContains(t, seen, g, "%s and %s share a glyph", k, seen[g])
		seen[g] = k
	}
}
