package widgets

import (
	"image/color"
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

	sum sim.Summary
	set bool
}

// NewMetrics returns an empty metrics strip; SetSummary fills it.
func NewMetrics() *Metrics {
	m := &Metrics{}
	m.ExtendBaseWidget(m)
	return m
}

// SetSummary shows the figures of a summary.
func (m *Metrics) SetSummary(s sim.Summary) {
	m.sum, m.set = s, true
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
	return []MetricCell{
		{Label: i18n.T("metrics.acquisitions"), Value: strconv.Itoa(s.Acquisitions), Detail: i18n.F("metrics.released", "n", s.Releases)},
		{Label: i18n.T("metrics.violations"), Value: strconv.Itoa(s.Violations), Detail: i18n.F("metrics.overlap", "t", ms(s.OverlapMs)), Alarm: s.Violations > 0},
		{Label: i18n.T("metrics.staleAccepted"), Value: strconv.Itoa(s.StaleWritesAccepted), Detail: i18n.F("metrics.ofWrites", "n", s.Writes),
			Alarm: s.StaleWritesAccepted > 0},
		{Label: i18n.T("metrics.staleRejected"), Value: strconv.Itoa(s.StaleWritesRejected), Detail: i18n.T("metrics.byFencing")},
		{Label: i18n.T("metrics.expiredWhileHeld"), Value: strconv.Itoa(s.ExpiredWhileHeld), Alarm: s.ExpiredWhileHeld > 0},
		{Label: i18n.T("metrics.messages"), Value: strconv.Itoa(s.Messages)},
		{Label: i18n.T("metrics.latency"), Value: ms(s.AcquireLatencyP50Ms), Detail: i18n.F("metrics.p99", "t", ms(s.AcquireLatencyP99Ms))},
	}
}

// Verdict is the strip's last cell: safe unless a stale write was accepted
// up to the cursor, with the reason beneath.
func Verdict(s sim.Summary) (text, why string, safe bool) {
	if s.Safe {
		return i18n.T("metrics.safe"), i18n.T("metrics.safe.why"), true
	}
	return i18n.T("metrics.unsafe"), i18n.T("metrics.unsafe.why"), false
}

// CreateRenderer implements fyne.Widget.
func (m *Metrics) CreateRenderer() fyne.WidgetRenderer {
	r := &metricsRenderer{m: m, verdictBg: &canvas.Rectangle{CornerRadius: 6}, verdict: newText(15, true), why: newText(11, false)}
	for range Cells(sim.Summary{}) {
		r.cells = append(r.cells, metricObjects{label: newText(11, false), value: newText(17, true),
			detail: newText(11, false), alarm: &canvas.Rectangle{CornerRadius: 2}, sep: &canvas.Line{}})
	}
	for _, c := range r.cells {
		r.objects = append(r.objects, c.alarm, c.sep, c.label, c.value, c.detail)
	}
	r.objects = append(r.objects, r.verdictBg, r.verdict, r.why)
	r.Refresh()
	return r
}

type metricObjects struct {
	label, value, detail *canvas.Text
	alarm                *canvas.Rectangle
	sep                  *canvas.Line
}

type metricsRenderer struct {
	m         *Metrics
	cells     []metricObjects
	verdictBg *canvas.Rectangle
	verdict   *canvas.Text
	why       *canvas.Text
	objects   []fyne.CanvasObject
}

func (r *metricsRenderer) Destroy() {}

func (r *metricsRenderer) Layout(fyne.Size) { r.Refresh() }

func (r *metricsRenderer) MinSize() fyne.Size { return fyne.NewSize(600, 54) }

func (r *metricsRenderer) Objects() []fyne.CanvasObject { return r.objects }

const verdictW = 230

func (r *metricsRenderer) Refresh() {
	m := r.m
	th := m.Theme()
	fg := themeColor(th, theme.ColorNameForeground)
	muted := themeColor(th, theme.ColorNamePlaceHolder)
	size := m.Size()
	if !m.set {
		for _, o := range r.objects {
			o.Hide()
		}
		return
	}
	cells := Cells(m.sum)
	cellW := (size.Width - verdictW - 8) / float32(len(cells))
	for i, c := range cells {
		o := r.cells[i]
		x := float32(i) * cellW
		if c.Alarm {
			placeRect(o.alarm, fyne.NewPos(x, 4), fyne.NewSize(4, size.Height-8), ColorViolation)
		} else {
			o.alarm.Hide()
		}
		if i > 0 {
			placeLine(o.sep, fyne.NewPos(x-4, 6), fyne.NewPos(x-4, size.Height-6), fade(ColorIdle, 0.4), 1)
		} else {
			o.sep.Hide()
		}
		placeText(o.label, c.Label, fyne.NewPos(x+10, 4), muted)
		vc := fg
		if c.Alarm {
			vc = ColorViolation
		}
		placeText(o.value, c.Value, fyne.NewPos(x+10, 19), vc)
		if c.Detail != "" && x+10+o.value.MinSize().Width+6+textWidth(c.Detail, 11, false) < x+cellW {
			placeText(o.detail, c.Detail, fyne.NewPos(x+16+o.value.MinSize().Width, 25), muted)
		} else {
			o.detail.Hide()
		}
	}
	text, why, safe := Verdict(m.sum)
	bg := ColorDone
	if !safe {
		bg = ColorViolation
	}
	pos := fyne.NewPos(size.Width-verdictW, 4)
	h := size.Height - 8
	placeRect(r.verdictBg, pos, fyne.NewSize(verdictW, h), bg)
	tw := fyne.MeasureText(text, r.verdict.TextSize, r.verdict.TextStyle)
	ww := fyne.MeasureText(why, r.why.TextSize, r.why.TextStyle)
	top := pos.Y + (h-tw.Height-ww.Height)/2
	placeText(r.verdict, text, fyne.NewPos(pos.X+(verdictW-tw.Width)/2, top), color.White)
	placeText(r.why, why, fyne.NewPos(pos.X+(verdictW-ww.Width)/2, top+tw.Height), color.White)
}
