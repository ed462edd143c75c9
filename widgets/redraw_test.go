package widgets

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/widgets/widgettest"
)

// A playing window hands every widget the instant at the cursor 30 times
// a second. These tests hold the widgets to drawing only what changed: the
// same snapshot again redraws nothing, a new instant redraws what moves
// with it and leaves the rest where it is.

func TestClusterViewDrawsOnlyWhatChanged(t *testing.T) {
	test.NewTempApp(t)
	rec := widgettest.RecordPreset(t, "redis-failover")
	v := NewClusterView()
	w := test.NewTempWindow(t, v)
	w.Resize(fyne.NewSize(700, 400))
	first := rec.At(2 * time.Second)
	v.SetSnapshot(first)
	r := test.TempWidgetRenderer(t, v).(*clusterRenderer)
	refreshes, relinks := r.refreshes, r.relinks
	require.Positive(t, relinks, "the links were placed")

	v.SetSnapshot(first)
	assert.Equal(t, refreshes, r.refreshes, "the same snapshot again redraws nothing")

	later := rec.At(2*time.Second + 40*time.Millisecond)
	v.SetSnapshot(later)
	assert.Equal(t, refreshes+1, r.refreshes, "a new instant moves the clocks and messages")
	assert.Equal(t, relinks, r.relinks, "the links stay where they are")
	lines := r.links.used
	assert.Positive(t, lines)

	cut := rec.At(2*time.Second + 80*time.Millisecond)
	group := make([]int, len(cut.Nodes))
	group[len(group)-1] = 1 // the last server cut off from the rest
	cut.Cuts = append(cut.Cuts, group)
	v.SetSnapshot(cut)
	assert.Equal(t, relinks+1, r.relinks, "a partition dashes links: placed again")
	assert.Less(t, r.links.used, lines, "the cut links are drawn dashed instead")
	assert.Positive(t, r.dashes.used)

	v.SetSnapshot(rec.At(3 * time.Second))
	assert.Equal(t, relinks+2, r.relinks, "the partition healed: placed again")
	assert.Equal(t, lines, r.links.used)
	assert.Zero(t, r.dashes.used)

	w.Resize(fyne.NewSize(800, 420))
	assert.Equal(t, relinks+3, r.relinks, "a new size places them again")
}

func TestMetricsRedrawOnlyWhenAFigureChanges(t *testing.T) {
	test.NewTempApp(t)
	m := NewMetrics()
	w := test.NewTempWindow(t, m)
	w.Resize(fyne.NewSize(1300, 60))
	s := sim.Summary{Safe: true, Acquisitions: 2, Releases: 1, Writes: 2, Messages: 40, AcquireLatencyP50Ms: 5.6, AcquireLatencyP99Ms: 9.9,
		Grants: []sim.GrantSummary{{Client: "client-1", Token: 1}}}
	m.SetSummary(s, false)
	before := m.refreshes
	require.Positive(t, before)

	same := s
	same.Grants = []sim.GrantSummary{{Client: "client-1", Token: 1}, {Client: "client-2", Token: 2}} // the strip does not draw grants
	m.SetSummary(same, false)
	assert.Equal(t, before, m.refreshes, "a summary that changes nothing on the strip redraws nothing")
	assert.Len(t, m.Summary().Grants, 2, "but it is the summary on show")

	s.Messages++
	m.SetSummary(s, false)
	assert.Equal(t, before+1, m.refreshes, "a message more is a figure changed")
	m.SetSummary(s, true)
	assert.Equal(t, before+2, m.refreshes, "the run's end drops the verdict's \"so far\"")
}

func TestTimelineCursorMoveKeepsTheLanes(t *testing.T) {
	tl, r := newTestTimeline(t)
	redraws := r.redraws
	require.Positive(t, redraws)
	write := -1 // the stale write's label at 20 s
	for i, l := range r.timed {
		if l.at == 20*sec {
			write = i
		}
	}
	require.GreaterOrEqual(t, write, 0, "the write at 20 s has a label")
	label := r.timed[write].objs[0]

	for at := time.Duration(0); at <= 30*sec; at += 33 * time.Millisecond {
		tl.SetCursor(at)
		assert.Equal(t, at >= 20*sec, label.Visible(), "at %v", at)
	}
	tl.SetCursor(5 * sec) // back, past the write
	assert.False(t, label.Visible(), "moving back hides what has not happened yet")
	assert.Equal(t, redraws, r.redraws, "a thousand cursor moves did not redraw the lanes")

	tl.SetTimeline(gcPauseTimeline())
	assert.Equal(t, redraws+1, r.redraws, "a new run draws its lanes")
	assert.False(t, r.timed[write].objs[0].Visible(), "and its labels for the cursor")
}

// BenchmarkClusterViewFrame is the cluster view's share of a playing
// frame: 50 etcd clients over 5 members, each iteration the next frame's
// instant (33 ms later), in a window the size of the panel.
func BenchmarkClusterViewFrame(b *testing.B) {
	sc, err := sim.ParseScenario([]byte(`{"mode":"etcd","clients":50,"nodes":5,"duration":"1m"}`))
	require.NoError(b, err)
	rec, err := sim.Record(sc)
	require.NoError(b, err)
	defer rec.Close()
	var snaps []*sim.Snapshot
	for i := range 300 {
		snaps = append(snaps, rec.At(10*time.Second+time.Duration(i)*33*time.Millisecond))
	}
	test.NewTempApp(b)
	v := NewClusterView()
	w := test.NewTempWindow(b, v)
	w.Resize(fyne.NewSize(800, 500))
	v.SetSnapshot(snaps[0])
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v.SetSnapshot(snaps[(i+1)%len(snaps)])
	}
}

// crowdRecording is issue 33's crowd: 200 etcd clients for two minutes.
func crowdRecording(b *testing.B) *sim.Recording {
	sc, err := sim.ParseScenario([]byte(`{"mode":"etcd","clients":200,"nodes":5,"duration":"2m","rounds":1000,"work":"1s","think":"100ms","ttl":"10s"}`))
	require.NoError(b, err)
	rec, err := sim.Record(sc)
	require.NoError(b, err)
	return rec
}

// BenchmarkClusterViewCrowdFrame is BenchmarkClusterViewFrame for 200
// clients in the cluster's panel of a 1024×768 window: drawn as a crowd.
func BenchmarkClusterViewCrowdFrame(b *testing.B) {
	rec := crowdRecording(b)
	defer rec.Close()
	var snaps []*sim.Snapshot
	for i := range 300 {
		snaps = append(snaps, rec.At(20*time.Second+time.Duration(i)*33*time.Millisecond))
	}
	test.NewTempApp(b)
	v := NewClusterView()
	w := test.NewTempWindow(b, v)
	w.Resize(fyne.NewSize(500, 160))
	v.SetSnapshot(snaps[0])
	i := 0
	for b.Loop() {
		i++
		v.SetSnapshot(snaps[i%len(snaps)])
	}
}

// BenchmarkTimelineCrowdFrame is the timeline's share of a playing frame
// with 200 clients, folded in its panel of a 1024×768 window: the cursor
// 33 ms on.
func BenchmarkTimelineCrowdFrame(b *testing.B) {
	rec := crowdRecording(b)
	defer rec.Close()
	test.NewTempApp(b)
	tl := NewTimeline()
	w := test.NewTempWindow(b, tl)
	w.Resize(fyne.NewSize(1000, 330))
	run := rec.Timeline()
	tl.SetTimeline(run)
	i := 0
	for b.Loop() {
		i++
		tl.SetCursor(time.Duration(i) * 33 * time.Millisecond % run.End)
	}
}

// BenchmarkTimelineCrowdDraw is drawing the folded timeline of 200
// clients afresh (a new run, or a resize), 1000×330.
func BenchmarkTimelineCrowdDraw(b *testing.B) {
	rec := crowdRecording(b)
	defer rec.Close()
	run := rec.Timeline()
	test.NewTempApp(b)
	tl := NewTimeline()
	w := test.NewTempWindow(b, tl)
	w.Resize(fyne.NewSize(1000, 330))
	for b.Loop() {
		tl.SetTimeline(run)
	}
}
