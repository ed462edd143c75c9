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

// A picture's geometry says where each of its canvas objects goes as a
// spot: a TextSpot, RectSpot or LineSpot, a plain value worked out from
// the snapshot (or timeline) and the size alone, so it is tested without
// a canvas object; its placing hands each spot to its object (Place).
// The zero spot hides its object.

// TextSpot is where a text goes: its words, their top-left corner and
// colour; Size, when not 0, is the text size it is given first.
type TextSpot struct {
	Shown bool
	Text  string
	Pos   fyne.Position
	Color color.Color
	Size  float32
}

// TextAt is the spot of the words s at pos in colour c.
func TextAt(s string, pos fyne.Position, c color.Color) TextSpot {
	return TextSpot{Shown: true, Text: s, Pos: pos, Color: c}
}

// Sized is s at text size size.
func (s TextSpot) Sized(size float32) TextSpot {
	s.Size = size
	return s
}

// Place gives t its size (when the spot has one) and puts it where s
// says (PlaceText), or hides it.
func (s TextSpot) Place(t *canvas.Text) {
	if s.Size != 0 {
		ResizeText(t, s.Size)
	}
	if !s.Shown {
		t.Hide()
		return
	}
	PlaceText(t, s.Text, s.Pos, s.Color)
}

// RectSpot is where a rectangle goes and its fill; a Border one has its
// stroke set too (PlaceBox), any other keeps the stroke it has
// (PlaceRect).
type RectSpot struct {
	Shown  bool
	Pos    fyne.Position
	Size   fyne.Size
	Fill   color.Color
	Border bool
	Stroke color.Color
	Width  float32
}

// RectAt is the spot of a rectangle at pos of size filled with fill.
func RectAt(pos fyne.Position, size fyne.Size, fill color.Color) RectSpot {
	return RectSpot{Shown: true, Pos: pos, Size: size, Fill: fill}
}

// BoxAt is RectAt with a border of stroke, width wide.
func BoxAt(pos fyne.Position, size fyne.Size, fill, stroke color.Color, width float32) RectSpot {
	return RectSpot{Shown: true, Pos: pos, Size: size, Fill: fill, Border: true, Stroke: stroke, Width: width}
}

// Place puts r where s says, or hides it.
func (s RectSpot) Place(r *canvas.Rectangle) {
	switch {
	case !s.Shown:
		r.Hide()
	case s.Border:
		PlaceBox(r, s.Pos, s.Size, s.Fill, s.Stroke, s.Width)
	default:
		PlaceRect(r, s.Pos, s.Size, s.Fill)
	}
}

// LineSpot is where a line goes: its ends, colour and width.
type LineSpot struct {
	Shown bool
	A, B  fyne.Position
	Color color.Color
	Width float32
}

// LineAt is the spot of a line from a to b in colour c, w wide.
func LineAt(a, b fyne.Position, c color.Color, w float32) LineSpot {
	return LineSpot{Shown: true, A: a, B: b, Color: c, Width: w}
}

// Place puts l where s says, or hides it.
func (s LineSpot) Place(l *canvas.Line) {
	if !s.Shown {
		l.Hide()
		return
	}
	PlaceLine(l, s.A, s.B, s.Color, s.Width)
}
