package widgets

import (
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"github.com/stretchr/testify/assert"
)

// A spot puts its object where it says, sized first when it has a size;
// the zero spot hides it; a rectangle's stroke is set only by a Border
// spot.
func TestSpotsPlaceTheirObjects(t *testing.T) {
	test.NewTempApp(t)
	red := color.NRGBA{R: 0xFF, A: 0xFF}
	txt := NewText(11, false)
	TextAt("hello", fyne.NewPos(3, 4), red).Sized(14).Place(txt)
	assert.True(t, txt.Visible())
	assert.Equal(t, "hello", txt.Text)
	assert.Equal(t, fyne.NewPos(3, 4), txt.Position())
	assert.Equal(t, float32(14), txt.TextSize)
	assert.Equal(t, color.Color(red), txt.Color)
	TextSpot{Size: 9}.Place(txt)
	assert.False(t, txt.Visible(), "the zero spot hides")
	assert.Equal(t, float32(9), txt.TextSize, "a hidden spot still sizes")
	TextAt("again", fyne.NewPos(1, 1), red).Place(txt)
	assert.Equal(t, float32(9), txt.TextSize, "a spot without a size keeps the text's")

	r := &canvas.Rectangle{}
	BoxAt(fyne.NewPos(1, 2), fyne.NewSize(30, 40), red, color.Black, 2).Place(r)
	assert.Equal(t, fyne.NewSize(30, 40), r.Size())
	assert.Equal(t, float32(2), r.StrokeWidth)
	RectAt(fyne.NewPos(5, 6), fyne.NewSize(7, 8), red).Place(r)
	assert.Equal(t, fyne.NewPos(5, 6), r.Position())
	assert.Equal(t, float32(2), r.StrokeWidth, "a plain rectangle keeps its stroke")
	RectSpot{}.Place(r)
	assert.False(t, r.Visible())

	l := &canvas.Line{}
	LineAt(fyne.NewPos(0, 0), fyne.NewPos(10, 10), red, 3).Place(l)
	assert.Equal(t, fyne.NewPos(10, 10), l.Position2)
	assert.Equal(t, float32(3), l.StrokeWidth)
	LineSpot{}.Place(l)
	assert.False(t, l.Visible())
}
