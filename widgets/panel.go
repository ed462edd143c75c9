package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Panel frames one picture of a tab with a title, in the theme's colours,
// so the window reads as a few labelled areas.
type Panel struct {
	widget.BaseWidget

	Title string
	Body  fyne.CanvasObject
}

// NewPanel returns a titled frame around body.
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
	r := &panelRenderer{p: p, bg: &canvas.Rectangle{CornerRadius: 8, StrokeWidth: 1}, title: newText(12, true)}
	r.Refresh()
	return r
}

type panelRenderer struct {
	p     *Panel
	bg    *canvas.Rectangle
	title *canvas.Text
}

const (
	panelPad    = 8
	panelTitleH = 22
)

func (r *panelRenderer) Destroy() {}

func (r *panelRenderer) Layout(size fyne.Size) {
	r.bg.Resize(size)
	top := float32(panelPad)
	if r.p.Title != "" {
		top = panelTitleH + 2
	}
	r.p.Body.Move(fyne.NewPos(panelPad, top))
	r.p.Body.Resize(fyne.NewSize(size.Width-2*panelPad, size.Height-top-panelPad))
}

func (r *panelRenderer) MinSize() fyne.Size {
	m := r.p.Body.MinSize()
	return fyne.NewSize(m.Width+2*panelPad, m.Height+panelTitleH+2+panelPad)
}

func (r *panelRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.bg, r.title, r.p.Body}
}

func (r *panelRenderer) Refresh() {
	th := r.p.Theme()
	r.bg.FillColor = themeColor(th, theme.ColorNameInputBackground)
	r.bg.StrokeColor = themeColor(th, theme.ColorNameSeparator)
	r.bg.Refresh()
	r.title.Text = r.p.Title
	r.title.Color = themeColor(th, theme.ColorNamePlaceHolder)
	r.title.Move(fyne.NewPos(panelPad+2, 5))
	r.title.Resize(r.title.MinSize())
	r.title.Refresh()
	r.Layout(r.p.Size())
	r.p.Body.Refresh()
}
