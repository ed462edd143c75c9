package app

import (
	"fmt"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets"
	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/simtest"
	"github.com/lockscope/lockscope/widgets"
)

// layOut lays the window out at a size twice, so a flow that found it
// needs more rows at that width is given them (Fyne's driver does this on
// the next frame).
func layOut(w *Window, size fyne.Size) {
	w.Resize(size)
	w.Content().Refresh()
	w.Resize(size)
}

// layoutWindow is a window for tests of the layout, in English again
// when the test ends.
func layoutWindow(t *testing.T) *Window {
	t.Helper()
	t.Cleanup(func() { i18n.Set(i18n.English) })
	w := NewWindow(test.NewTempApp(t))
	t.Cleanup(w.Close)
	return w
}

// quietMaps makes every tab's trade-off map compute a small grid and
// report to nobody: a test of the layout, on its own goroutine.
func quietMaps(w *Window) {
	for _, v := range w.tabs {
		v.tradeoff.runner.deliver = func(func()) {}
		v.tradeoff.axis = smallAxes
	}
}

// The window fits a 1024×768 laptop in both languages, on every tab, with
// the event log open and with the Trade-off map on show: its content asks
// for no more than MinUsableSize once laid out at that width.
func TestWindowFitsASmallScreen(t *testing.T) {
	w := layoutWindow(t)
	for _, l := range i18n.Langs {
		w.SetLanguage(l)
		quietMaps(w)
		for _, log := range []bool{false, true} {
			w.ShowEventLog(log)
			for i, v := range w.tabs {
				for _, tradeoff := range []bool{false, true} {
					name := fmt.Sprintf("%s %s log=%v tradeoff=%v", l, v.spec.Mode, log, tradeoff)
					w.appTabs.SelectIndex(i)
					v.tradeoff.setShown(tradeoff)
					layOut(w, MinUsableSize)
					m := w.Content().MinSize()
					assert.LessOrEqual(t, m.Width, MinUsableSize.Width, name)
					assert.LessOrEqual(t, m.Height, MinUsableSize.Height, name)
					v.tradeoff.setShown(false)
				}
			}
		}
	}
	w.ShowEventLog(false)
}

// At 1024 wide every control of the toolbar is on screen and none covers
// another: the flow wraps them into rows instead.
func TestToolbarWrapsWithoutOverlap(t *testing.T) {
	a := test.NewTempApp(t)
	w := NewWindow(a)
	t.Cleanup(w.Close)
	for i, v := range w.tabs {
		w.appTabs.SelectIndex(i)
		layOut(w, MinUsableSize)
		rows := assertBarFlows(t, v)
		assert.Greater(t, rows, 1, "%s: at 1024 the bar wraps", v.spec.Mode)

		layOut(w, fyne.NewSize(2560, 1400))
		assert.LessOrEqual(t, assertBarFlows(t, v), 2, "%s: a wide window needs at most two rows", v.spec.Mode)
	}
}

// A run whose name is long (a trade-off map's cell, a file) keeps the
// preset picker in its cell: the name is cut, not spilled under the next
// control.
func TestALongRunNameKeepsThePickerInItsCell(t *testing.T) {
	w := layoutWindow(t)
	v := w.tab("kubernetes")
	w.appTabs.SelectIndex(w.index(v))
	sc, err := simtest.Load("k8s-paused-leader")
	require.NoError(t, err)
	sc.Name = "Trade-off map: leaseDuration 6 s, pause of the holder 12 s, seed 1, and a little more to be sure"
	require.NoError(t, v.LoadScenario(sc, ""))
	require.Equal(t, sc.Name, v.toolbar.presets.PlaceHolder)
	layOut(w, MinUsableSize)
	assertBarFlows(t, v)
	assert.LessOrEqual(t, v.toolbar.presets.Size().Width, float32(360.5), "the picker grows no wider than its cell")
}

// assertBarFlows holds the tab's bar to its flow at the size it was laid
// out in: every object inside the bar, none squeezed below its minimum,
// no two overlapping. It returns the number of rows.
func assertBarFlows(t *testing.T, v *tabView) int {
	t.Helper()
	bar := v.bar
	require.NotEmpty(t, bar.Objects)
	var boxes []fyne.Position
	var sizes []fyne.Size
	rows := map[float32]bool{}
	for _, o := range bar.Objects {
		if !o.Visible() {
			continue // a control the scenario does not show (SliderSpec.Shown) takes no place
		}
		p, s := o.Position(), o.Size()
		assert.GreaterOrEqual(t, p.X, float32(0), v.spec.Mode)
		assert.LessOrEqual(t, p.X+s.Width, bar.Size().Width+0.5, "%s: an object runs off the right edge", v.spec.Mode)
		assert.GreaterOrEqual(t, s.Width+0.5, o.MinSize().Width, "%s: an object squeezed below its minimum", v.spec.Mode)
		boxes, sizes = append(boxes, p), append(sizes, s)
		rows[p.Y] = true
	}
	for i := range boxes {
		for j := i + 1; j < len(boxes); j++ {
			overlapX := boxes[i].X < boxes[j].X+sizes[j].Width-0.5 && boxes[j].X < boxes[i].X+sizes[i].Width-0.5
			overlapY := boxes[i].Y < boxes[j].Y+sizes[j].Height-0.5 && boxes[j].Y < boxes[i].Y+sizes[i].Height-0.5
			assert.False(t, overlapX && overlapY, "%s: objects %d and %d overlap", v.spec.Mode, i, j)
		}
	}
	return len(rows)
}

func TestFlowLayout(t *testing.T) {
	box := func(w float32) fyne.CanvasObject {
		r := canvas.NewRectangle(nil)
		r.SetMinSize(fyne.NewSize(w, 20))
		return r
	}
	a, b, c := box(100), box(100), box(100)
	s := stretch(box(50), 80)
	f := newFlow(a, b, c, s)
	f.Resize(fyne.NewSize(250, 100))
	assert.Equal(t, fyne.NewPos(0, 0), a.Position())
	assert.Equal(t, fyne.NewPos(106, 0), b.Position())
	assert.Equal(t, fyne.NewPos(0, 20), c.Position(), "the third box wraps")
	assert.Equal(t, fyne.NewPos(106, 20), s.Position())
	assert.Equal(t, float32(80), s.Size().Width, "a stretched box grows up to its limit")
	assert.Equal(t, fyne.NewSize(100, 40), f.MinSize(), "two rows at the width it was laid out at")

	f.Resize(fyne.NewSize(1000, 100))
	assert.Equal(t, fyne.NewSize(100, 20), f.MinSize(), "one row when there is room")
	assert.Equal(t, float32(80), s.Size().Width)

	hidden := box(100)
	hidden.Hide()
	f = newFlow(hidden, a)
	f.Resize(fyne.NewSize(300, 100))
	assert.Equal(t, fyne.NewPos(0, 0), a.Position(), "hidden objects take no room")
}

// A control of the toolbar that grows (a run opened from the trade-off
// map puts its long name in the preset picker) gives the flow another
// row: laid out again as Fyne does it, the flow alone, it moves the body
// below the new row instead of leaving the row over it.
func TestFlowBorderMakesRoomForANewRow(t *testing.T) {
	box := func(w float32) *canvas.Rectangle {
		r := canvas.NewRectangle(nil)
		r.SetMinSize(fyne.NewSize(w, 20))
		return r
	}
	a, b, grows := box(100), box(100), box(100)
	flow := newFlow(a, b, grows)
	body := box(10)
	fb := newFlowBorder(flow, body, nil)
	fb.Resize(fyne.NewSize(320, 200))
	require.Equal(t, float32(20), flow.Size().Height, "one row")
	require.Equal(t, 20+theme.Padding(), body.Position().Y)

	grows.SetMinSize(fyne.NewSize(150, 20))
	flow.Layout.Layout(flow.Objects, flow.Size()) // what Fyne does for the parent of a grown object
	assert.Equal(t, float32(40), flow.Size().Height, "two rows")
	assert.Equal(t, 40+theme.Padding(), body.Position().Y, "the body is below them")
	assert.Equal(t, float32(200-40)-theme.Padding(), body.Size().Height)
}

func TestYieldingFooter(t *testing.T) {
	pic := canvas.NewRectangle(nil)
	pic.SetMinSize(fyne.NewSize(100, 100))
	text := widget.NewLabel("one\ntwo\nthree\nfour\nfive")
	text.SizeName = theme.SizeNameCaptionText // as the tab sets it
	y := &yieldingFooter{footer: text}
	c := fyne.NewContainerWithLayout(y, pic, text)
	full := text.MinSize().Height
	c.Resize(fyne.NewSize(300, 100+full+50))
	assert.Equal(t, full, text.Size().Height, "room for the whole footer")
	line := fyne.MeasureText("M", theme.CaptionTextSize(), fyne.TextStyle{}).Height // small notes in a small box
	c.Resize(fyne.NewSize(300, 100+theme.InnerPadding()+2.5*line))
	foot := c.Objects[1].Size().Height
	assert.InDelta(t, theme.InnerPadding()+2*line, foot, 0.01, "a short box gives the picture its minimum, the footer the rest in whole lines")
	assert.Equal(t, c.Size().Height-foot, pic.Size().Height, "and the half line left to the picture")
	c.Resize(fyne.NewSize(300, 120))
	foot = c.Objects[1].Size().Height
	assert.LessOrEqual(t, foot, float32(footerMin), "a box too short for both keeps a strip of the footer")
	assert.InDelta(t, theme.InnerPadding()+line, foot, 0.01, "of one whole line")
	assert.Equal(t, 120-foot, pic.Size().Height)
	assert.Equal(t, fyne.NewSize(100, 100+footerMin), y.MinSize(c.Objects))

	for _, tc := range []struct {
		size fyne.Size
		want fyne.ThemeSizeName
	}{
		{footerRefSize, theme.SizeNameCaptionText},           // a 1400×900 window
		{fyne.NewSize(1000, 280), theme.SizeNameCaptionText}, // 1920×1080
		{fyne.NewSize(1258, 600), theme.SizeNameText},        // 2560×1440: grown notes
	} {
		c.Resize(tc.size)
		assert.Equal(t, tc.want, text.SizeName, "notes in a box of %v", tc.size)
	}
}

// drawnPicture is a state picture that draws rows of 20 points at its own
// sizes, growing as widgets.GrowScale says against a 300×100 box, and says
// how tall that is (designtab.Drawn).
type drawnPicture struct {
	*canvas.Rectangle
	rows int
}

func (d drawnPicture) DrawnHeight(size fyne.Size) float32 {
	return min(float32(d.rows)*20*widgets.GrowScale(size, fyne.NewSize(300, 100), widgets.MostGrowth), size.Height)
}

// The notes under a picture that says how tall it draws start right under
// what it draws and take the rest (issue 16: etcd's and Redis's pictures
// at the end left a gap above their notes, and at 1366×768 the etcd notes
// scrolled under a picture of 60 points given its 100-point minimum): in
// full with the gap under them where the box has room, scrolling in whole
// lines where it has not, at least footerMin of them under a picture that
// fills the box; the picture keeps the box it grows by.
func TestYieldingFooterUnderWhatIsDrawn(t *testing.T) {
	rect := canvas.NewRectangle(nil)
	rect.SetMinSize(fyne.NewSize(100, 100))
	pic := drawnPicture{Rectangle: rect, rows: 3} // 60 high at its own sizes
	text := widget.NewLabel("one\ntwo\nthree\nfour\nfive")
	text.SizeName = theme.SizeNameCaptionText
	y := &yieldingFooter{footer: text}
	c := fyne.NewContainerWithLayout(y, pic, container.NewVScroll(text))
	full := text.MinSize().Height
	foot := func() (top, h float32) { return c.Objects[1].Position().Y, c.Objects[1].Size().Height }

	c.Resize(fyne.NewSize(300, 100+full+50))
	top, h := foot()
	assert.Equal(t, float32(60), top, "the notes start under the three rows drawn, not under the picture's minimum")
	assert.Equal(t, c.Size().Height-60, h, "and take the rest, the gap under them")
	assert.Equal(t, c.Size().Height-full, rect.Size().Height, "the picture keeps the box it would grow by")

	line := fyne.MeasureText("M", theme.CaptionTextSize(), fyne.TextStyle{}).Height
	c.Resize(fyne.NewSize(300, 60+theme.InnerPadding()+3.5*line))
	top, h = foot()
	assert.InDelta(t, theme.InnerPadding()+3*line, h, 0.01, "a short box gives the notes what the picture does not draw, in whole lines")
	assert.InDelta(t, c.Size().Height-h, top, 0.01)
	assert.GreaterOrEqual(t, rect.Size().Height, float32(60), "and the picture what it draws")

	c.Objects[0] = drawnPicture{Rectangle: rect, rows: 10} // 200 high
	c.Resize(fyne.NewSize(300, 100+full))
	_, h = foot()
	assert.LessOrEqual(t, h, float32(footerMin), "a picture that fills its box keeps it, the notes a strip")
	assert.InDelta(t, theme.InnerPadding()+line, h, 0.01)

	c.Objects[0] = pic
	big := fyne.NewSize(900, 300+full) // a picture box three times 300×100: grown by MostGrowth
	c.Resize(big)
	top, h = foot()
	assert.Equal(t, big.Height-full, rect.Size().Height, "a large box lets the picture grow")
	assert.InDelta(t, 60*widgets.MostGrowth, top, 0.01, "by GrowScale, the notes under its grown rows")
	assert.Equal(t, big.Height-top, h)

	pic.rows = 1 // a later instant draws fewer rows: the notes follow
	c.Objects[0] = pic
	c.Resize(fyne.NewSize(300, 100+full+50))
	y.follow(c.Objects)
	top, _ = foot()
	assert.Equal(t, float32(20), top, "a picture drawing less moves the notes up")
}

// reservingPicture draws 70 points but only in a box of 100 or more, as
// etcd's free keyspace keeps a row's room it does not fill.
type reservingPicture struct{ *canvas.Rectangle }

func (reservingPicture) DrawnHeight(size fyne.Size) float32 {
	if size.Height < 100 {
		return size.Height
	}
	return 70
}

// Where the notes scroll, a picture keeps the least box it draws whole in,
// and the notes start under what it draws there, over the box's empty
// foot, in whole lines (etcd's tab at 1366×768: one line under a gap).
func TestYieldingFooterOverTheBoxsEmptyFoot(t *testing.T) {
	rect := canvas.NewRectangle(nil)
	rect.SetMinSize(fyne.NewSize(100, 100))
	text := widget.NewLabel("one\ntwo\nthree\nfour\nfive")
	text.SizeName = theme.SizeNameCaptionText
	c := fyne.NewContainerWithLayout(&yieldingFooter{footer: text}, reservingPicture{rect}, container.NewVScroll(text))
	line := fyne.MeasureText("M", theme.CaptionTextSize(), fyne.TextStyle{}).Height
	c.Resize(fyne.NewSize(300, 100+theme.InnerPadding()+line))
	assert.InDelta(t, 100, rect.Size().Height, 0.6, "the picture keeps the box it draws whole in")
	foot := c.Objects[1]
	assert.InDelta(t, theme.InnerPadding()+3*line, foot.Size().Height, 0.01, "the notes take the 30 points it leaves empty too: two lines more, whole")
	assert.InDelta(t, c.Size().Height-foot.Size().Height, foot.Position().Y, 0.01)
}

func TestFitWindow(t *testing.T) {
	for _, tc := range []struct {
		name     string
		saved    fyne.Size
		hasSaved bool
		screen   fyne.Size
		want     fyne.Size
	}{
		{"unknown screen, nothing saved", fyne.Size{}, false, fyne.Size{}, DefaultSize},
		{"unknown screen keeps the saved size", fyne.NewSize(1200, 800), true, fyne.Size{}, fyne.NewSize(1200, 800)},
		{"a laptop is filled", fyne.Size{}, false, fyne.NewSize(1366, 768), fyne.NewSize(1350, 704)},
		{"a saved size that fits comes back", fyne.NewSize(1200, 650), true, fyne.NewSize(1366, 768), fyne.NewSize(1200, 650)},
		{"a saved size too big for this screen does not", fyne.NewSize(1400, 900), true, fyne.NewSize(1280, 720), fyne.NewSize(1264, 656)},
		{"a large screen is mostly used", fyne.Size{}, false, fyne.NewSize(2560, 1440), fyne.NewSize(2289.6, 1238.4)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := fitWindow(tc.saved, tc.hasSaved, tc.screen)
			assert.InDelta(t, tc.want.Width, got.Width, 0.01)
			assert.InDelta(t, tc.want.Height, got.Height, 0.01)
		})
	}
}

// In a short window the timeline's lanes get room to be read: Redlock's
// clock jump has three rows of fault badges, and at 1366×768 half the
// middle left its lanes 10 points high; the split moves up until the
// timeline has its EasyHeight, as far as the panels above keep their
// minimum. On a tall screen it stays at half, and a split the user
// dragged stays where it was put.
func TestSplitGivesTheLanesRoom(t *testing.T) {
	a := test.NewTempApp(t)
	w := NewWindow(a)
	t.Cleanup(w.Close)
	sc, err := Preset("redlock-clock-jump")
	require.NoError(t, err)
	require.NoError(t, w.Load(sc, "redlock-clock-jump.lockscope.json"))
	v := w.tab("redlock")
	tl, split := v.pics.Timeline, v.pics.room.split

	layOut(w, fyne.NewSize(1366, 740))
	assert.Less(t, split.Offset, 0.5, "the split moved up")
	top := split.Leading
	assert.True(t, tl.Size().Height >= tl.EasyHeight()-1 || top.Size().Height <= top.MinSize().Height+1,
		"the timeline has its easy height (%v of %v) or the panels above are at their minimum (%v of %v)",
		tl.Size().Height, tl.EasyHeight(), top.Size().Height, top.MinSize().Height)

	layOut(w, fyne.NewSize(1920, 1050))
	assert.Equal(t, 0.5, split.Offset, "room enough: half and half")

	split.SetOffset(0.3) // the user drags it
	layOut(w, fyne.NewSize(1366, 740))
	assert.Equal(t, 0.3, split.Offset, "a dragged split is the user's")
}

// On a 1024×768 screen (a window of 1008×704, less Fyne's menu bar) every
// preset's lanes are at least 16 points high, in both languages, with the
// time axis and the verdict on screen: zk-happy-path's five lanes were 12
// points high under a toolbar of four rows and an empty row for badges.
// The state picture has half the width (Redlock's five masters' columns
// were 30 points wide), and keeps to its box (statePictureKeepsToItsBox).
func TestEveryPresetsLanesAreReadableAt1024(t *testing.T) {
	w := layoutWindow(t)
	quietMaps(w)
	size := fyne.NewSize(1008, 676)
	for _, l := range i18n.Langs {
		w.SetLanguage(l)
		for _, slug := range assets.PresetNames(sim.ModeNames()) {
			sc, err := Preset(slug)
			require.NoError(t, err)
			require.NoError(t, w.Load(sc, slug))
			v := w.tab(sc.Mode)
			layOut(w, size)
			tl := v.pics.Timeline
			name := fmt.Sprintf("%s %s", l, slug)
			assert.GreaterOrEqual(t, tl.LaneHeight(), float32(16), "%s: lanes of a timeline %v high", name, tl.Size().Height)
			d := fyne.CurrentApp().Driver()
			assert.LessOrEqual(t, d.AbsolutePositionForObject(tl).Y+tl.Size().Height, size.Height, "%s: the time axis is on screen", name)
			assert.GreaterOrEqual(t, v.pics.State.Size().Width, float32(480), "%s: the state picture has room for five masters' columns", name)
			m := v.pics.Metrics
			assert.LessOrEqual(t, d.AbsolutePositionForObject(m).Y+m.Size().Height, size.Height, "%s: the verdict is on screen", name)
			statePictureKeepsToItsBox(t, v, name)
		}
	}
}

// statePictureKeepsToItsBox holds the tab's state picture, at the start,
// middle and end of its run, to the box the tab gives it: a line it has no
// room for is left out, never drawn over the notes or the caption under it
// (DynamoDB's item did, until it let its spare lines give way; so did a
// squeezed Redis card's note and the Kubernetes Lease card's foot).
func statePictureKeepsToItsBox(t *testing.T, v *tabView, name string) {
	t.Helper()
	pic, ok := v.pics.State.(fyne.Widget)
	require.True(t, ok, "%s: the state picture is a widget", name)
	for q := range time.Duration(3) {
		at := v.ctl.End() * q / 2
		v.ctl.Seek(at)
		v.show()
		box := pic.Size()
		for _, o := range test.WidgetRenderer(pic).Objects() {
			if o.Visible() {
				assert.LessOrEqual(t, o.Position().Y+o.Size().Height, box.Height+0.5,
					"%s at %v: a %T ends below the picture's %v-point box", name, at, o, box.Height)
			}
		}
	}
}
