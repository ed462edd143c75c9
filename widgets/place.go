package widgets

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// NewText makes a canvas.Text with the given size and style.
func NewText(size float32, bold bool) *canvas.Text {
	t := canvas.NewText("", color.Black)
	t.TextSize = size
	t.TextStyle = fyne.TextStyle{Bold: bold}
	return t
}

// PlaceText sets a text's content and puts its top-left corner at pos.
// Like the other place helpers it refreshes the object only when what it
// draws changed: a GL text refresh re-rasterises the glyphs, and most
// texts stay the same from one frame to the next.
func PlaceText(t *canvas.Text, s string, pos fyne.Position, c color.Color) {
	changed := t.Text != s || t.Color != c || t.Hidden || t.Alignment != fyne.TextAlignLeading
	t.Text, t.Color, t.Hidden = s, c, false
	t.Alignment = fyne.TextAlignLeading
	if changed {
		t.Resize(t.MinSize())
		t.Refresh()
	}
	t.Move(pos)
}

// PlaceLine sets a line's end points, colour and width and shows it.
func PlaceLine(l *canvas.Line, a, b fyne.Position, c color.Color, w float32) {
	if !l.Hidden && l.Position1 == a && l.Position2 == b && l.StrokeColor == c && l.StrokeWidth == w {
		return
	}
	l.Position1, l.Position2 = a, b
	l.StrokeColor, l.StrokeWidth, l.Hidden = c, w, false
	l.Refresh()
}

// PlaceRect sets a rectangle's bounds and fill and shows it.
func PlaceRect(r *canvas.Rectangle, pos fyne.Position, size fyne.Size, fill color.Color) {
	changed := r.FillColor != fill || r.Hidden
	r.FillColor, r.Hidden = fill, false
	r.Move(pos)
	r.Resize(size)
	if changed {
		r.Refresh()
	}
}

// PlaceBox is placeRect for a rectangle with a border.
func PlaceBox(r *canvas.Rectangle, pos fyne.Position, size fyne.Size, fill, stroke color.Color, width float32) {
	changed := r.FillColor != fill || r.StrokeColor != stroke || r.StrokeWidth != width || r.Hidden
	r.FillColor, r.StrokeColor, r.StrokeWidth, r.Hidden = fill, stroke, width, false
	r.Move(pos)
	r.Resize(size)
	if changed {
		r.Refresh()
	}
}

// Repaint marks a widget's canvas for repainting after its renderer made
// new objects: the canvas does not know them yet, so refreshing them alone
// would not reach it. It re-rasterises the widget's texts, so renderers
// call it only when a pool grew.
func Repaint(w fyne.Widget) {
	if fyne.CurrentApp() != nil && fyne.CurrentApp().Driver().CanvasForObject(w) != nil {
		canvas.Refresh(w)
	}
}

// ResizeText gives a text a new size, refreshing it only when it changed.
func ResizeText(t *canvas.Text, size float32) {
	if t.TextSize != size {
		t.TextSize = size
		t.Resize(t.MinSize())
		t.Refresh()
	}
}

// ResizeTexts gives each text its size at scale 1 (sizes) times k.
func ResizeTexts(k float32, sizes map[*canvas.Text]float32) {
	for t, size := range sizes {
		ResizeText(t, size*k)
	}
}
