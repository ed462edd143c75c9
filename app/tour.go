package app

import (
	"image/color"
	"maps"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/widgets"
)

// prefTourSeen is set once the guided tour was shown, so it opens by
// itself on the first start only (Help ▸ Guided tour opens it again).
const prefTourSeen = "tourSeen"

// tourStop is one stop of the guided tour: the parts of the tab it points
// at and the words that say what they are ("tour.<key>.title", ".text").
// A stop whose parts lie among others (the sliders among the toggles)
// frames each group of targets on its own and dims the others between them.
type tourStop struct {
	key     string
	targets func(v *tabView) []fyne.CanvasObject
	groups  func(v *tabView) [][]fyne.CanvasObject // nil: one frame around all the targets
	others  func(v *tabView) []fyne.CanvasObject   // dimmed where they lie inside the framed area
}

// tourStops are the tour's stops in order: the cluster, the mode's state,
// the timeline, the verdict, Play and the speed, the sliders, the
// Trade-off map and a click on a node.
var tourStops = []tourStop{
	{"cluster", func(v *tabView) []fyne.CanvasObject { return []fyne.CanvasObject{v.pics.clusterPanel} }, nil, nil},
	{"state", func(v *tabView) []fyne.CanvasObject { return []fyne.CanvasObject{v.pics.State} }, nil, nil},
	{"timeline", func(v *tabView) []fyne.CanvasObject { return []fyne.CanvasObject{v.pics.Timeline} }, nil, nil},
	{"verdict", func(v *tabView) []fyne.CanvasObject { return []fyne.CanvasObject{v.pics.Metrics} }, nil, nil},
	{"playback", func(v *tabView) []fyne.CanvasObject { return []fyne.CanvasObject{v.toolbar.play, v.toolbar.speed} }, nil, nil},
	{"sliders", func(v *tabView) []fyne.CanvasObject {
		var out []fyne.CanvasObject
		for _, s := range v.controls.sliders {
			out = append(out, s.slider, s.value)
		}
		return out
	}, func(v *tabView) [][]fyne.CanvasObject {
		var out [][]fyne.CanvasObject
		for _, s := range v.controls.sliders {
			out = append(out, []fyne.CanvasObject{s.slider, s.value})
		}
		return out
	}, func(v *tabView) []fyne.CanvasObject {
		out := []fyne.CanvasObject{v.toolbar.play, v.toolbar.step, v.toolbar.back, v.toolbar.reset, v.toolbar.delta, v.toolbar.speed, v.toolbar.presets,
			v.breakIt.button, v.tradeoff.button}
		for _, name := range slices.Sorted(maps.Keys(v.controls.toggles)) {
			out = append(out, v.controls.toggles[name])
		}
		for _, name := range slices.Sorted(maps.Keys(v.controls.choices)) {
			out = append(out, v.controls.choices[name])
		}
		return out
	}},
	{"tradeoff", func(v *tabView) []fyne.CanvasObject { return []fyne.CanvasObject{v.tradeoff.button} }, nil, nil},
	{"node", func(v *tabView) []fyne.CanvasObject { return []fyne.CanvasObject{v.pics.Cluster} }, nil, nil},
}

// tour is the guided tour on show: an overlay that dims the window around
// the part a stop points at and says what it is, with Back, Next and Skip.
type tour struct {
	w    *Window
	v    *tabView
	at   int
	over *fyne.Container // the overlay: dimming, frames and card (tourLayout)
	lay  *tourLayout
	card fyne.CanvasObject

	title, text, count *widget.Label
	words              string // the stop's text before it is broken into lines (Chinese)
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
func (w *Window) ShowTour() { w.showTourAt(0) }

// showTourAt opens the guided tour on the tab on show at stop i.
func (w *Window) showTourAt(i int) {
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
	t.text.Wrapping = fyne.TextWrapWord // Chinese: broken into lines by the layout (wrapWords)
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
	t.card = card
	t.lay = &tourLayout{target: t.targetRects, wrap: t.wrap}
	t.over = container.New(t.lay)
	w.tour = t
	w.Canvas().Overlays().Add(t.over)
	t.over.Resize(w.Canvas().Size())
	t.show(i)
}

// tourDim is a dimming rectangle of the tour.
func tourDim() fyne.CanvasObject { return canvas.NewRectangle(color.NRGBA{A: 0x99}) }

// tourFrame is the frame around a part the tour points at.
func tourFrame() fyne.CanvasObject {
	frame := canvas.NewRectangle(color.Transparent)
	frame.StrokeColor = theme.Color(theme.ColorNamePrimary)
	frame.StrokeWidth = 3
	frame.CornerRadius = 4
	return frame
}

// targetRects are the rectangles the stop on show frames and those it
// dims inside them.
func (t *tour) targetRects() (frames, shade []tourRect) {
	stop := tourStops[t.at]
	if stop.groups == nil {
		return []tourRect{t.targetRect(stop.targets(t.v))}, nil
	}
	for _, g := range stop.groups(t.v) {
		if r := t.targetRect(g); !r.empty() {
			frames = append(frames, r)
		}
	}
	if stop.others != nil {
		for _, o := range stop.others(t.v) {
			if r := t.targetRect([]fyne.CanvasObject{o}); !r.empty() {
				shade = append(shade, r)
			}
		}
	}
	return frames, shade
}

// wrap sets the stop's text for a card whose text is width wide: Chinese
// is broken into lines by wrapWords, between characters but never inside
// a Latin word (Fyne's word wrap breaks only at spaces, its break wrap
// anywhere, "Red-is").
func (t *tour) wrap(width float32) {
	text := t.words
	if i18n.Current() == i18n.Chinese {
		size := theme.TextSize()
		text = strings.Join(widgets.WrapWords(t.words, size, width-2*theme.InnerPadding()-2), "\n")
	}
	if t.text.Text != text {
		t.text.SetText(text)
	}
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
	t.words = i18n.T("tour." + stop.key + ".text")
	t.text.SetText(t.words)
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
	// Four dims around the framed area, a frame per group, a dim on each
	// other control inside the area, and the card.
	frames, shade := t.targetRects()
	objs := []fyne.CanvasObject{tourDim(), tourDim(), tourDim(), tourDim()}
	for range max(1, len(frames)) {
		objs = append(objs, tourFrame())
	}
	for range shade {
		objs = append(objs, tourDim())
	}
	t.over.Objects = append(objs, t.card)
	t.over.Refresh()
	t.lay.Layout(t.over.Objects, t.over.Size())
}

// frames are the tour's frames on show, in the overlay's objects.
func (t *tour) frames() []fyne.CanvasObject {
	n, _ := t.targetRects()
	return t.over.Objects[4 : 4+max(1, len(n))]
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
// the framed area, a frame on each target, a dim on each other control
// inside the area, and the card (the last object) below the area (or
// above, or inside when neither has room), kept within the window. The
// targets are measured at each layout, so the frames follow a resized
// window.
type tourLayout struct {
	target func() (frames, shade []tourRect)
	wrap   func(width float32) // sets the card's text for its width
}

// Layout implements fyne.Layout.
func (l *tourLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	const pad = 4
	frames, shade := l.target()
	if len(objs) < 6 || len(objs) < 5+max(1, len(frames))+len(shade) {
		return
	}
	var r tourRect
	for _, f := range frames {
		r = r.union(f)
	}
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
	if len(frames) == 0 {
		place(objs[4], x0, y0, x1-x0, y1-y0)
	}
	for i, f := range frames {
		if len(frames) == 1 {
			place(objs[4], x0, y0, x1-x0, y1-y0)
			break
		}
		// Tight on each group: the rows of controls touch each other.
		place(objs[4+i], f.min.X, f.min.Y, f.max.X-f.min.X, f.max.Y-f.min.Y)
	}
	// Other controls inside the area are dimmed, clipped to it so no part
	// is dimmed twice.
	next := 4 + max(1, len(frames))
	for i, o := range shade {
		ox0, oy0 := max(o.min.X, x0), max(o.min.Y, y0)
		ox1, oy1 := min(o.max.X, x1), min(o.max.Y, y1)
		place(objs[next+i], ox0, oy0, ox1-ox0, oy1-oy0)
	}

	card := objs[len(objs)-1]
	w := min(float32(tourCardWidth), size.Width-2*pad)
	if l.wrap != nil {
		l.wrap(w - 2*theme.Padding())
	}
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
