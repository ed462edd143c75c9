package app

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets/i18n"
)

// The guided tour opens by itself on the first start only, points at each
// part it names (the frame encloses it, the rest is dimmed), steps with
// Next and Back, and ends with Done, Skip or Esc; Help reopens it.
func TestTourPointsAtEachPartAndEnds(t *testing.T) {
	w, v, _, _ := newTestWindow(t)
	w.Resize(fyne.NewSize(1400, 900))
	require.False(t, w.settings.TourSeen())
	w.ShowTourOnFirstStart()
	require.True(t, w.TourShown(), "the first start opens the tour")
	tr := w.tour
	assert.Same(t, tr.over, w.Canvas().Overlays().Top())
	assert.True(t, tr.back.Disabled(), "nothing before the first stop")

	d := fyne.CurrentApp().Driver()
	for i, stop := range tourStops {
		require.Equal(t, i, tr.at)
		assert.Equal(t, i18n.T("tour."+stop.key+".title"), tr.title.Text)
		assert.NotEqual(t, "tour."+stop.key+".text", tr.text.Text, "the stop has words")
		frames := tr.frames()
		for _, o := range stop.targets(v) {
			assert.True(t, slices.ContainsFunc(frames, func(f fyne.CanvasObject) bool { return encloses(d, f, o) }),
				"%s: a frame encloses it", stop.key)
		}
		for _, frame := range frames {
			assert.Positive(t, frame.Size().Width*frame.Size().Height, "%s: the target is on screen", stop.key)
		}
		if stop.others != nil {
			for _, o := range stop.others(v) {
				for _, f := range frames {
					assert.False(t, overlaps(d, f, o), "%s: a frame %v %v covers a control %T at %v %v", stop.key, f.Position(), f.Size(), o, d.AbsolutePositionForObject(o), o.Size())
				}
			}
		}
		card := tr.over.Objects[len(tr.over.Objects)-1]
		assert.GreaterOrEqual(t, card.Position().Y, float32(0), stop.key)
		assert.LessOrEqual(t, card.Position().Y+card.Size().Height, w.Canvas().Size().Height, "%s: the card fits", stop.key)
		if i == 1 {
			test.Tap(tr.back)
			assert.Equal(t, 0, tr.at, "Back goes back")
			test.Tap(tr.next)
		}
		if i < len(tourStops)-1 {
			test.Tap(tr.next)
		}
	}
	assert.Equal(t, i18n.T("tour.done"), tr.next.Text)
	test.Tap(tr.next)
	assert.False(t, w.TourShown(), "Done ends the tour")
	assert.Nil(t, w.Canvas().Overlays().Top())

	w.ShowTourOnFirstStart()
	assert.False(t, w.TourShown(), "only the first start opens it by itself")

	var tour *Action
	eachAction(w.Menus(), func(a *Action) {
		if a.Label == "menu.tour" {
			tour = a
		}
	})
	require.NotNil(t, tour, "Help has the tour")
	tour.Do()
	require.True(t, w.TourShown())
	key(w, fyne.KeyRight)
	assert.Equal(t, 1, w.tour.at, "→ is Next")
	key(w, fyne.KeyLeft)
	assert.Equal(t, 0, w.tour.at, "← is Back")
	key(w, fyne.KeySpace)
	assert.False(t, v.ctl.Playing(), "the tour is modal: no key reaches the run behind it")
	key(w, fyne.KeyEscape)
	assert.False(t, w.TourShown(), "Esc skips it")

	w.ShowTour()
	test.Tap(findButton(t, w.tour.over, i18n.T("tour.skip")))
	assert.False(t, w.TourShown(), "Skip ends it")

	// Ctrl+L during the tour: the window and the tour both switch, the tour
	// staying at its stop and pointing at the rebuilt tab's parts.
	w.ShowTour()
	key(w, fyne.KeyRight)
	w.nextLanguage()
	t.Cleanup(func() { i18n.Set(i18n.English) })
	require.True(t, w.TourShown())
	assert.Equal(t, 1, w.tour.at, "the tour stays at its stop")
	assert.Equal(t, i18n.In(i18n.Chinese, "tour.state.title"), w.tour.title.Text)
	assert.Equal(t, i18n.In(i18n.Chinese, "tour.skip"), findButton(t, w.tour.over, i18n.In(i18n.Chinese, "tour.skip")).Text)
	assert.Same(t, w.current(), w.tour.v, "the tour points at the tab on show")
	assert.Contains(t, w.current().status.Text, "已暂停", "the window is Chinese too")
	w.tour.show(0)
	for _, stop := range tourStops {
		lines := strings.Split(w.tour.text.Text, "\n")
		assert.Greater(t, len(lines), 1, "%s: the Chinese text is broken into lines", stop.key)
		for i := 1; i < len(lines); i++ {
			assert.False(t, latinEnd(lines[i-1]) && latinStart(lines[i]), "%s: a Latin word is broken: %q / %q", stop.key, lines[i-1], lines[i])
		}
		if w.tour.at < len(tourStops)-1 {
			key(w, fyne.KeyRight)
		}
	}
	w.CloseTour()

	w.ShowTour()
	assert.Equal(t, "集群", w.tour.title.Text)
	w.CloseTour()
}

// encloses reports whether frame f encloses object o on the canvas.
func encloses(d fyne.Driver, f, o fyne.CanvasObject) bool {
	p := d.AbsolutePositionForObject(o)
	return f.Position().X <= p.X && f.Position().Y <= p.Y &&
		f.Position().X+f.Size().Width >= p.X+o.Size().Width && f.Position().Y+f.Size().Height >= p.Y+o.Size().Height
}

// overlaps reports whether frame f and object o (visible) share some area.
func overlaps(d fyne.Driver, f, o fyne.CanvasObject) bool {
	if !o.Visible() || o.Size().IsZero() {
		return false
	}
	p := d.AbsolutePositionForObject(o)
	return f.Position().X < p.X+o.Size().Width && p.X < f.Position().X+f.Size().Width &&
		f.Position().Y < p.Y+o.Size().Height && p.Y < f.Position().Y+f.Size().Height
}

// findButton is the button labelled text inside o.
func findButton(t *testing.T, o fyne.CanvasObject, text string) *widget.Button {
	t.Helper()
	for _, obj := range test.LaidOutObjects(o) {
		if b, ok := obj.(*widget.Button); ok && b.Text == text {
			return b
		}
	}
	require.FailNow(t, "no button "+text)
	return nil
}

func latinEnd(s string) bool {
	return s != "" && strings.ContainsAny(s[len(s)-1:], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
}

func latinStart(s string) bool {
	return s != "" && strings.ContainsAny(s[:1], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
}
