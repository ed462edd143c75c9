package kubernetes

import (
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
	r := &leaseRenderer{l: l, texts: widgets.NewTextPool(widgets.ToneTextSize, false), bold: widgets.NewTextPool(widgets.ToneTextSize, true),
		rects: widgets.NewRectPool()}
	r.pools = widgets.Pools{r.rects, r.texts, r.bold}
	l.renderer = r
	r.Refresh()
	return r
}

// leaseModel is what the picture shows, worked out before any size is
// known: the object's card and the candidates' column.
type leaseModel struct {
	object     []widgets.ToneLine
	candidates []widgets.ToneLine
	owner      []int // each candidate line's candidate, in the order shown
}

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
	obj := func(r widgets.ToneLine) { m.object = append(m.object, r) }
	obj(widgets.ToneLine{Text: i18n.F("kubernetes.lease.title", "lease", kubernetessim.LeaseName), Bold: true, Bar: -1})
	if !v.Lease.Exists {
		obj(widgets.ToneLine{Text: i18n.T("kubernetes.lease.none"), Tone: widgets.ToneMuted, Bar: -1})
	} else {
		l := v.Lease
		t := widgets.ToneHolding
		if l.Holder == "" {
			t = widgets.ToneMuted
		}
		// The fields that say who holds it first: a short box shows those.
		obj(widgets.ToneLine{Text: i18n.F("kubernetes.lease.holder", "holder", holder(l.Holder)), Tone: t, Bold: true, Bar: -1})
		obj(widgets.ToneLine{Text: i18n.F("kubernetes.lease.transitions", "n", l.Transitions), Bar: -1})
		obj(widgets.ToneLine{Text: i18n.F("kubernetes.lease.rv", "rv", l.ResourceVersion), Bar: -1})
		obj(widgets.ToneLine{Text: i18n.F("kubernetes.lease.duration", "n", l.DurationSeconds), Bar: -1})
		obj(widgets.ToneLine{Text: i18n.F("kubernetes.lease.renew", "at", widgets.FormatTime(l.RenewTime)), Bar: -1})
		obj(widgets.ToneLine{Text: i18n.F("kubernetes.lease.acquire", "at", widgets.FormatTime(l.AcquireTime)), Bar: -1})
	}
	obj(widgets.ToneLine{Text: i18n.F("kubernetes.lease.writes", "writes", v.Writes, "conflicts", v.Conflicts), Tone: widgets.ToneMuted, Bar: -1})
	who := 0
	cand := func(r widgets.ToneLine) {
		m.candidates = append(m.candidates, r)
		m.owner = append(m.owner, who)
	}
	// Those who lead first, then those told they lost it, then the
	// waiters, the nearest to a takeover first: a short box (a crowd of
	// candidates) keeps the leaders, and says how many it leaves out.
	order := widgets.Ranked(v.Candidates, candidateRank, rankWaiting, func(c kubernetessim.CandidateView) time.Duration { return c.Left })
	for i, c := range order {
		who = i
		name := ""
		if c.Node < len(nodes) {
			name = nodes[c.Node].Name
		}
		switch {
		case c.Leading && c.Paused:
			cand(widgets.ToneLine{Text: i18n.F("kubernetes.cand.leads", "client", name, "rate", widgets.ClockRate(c.Rate)), Tone: widgets.ToneDanger, Bold: true, Bar: -1})
			cand(widgets.ToneLine{Text: i18n.T("kubernetes.cand.paused"), Tone: widgets.ToneDanger, Bar: -1})
		case c.Leading && c.Renewing:
			cand(widgets.ToneLine{Text: i18n.F("kubernetes.cand.leads", "client", name, "rate", widgets.ClockRate(c.Rate)), Tone: widgets.ToneHolding, Bold: true, Bar: -1})
			cand(widgets.ToneLine{Text: i18n.F("kubernetes.cand.deadline", "left", widgets.ShortTime(max(c.DeadlineLeft, 0))), Tone: widgets.ToneMuted, Bar: -1})
		case c.Leading:
			cand(widgets.ToneLine{Text: i18n.F("kubernetes.cand.leads", "client", name, "rate", widgets.ClockRate(c.Rate)), Tone: widgets.ToneHolding, Bold: true, Bar: -1})
			cand(widgets.ToneLine{Text: i18n.T("kubernetes.cand.renewed"), Tone: widgets.ToneMuted, Bar: -1})
		case c.Told:
			cand(widgets.ToneLine{Text: i18n.F("kubernetes.cand.stopped", "client", name), Tone: widgets.ToneDanger, Bold: true, Bar: -1})
		case c.Idle:
			cand(widgets.ToneLine{Text: i18n.F(idleKey(c), "client", name), Tone: widgets.ToneMuted, Bar: -1})
		case !c.Observed:
			cand(widgets.ToneLine{Text: i18n.F("kubernetes.cand.unseen", "client", name, "rate", widgets.ClockRate(c.Rate)), Tone: widgets.ToneWaiting, Bar: -1})
		case c.Holder == "":
			cand(widgets.ToneLine{Text: i18n.F("kubernetes.cand.waits", "client", name, "rate", widgets.ClockRate(c.Rate)), Tone: widgets.ToneWaiting, Bold: true, Bar: -1})
			cand(widgets.ToneLine{Text: i18n.T("kubernetes.cand.free"), Tone: widgets.ToneWaiting, Bar: 0})
		case c.Left <= 0:
			cand(widgets.ToneLine{Text: i18n.F("kubernetes.cand.waits", "client", name, "rate", widgets.ClockRate(c.Rate)), Tone: widgets.ToneWaiting, Bold: true, Bar: -1})
			cand(widgets.ToneLine{Text: i18n.F("kubernetes.cand.expired", "holder", holder(c.Holder)), Tone: widgets.ToneWaiting, Bar: 0})
		default:
			cand(widgets.ToneLine{Text: i18n.F("kubernetes.cand.waits", "client", name, "rate", widgets.ClockRate(c.Rate)), Tone: widgets.ToneWaiting, Bold: true, Bar: -1})
			cand(widgets.ToneLine{Text: i18n.F("kubernetes.cand.left", "holder", holder(c.Holder), "left", widgets.ShortTime(c.Left)),
				Tone: widgets.ToneWaiting, Bar: widgets.LeaseFraction(c.Left, c.Lease)})
		}
	}
	return m
}

// idleKey is the words for a candidate not in its LeaderElector's Run:
// not started yet, restarting, or exited for good.
func idleKey(c kubernetessim.CandidateView) string {
	switch {
	case !c.Started:
		return "kubernetes.cand.notStarted"
	case c.Over:
		return "kubernetes.cand.exited"
	}
	return "kubernetes.cand.idle"
}

// The order of the candidates' lines (candidateRank).
const (
	rankLeading = iota
	rankTold
	rankWaiting
	rankUnseen
	rankIdle
)

// candidateRank is where a candidate's lines go in the column.
func candidateRank(c kubernetessim.CandidateView) int {
	switch {
	case c.Leading:
		return rankLeading
	case c.Told:
		return rankTold
	case c.Idle:
		return rankIdle
	case !c.Observed:
		return rankUnseen
	}
	return rankWaiting
}

// Lengths of the picture, in points at widgets.BaseTextSize (times k).
const (
	leasePad   = 8
	leaseCardW = 250 // the object's card, at most
	leaseColW  = 170 // the candidates' column beside it, at least
	// leaseCardLeast is the card's rows a short box keeps under it: the
	// Lease's name and holderIdentity.
	leaseCardLeast = 2
	leaseMinW      = 320
	leaseMinH      = 100
)

// leaseRefSize is the size the picture is drawn at its own sizes.
var leaseRefSize = fyne.NewSize(640, 300)

// leaseGeometry places the model: the card on the left, the candidates
// on its right (under it when the picture is narrow). A line that would
// end below the box (bottom) is left out, and the card ends with the
// last line shown.
type leaseGeometry struct {
	bottom     float32
	k          float32
	card       fyne.Position // the card's top left
	cardSize   fyne.Size
	rows       int // the card's rows kept (the rest gave way to the candidates)
	objY       []float32
	colX, colW float32
	candY      []float32
	// candShown is how many candidate lines the box shows, in whole
	// candidates; more is how many candidates it leaves out, said on a
	// line at moreY (widgets.WholeLines).
	candShown, more int
	moreY           float32
	height          float32
	textW, cardT    float32
}

func leaseLayout(m leaseModel, size fyne.Size, th fyne.Theme) leaseGeometry {
	k := widgets.GrowScale(size, leaseRefSize, widgets.MostGrowth) * widgets.TextScale(th)
	pad := leasePad * k
	g := leaseGeometry{k: k, card: fyne.NewPos(pad, pad), bottom: size.Height}
	cardW := min(leaseCardW*k, 0.45*size.Width, size.Width-2*pad)
	side := size.Width-cardW-3*pad >= leaseColW*k
	if !side { // alone on its rows: as wide as it is drawn
		cardW = min(leaseCardW*k, size.Width-2*pad)
	}
	var candH float32
	var heights []float32
	for _, r := range m.candidates {
		heights = append(heights, r.Height(k))
		candH += r.Height(k)
	}
	// Under the card, in a box short of both, the card's later rows (the
	// times, the counts) give way to the candidates, down to its name and
	// holderIdentity, and in a box too short for those the whole card
	// does (the leaders' lines name the holder): each candidate's view on
	// its own clock is the picture's point.
	rows := len(m.object)
	cardH := func(rows int) float32 {
		if rows == 0 {
			return 0
		}
		return float32(rows)*widgets.ToneRowH*k + 2*pad
	}
	for !side && rows > 0 && pad+cardH(rows)+pad+candH > size.Height {
		if rows--; rows < leaseCardLeast {
			rows = 0
		}
	}
	g.rows, g.cardSize = rows, fyne.NewSize(cardW, cardH(rows))
	y := pad + pad
	for i := range m.object {
		if i >= rows {
			y = size.Height + 1 // given way: below the box, not shown
		}
		g.objY = append(g.objY, y)
		y += widgets.ToneRowH * k
	}
	g.cardT = g.cardSize.Width - 2*pad
	if side {
		g.colX, y = g.cardSize.Width+2*pad, pad
	} else {
		g.colX, y = pad, g.cardSize.Height+pad
		if rows > 0 {
			y += pad
		}
	}
	g.colW = max(size.Width-g.colX-pad, 40)
	for _, h := range heights {
		g.candY = append(g.candY, y)
		y += h
	}
	g.candShown, g.more, g.moreY = widgets.WholeLines(g.candY, heights, m.owner, size.Height, widgets.ToneRowH*k)
	g.height = max(y, g.cardSize.Height+pad) + pad
	return g
}

// shows says whether a line at y (with its bar) ends within the box.
func (g leaseGeometry) shows(y float32, r widgets.ToneLine) bool {
	end := y + widgets.ToneRowH*g.k
	if r.Bar >= 0 {
		end += widgets.ToneBarH * g.k
	}
	return end <= g.bottom
}

// cardShown is the card's size with the lines the box shows, its foot
// cut where the box ends.
func (g leaseGeometry) cardShown(m leaseModel) fyne.Size {
	h := g.cardSize.Height
	for i := g.rows - 1; i >= 0 && !g.shows(g.objY[i], m.object[i]); i-- {
		h -= widgets.ToneRowH * g.k
	}
	return fyne.NewSize(g.cardSize.Width, max(min(h, g.bottom-g.card.Y), 0))
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
	colors            widgets.Tones
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
	r.colors = widgets.TonesOf(th)
	r.card = widgets.ThemeColor(th, theme.ColorNameInputBackground)
	r.Layout(r.l.Size())
}

// Layout places the pooled objects of the stored model in size.
func (r *leaseRenderer) Layout(size fyne.Size) {
	r.pools.Reset()
	if len(r.model.object) > 0 {
		g := leaseLayout(r.model, size, r.l.Theme())
		pad := leasePad * g.k
		if g.rows > 0 {
			widgets.PlaceRect(r.rects.Next(), g.card, g.cardShown(r.model), r.card)
		}
		for i, row := range r.model.object {
			if g.shows(g.objY[i], row) {
				widgets.PlaceToneLine(r.texts, r.bold, row, widgets.ToneTextSize*g.k, fyne.NewPos(g.card.X+pad, g.objY[i]), g.cardT, r.colors)
			}
		}
		for i, row := range r.model.candidates[:g.candShown] {
			if !g.shows(g.candY[i], row) {
				continue
			}
			widgets.PlaceToneRow(r.texts, r.bold, r.rects, row, g.k, fyne.NewPos(g.colX, g.candY[i]), g.colW, r.colors)
		}
		if more := (widgets.ToneLine{Text: i18n.F("kubernetes.cand.more", "n", g.more), Tone: widgets.ToneMuted, Bar: -1}); g.more > 0 && g.shows(g.moreY, more) {
			widgets.PlaceToneLine(r.texts, r.bold, more, widgets.ToneTextSize*g.k, fyne.NewPos(g.colX, g.moreY), g.colW, r.colors)
		}
	}
	if objs := r.pools.Finish(); objs != nil {
		r.objects = objs
		widgets.Repaint(r.l)
	}
}
