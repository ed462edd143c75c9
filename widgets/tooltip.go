package widgets

import (
	"image/color"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/assets/i18n"
)

// TipDelay is how long the mouse rests on a control before its tip shows.
const TipDelay = 600 * time.Millisecond

const tipMaxWidth = 380

// TipLayer shows hover help. Fyne 2.8 has no tooltips, and an overlay
// would take every mouse event from the window, so the tip is drawn in a
// layer stacked above the content that answers no events: the control
// under the mouse keeps working while its tip is up.
type TipLayer struct {
	widget.BaseWidget

	text  string
	at    fyne.Position // absolute
	shown bool
	gen   int // bumps on every show or hide, so a late timer does nothing
	timer *time.Timer
}

// NewTipLayer returns a layer to stack above the window's content.
func NewTipLayer() *TipLayer {
	l := &TipLayer{}
	l.ExtendBaseWidget(l)
	return l
}

// ShowAfter shows text near the absolute position at once the mouse has
// rested TipDelay. Call it on the UI goroutine.
func (l *TipLayer) ShowAfter(text string, at fyne.Position) {
	l.cancel()
	if text == "" {
		return
	}
	gen := l.gen
	l.timer = time.AfterFunc(TipDelay, func() {
		fyne.Do(func() {
			if l.gen == gen {
				l.ShowNow(text, at)
			}
		})
	})
}

// ShowNow shows text near the absolute position at immediately.
func (l *TipLayer) ShowNow(text string, at fyne.Position) {
	l.cancel()
	l.text, l.at, l.shown = text, at, true
	l.Refresh()
}

// HideTip removes the tip and forgets a pending one.
func (l *TipLayer) HideTip() {
	l.cancel()
	if l.shown {
		l.shown = false
		l.Refresh()
	}
}

// Tip is the text on show, "" when none is.
func (l *TipLayer) Tip() string {
	if !l.shown {
		return ""
	}
	return l.text
}

func (l *TipLayer) cancel() {
	l.gen++
	if l.timer != nil {
		l.timer.Stop()
		l.timer = nil
	}
}

// CreateRenderer implements fyne.Widget.
func (l *TipLayer) CreateRenderer() fyne.WidgetRenderer {
	r := &tipRenderer{l: l, bg: &canvas.Rectangle{CornerRadius: 4, StrokeWidth: 1}, lines: NewTextPool(12, false)}
	r.pools = Pools{r.lines}
	r.Refresh()
	return r
}

type tipRenderer struct {
	l       *TipLayer
	bg      *canvas.Rectangle
	lines   *Pool[*canvas.Text]
	pools   Pools
	objects []fyne.CanvasObject

	model tipModel
	// builds counts the model's builds, so a test can tell a resize
	// builds none.
	builds int
}

// tipModel is the tip as shown, worked out from its text before any place
// is known: its lines, its box's size and the theme's colours and paddings.
type tipModel struct {
	shown            bool
	lines            []string
	box              fyne.Size
	fg, fill, shadow color.Color
	inset, margin    float32 // the text's inset in the box (inner padding), the box's from the layer's edges (padding)
}

// tipLineH is the height of a line of the tip.
const tipLineH = 17

func (r *tipRenderer) Destroy()                     {}
func (r *tipRenderer) MinSize() fyne.Size           { return fyne.Size{} }
func (r *tipRenderer) Objects() []fyne.CanvasObject { return r.objects }

// Refresh works out the tip's model (its lines set in tipMaxWidth, its
// box) and takes the theme's colours, then lays it out.
func (r *tipRenderer) Refresh() {
	l := r.l
	r.builds++
	r.model = tipModel{shown: l.shown}
	if l.shown {
		th := l.Theme()
		m := &r.model
		m.fg = ThemeColor(th, theme.ColorNameForeground)
		m.fill, m.shadow = ThemeColor(th, theme.ColorNameMenuBackground), ThemeColor(th, theme.ColorNameShadow)
		m.inset, m.margin = th.Size(theme.SizeNameInnerPadding), th.Size(theme.SizeNamePadding)
		m.lines = WrapWords(l.text, 12, tipMaxWidth)
		w := float32(0)
		for _, s := range m.lines {
			w = max(w, TextWidth(s, 12, false))
		}
		m.box = fyne.NewSize(w+2*m.inset, float32(len(m.lines))*tipLineH+10)
	}
	r.Layout(l.Size())
}

// Layout places the tip's box near the mouse, kept inside size: below and
// right of it, or above it where the box would run off the bottom.
func (r *tipRenderer) Layout(size fyne.Size) {
	l, m := r.l, r.model
	r.pools.Reset()
	if m.shown {
		origin := fyne.NewPos(0, 0)
		if app := fyne.CurrentApp(); app != nil {
			origin = app.Driver().AbsolutePositionForObject(l)
		}
		w, h := m.box.Width, m.box.Height
		p := l.at.Subtract(origin).AddXY(14, 22)
		p.X = max(min(p.X, size.Width-w-m.margin), m.margin)
		if p.Y+h > size.Height-m.margin {
			p.Y = l.at.Y - origin.Y - h - 8
		}
		PlaceBox(r.bg, p, m.box, m.fill, m.shadow, 1)
		for i, s := range m.lines {
			PlaceText(r.lines.Next(), s, p.AddXY(m.inset, 5+float32(i)*tipLineH), m.fg)
		}
	} else {
		r.bg.Hide()
	}
	if objs := r.pools.Finish(); objs != nil || r.objects == nil {
		r.objects = append([]fyne.CanvasObject{r.bg}, r.pools.All()...)
	}
	// The tip may be the only thing that changed, and its objects may be
	// new to the canvas: mark the layer itself for repainting.
	Repaint(l)
}

// tipHover is the hover half of a control with a tip. The text may be a
// translation key: it is looked up when the tip shows, so a tip follows a
// change of language.
type tipHover struct {
	layer *TipLayer
	text  string
}

func (h *tipHover) in(e *desktop.MouseEvent) {
	if h.layer != nil {
		h.layer.ShowAfter(i18n.T(h.text), e.AbsolutePosition)
	}
}

func (h *tipHover) moved(e *desktop.MouseEvent) {
	if h.layer != nil && h.layer.Tip() == "" {
		h.layer.ShowAfter(i18n.T(h.text), e.AbsolutePosition)
	}
}

func (h *tipHover) out() {
	if h.layer != nil {
		h.layer.HideTip()
	}
}

// TipSlider is a slider that explains itself on hover.
type TipSlider struct {
	widget.Slider
	tip tipHover
}

// NewTipSlider returns a slider from min to max whose tip shows in layer.
func NewTipSlider(min, max float64, layer *TipLayer, tip string) *TipSlider {
	s := &TipSlider{tip: tipHover{layer: layer, text: tip}}
	s.Min, s.Max, s.Step = min, max, 1
	s.ExtendBaseWidget(s)
	return s
}

// SetTip changes the hover text.
func (s *TipSlider) SetTip(tip string) { s.tip.text = tip }

// TipText is the hover text.
func (s *TipSlider) TipText() string { return s.tip.text }

// MouseIn implements desktop.Hoverable.
func (s *TipSlider) MouseIn(e *desktop.MouseEvent) { s.Slider.MouseIn(e); s.tip.in(e) }

// MouseMoved implements desktop.Hoverable.
func (s *TipSlider) MouseMoved(e *desktop.MouseEvent) { s.Slider.MouseMoved(e); s.tip.moved(e) }

// MouseOut implements desktop.Hoverable.
func (s *TipSlider) MouseOut() { s.Slider.MouseOut(); s.tip.out() }

// Dragged implements fyne.Draggable; the tip gets out of the way.
func (s *TipSlider) Dragged(e *fyne.DragEvent) { s.tip.out(); s.Slider.Dragged(e) }

// TipCheck is a check box that explains itself on hover.
type TipCheck struct {
	widget.Check
	tip tipHover
}

// NewTipCheck returns a check box whose tip shows in layer.
func NewTipCheck(label string, changed func(bool), layer *TipLayer, tip string) *TipCheck {
	c := &TipCheck{tip: tipHover{layer: layer, text: tip}}
	c.Text, c.OnChanged = label, changed
	c.ExtendBaseWidget(c)
	return c
}

// SetTip changes the hover text.
func (c *TipCheck) SetTip(tip string) { c.tip.text = tip }

// TipText is the hover text.
func (c *TipCheck) TipText() string { return c.tip.text }

// MouseIn implements desktop.Hoverable.
func (c *TipCheck) MouseIn(e *desktop.MouseEvent) { c.Check.MouseIn(e); c.tip.in(e) }

// MouseMoved implements desktop.Hoverable.
func (c *TipCheck) MouseMoved(e *desktop.MouseEvent) { c.Check.MouseMoved(e); c.tip.moved(e) }

// MouseOut implements desktop.Hoverable.
func (c *TipCheck) MouseOut() { c.Check.MouseOut(); c.tip.out() }

// Tapped implements fyne.Tappable.
func (c *TipCheck) Tapped(e *fyne.PointEvent) { c.tip.out(); c.Check.Tapped(e) }

// TipButton is a button that explains itself on hover.
type TipButton struct {
	widget.Button
	tip tipHover
}

// NewTipButton returns a button whose tip shows in layer.
func NewTipButton(label string, icon fyne.Resource, tapped func(), layer *TipLayer, tip string) *TipButton {
	b := &TipButton{tip: tipHover{layer: layer, text: tip}}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// SetTip changes the hover text.
func (b *TipButton) SetTip(tip string) { b.tip.text = tip }

// TipText is the hover text.
func (b *TipButton) TipText() string { return b.tip.text }

// MouseIn implements desktop.Hoverable.
func (b *TipButton) MouseIn(e *desktop.MouseEvent) { b.Button.MouseIn(e); b.tip.in(e) }

// MouseMoved implements desktop.Hoverable.
func (b *TipButton) MouseMoved(e *desktop.MouseEvent) { b.Button.MouseMoved(e); b.tip.moved(e) }

// MouseOut implements desktop.Hoverable.
func (b *TipButton) MouseOut() { b.Button.MouseOut(); b.tip.out() }

// Tapped implements fyne.Tappable.
func (b *TipButton) Tapped(e *fyne.PointEvent) { b.tip.out(); b.Button.Tapped(e) }

// TipSelect is a drop-down that explains itself on hover.
type TipSelect struct {
	widget.Select
	tip tipHover
}

// NewTipSelect returns a drop-down of options whose tip shows in layer.
func NewTipSelect(options []string, changed func(string), layer *TipLayer, tip string) *TipSelect {
	s := &TipSelect{tip: tipHover{layer: layer, text: tip}}
	s.Options, s.OnChanged = options, changed
	s.ExtendBaseWidget(s)
	return s
}

// SetTip changes the hover text.
func (s *TipSelect) SetTip(tip string) { s.tip.text = tip }

// TipText is the hover text.
func (s *TipSelect) TipText() string { return s.tip.text }

// MouseIn implements desktop.Hoverable.
func (s *TipSelect) MouseIn(e *desktop.MouseEvent) { s.Select.MouseIn(e); s.tip.in(e) }

// MouseMoved implements desktop.Hoverable.
func (s *TipSelect) MouseMoved(e *desktop.MouseEvent) { s.Select.MouseMoved(e); s.tip.moved(e) }

// MouseOut implements desktop.Hoverable.
func (s *TipSelect) MouseOut() { s.Select.MouseOut(); s.tip.out() }

// Tapped implements fyne.Tappable.
func (s *TipSelect) Tapped(e *fyne.PointEvent) { s.tip.out(); s.Select.Tapped(e) }
