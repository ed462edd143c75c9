package widgets

import (
	"cmp"
	"fmt"
	"image/color"
	"slices"
	"strconv"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
)

// Dashboard is the run's efficiency at the cursor, as a team would watch a
// lock service (sim.Metrics): how often and how fast the lock is taken,
// how long it is held, how much is spent on it, and how fairly it goes
// round, with a histogram of the acquire latency and of the hold time and
// a bar of the longest wait of each client (the longest first).
type Dashboard struct {
	widget.BaseWidget

	metrics sim.Metrics
	shown   bool
	version int
}

// NewDashboard returns an empty dashboard; SetMetrics fills it.
func NewDashboard() *Dashboard {
	d := &Dashboard{}
	d.ExtendBaseWidget(d)
	return d
}

// SetMetrics shows the dashboard of m.
func (d *Dashboard) SetMetrics(m sim.Metrics) {
	d.metrics, d.shown = m, true
	d.version++
	d.Refresh()
}

// Metrics is the dashboard on show.
func (d *Dashboard) Metrics() sim.Metrics { return d.metrics }

// CreateRenderer implements fyne.Widget.
func (d *Dashboard) CreateRenderer() fyne.WidgetRenderer {
	r := &dashboardRenderer{d: d, texts: NewTextPool(theme.CaptionTextSize(), false), heads: NewTextPool(theme.CaptionTextSize(), true),
		bars: NewRectPool(), lines: NewLinePool(), drawn: -1}
	r.pools = Pools{r.bars, r.lines, r.texts, r.heads}
	return r
}

type dashboardRenderer struct {
	d                         *Dashboard
	texts, heads              *Pool[*canvas.Text]
	bars                      *Pool[*canvas.Rectangle]
	lines                     *Pool[*canvas.Line]
	pools                     Pools
	objects                   []fyne.CanvasObject
	fg, muted, bar, warn, sep color.Color
	textSize                  float32
	size                      fyne.Size
	drawn                     int  // the version last drawn
	measuring                 bool // draw only works out how tall it draws, placing nothing
}

func (r *dashboardRenderer) Destroy() {}

func (r *dashboardRenderer) Objects() []fyne.CanvasObject { return r.objects }

// MinSize is as tall as the whole dashboard draws at the width it has (a
// scroll container around it scrolls the rest into view).
func (r *dashboardRenderer) MinSize() fyne.Size {
	if !r.d.shown {
		return fyne.NewSize(220, 160)
	}
	w := r.size.Width
	if w <= 0 {
		w = 260
	}
	if r.textSize == 0 {
		r.textSize = theme.CaptionTextSize()
	}
	r.measuring = true
	h := r.draw(fyne.NewSize(w, 1e6))
	r.measuring = false
	return fyne.NewSize(220, h)
}

// Refresh takes the theme's colours and sizes, then lays out.
func (r *dashboardRenderer) Refresh() {
	th := r.d.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	r.fg, r.muted = th.Color(theme.ColorNameForeground, v), th.Color(theme.ColorNamePlaceHolder, v)
	r.bar, r.warn = th.Color(theme.ColorNamePrimary, v), th.Color(theme.ColorNameWarning, v)
	r.sep = th.Color(theme.ColorNameSeparator, v)
	r.textSize = th.Size(theme.SizeNameCaptionText)
	r.drawn = -1
	r.Layout(r.size)
}

// Layout draws the dashboard in size when the metrics or the size changed.
func (r *dashboardRenderer) Layout(size fyne.Size) {
	if size == r.size && r.drawn == r.d.version {
		return
	}
	r.size, r.drawn = size, r.d.version
	r.pools.Reset()
	if r.d.shown {
		r.draw(size)
	}
	if objs := r.pools.Finish(); objs != nil {
		r.objects = objs
		Repaint(r.d)
	}
}

// dashLine is one line of figures: a label and its value.
type dashLine struct{ label, value string }

// word, rect and line place one object each, or nothing while measuring.
func (r *dashboardRenderer) word(bold bool, s string, pos fyne.Position, c color.Color) {
	if r.measuring {
		return
	}
	pool := r.texts
	if bold {
		pool = r.heads
	}
	PlaceText(pool.Next(), s, pos, c)
}

func (r *dashboardRenderer) rect(pos fyne.Position, size fyne.Size, c color.Color) {
	if !r.measuring {
		PlaceRect(r.bars.Next(), pos, size, c)
	}
}

func (r *dashboardRenderer) line(a, b fyne.Position, c color.Color) {
	if !r.measuring {
		PlaceLine(r.lines.Next(), a, b, c, 1)
	}
}

// draw places the sections top to bottom, as far as the height goes, and
// returns how tall it drew.
func (r *dashboardRenderer) draw(size fyne.Size) float32 {
	m := r.d.metrics
	lineH := r.textSize * 1.45
	y := float32(2)
	width := size.Width
	section := func(key string) {
		if y > 2 {
			r.line(fyne.NewPos(0, y+2), fyne.NewPos(width, y+2), r.sep)
			y += 6
		}
		r.word(true, FitText(i18n.T(key), r.textSize, true, width), fyne.NewPos(0, y), r.fg)
		y += lineH
	}
	rows := func(lines []dashLine) {
		for _, l := range lines {
			if y+lineH > size.Height {
				return
			}
			lw := TextWidth(l.label, r.textSize, false)
			r.word(false, FitText(l.label, r.textSize, false, width*0.55), fyne.NewPos(0, y), r.muted)
			r.word(false, FitText(l.value, r.textSize, false, width-min(lw, width*0.55)-8), fyne.NewPos(min(lw, width*0.55)+8, y), r.fg)
			y += lineH
		}
	}
	run := m.Run
	lead := func(key string) string { return LeaderWords(key, m.Election) }
	section(lead("dash.acquire"))
	rows([]dashLine{
		{i18n.T("dash.success"), ratioText(run.AcquireSuccessRate, i18n.F("dash.ofRounds", "n", strconv.Itoa(run.Acquisitions+run.GaveUp), "gaveUp", strconv.Itoa(run.GaveUp)))},
		{i18n.T("dash.contention"), ratioText(run.ContentionRatio, i18n.F("dash.ofTries", "failed", strconv.Itoa(run.FailedTries), "n", strconv.Itoa(run.Tries)))},
		{i18n.T("dash.latency"), spreadText(run.AcquireLatency)},
	})
	y = r.histogram(run.AcquireLatency, y, width, size.Height, lineH)
	section(lead("dash.hold"))
	holding := []dashLine{
		{i18n.T(lead("dash.holdTime")), spreadText(run.HoldTime)},
		{i18n.T(lead("dash.expired")), strconv.Itoa(run.ExpiredWhileHeld)},
		{i18n.T("dash.renewals"), renewalText(run)},
	}
	if m.Election { // an election's price: split brain against vacancy
		holding = append(holding,
			dashLine{i18n.T("dash.twoLeaders"), FormatTime(msLength(m.SeveralHoldersMs))},
			dashLine{i18n.T("dash.noLeader"), FormatTime(msLength(m.NoHolderMs))})
	}
	rows(holding)
	y = r.histogram(run.HoldTime, y, width, size.Height, lineH)
	section("dash.cost")
	perAcq := "—"
	if m.MessagesPerAcquisition != nil {
		perAcq = trimFloat(*m.MessagesPerAcquisition)
	}
	rows([]dashLine{
		{i18n.T("dash.messagesPerAcquisition"), perAcq},
		{i18n.T("dash.grantsPerSecond"), trimFloat(m.GrantsPerSecond)},
	})
	section("dash.fairness")
	starved := i18n.T("dash.none")
	if len(m.Fairness.Starved) > 0 {
		starved = fmt.Sprint(len(m.Fairness.Starved)) + ": " + joinNames(m.Fairness.Starved)
	}
	rows([]dashLine{
		{i18n.T("dash.inversions"), strconv.Itoa(m.Fairness.Inversions)},
		{i18n.T("dash.waits"), i18n.F("dash.waitsValue", "median", msText(m.Fairness.MedianWaitMs), "longest", msText(m.Fairness.LongestWaitMs))},
		{i18n.T("dash.starved"), starved},
	})
	return r.waits(m, y, width, size.Height, lineH)
}

// histogram draws a distribution's bins as bars under the figures, with
// the first and last edge below, and returns where the next part starts.
func (r *dashboardRenderer) histogram(d sim.Distribution, y, width, height, lineH float32) float32 {
	const chartH = 36
	if d.Count == 0 || y+chartH+lineH > height {
		return y
	}
	// 1 ms is bin 1 and 1.024 s bin 11: [2^(k-1), 2^k) ms.
	for _, b := range HistogramBars(d, width, chartH) {
		r.rect(fyne.NewPos(b.X, y+chartH-b.H), fyne.NewSize(b.W, max(b.H, 1)), r.bar)
	}
	r.line(fyne.NewPos(0, y+chartH), fyne.NewPos(width, y+chartH), r.muted)
	// The bins double from 1 ms: ticks where 1 ms, 1 s and 1 min begin.
	n := float32(len(d.Histogram))
	for _, tick := range []struct {
		bin  int
		text string
	}{{1, "1 ms"}, {11, "1 s"}, {17, "1 min"}} {
		if tick.bin >= len(d.Histogram) {
			break
		}
		x := width * float32(tick.bin) / n
		r.line(fyne.NewPos(x, y+chartH), fyne.NewPos(x, y+chartH+3), r.muted)
		if x+TextWidth(tick.text, r.textSize, false) <= width {
			r.word(false, tick.text, fyne.NewPos(x, y+chartH+1), r.muted)
		}
	}
	return y + chartH + lineH + 2
}

// Bar is one bar of a chart, in the chart's own coordinates.
type Bar struct{ X, W, H float32 }

// HistogramBars lays a distribution's bins side by side across width, each
// as tall as its share of the largest bin in height (an empty bin has no
// height), with a gap of a point between bars wider than three points.
func HistogramBars(d sim.Distribution, width, height float32) []Bar {
	n := len(d.Histogram)
	if n == 0 || width <= 0 {
		return nil
	}
	most := 0
	for _, b := range d.Histogram {
		most = max(most, b.Count)
	}
	w := width / float32(n)
	gap := float32(0)
	if w > 3 {
		gap = 1
	}
	out := make([]Bar, 0, n)
	for i, b := range d.Histogram {
		h := float32(0)
		if most > 0 {
			h = height * float32(b.Count) / float32(most)
		}
		out = append(out, Bar{X: float32(i) * w, W: w - gap, H: h})
	}
	return out
}

// waits draws the longest wait of each client, the longest first, one bar
// a line, as many as the height holds, and how many more there are; it
// returns how tall it drew.
func (r *dashboardRenderer) waits(m sim.Metrics, y, width, height, lineH float32) float32 {
	rows := WaitRows(m.Clients)
	if len(rows) == 0 || y+lineH > height {
		return y
	}
	nameW := float32(0)
	for _, c := range rows {
		nameW = max(nameW, TextWidth(c.Client, r.textSize, false))
	}
	nameW = min(nameW, width*0.35)
	longest := rows[0].LongestWaitMs
	fit := min(len(rows), MaxWaitRows, int((height-y)/lineH))
	if fit < len(rows) {
		fit = max(0, fit-1) // a line for the count of the rest
	}
	starved := map[string]bool{}
	for _, s := range m.Fairness.Starved {
		starved[s] = true
	}
	for i, c := range rows {
		if i >= fit {
			more := i18n.F("dash.moreClients", "n", strconv.Itoa(len(rows)-i))
			r.word(false, FitText(more, r.textSize, false, width), fyne.NewPos(0, y), r.muted)
			return y + lineH
		}
		r.word(false, FitText(c.Client, r.textSize, false, nameW), fyne.NewPos(0, y), r.fg)
		value := msText(c.LongestWaitMs)
		valueW := TextWidth(value, r.textSize, false)
		track := max(0, width-nameW-valueW-16)
		w := float32(0)
		if longest > 0 {
			w = track * float32(c.LongestWaitMs/longest)
		}
		fill := r.bar
		if starved[c.Client] {
			fill = r.warn
		}
		r.rect(fyne.NewPos(nameW+6, y+lineH*0.2), fyne.NewSize(max(w, 1), lineH*0.6), fill)
		r.word(false, value, fyne.NewPos(nameW+12+w, y), r.muted)
		y += lineH
	}
	return y
}

// MaxWaitRows is how many clients' waits the dashboard lists; the rest
// are counted.
const MaxWaitRows = 12

// WaitRows are the clients by their longest wait, the longest first (of
// equal waits, in the clients' order).
func WaitRows(clients []sim.ClientMetrics) []sim.ClientMetrics {
	rows := slices.Clone(clients)
	slices.SortStableFunc(rows, func(a, b sim.ClientMetrics) int { return cmp.Compare(b.LongestWaitMs, a.LongestWaitMs) })
	return rows
}

// ratioText is a rate as a percentage with what it is of, a dash without one.
func ratioText(rate *float64, of string) string {
	if rate == nil {
		return "—"
	}
	return strconv.FormatFloat(*rate*100, 'f', -1, 64) + " % · " + of
}

// renewalText says how the client's renewals went, or that nothing renews.
func renewalText(c sim.ClientMetrics) string {
	if c.RenewalSuccessRate == nil {
		return i18n.T("dash.noRenewals")
	}
	return ratioText(c.RenewalSuccessRate, i18n.F("dash.ofRenewals", "n", strconv.Itoa(c.Renewals), "failed", strconv.Itoa(c.RenewalsFailed)))
}

// spreadText is a distribution's median, p99 and largest.
func spreadText(d sim.Distribution) string {
	if d.Count == 0 {
		return "—"
	}
	return i18n.F("dash.spread", "p50", msText(d.P50Ms), "p99", msText(d.P99Ms), "max", msText(d.MaxMs))
}

// msText writes milliseconds as a length.
func msText(ms float64) string { return ShortTime(msLength(ms).Round(time.Millisecond)) }

// msLength is a figure in milliseconds as a length.
func msLength(ms float64) time.Duration { return time.Duration(ms * float64(time.Millisecond)) }

// trimFloat writes x with up to three decimals, no trailing zeros.
func trimFloat(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// joinNames lists names with commas, the first few.
func joinNames(names []string) string {
	const most = 4
	s := ""
	for i, n := range names {
		if i == most {
			return s + ", …"
		}
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}
