package app

import (
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
		frame := tr.over.Objects[4]
		for _, o := range stop.targets(v) {
			p := d.AbsolutePositionForObject(o)
			assert.LessOrEqual(t, frame.Position().X, p.X, "%s: the frame encloses it", stop.key)
			assert.LessOrEqual(t, frame.Position().Y, p.Y, stop.key)
			assert.GreaterOrEqual(t, frame.Position().X+frame.Size().Width, p.X+o.Size().Width, stop.key)
			assert.GreaterOrEqual(t, frame.Position().Y+frame.Size().Height, p.Y+o.Size().Height, stop.key)
		}
		assert.Positive(t, frame.Size().Width*frame.Size().Height, "%s: the target is on screen", stop.key)
		card := tr.over.Objects[5]
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

	inChinese(t, w)
	w.ShowTour()
	assert.Equal(t, "集群", w.tour.title.Text)
	w.CloseTour()
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
