package widgets

import (
	"fmt"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
)

// crowdTimeline is n clients over a minute: client i waits from i
// seconds to 30 s, client-3 holds 30 s to 40 s, and client-3 and client-5
// each write once.
func crowdTimeline(n int) sim.Timeline {
	tl := sim.Timeline{End: time.Minute}
	for i := range n {
		tl.Clients = append(tl.Clients, fmt.Sprintf("client-%d", i+1))
		tl.Waiting = append(tl.Waiting, []sim.Interval{{From: time.Duration(i) * time.Second % (30 * time.Second), To: 30 * time.Second}})
		var hold []sim.Interval
		if i == 2 {
			hold = []sim.Interval{{From: 30 * time.Second, To: 40 * time.Second}}
		}
		tl.Holding = append(tl.Holding, hold)
		tl.Owned = append(tl.Owned, hold)
	}
	tl.Grants = []sim.Grant{{Client: 2, At: 30 * time.Second, Token: 9}}
	tl.Writes = []sim.WriteRecord{{Client: 2, At: 35 * time.Second, Accepted: true}, {Client: 4, At: 36 * time.Second}}
	return tl
}

func TestTimelineCrowdCountsAndRanks(t *testing.T) {
	c := crowdOf(crowdTimeline(5))
	assert.Equal(t, []int{2, 0, 1, 3, 4}, c.busiest, "the holder first, then the longest waits")
	for _, tc := range []struct {
		at         time.Duration
		hold, wait int
	}{
		{0, 0, 1},
		{2500 * time.Millisecond, 0, 3},
		{10 * time.Second, 0, 5},
		{30 * time.Second, 1, 0},
		{39 * time.Second, 1, 0},
		{40 * time.Second, 0, 0},
		{-time.Second, 0, 0},
	} {
		h, w := c.at(tc.at)
		assert.Equal(t, [2]int{tc.hold, tc.wait}, [2]int{h, w}, "at %v", tc.at)
	}
	assert.Equal(t, 5, c.most())
}

func TestTimelineFoldsOnlyWhatDoesNotFit(t *testing.T) {
	for _, tc := range []struct {
		clients int
		size    fyne.Size
		fold    bool
		shown   int
	}{
		{5, fyne.NewSize(900, 200), false, 0},
		{4, fyne.NewSize(1000, 150), false, 0},
		{200, fyne.NewSize(1000, 330), true, 10}, // 280 for the lanes: a band of 93, 10 lanes of 18,
		{200, fyne.NewSize(1400, 900), true, 40}, // 850: the band of 120 at most, 40 lanes,
		{20, fyne.NewSize(900, 200), true, 5},
	} {
		tl := crowdTimeline(tc.clients)
		c := crowdOf(tl)
		f := foldOf(tl, &c, tc.size)
		if !tc.fold {
			assert.Nil(t, f, "%d clients in %v", tc.clients, tc.size)
			continue
		}
		require.NotNil(t, f, "%d clients in %v", tc.clients, tc.size)
		assert.Equal(t, tc.clients, f.clients)
		assert.Equal(t, tc.shown, f.shown, "%d clients in %v", tc.clients, tc.size)
		assert.GreaterOrEqual(t, f.h, float32(tlSummaryMin))
		assert.LessOrEqual(t, f.h, float32(tlSummaryMax))
	}
}

func TestFoldedTimelineKeepsThePickedClients(t *testing.T) {
	tl := crowdTimeline(6)
	got := foldedTimeline(tl, []int{2, 4})
	assert.Equal(t, []string{"client-3", "client-5"}, got.Clients)
	assert.Equal(t, tl.Holding[2], got.Holding[0])
	assert.Equal(t, tl.Waiting[4], got.Waiting[1])
	assert.Equal(t, []sim.Grant{{Client: 0, At: 30 * time.Second, Token: 9}}, got.Grants)
	require.Len(t, got.Writes, 2)
	assert.Equal(t, sim.NodeID(0), got.Writes[0].Client)
	assert.Equal(t, sim.NodeID(1), got.Writes[1].Client)
	assert.Len(t, foldedTimeline(tl, []int{0}).Writes, 0, "a folded client's writes are not in the lanes")
}

func TestTimelineFoldedDrawsTheBandAndTheBusiest(t *testing.T) {
	test.NewTempApp(t)
	tlw := NewTimeline()
	w := test.NewTempWindow(t, tlw)
	w.Resize(fyne.NewSize(1000, 330))
	tlw.SetTimeline(crowdTimeline(200))
	f := tlw.frame()
	require.NotNil(t, f.fold)
	p := f.picture(1000, nil, nil, nil)
	require.NotEmpty(t, p.names)
	assert.Equal(t, "200 clients", p.names[0].Text)
	assert.Equal(t, fmt.Sprintf("%d folded", 200-f.fold.shown), p.captions[0].Text)
	assert.Equal(t, "client-3", p.names[1].Text, "the busiest client's lane first")
	ls := f.lanes()
	require.Len(t, ls, f.fold.shown)
	assert.InDelta(t, f.lanesTop()+f.fold.h, ls[0].top, 0.01, "the lanes start under the band")
	assert.GreaterOrEqual(t, ls[0].height, float32(tlFoldLane))
	assert.LessOrEqual(t, f.lanesBottom(), tlw.Size().Height-tlAxisH-tlLegendH+0.01)
}

// TestFoldedClientsFaultStaysInTheBand: a fault on a client folded into
// the summary band draws its line down the band alone, not across the
// lanes of the clients shown; a fault on a shown client's lane stays in
// that lane, and one on a server crosses every lane.
func TestFoldedClientsFaultStaysInTheBand(t *testing.T) {
	test.NewTempApp(t)
	tlw := NewTimeline()
	w := test.NewTempWindow(t, tlw)
	w.Resize(fyne.NewSize(1000, 330))
	tl := crowdTimeline(200)
	tl.Faults = []sim.FaultMark{
		{At: 10 * time.Second, Kind: sim.FaultPause, Target: "client-150", For: time.Second},
		{At: 20 * time.Second, Kind: sim.FaultPause, Target: "client-3", For: time.Second},
		{At: 40 * time.Second, Kind: sim.FaultCrash, Target: "redis-1"},
	}
	tlw.SetTimeline(tl)
	f := tlw.frame()
	require.NotNil(t, f.fold)
	require.True(t, f.fold.folded["client-150"])
	require.False(t, f.fold.folded["client-3"], "the busiest client has a lane")
	p := f.picture(1000, nil, nil, nil)
	lineAt := func(at time.Duration) (top, bottom float32) {
		x := f.xAt(at)
		for _, op := range p.ops {
			if op.c == ColorFault && op.w == 2 && abs32(op.x+1-x) < 0.01 {
				return op.y, op.y + op.h
			}
		}
		t.Fatalf("no fault line at %v", at)
		return 0, 0
	}
	top, bottom := lineAt(10 * time.Second)
	assert.InDelta(t, p.top, top, 0.01)
	assert.InDelta(t, p.top+f.fold.h, bottom, 0.01, "client-150's pause: down the band only")
	lane := p.lanes[p.laneOf["client-3"]]
	top, bottom = lineAt(20 * time.Second)
	assert.InDelta(t, lane.top, top, 0.01)
	assert.InDelta(t, lane.top+lane.height, bottom, 0.01, "client-3's pause: its own lane")
	top, bottom = lineAt(40 * time.Second)
	assert.InDelta(t, p.top, top, 0.01)
	assert.InDelta(t, p.bottom, bottom, 0.01, "a server's crash: every lane")
}

func abs32(v float32) float32 {
	if v < 0 {
		return -v
	}
	return v
}
