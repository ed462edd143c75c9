package widgets

import (
	"strings"

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
	r := &panelRenderer{p: p, title: [2]*canvas.Text{NewText(12, true), NewText(12, true)}}
	for i := range r.border {
		r.border[i] = &canvas.Line{StrokeWidth: 1}
	}
	r.Refresh()
	return r
}

type panelRenderer struct {
	p      *Panel
	border [4]*canvas.Line
	title  [2]*canvas.Text // the title's lines; the second is empty when one does

	pad       float32 // the body's inset: the theme's inner padding, taken by Refresh
	refreshes int     // Refresh's calls, so a test can tell a resize goes without
}

const (
	panelTitleH = 22
	panelLineH  = 16 // a second line of the title
)

func (r *panelRenderer) Destroy() {}

// titleLines is the title set in the panel's width: on one line where it
// fits; on two where the body keeps its minimum height under them (the
// second shortened with an ellipsis if the words run on); else on one
// line, in its short form where the title's key has one ("<key>.short":
// Redlock's "Vote tally — each try's votes, quorum and validity; each
// master's…" at 1024×768 said less than its short form whole), shortened
// with an ellipsis if even that runs on. A long title is read whole in a
// normal window and never pushes the body below its minimum.
func (r *panelRenderer) titleLines(size fyne.Size) []string {
	full := i18n.T(r.p.Title)
	w := size.Width - 2*r.pad - 4
	if full == "" || w <= 0 || TextWidth(full, 12, true) <= w {
		return []string{full}
	}
	if size.Height-panelTitleH-panelLineH-2-r.pad >= r.p.Body.MinSize().Height {
		lines := WrapWordsStyled(full, 12, w, true)
		if len(lines) >= 2 && strings.HasPrefix(full, lines[0]) {
			rest := strings.TrimSpace(full[len(lines[0]):])
			return []string{FitText(lines[0], 12, true, w), FitText(rest, 12, true, w)}
		}
	}
	return []string{FitWords(r.p.Title, 12, true, w)}
}

// top is the y of the body under a title of n lines.
func (r *panelRenderer) top(n int) float32 {
	if r.p.Title == "" {
		return r.pad
	}
	return panelTitleH + 2 + float32(n-1)*panelLineH
}

// Layout places the border, the title's lines set in the width, and the
// body under them.
func (r *panelRenderer) Layout(size fyne.Size) {
	w, h := size.Width-0.5, size.Height-0.5
	r.border[0].Position1, r.border[0].Position2 = fyne.NewPos(0.5, 0.5), fyne.NewPos(w, 0.5)
	r.border[1].Position1, r.border[1].Position2 = fyne.NewPos(w, 0.5), fyne.NewPos(w, h)
	r.border[2].Position1, r.border[2].Position2 = fyne.NewPos(0.5, h), fyne.NewPos(w, h)
	r.border[3].Position1, r.border[3].Position2 = fyne.NewPos(0.5, 0.5), fyne.NewPos(0.5, h)
	for _, l := range r.border {
		l.Refresh()
	}
	lines := r.titleLines(size)
	for i, t := range r.title {
		t.Move(fyne.NewPos(r.pad+2, 5+float32(i)*panelLineH))
		text := ""
		if i < len(lines) {
			text = lines[i]
		}
		if t.Text != text {
			t.Text = text
			t.Resize(t.MinSize())
			t.Refresh()
		}
	}
	top := r.top(len(lines))
	r.p.Body.Move(fyne.NewPos(r.pad, top))
	r.p.Body.Resize(fyne.NewSize(size.Width-2*r.pad, size.Height-top-r.pad))
}

func (r *panelRenderer) MinSize() fyne.Size {
	m := r.p.Body.MinSize()
	return fyne.NewSize(m.Width+2*r.pad, m.Height+r.top(1)+r.pad)
}

func (r *panelRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.border[0], r.border[1], r.border[2], r.border[3], r.title[0], r.title[1], r.p.Body}
}

// Refresh takes the theme's colours and padding, then lays out: the title
// in the current language.
func (r *panelRenderer) Refresh() {
	r.refreshes++
	th := r.p.Theme()
	r.pad = th.Size(theme.SizeNameInnerPadding)
	for _, l := range r.border {
		l.StrokeColor = ThemeColor(th, theme.ColorNameSeparator)
	}
	for _, t := range r.title {
		t.Text = "" // set again by Layout, in the current language
		t.Color = ThemeColor(th, theme.ColorNamePlaceHolder)
	}
	r.Layout(r.p.Size())
	r.p.Body.Refresh()
}
