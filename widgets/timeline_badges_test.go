package widgets

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/widgets/widgettest"
)

// laneBars are the rectangles of the bars drawn in the lanes: waiting,
// holding and the key on the server, as draw paints them.
func laneBars(tl *Timeline) []labelBox {
	var out []labelBox
	run := tl.tl
	for i, g := range tl.frame().lanes() {
		add := func(ivs [][]sim.Interval, y, h float32) {
			if i >= len(ivs) {
				return
			}
			for _, s := range tl.frame().pixelSpans(ivs[i]) {
				out = append(out, labelBox{s[0], y, s[1] - s[0], h})
			}
		}
		add(run.Waiting, g.beliefY+g.beliefH*0.3, g.beliefH*0.4)
		add(run.Holding, g.beliefY, g.beliefH)
		add(run.Owned, g.ownedY, g.ownedH)
	}
	return out
}

// drawnAtEnd lays tl out in w at size with run's end under the cursor and
// returns its renderer.
func drawnAtEnd(t *testing.T, w fyne.Window, tl *Timeline, run sim.Timeline, size fyne.Size) *timelineRenderer {
	w.Resize(size)
	tl.Resize(size)
	tl.SetTimeline(run)
	tl.SetCursor(run.End)
	return test.TempWidgetRenderer(t, tl).(*timelineRenderer)
}

// requireOnNoBar fails when box covers one of the bars in tl's lanes.
func requireOnNoBar(t *testing.T, tl *Timeline, box labelBox, what string) {
	for _, bar := range laneBars(tl) {
		covers := box.x < bar.x+bar.w && bar.x < box.x+box.w && box.y < bar.y+bar.h && bar.y < box.y+box.h
		require.False(t, covers, "%s: the badge %v covers a lane's bar %v", what, box, bar)
	}
}

// overlapBadgeBox is the box of the "2 holders" badge drawn, nil if none.
func overlapBadgeBox(r *timelineRenderer) *labelBox {
	for _, o := range r.labels.objects() {
		if txt := o.(*canvas.Text); txt.Visible() && strings.HasPrefix(txt.Text, i18n.T("timeline.overlap")) {
			for _, b := range r.badges.objects() {
				if b.Visible() && b.Position() == txt.Position().SubtractXY(4, 1) {
					return &labelBox{b.Position().X, b.Position().Y, b.Size().Width, b.Size().Height}
				}
			}
		}
	}
	return nil
}

// The "2 holders" badge covers none of the lanes' bars (issue 16: at
// 1366×768 etcd-lease-expiry's badge at the lanes' foot hid client-2's
// "key on server" bar), in the timelines of 1024×768 and 1366×768
// windows and a few clients more, and still always shows.
func TestTimelineOverlapBadgeCoversNoBar(t *testing.T) {
	test.NewTempApp(t)
	tl := NewTimeline()
	w := test.NewTempWindow(t, tl)
	five := gcPauseTimeline()
	five.Clients = []string{"client-1", "client-2", "client-3", "client-4", "client-5"}
	runs := map[string]sim.Timeline{
		"etcd-lease-expiry":      widgettest.RecordPreset(t, "etcd-lease-expiry").Timeline(),
		"redis-gc-pause-fenced":  widgettest.RecordPreset(t, "redis-gc-pause-fenced").Timeline(),
		"redlock-clock-jump":     clockJumpTimeline(),
		"gc pause by hand":       gcPauseTimeline(),
		"five clients, one pair": five,
	}
	for name, run := range runs {
		require.NotEmpty(t, run.Overlaps, name)
		for _, size := range []fyne.Size{
			fyne.NewSize(1008, 130), fyne.NewSize(1008, 150), // a 1024×768 window
			fyne.NewSize(1350, 150), fyne.NewSize(1350, 175), fyne.NewSize(1350, 210), // 1366×768
		} {
			badge := overlapBadgeBox(drawnAtEnd(t, w, tl, run, size))
			require.NotNil(t, badge, "%s at %v: the overlap's badge shows", name, size)
			requireOnNoBar(t, tl, *badge, fmt.Sprintf("%s at %v", name, size))
		}
	}
}

// crowdedTimeline is clockJumpTimeline with a partition every second: in a
// low timeline their badges fill the band's row but for gaps narrower than
// the "2 holders" badge.
func crowdedTimeline() sim.Timeline {
	run := clockJumpTimeline()
	run.Faults = nil
	for at := time.Duration(0); at < run.End; at += time.Second {
		run.Faults = append(run.Faults, sim.FaultMark{At: at, Kind: sim.FaultPartition})
	}
	return run
}

// Where the fault badges fill every row of the band and the lanes leave no
// strip for it, the "2 holders" badge gets a row of its own above the lanes
// rather than cover a fault badge (issue 16), and still covers no bar.
func TestTimelineOverlapBadgeCoversNoFaultBadge(t *testing.T) {
	test.NewTempApp(t)
	tl := NewTimeline()
	w := test.NewTempWindow(t, tl)
	run := crowdedTimeline()
	for _, size := range []fyne.Size{fyne.NewSize(1008, 130), fyne.NewSize(1008, 175), fyne.NewSize(700, 150), fyne.NewSize(1350, 210)} {
		r := drawnAtEnd(t, w, tl, run, size)
		overlap := overlapBadgeBox(r)
		var faults labelBoxes
		for _, o := range r.badges.objects() {
			if b := o.(*canvas.Rectangle); b.Visible() && b.FillColor == ColorFault {
				faults = append(faults, labelBox{b.Position().X, b.Position().Y, b.Size().Width, b.Size().Height})
			}
		}
		require.NotNil(t, overlap, "at %v: the overlap's badge shows", size)
		require.NotEmpty(t, faults)
		require.True(t, faults.free(*overlap), "at %v: the badge %v covers a fault badge (%v)", size, *overlap, faults)
		requireOnNoBar(t, tl, *overlap, fmt.Sprintf("at %v", size))
	}
}

// Every fault badge of a crowded run is drawn inside the timeline, and the
// faults whose badges have no room are counted on a "+N" badge at the edge
// whose tip names them (issue 16: a partition every second pushed the last
// badges past the right edge, where nobody saw them).
func TestTimelineFaultBadgesStayOnScreen(t *testing.T) {
	test.NewTempApp(t)
	tl := NewTimeline()
	w := test.NewTempWindow(t, tl)
	run := crowdedTimeline()
	for _, size := range []fyne.Size{fyne.NewSize(1008, 130), fyne.NewSize(1008, 175), fyne.NewSize(700, 150), fyne.NewSize(400, 150), fyne.NewSize(1350, 210)} {
		r := drawnAtEnd(t, w, tl, run, size)
		named, more := 0, 0
		for _, o := range r.badges.objects() {
			b := o.(*canvas.Rectangle)
			if !b.Visible() || b.FillColor != ColorFault {
				continue
			}
			require.GreaterOrEqual(t, b.Position().X, float32(0), "at %v", size)
			require.LessOrEqual(t, b.Position().X+b.Size().Width, size.Width, "at %v: a fault badge at x=%v is past the right edge", size, b.Position().X)
			text := badgeText(r, b)
			if n, ok := strings.CutPrefix(text, "+"); ok {
				more, _ = strconv.Atoi(n)
				tip := tl.tipAt(b.Position().AddXY(2, 2))
				require.Contains(t, tip, FormatTime(run.Faults[len(run.Faults)-1].At), "at %v: the tip names the faults not drawn", size)
				continue
			}
			named++
		}
		require.Equal(t, len(run.Faults), named+more, "at %v: every fault is named by a badge or counted on the +N one", size)
	}
}

// badgeText is the text on the badge b.
func badgeText(r *timelineRenderer, b fyne.CanvasObject) string {
	for _, o := range r.labels.objects() {
		if txt := o.(*canvas.Text); txt.Visible() && b.Position() == txt.Position().SubtractXY(4, 1) {
			return txt.Text
		}
	}
	return ""
}
