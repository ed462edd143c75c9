package widgets

import (
	"cmp"
	"image/color"
	"slices"
	"time"

	"fyne.io/fyne/v2"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
)

// A run with more clients than lanes fit is folded: its first lanes are a
// summary band (how many clients hold and wait at each instant, stacked
// areas) and below it the busiest clients' lanes (most time holding and
// waiting), the band's gutter saying how many clients are folded away.

// tlFoldLane is the least height of a lane: when every client's lane
// would be lower, the timeline folds; tlFoldedLane is the height of a
// lane under the summary band.
const (
	tlFoldLane   = 14
	tlFoldedLane = 18
)

// The summary band's height: a third of the lanes' room, within these.
const (
	tlSummaryMin = 44
	tlSummaryMax = 120
)

// tlCrowd is what a folded timeline is worked out from, once per run
// (SetTimeline): the clients busiest first, and how many hold and wait
// from each instant on.
type tlCrowd struct {
	busiest []int
	steps   []tlStep
}

// tlStep is how many clients hold and wait from instant at on.
type tlStep struct {
	at         time.Duration
	hold, wait int
}

// crowdOf works out the run's busiest clients and its counts.
func crowdOf(tl sim.Timeline) tlCrowd {
	n := len(tl.Clients)
	busy := make([]time.Duration, n)
	type edge struct {
		at         time.Duration
		hold, wait int
	}
	var edges []edge
	add := func(ivs [][]sim.Interval, i int, hold bool) {
		if i >= len(ivs) {
			return
		}
		for _, iv := range ivs[i] {
			busy[i] += iv.To - iv.From
			h, w := 0, 1
			if hold {
				h, w = 1, 0
			}
			edges = append(edges, edge{iv.From, h, w}, edge{iv.To, -h, -w})
		}
	}
	for i := range n {
		add(tl.Holding, i, true)
		add(tl.Waiting, i, false)
	}
	c := tlCrowd{busiest: make([]int, n)}
	for i := range c.busiest {
		c.busiest[i] = i
	}
	slices.SortStableFunc(c.busiest, func(a, b int) int { return cmp.Compare(busy[b], busy[a]) })
	slices.SortStableFunc(edges, func(a, b edge) int { return cmp.Compare(a.at, b.at) })
	var hold, wait int
	for _, e := range edges {
		hold, wait = hold+e.hold, wait+e.wait
		if k := len(c.steps); k > 0 && c.steps[k-1].at == e.at {
			c.steps[k-1].hold, c.steps[k-1].wait = hold, wait
			continue
		}
		c.steps = append(c.steps, tlStep{e.at, hold, wait})
	}
	return c
}

// at is how many clients hold and wait at instant t.
func (c tlCrowd) at(t time.Duration) (hold, wait int) {
	i, found := slices.BinarySearchFunc(c.steps, t, func(s tlStep, t time.Duration) int { return cmp.Compare(s.at, t) })
	if !found {
		i--
	}
	if i < 0 {
		return 0, 0
	}
	return c.steps[i].hold, c.steps[i].wait
}

// most is the most clients that hold or wait at one instant.
func (c tlCrowd) most() int {
	m := 0
	for _, s := range c.steps {
		m = max(m, s.hold+s.wait)
	}
	return m
}

// tlFold is a folded timeline's band: how tall, how many clients in all
// and how many have a lane under it.
type tlFold struct {
	h              float32
	clients, shown int
	crowd          *tlCrowd
	folded         map[string]bool // the clients without a lane, counted in the band
}

// foldOf is how the run folds in a frame of size: nil when every client
// has a lane at least tlFoldLane high (the lanes' room as lanes counts
// it, under one row of fault badges).
func foldOf(tl sim.Timeline, c *tlCrowd, size fyne.Size) *tlFold {
	n := len(tl.Clients)
	f := tlFrame{tl: tl, size: size}
	avail := size.Height - f.bandH(1) - tlAxisH - tlLegendH
	if n == 0 || avail/float32(n) >= tlFoldLane {
		return nil
	}
	h := min(max(avail/3, tlSummaryMin), tlSummaryMax)
	shown := min(max(int((avail-h)/tlFoldedLane), 0), n)
	folded := make(map[string]bool, n-shown)
	for _, i := range c.busiest[shown:] {
		folded[tl.Clients[i]] = true
	}
	return &tlFold{h: h, clients: n, shown: shown, crowd: c, folded: folded}
}

// foldedTimeline is tl with only its clients picked, in that order:
// their lanes, grants and writes; the faults, overlaps and primaries are
// the run's.
func foldedTimeline(tl sim.Timeline, picked []int) sim.Timeline {
	out := sim.Timeline{End: tl.End, Overlaps: tl.Overlaps, Primaries: tl.Primaries, Faults: tl.Faults, Election: tl.Election}
	lane := map[sim.NodeID]sim.NodeID{}
	pick := func(ivs [][]sim.Interval, i int) []sim.Interval {
		if i < len(ivs) {
			return ivs[i]
		}
		return nil
	}
	for k, i := range picked {
		lane[sim.NodeID(i)] = sim.NodeID(k)
		out.Clients = append(out.Clients, tl.Clients[i])
		out.Waiting = append(out.Waiting, pick(tl.Waiting, i))
		out.Holding = append(out.Holding, pick(tl.Holding, i))
		out.Reading = append(out.Reading, pick(tl.Reading, i))
		out.Owned = append(out.Owned, pick(tl.Owned, i))
	}
	for _, g := range tl.Grants {
		if k, ok := lane[g.Client]; ok {
			g.Client = k
			out.Grants = append(out.Grants, g)
		}
	}
	for _, w := range tl.Writes {
		if k, ok := lane[w.Client]; ok {
			w.Client = k
			out.Writes = append(out.Writes, w)
		}
	}
	return out
}

// foldH is the summary band's height, 0 for a timeline not folded.
func (f tlFrame) foldH() float32 {
	if f.fold == nil {
		return 0
	}
	return f.fold.h
}

// summaryBand adds the folded timeline's band, width wide: its
// background, the clients holding (at the bottom) and waiting stacked
// above them at each pixel's instant, scaled to the most at once (a
// holder at least 3 points high, so one among 200 shows), and in its
// gutter how many clients there are (in fg) and how many are folded (in
// muted).
func (p *tlPicture) summaryBand(f tlFrame, width float32, fg, muted color.Color) {
	fold := f.fold
	if fold == nil {
		return
	}
	top, h := p.top, fold.h
	p.rect(0, top, width, h, Fade(ColorIdle, 0.12))
	name, caption, np, cp := f.summaryWords(top)
	p.names = append(p.names, TextAt(name, np, fg).Sized(12.5))
	p.captions = append(p.captions, TextAt(caption, cp, muted))
	most := fold.crowd.most()
	if most == 0 {
		return
	}
	x0, x1 := f.plotSpan()
	base := top + h - 3
	room := h - 6
	for x := x0; x < x1; x++ {
		hold, wait := fold.crowd.at(f.timeAt(x + 0.5))
		hh := room * float32(hold) / float32(most)
		if hold > 0 {
			hh = max(hh, 3)
		}
		wh := room * float32(wait) / float32(most)
		if hold > 0 {
			p.rect(x, base-hh, 1, hh, ColorHolding)
		}
		if wait > 0 {
			p.rect(x, base-hh-wh, 1, wh, Fade(ColorWaiting, 0.85))
		}
	}
}

// summaryWords are the band's gutter: "200 clients" and "196 folded".
func (f tlFrame) summaryWords(top float32) (name, caption string, namePos, captionPos fyne.Position) {
	fold := f.fold
	name = i18n.F("timeline.fold.all", "n", fold.clients)
	caption = i18n.F("timeline.fold.folded", "n", fold.clients-fold.shown)
	y := top + fold.h/2 - 16
	return name, caption, fyne.NewPos(8, y), fyne.NewPos(8, y+18)
}
