package kubernetes

import (
	"fmt"
	"image/color"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	kubernetessim "github.com/lockscope/lockscope/sim/kubernetes"
	"github.com/lockscope/lockscope/widgets"
)

// Lease is the Kubernetes Lease's state picture: the Lease object as etcd
// holds it (holderIdentity, leaseDurationSeconds, acquireTime, renewTime,
// leaseTransitions, resourceVersion) in a card, and beside it each
// candidate's LeaderElector: the leader's renew deadline on its own clock,
// each other's observed record and when, on its own clock, that record
// runs out for it, each with a bar that empties as it runs.
type Lease struct {
	widget.BaseWidget
	view  *kubernetessim.View
	nodes []sim.NodeView
	widgets.OnShow

	renderer *leaseRenderer
}

// NewLease returns an empty picture; SetSnapshot fills it.
func NewLease() *Lease {
	l := &Lease{}
	l.ExtendBaseWidget(l)
	return l
}

// SetSnapshot shows the Kubernetes view of a snapshot.
func (l *Lease) SetSnapshot(s *sim.Snapshot) {
	if !l.Take(s) {
		return
	}
	l.view, l.nodes = nil, nil
	if s != nil {
		l.view, l.nodes = kubernetessim.ViewOf(s), s.Nodes
	}
	l.Refresh()
}

// CreateRenderer implements fyne.Widget.
func (l *Lease) CreateRenderer() fyne.WidgetRenderer {
	r := &leaseRenderer{l: l, texts: widgets.NewTextPool(leaseTextSize, false), bold: widgets.NewTextPool(leaseTextSize, true),
		rects: widgets.NewRectPool()}
	r.pools = widgets.Pools{r.rects, r.texts, r.bold}
	l.renderer = r
	r.Refresh()
	return r
}

// tone is a line's colour.
type tone uint8

const (
	toneText tone = iota
	toneMuted
	toneLeading
	toneWaiting
	toneDanger
	tones
)

// line is one line of text; a candidate's first line may have a bar
// under it (bar ≥ 0: the fraction still to run).
type line struct {
	text string
	tone tone
	bold bool
	bar  float32
}

// leaseModel is what the picture shows, worked out before any size is
// known: the object's card and the candidates' column.
type leaseModel struct {
	object     []line
	candidates []line
}

// fraction is the part of whole that left still is, within 0 and 1.
func fraction(left, whole time.Duration) float32 {
	if whole <= 0 || left <= 0 {
		return 0
	}
	return float32(min(float64(left)/float64(whole), 1))
}

// rate is a clock's rate error as a signed percentage.
func rate(r float64) string { return fmt.Sprintf("%+.0f %%", r*100) }

// holder is a holderIdentity as the picture writes it.
func holder(h string) string {
	if h == "" {
		return i18n.T("kubernetes.lease.noHolder")
	}
	return h
}

func buildLeaseModel(v *kubernetessim.View, nodes []sim.NodeView) leaseModel {
	var m leaseModel
	if v == nil {
		return m
	}
	obj := func(r line) { m.object = append(m.object, r) }
	obj(line{text: i18n.F("kubernetes.lease.title", "lease", kubernetessim.LeaseName), bold: true, bar: -1})
	if !v.Lease.Exists {
		obj(line{text: i18n.T("kubernetes.lease.none"), tone: toneMuted, bar: -1})
	} else {
		l := v.Lease
		t := toneLeading
		if l.Holder == "" {
			t = toneMuted
		}
		// The fields that say who holds it first: a short box shows those.
		obj(line{text: i18n.F("kubernetes.lease.holder", "holder", holder(l.Holder)), tone: t, bold: true, bar: -1})
		obj(line{text: i18n.F("kubernetes.lease.transitions", "n", l.Transitions), bar: -1})
		obj(line{text: i18n.F("kubernetes.lease.rv", "rv", l.ResourceVersion), bar: -1})
		obj(line{text: i18n.F("kubernetes.lease.duration", "n", l.DurationSeconds), bar: -1})
		obj(line{text: i18n.F("kubernetes.lease.renew", "at", widgets.FormatTime(l.RenewTime)), bar: -1})
		obj(line{text: i18n.F("kubernetes.lease.acquire", "at", widgets.FormatTime(l.AcquireTime)), bar: -1})
	}
	obj(line{text: i18n.F("kubernetes.lease.writes", "writes", v.Writes, "conflicts", v.Conflicts), tone: toneMuted, bar: -1})
	cand := func(r line) { m.candidates = append(m.candidates, r) }
	for _, c := range v.Candidates {
		name := ""
		if c.Node < len(nodes) {
			name = nodes[c.Node].Name
		}
		switch {
		case c.Leading && c.Paused:
			cand(line{text: i18n.F("kubernetes.cand.leads", "client", name, "rate", rate(c.Rate)), tone: toneDanger, bold: true, bar: -1})
			cand(line{text: i18n.T("kubernetes.cand.paused"), tone: toneDanger, bar: -1})
		case c.Leading && c.Renewing:
			cand(line{text: i18n.F("kubernetes.cand.leads", "client", name, "rate", rate(c.Rate)), tone: toneLeading, bold: true, bar: -1})
			cand(line{text: i18n.F("kubernetes.cand.deadline", "left", widgets.ShortTime(max(c.DeadlineLeft, 0))), tone: toneMuted, bar: -1})
		case c.Leading:
			cand(line{text: i18n.F("kubernetes.cand.leads", "client", name, "rate", rate(c.Rate)), tone: toneLeading, bold: true, bar: -1})
			cand(line{text: i18n.T("kubernetes.cand.renewed"), tone: toneMuted, bar: -1})
		case c.Told:
			cand(line{text: i18n.F("kubernetes.cand.stopped", "client", name), tone: toneDanger, bold: true, bar: -1})
		case c.Idle:
			cand(line{text: i18n.F("kubernetes.cand.idle", "client", name), tone: toneMuted, bar: -1})
		case !c.Observed:
			cand(line{text: i18n.F("kubernetes.cand.unseen", "client", name, "rate", rate(c.Rate)), tone: toneWaiting, bar: -1})
		case c.Holder == "":
			cand(line{text: i18n.F("kubernetes.cand.waits", "client", name, "rate", rate(c.Rate)), tone: toneWaiting, bold: true, bar: -1})
			cand(line{text: i18n.T("kubernetes.cand.free"), tone: toneWaiting, bar: 0})
		case c.Left <= 0:
			cand(line{text: i18n.F("kubernetes.cand.waits", "client", name, "rate", rate(c.Rate)), tone: toneWaiting, bold: true, bar: -1})
			cand(line{text: i18n.F("kubernetes.cand.expired", "holder", holder(c.Holder)), tone: toneWaiting, bar: 0})
		default:
			cand(line{text: i18n.F("kubernetes.cand.waits", "client", name, "rate", rate(c.Rate)), tone: toneWaiting, bold: true, bar: -1})
			cand(line{text: i18n.F("kubernetes.cand.left", "holder", holder(c.Holder), "left", widgets.ShortTime(c.Left)),
				tone: toneWaiting, bar: fraction(c.Left, c.Lease)})
		}
	}
	return m
}

// Lengths of the picture, in points at widgets.BaseTextSize (times k).
const (
	leaseTextSize = 12.5
	leaseRowH     = 19
	leaseBarH     = 8
	leaseBarGap   = 5
	leasePad      = 8
	leaseCardW    = 250 // the object's card, at most
	leaseColW     = 170 // the candidates' column beside it, at least
	leaseMinW     = 320
	leaseMinH     = 100
)

// leaseRefSize is the size the picture is drawn at its own sizes.
var leaseRefSize = fyne.NewSize(640, 300)

// leaseGeometry places the model: the card on the left, the candidates
// on its right (under it when the picture is narrow). A line that would
// end below the box (bottom) is left out, and the card ends with the
// last line shown.
type leaseGeometry struct {
	bottom       float32
	k            float32
	card         fyne.Position // the card's top left
	cardSize     fyne.Size
	objY         []float32
	colX, colW   float32
	candY        []float32
	height       float32
	textW, cardT float32
}

func leaseLayout(m leaseModel, size fyne.Size, th fyne.Theme) leaseGeometry {
	k := widgets.GrowScale(size, leaseRefSize, widgets.MostGrowth) * widgets.TextScale(th)
	pad := leasePad * k
	g := leaseGeometry{k: k, card: fyne.NewPos(pad, pad), bottom: size.Height}
	g.cardSize = fyne.NewSize(min(leaseCardW*k, 0.45*size.Width, size.Width-2*pad), float32(len(m.object))*leaseRowH*k+2*pad)
	y := pad + pad
	for range m.object {
		g.objY = append(g.objY, y)
		y += leaseRowH * k
	}
	g.cardT = g.cardSize.Width - 2*pad
	side := size.Width-g.cardSize.Width-3*pad >= leaseColW*k
	if side {
		g.colX, y = g.cardSize.Width+2*pad, pad
	} else {
		g.colX, y = pad, g.cardSize.Height+2*pad
	}
	g.colW = max(size.Width-g.colX-pad, 40)
	for _, r := range m.candidates {
		g.candY = append(g.candY, y)
		y += leaseRowH * k
		if r.bar >= 0 {
			y += leaseBarH*k + leaseBarGap*k
		}
	}
	g.height = max(y, g.cardSize.Height+pad) + pad
	return g
}

// shows says whether a line at y (with its bar) ends within the box.
func (g leaseGeometry) shows(y float32, r line) bool {
	end := y + leaseRowH*g.k
	if r.bar >= 0 {
		end += leaseBarH * g.k
	}
	return end <= g.bottom
}

// cardShown is the card's size with the lines the box shows.
func (g leaseGeometry) cardShown(m leaseModel) fyne.Size {
	h := g.cardSize.Height
	for i := len(m.object) - 1; i >= 0 && !g.shows(g.objY[i], m.object[i]); i-- {
		h -= leaseRowH * g.k
	}
	return fyne.NewSize(g.cardSize.Width, max(h, 0))
}

// DrawnHeight implements designtab.Drawn.
func (l *Lease) DrawnHeight(size fyne.Size) float32 {
	if l.renderer == nil {
		return size.Height
	}
	return min(leaseLayout(l.renderer.model, size, l.Theme()).height, size.Height)
}

type leaseRenderer struct {
	l                 *Lease
	refreshes, builds int
	model             leaseModel
	colors            [tones]color.Color
	card              color.Color
	texts, bold       *widgets.Pool[*canvas.Text]
	rects             *widgets.Pool[*canvas.Rectangle]
	pools             widgets.Pools
	objects           []fyne.CanvasObject
}

func (r *leaseRenderer) Destroy() {}

func (r *leaseRenderer) MinSize() fyne.Size {
	em := widgets.TextScale(r.l.Theme())
	return fyne.NewSize(leaseMinW*em, leaseMinH*em)
}

func (r *leaseRenderer) Objects() []fyne.CanvasObject { return r.objects }

// Refresh builds the model (SetSnapshot calls it only for a new instant)
// and takes the theme's colours, then lays them out.
func (r *leaseRenderer) Refresh() {
	r.refreshes++
	r.builds++
	r.model = buildLeaseModel(r.l.view, r.l.nodes)
	th := r.l.Theme()
	r.colors = [tones]color.Color{widgets.ThemeColor(th, theme.ColorNameForeground), widgets.ThemeColor(th, theme.ColorNamePlaceHolder),
		widgets.ColorHolding, widgets.ColorWaiting, widgets.ColorViolation}
	r.card = widgets.ThemeColor(th, theme.ColorNameInputBackground)
	r.Layout(r.l.Size())
}

// text places one line at (x, y) within width w.
func (r *leaseRenderer) text(row line, x, y, w, k float32) {
	pool := r.texts
	if row.bold {
		pool = r.bold
	}
	t := pool.Next()
	widgets.ResizeText(t, leaseTextSize*k)
	widgets.PlaceText(t, widgets.FitText(row.text, leaseTextSize*k, row.bold, w), fyne.NewPos(x, y), r.colors[row.tone])
}

// Layout places the pooled objects of the stored model in size.
func (r *leaseRenderer) Layout(size fyne.Size) {
	r.pools.Reset()
	if len(r.model.object) > 0 {
		g := leaseLayout(r.model, size, r.l.Theme())
		pad := leasePad * g.k
		widgets.PlaceRect(r.rects.Next(), g.card, g.cardShown(r.model), r.card)
		for i, row := range r.model.object {
			if g.shows(g.objY[i], row) {
				r.text(row, g.card.X+pad, g.objY[i], g.cardT, g.k)
			}
		}
		for i, row := range r.model.candidates {
			if !g.shows(g.candY[i], row) {
				continue
			}
			r.text(row, g.colX, g.candY[i], g.colW, g.k)
			if row.bar >= 0 {
				y := g.candY[i] + leaseRowH*g.k
				widgets.PlaceRect(r.rects.Next(), fyne.NewPos(g.colX, y), fyne.NewSize(g.colW, leaseBarH*g.k), r.colors[toneMuted])
				widgets.PlaceRect(r.rects.Next(), fyne.NewPos(g.colX, y), fyne.NewSize(g.colW*row.bar, leaseBarH*g.k), r.colors[row.tone])
			}
		}
	}
	if objs := r.pools.Finish(); objs != nil {
		r.objects = objs
		widgets.Repaint(r.l)
	}
}
