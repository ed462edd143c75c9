package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/assets/i18n"
)

// Panel frames one picture of a tab with a title and a hairline border in
// the theme's colours, so the window reads as a few labelled areas. The
// border is four lines rather than a filled rectangle: under a software
// GL renderer every filled pixel is shaded on each frame, and panels cover
// most of the window.
type Panel struct {
	widget.BaseWidget

	Title string
	Body  fyne.CanvasObject
}

// NewPanel returns a titled frame around body. The title may be a
// translation key: it is looked up each time the panel is drawn.
func NewPanel(title string, body fyne.CanvasObject) *Panel {
	p := &Panel{Title: title, Body: body}
	p.ExtendBaseWidget(p)
	return p
}

// SetTitle changes the title.
func (p *Panel) SetTitle(title string) {
	p.Title = title
	p.Refresh()
}

// CreateRenderer implements fyne.Widget.
func (p *Panel) CreateRenderer() fyne.WidgetRenderer {
	r := &panelRenderer{p: p, title: newText(12, true)}
	for i := range r.border {
		r.border[i] = &canvas.Line{StrokeWidth: 1}
	}
	r.Refresh()
	return r
}

type panelRenderer struct {
	p      *Panel
	border [4]*canvas.Line
	title  *canvas.Text
}

const (
	panelPad    = 8
	panelTitleH = 22
)

func (r *panelRenderer) Destroy() {}

func (r *panelRenderer) Layout(size fyne.Size) {
	w, h := size.Width-0.5, size.Height-0.5
	r.border[0].Position1, r.border[0].Position2 = fyne.NewPos(0.5, 0.5), fyne.NewPos(w, 0.5)
	r.border[1].Position1, r.border[1].Position2 = fyne.NewPos(w, 0.5), fyne.NewPos(w, h)
	r.border[2].Position1, r.border[2].Position2 = fyne.NewPos(0.5, h), fyne.NewPos(w, h)
	r.border[3].Position1, r.border[3].Position2 = fyne.NewPos(0.5, 0.5), fyne.NewPos(0.5, h)
	for _, l := range r.border {
		l.Refresh()
	}
	top := float32(panelPad)
	if r.p.Title != "" {
		top = panelTitleH + 2
	}
	// A narrow panel shortens its title with an ellipsis rather than
	// letting it run past the border.
	if full := i18n.T(r.p.Title); r.title.Text != fitText(full, r.title.TextSize, true, size.Width-2*panelPad-4) {
		r.title.Text = fitText(full, r.title.TextSize, true, size.Width-2*panelPad-4)
		r.title.Resize(r.title.MinSize())
		r.title.Refresh()
	}
	r.p.Body.Move(fyne.NewPos(panelPad, top))
	r.p.Body.Resize(fyne.NewSize(size.Width-2*panelPad, size.Height-top-panelPad))
}

func (r *panelRenderer) MinSize() fyne.Size {
	m := r.p.Body.MinSize()
	top := float32(panelPad)
	if r.p.Title != "" {
		top = panelTitleH + 2
	}
	return fyne.NewSize(m.Width+2*panelPad, m.Height+top+panelPad)
}

func (r *panelRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.border[0], r.border[1], r.border[2], r.border[3], r.title, r.p.Body}
}

func (r *panelRenderer) Refresh() {
	th := r.p.Theme()
	for _, l := range r.border {
		l.StrokeColor = themeColor(th, theme.ColorNameSeparator)
	}
	r.title.Text = fitText(i18n.T(r.p.Title), r.title.TextSize, true, r.p.Size().Width-2*panelPad-4)
	r.title.Color = themeColor(th, theme.ColorNamePlaceHolder)
	r.title.Move(fyne.NewPos(panelPad+2, 5))
	r.title.Resize(r.title.MinSize())
	r.title.Refresh()
	r.Layout(r.p.Size())
	r.p.Body.Refresh()
}
