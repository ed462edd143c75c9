package app

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/assets/i18n"
)

// prefTourSeen is set once the guided tour was shown, so it opens by
// itself on the first start only (Help ▸ Guided tour opens it again).
const prefTourSeen = "tourSeen"

// tourStop is one stop of the guided tour: the parts of the tab it points
// at and the words that say what they are ("tour.<key>.title", ".text").
type tourStop struct {
	key     string
	targets func(v *tabView) []fyne.CanvasObject
}

// tourStops are the tour's stops in order: the cluster, the mode's state,
// the timeline, the verdict, the sliders, the Trade-off map and a click on
// a node.
var tourStops = []tourStop{
	{"cluster", func(v *tabView) []fyne.CanvasObject { return []fyne.CanvasObject{v.pics.clusterPanel} }},
	{"state", func(v *tabView) []fyne.CanvasObject { return []fyne.CanvasObject{v.pics.State} }},
	{"timeline", func(v *tabView) []fyne.CanvasObject { return []fyne.CanvasObject{v.pics.Timeline} }},
	{"verdict", func(v *tabView) []fyne.CanvasObject { return []fyne.CanvasObject{v.pics.Metrics} }},
	{"sliders", func(v *tabView) []fyne.CanvasObject {
		var out []fyne.CanvasObject
		for _, s := range v.sliders {
			out = append(out, s.slider, s.value)
		}
		return out
	}},
	{"tradeoff", func(v *tabView) []fyne.CanvasObject { return []fyne.CanvasObject{v.tradeoff.button} }},
	{"node", func(v *tabView) []fyne.CanvasObject { return []fyne.CanvasObject{v.pics.Cluster} }},
}

// tour is the guided tour on show: an overlay that dims the window around
// the part a stop points at and says what it is, with Back, Next and Skip.
type tour struct {
	w    *Window
	v    *tabView
	at   int
	over *fyne.Container // the overlay: dimming, frame and card (tourLayout)
	lay  *tourLayout

	title, text, count *widget.Label
	back, next         *widget.Button
}

// TourSeen reports whether the guided tour was shown before.
func (s Settings) TourSeen() bool { return s.p.Bool(prefTourSeen) }

// SetTourSeen keeps that the guided tour was shown.
func (s Settings) SetTourSeen() { s.p.SetBool(prefTourSeen, true) }

// ShowTourOnFirstStart opens the guided tour when it was never shown.
func (w *Window) ShowTourOnFirstStart() {
	if !w.settings.TourSeen() {
		w.ShowTour()
	}
}

// ShowTour opens the guided tour on the tab on show, at its first stop.
func (w *Window) ShowTour() {
	v := w.current()
	if v == nil {
		return
	}
	w.CloseTour()
	w.settings.SetTourSeen()
	v.tradeoff.setShown(false) // the tour points at the run's pictures
	t := &tour{w: w, v: v}
	t.title = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	t.text = widget.NewLabel("")
	t.text.Wrapping = fyne.TextWrapWord
	if i18n.Current() == i18n.Chinese {
		t.text.Wrapping = fyne.TextWrapBreak // Chinese breaks between any two characters, not at spaces
	}
	t.count = widget.NewLabel("")
	t.count.Importance = widget.LowImportance
	skip := widget.NewButton(i18n.T("tour.skip"), w.CloseTour)
	t.back = widget.NewButtonWithIcon(i18n.T("tour.back"), theme.NavigateBackIcon(), func() { t.show(t.at - 1) })
	t.next = widget.NewButtonWithIcon(i18n.T("tour.next"), theme.NavigateNextIcon(), func() { t.show(t.at + 1) })
	t.next.Importance = widget.HighImportance
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameOverlayBackground))
	bg.CornerRadius = theme.Size(theme.SizeNameInputRadius)
	bg.StrokeColor = theme.Color(theme.ColorNamePrimary)
	bg.StrokeWidth = 1
	card := container.NewStack(bg, container.NewPadded(container.NewBorder(
		container.NewBorder(nil, nil, nil, t.count, t.title),
		container.NewHBox(layout.NewSpacer(), skip, t.back, t.next), nil, nil, t.text)))
	frame := canvas.NewRectangle(color.Transparent)
	frame.StrokeColor = theme.Color(theme.ColorNamePrimary)
	frame.StrokeWidth = 3
	frame.CornerRadius = 4
	dim := func() fyne.CanvasObject { return canvas.NewRectangle(color.NRGBA{A: 0x99}) }
	t.lay = &tourLayout{target: func() tourRect { return t.targetRect(tourStops[t.at].targets(t.v)) }}
	t.over = container.New(t.lay, dim(), dim(), dim(), dim(), frame, card)
	w.tour = t
	w.Canvas().Overlays().Add(t.over)
	t.over.Resize(w.Canvas().Size())
	t.show(0)
}

// CloseTour ends the guided tour, if one is on show.
func (w *Window) CloseTour() {
	if w.tour == nil {
		return
	}
	w.Canvas().Overlays().Remove(w.tour.over)
	w.tour = nil
}

// TourShown reports whether the guided tour is on show.
func (w *Window) TourShown() bool { return w.tour != nil }

// show goes to stop i; past the last stop the tour ends.
func (t *tour) show(i int) {
	if i < 0 {
		return
	}
	if i >= len(tourStops) {
		t.w.CloseTour()
		return
	}
	t.at = i
	stop := tourStops[i]
	t.title.SetText(i18n.T("tour." + stop.key + ".title"))
	t.text.SetText(i18n.T("tour." + stop.key + ".text"))
	t.count.SetText(i18n.F("tour.count", "n", i+1, "of", len(tourStops)))
	if i == 0 {
		t.back.Disable()
	} else {
		t.back.Enable()
	}
	if i == len(tourStops)-1 {
		t.next.SetText(i18n.T("tour.done"))
	} else {
		t.next.SetText(i18n.T("tour.next"))
	}
	t.over.Refresh()
	t.lay.Layout(t.over.Objects, t.over.Size())
}

// targetRect is the rectangle, in canvas coordinates, around the visible
// objects of a stop.
func (t *tour) targetRect(objs []fyne.CanvasObject) (r tourRect) {
	d := fyne.CurrentApp().Driver()
	for _, o := range objs {
		if o == nil || !o.Visible() || o.Size().IsZero() {
			continue
		}
		p := d.AbsolutePositionForObject(o)
		r = r.union(tourRect{p, p.Add(o.Size())})
	}
	return r
}

// tourRect is a rectangle by its corners; the zero value is empty.
type tourRect struct{ min, max fyne.Position }

func (r tourRect) empty() bool { return r.max.X <= r.min.X || r.max.Y <= r.min.Y }

func (r tourRect) union(o tourRect) tourRect {
	if r.empty() {
		return o
	}
	if o.empty() {
		return r
	}
	return tourRect{fyne.NewPos(min(r.min.X, o.min.X), min(r.min.Y, o.min.Y)),
		fyne.NewPos(max(r.max.X, o.max.X), max(r.max.Y, o.max.Y))}
}

// tourCardWidth is the width of the tour's card, in points.
const tourCardWidth = 420

// tourLayout places the tour's objects: four dimming rectangles around
// the target, a frame on it, and the card below it (or above, or inside
// when neither has room), kept within the window. The target is measured
// at each layout, so the frame follows a resized window.
type tourLayout struct{ target func() tourRect }

// Layout implements fyne.Layout.
func (l *tourLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if len(objs) != 6 {
		return
	}
	const pad = 4
	r := l.target()
	if r.empty() {
		r = tourRect{fyne.NewPos(size.Width/2, size.Height/2), fyne.NewPos(size.Width/2, size.Height/2)}
	}
	x0, y0 := max(0, r.min.X-pad), max(0, r.min.Y-pad)
	x1, y1 := min(size.Width, r.max.X+pad), min(size.Height, r.max.Y+pad)
	place := func(o fyne.CanvasObject, x, y, w, h float32) {
		o.Move(fyne.NewPos(x, y))
		o.Resize(fyne.NewSize(max(0, w), max(0, h)))
	}
	place(objs[0], 0, 0, size.Width, y0)              // above
	place(objs[1], 0, y1, size.Width, size.Height-y1) // below
	place(objs[2], 0, y0, x0, y1-y0)                  // left
	place(objs[3], x1, y0, size.Width-x1, y1-y0)      // right
	place(objs[4], x0, y0, x1-x0, y1-y0)              // the frame

	card := objs[5]
	w := min(float32(tourCardWidth), size.Width-2*pad)
	card.Resize(fyne.NewSize(w, 1)) // the text wraps to the width: measure at it
	h := card.MinSize().Height
	x := max(pad, min(x0, size.Width-w-pad))
	var y float32
	switch {
	case size.Height-y1 >= h+2*pad:
		y = y1 + 2*pad
	case y0 >= h+2*pad:
		y = y0 - h - 2*pad
	default:
		y = y0 + 2*pad
	}
	y = max(pad, min(y, size.Height-h-pad))
	place(card, x, y, w, h)
}

// MinSize implements fyne.Layout.
func (l *tourLayout) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(0, 0) }
