package widgets

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"

	"github.com/lockscope/lockscope/sim/sweep"
)

// viridisStops are matplotlib's viridis at tenths. Its lightness rises
// steadily from dark violet to yellow and it keeps that order under the
// common colour-vision deficiencies and in greyscale, so a darker cell is
// always a lower rate.
var viridisStops = [...]color.NRGBA{
	{0x44, 0x01, 0x54, 0xFF}, {0x48, 0x24, 0x75, 0xFF}, {0x41, 0x44, 0x87, 0xFF},
	{0x35, 0x5F, 0x8D, 0xFF}, {0x2A, 0x78, 0x8E, 0xFF}, {0x21, 0x91, 0x8C, 0xFF},
	{0x22, 0xA8, 0x84, 0xFF}, {0x44, 0xBF, 0x70, 0xFF}, {0x7A, 0xD1, 0x51, 0xFF},
	{0xBD, 0xDF, 0x26, 0xFF}, {0xFD, 0xE7, 0x25, 0xFF},
}

// Viridis maps a share from 0 to 1 onto the viridis ramp: 0 dark violet,
// 1 yellow. Values outside 0..1 are clamped.
func Viridis(t float64) color.NRGBA {
	if math.IsNaN(t) || t <= 0 {
		return viridisStops[0]
	}
	if t >= 1 {
		return viridisStops[len(viridisStops)-1]
	}
	f := t * float64(len(viridisStops)-1)
	i := int(f)
	a, b, k := viridisStops[i], viridisStops[i+1], f-float64(i)
	mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + (float64(y)-float64(x))*k)) }
	return color.NRGBA{R: mix(a.R, b.R), G: mix(a.G, b.G), B: mix(a.B, b.B), A: 0xFF}
}

// Luminance is the relative luminance of c (sRGB, 0 to 1), by which a
// ramp is checked to be ordered.
func Luminance(c color.NRGBA) float64 {
	lin := func(v uint8) float64 {
		x := float64(v) / 255
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

// PlotUnit is how an axis of a sweep shows its values: a sweep value
// (milliseconds for durations) divided by Div, followed by Unit.
type PlotUnit struct {
	Div  float64
	Unit string
}

// AxisUnit picks the unit an axis reads best in: seconds for durations
// reaching 2 s, milliseconds for shorter ones, the bare number otherwise.
func AxisUnit(a sweep.Axis) PlotUnit {
	if !a.IsDuration() {
		return PlotUnit{Div: 1}
	}
	if len(a.Values) > 0 && a.Values[len(a.Values)-1] >= 2000 {
		return PlotUnit{Div: 1000, Unit: "s"}
	}
	return PlotUnit{Div: 1, Unit: "ms"}
}

// Number writes v in the unit without the unit's name.
func (u PlotUnit) Number(v float64) string {
	x := v / u.Div
	if math.Abs(x) < 1e-6 {
		x = 0 // never "-0"
	}
	switch {
	case x == math.Trunc(x):
		return strconv.FormatFloat(x, 'f', 0, 64)
	case math.Abs(x) >= 100:
		return strconv.FormatFloat(math.Round(x), 'f', -1, 64)
	case math.Abs(x) >= 1:
		return strconv.FormatFloat(math.Round(x*100)/100, 'f', -1, 64)
	}
	return strconv.FormatFloat(x, 'g', 3, 64)
}

// Format writes v with its unit, as "12 s" or "150 ms".
func (u PlotUnit) Format(v float64) string {
	if u.Unit == "" {
		return u.Number(v)
	}
	return u.Number(v) + " " + u.Unit
}

// Title is an axis title with its unit in brackets, as "TTL (s)".
func (u PlotUnit) Title(name string) string {
	if u.Unit == "" {
		return name
	}
	return name + " (" + u.Unit + ")"
}

// FormatPercent writes a share as a percentage with at most one decimal.
func FormatPercent(share float64) string {
	return strconv.FormatFloat(math.Round(share*1000)/10, 'f', -1, 64) + " %"
}

// FormatMs writes a length in milliseconds the way the other widgets write
// times.
func FormatMs(ms float64) string {
	if ms == 0 {
		return "0 ms"
	}
	if ms < 1000 {
		return strconv.FormatFloat(math.Round(ms*10)/10, 'f', -1, 64) + " ms"
	}
	return strconv.FormatFloat(ms/1000, 'f', 2, 64) + " s"
}

// niceTicks are round values (1, 2 or 5 times a power of ten) from lo to
// hi, at most about n of them.
func niceTicks(lo, hi float64, n int) []float64 {
	if !(hi > lo) || n < 1 {
		return nil
	}
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var out []float64
	for i := math.Ceil(lo/step - 1e-9); i*step <= hi+step*1e-9; i++ {
		out = append(out, i*step+0) // +0: never -0
	}
	return out
}

// cellBounds are the edges of the cells around sorted grid values: the
// midpoints between neighbours, and half a step beyond each end.
func cellBounds(values []float64) []float64 {
	n := len(values)
	switch n {
	case 0:
		return []float64{0, 1}
	case 1:
		half := math.Max(math.Abs(values[0])*0.05, 0.5)
		return []float64{values[0] - half, values[0] + half}
	}
	out := make([]float64, n+1)
	out[0] = values[0] - (values[1]-values[0])/2
	for i := 1; i < n; i++ {
		out[i] = (values[i-1] + values[i]) / 2
	}
	out[n] = values[n-1] + (values[n-1]-values[n-2])/2
	return out
}

// scale maps values from lo..hi onto pixels p0..p1 (p1 may be below p0,
// for a y axis that grows upwards).
type scale struct {
	lo, hi float64
	p0, p1 float32
}

func (s scale) at(v float64) float32 {
	if s.hi == s.lo {
		return (s.p0 + s.p1) / 2
	}
	return s.p0 + float32((v-s.lo)/(s.hi-s.lo))*(s.p1-s.p0)
}

func (s scale) inside(v float64) bool {
	return v >= math.Min(s.lo, s.hi) && v <= math.Max(s.lo, s.hi)
}

// fill is one filled rectangle of a plot's raster layer, in widget
// coordinates; hatch draws it as thin 45° stripes instead.
type fill struct {
	x, y, w, h float32
	c          color.NRGBA
	hatch      bool
}

// paintFills draws fills into an image of w×h device pixels for a widget
// of the given size: one texture for what would be hundreds of objects.
func paintFills(fills []fill, size fyne.Size, w, h int) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	if size.Width <= 0 || size.Height <= 0 {
		return img
	}
	sx, sy := float64(w)/float64(size.Width), float64(h)/float64(size.Height)
	for _, f := range fills {
		px := image.Rect(int(math.Round(float64(f.x)*sx)), int(math.Round(float64(f.y)*sy)),
			int(math.Round(float64(f.x+f.w)*sx)), int(math.Round(float64(f.y+f.h)*sy)))
		if px.Dx() == 0 && f.w > 0 {
			px.Max.X = px.Min.X + 1
		}
		if px.Dy() == 0 && f.h > 0 {
			px.Max.Y = px.Min.Y + 1
		}
		px = px.Intersect(img.Bounds())
		if px.Empty() {
			continue
		}
		src := image.NewUniform(f.c)
		if !f.hatch {
			draw.Draw(img, px, src, image.Point{}, draw.Over)
			continue
		}
		step := max(int(math.Round(6*sx)), 3)
		for y := px.Min.Y; y < px.Max.Y; y++ {
			first := px.Min.X - ((px.Min.X+y)%step+step)%step
			for x := first; x < px.Max.X; x += step {
				// A literal, not image.Rect, which would swap the ends
				// of a stripe starting left of the fill into a stray pixel.
				seg := image.Rectangle{Min: image.Pt(max(x, px.Min.X), y), Max: image.Pt(min(x+1, px.Max.X), y+1)}
				if !seg.Empty() {
					draw.Draw(img, seg, src, image.Point{}, draw.Over)
				}
			}
		}
	}
	return img
}

// drawXAxis draws a plot's x axis under y1 — ticks in the axis' unit about
// every `spacing` pixels, labels that do not collide, and the titled unit
// under them — from the renderer's pools, as the heatmap and the recovery
// chart both do; the tick labels are measured at caption, their size.
func drawXAxis(lines *Pool[*canvas.Line], ticks, titles *Pool[*canvas.Text], xs scale, a sweep.Axis, name string,
	x0, width, y1, spacing, caption float32, muted, fg color.Color) {
	u := AxisUnit(a)
	lastEnd := float32(-1e9)
	for _, v := range niceTicks(xs.lo/u.Div, xs.hi/u.Div, max(2, int(width/spacing))) {
		px := xs.at(v * u.Div)
		PlaceLine(lines.Next(), fyne.NewPos(px, y1), fyne.NewPos(px, y1+5), muted, 1)
		label := u.Number(v * u.Div)
		w := TextWidth(label, caption, false)
		if px-w/2 > lastEnd+6 {
			PlaceText(ticks.Next(), label, fyne.NewPos(px-w/2, y1+6), muted)
			lastEnd = px + w/2
		}
	}
	title := u.Title(name)
	PlaceText(titles.Next(), title, fyne.NewPos(x0+(width-TextWidth(title, 12, true))/2, y1+22), fg)
}
