package widgets

import (
	"image/color"
	"slices"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
)

// Metrics is the strip of figures under the timeline: the run's verdicts
// up to the cursor, the same numbers `lockscope run --json` prints for the
// whole run.
type Metrics struct {
	widget.BaseWidget

	sum      sim.Summary
	finished bool // the summary is the whole run's: no "so far"
	set      bool
	shown    metricsShown // what the strip shows, to tell a summary that changes nothing on it
	// refreshes counts the renderer's redraws, so a test can tell one
	// that was not needed.
	refreshes int
}

// metricsShown is what the strip draws of a summary: its cells and
// verdict as text. Most instants of a run change none of it (the counts
// move at grants and writes, the overlap only while two hold).
type metricsShown struct {
	cells     []MetricCell
	text, why string
	state     VerdictState
}

// shownOf is what the strip draws for summary s.
func shownOf(s sim.Summary, finished bool) metricsShown {
	text, why, state := Verdict(s, finished)
	return metricsShown{cells: Cells(s), text: text, why: why, state: state}
}

// equal reports whether the strip would draw the same for both.
func (a metricsShown) equal(b metricsShown) bool {
	return slices.Equal(a.cells, b.cells) && a.text == b.text && a.why == b.why && a.state == b.state
}

// NewMetrics returns an empty metrics strip; SetSummary fills it.
func NewMetrics() *Metrics {
	m := &Metrics{}
	m.ExtendBaseWidget(m)
	return m
}

// SetSummary shows the figures of a summary up to an instant; finished
// says the instant is the run's end, so the verdict is the run's and not
// one "so far".
func (m *Metrics) SetSummary(s sim.Summary, finished bool) {
	shown := shownOf(s, finished)
	set := m.set
	m.sum, m.finished, m.set = s, finished, true
	if set && shown.equal(m.shown) {
		return // nothing on the strip changes
	}
	m.shown = shown
	m.Refresh()
}

// Summary is the summary on show.
func (m *Metrics) Summary() sim.Summary { return m.sum }

// MetricCell is one figure of the strip as shown: its label, value and a
// detail line.
type MetricCell struct {
	Label, Value, Detail string
	Alarm                bool // the figure shows a safety failure
}

// Cells lays the summary out as the strip shows it, verdict last.
func Cells(s sim.Summary) []MetricCell {
	ms := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) + " ms" }
	// With no lock taken there is no latency to show: a dash, not "0 ms".
	latency := func(v float64) string {
		if s.Acquisitions == 0 {
			return "—"
		}
		return ms(v)
	}
	writes := i18n.F("metrics.ofWrites", "n", s.Writes)
	if s.LostUpdates > 0 { // accepted writes that overwrote a value their writer never read
		writes = i18n.F("metrics.ofWritesLost", "n", s.Writes, "lost", s.LostUpdates)
	}
	return []MetricCell{
		{Label: i18n.T("metrics.acquisitions"), Value: strconv.Itoa(s.Acquisitions), Detail: i18n.F("metrics.released", "n", s.Releases)},
		{Label: i18n.T("metrics.violations"), Value: strconv.Itoa(s.Violations), Detail: i18n.F("metrics.overlap", "t", ms(s.OverlapMs)), Alarm: s.Violations > 0},
		{Label: i18n.T("metrics.staleAccepted"), Value: strconv.Itoa(s.StaleWritesAccepted), Detail: writes,
			Alarm: s.StaleWritesAccepted > 0},
		{Label: i18n.T("metrics.staleRejected"), Value: strconv.Itoa(s.StaleWritesRejected), Detail: i18n.T("metrics.byFencing")},
		{Label: i18n.T("metrics.expiredWhileHeld"), Value: strconv.Itoa(s.ExpiredWhileHeld), Alarm: s.ExpiredWhileHeld > 0},
		{Label: i18n.T("metrics.messages"), Value: strconv.Itoa(s.Messages)},
		{Label: i18n.T("metrics.latency"), Value: latency(s.AcquireLatencyP50Ms), Detail: i18n.F("metrics.p99", "t", latency(s.AcquireLatencyP99Ms))},
	}
}

// VerdictState is one of the three verdicts a run can have up to an
// instant: the colour of the strip's last cell and of the cluster's
// warning follow it, so no picture says "safe" beside two holders.
type VerdictState int

const (
	// VerdictSafe: never two holders, no stale write accepted.
	VerdictSafe VerdictState = iota
	// VerdictOverlap: two clients were in their critical section at once,
	// but the storage took no stale write (fencing refused it, or the late
	// holder wrote nothing): mutual exclusion failed, the data did not.
	VerdictOverlap
	// VerdictUnsafe: the storage accepted a stale write.
	VerdictUnsafe
)

// StateOf is the verdict of a summary.
func StateOf(s sim.Summary) VerdictState {
	switch {
	case !s.Safe || s.StaleWritesAccepted > 0:
		return VerdictUnsafe
	case s.Violations > 0:
		return VerdictOverlap
	}
	return VerdictSafe
}

// Color is the verdict's colour: green, amber, vermilion.
func (v VerdictState) Color() color.NRGBA {
	switch v {
	case VerdictUnsafe:
		return ColorViolation
	case VerdictOverlap:
		return ColorCaution
	}
	return ColorDone
}

// Verdict is the strip's last cell: its headline and the reason beneath.
// A safe or overlapped run says "so far" until finished, as a later
// instant can still go wrong; an unsafe one never becomes safe again.
func Verdict(s sim.Summary, finished bool) (text, why string, state VerdictState) {
	state = StateOf(s)
	key := map[VerdictState]string{VerdictSafe: "metrics.safe", VerdictOverlap: "metrics.overlapSafe", VerdictUnsafe: "metrics.unsafe"}[state]
	if state != VerdictUnsafe {
		key = LeaderWords(key, s.Election) // two leaders, not two holders
	}
	text = i18n.T(key)
	if !finished && state != VerdictUnsafe {
		text = i18n.T(key + ".soFar")
	}
	return text, i18n.T(key + ".why"), state
}

// CreateRenderer implements fyne.Widget.
func (m *Metrics) CreateRenderer() fyne.WidgetRenderer {
	caption := theme.CaptionTextSize() // Refresh sets the widget's theme's
	r := &metricsRenderer{m: m, verdictBg: &canvas.Rectangle{CornerRadius: 6}, verdict: NewText(15, true), why: NewText(caption, false)}
	for range Cells(sim.Summary{}) {
		r.cells = append(r.cells, metricObjects{label: NewText(caption, false), label2: NewText(caption, false), value: NewText(17, true),
			detail: NewText(caption, false), alarm: &canvas.Rectangle{CornerRadius: 2}, sep: &canvas.Line{}})
	}
	for _, c := range r.cells {
		r.objects = append(r.objects, c.alarm, c.sep, c.label, c.label2, c.value, c.detail)
	}
	r.objects = append(r.objects, r.verdictBg, r.verdict, r.why)
	r.Refresh()
	return r
}

type metricObjects struct {
	label, label2, value, detail *canvas.Text // label2: the label's second line in a narrow window
	alarm                        *canvas.Rectangle
	sep                          *canvas.Line
}

type metricsRenderer struct {
	m         *Metrics
	cells     []metricObjects
	verdictBg *canvas.Rectangle
	verdict   *canvas.Text
	why       *canvas.Text
	objects   []fyne.CanvasObject

	fg, muted color.Color // the theme's, taken by Refresh
	caption   float32     // the theme's caption text: the labels, details and the verdict's reason
}

func (r *metricsRenderer) Destroy() {}

func (r *metricsRenderer) MinSize() fyne.Size { return fyne.NewSize(600, 54) }

func (r *metricsRenderer) Objects() []fyne.CanvasObject { return r.objects }

const verdictW = 230

// Refresh takes the theme's colours and caption size for the summary on
// show (its cells and verdict, worked out by SetSummary), then lays them
// out.
func (r *metricsRenderer) Refresh() {
	m := r.m
	m.refreshes++
	th := m.Theme()
	r.fg = ThemeColor(th, theme.ColorNameForeground)
	r.muted = ThemeColor(th, theme.ColorNamePlaceHolder)
	r.caption = th.Size(theme.SizeNameCaptionText)
	r.why.TextSize = r.caption
	for _, o := range r.cells {
		o.label.TextSize, o.label2.TextSize, o.detail.TextSize = r.caption, r.caption, r.caption
	}
	r.Layout(m.Size())
}

// Layout places the strip's cells and verdict in size.
func (r *metricsRenderer) Layout(size fyne.Size) {
	m, fg, muted := r.m, r.fg, r.muted
	if !m.set {
		for _, o := range r.objects {
			o.Hide()
		}
		return
	}
	// What SetSummary worked out to compare is what is drawn.
	text, why, state, cells := m.shown.text, m.shown.why, m.shown.state, m.shown.cells
	vw := max(verdictW, TextWidth(text, r.verdict.TextSize, true)+20, TextWidth(why, r.why.TextSize, false)+20)
	cellW := (size.Width - vw - 8) / float32(len(cells))
	for i, c := range cells {
		o := r.cells[i]
		x := float32(i) * cellW
		if c.Alarm {
			PlaceRect(o.alarm, fyne.NewPos(x, 4), fyne.NewSize(4, size.Height-8), ColorViolation)
		} else {
			o.alarm.Hide()
		}
		if i > 0 {
			PlaceLine(o.sep, fyne.NewPos(x-4, 6), fyne.NewPos(x-4, size.Height-6), Fade(ColorIdle, 0.4), 1)
		} else {
			o.sep.Hide()
		}
		// A narrow window wraps a label onto a second line, the figure
		// moving down under it, rather than cut it or run it into the next.
		lines := WrapText(c.Label, cellW-16, r.caption, false, 2)
		valueY := float32(19)
		PlaceText(o.label, lines[0], fyne.NewPos(x+10, 4), muted)
		if len(lines) > 1 {
			PlaceText(o.label, lines[0], fyne.NewPos(x+10, 1), muted)
			PlaceText(o.label2, lines[1], fyne.NewPos(x+10, 14), muted)
			valueY = min(29, size.Height-24)
		} else {
			o.label2.Hide()
		}
		vc := fg
		if c.Alarm {
			vc = ColorViolation
		}
		PlaceText(o.value, c.Value, fyne.NewPos(x+10, valueY), vc)
		if c.Detail != "" && x+10+o.value.MinSize().Width+6+TextWidth(c.Detail, r.caption, false) < x+cellW {
			PlaceText(o.detail, c.Detail, fyne.NewPos(x+16+o.value.MinSize().Width, valueY+6), muted)
		} else {
			o.detail.Hide()
		}
	}
	bg, ink := state.Color(), color.Color(color.White)
	if state == VerdictOverlap {
		ink = color.Black // white on amber is too faint to read
	}
	pos := fyne.NewPos(size.Width-vw, 4)
	h := size.Height - 8
	PlaceRect(r.verdictBg, pos, fyne.NewSize(vw, h), bg)
	tw := fyne.MeasureText(text, r.verdict.TextSize, r.verdict.TextStyle)
	ww := fyne.MeasureText(why, r.why.TextSize, r.why.TextStyle)
	top := pos.Y + (h-tw.Height-ww.Height)/2
	PlaceText(r.verdict, text, fyne.NewPos(pos.X+(vw-tw.Width)/2, top), ink)
	PlaceText(r.why, why, fyne.NewPos(pos.X+(vw-ww.Width)/2, top+tw.Height), ink)
}
