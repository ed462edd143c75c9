package app

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/sweep"
	"github.com/lockscope/lockscope/widgets"
	"github.com/lockscope/lockscope/widgets/designtab"
)

// tradeoffRanges are the values a field every design has takes on an
// axis of the map, as `lockscope sweep` reads them: the default grid is
// ttl × pause, 30 × 21. A design's option gives its own (sim.Option.Axis).
var tradeoffRanges = map[string]string{
	"ttl":        "ttl=1s:30s:30",
	"pause":      "pause=0s:20s:21",
	"work":       "work=0s:20s:21",
	"latency":    "latency=0ms:200ms:21",
	"clockDrift": "clockDrift=0:0.1:21",
	"clients":    "clients=1:12:12",
}

// tradeoffAxis is the map's axis for a field.
func tradeoffAxis(field string) sweep.Axis {
	spec, ok := tradeoffRanges[field]
	if !ok {
		spec = field + "=" + sim.OptionAxis(field)
	}
	a, err := sweep.ParseAxis(spec)
	if err != nil {
		panic(fmt.Sprintf("the trade-off axis of %q: %v", field, err)) // a typo in the table above or an option's Axis
	}
	return a
}

// tradeoffFields are the fields a mode's map can put on an axis: those
// every design has and the mode's own options with an axis (not the node
// count where the design has none, as Redis, which has one master).
func tradeoffFields(mode string) []string { return sim.SweepFieldsOf(mode) }

// fieldName is what a mode calls a swept field, in the current language.
func fieldName(mode, field string) string { return fieldNameIn(i18n.Current(), mode, field) }

// fieldNameIn is fieldName in language l. The lease and the servers take
// the design's own words (sim.Traits): tradeoff.field.ttl, .session or
// .lease; tradeoff.field.servers, .masters or .members.
func fieldNameIn(l i18n.Lang, mode, field string) string {
	key := ""
	switch field {
	case "ttl":
		key = "tradeoff.field." + orWord(sim.TraitsOf(mode).LeaseWord, "ttl")
	case "pause":
		key = "tradeoff.field.pause"
	case "clockDrift":
		key = "tradeoff.field.clockDrift"
	case "work":
		key = "tradeoff.field.work"
	case "latency":
		key = "tradeoff.field.latency"
	case "clients":
		key = "tradeoff.field.clients"
	default: // a design's option, in its own words (sim.Option.Words)
		if o := sim.OptionOf(mode, field); o != nil && i18n.Has(i18n.English, "tradeoff.field."+o.Words) {
			key = "tradeoff.field." + o.Words
		}
	}
	if key == "" {
		return field
	}
	return i18n.In(l, key)
}

// orWord is word, or fallback for a mode that gives none.
func orWord(word, fallback string) string {
	if word == "" {
		return fallback
	}
	return word
}

// scenarioValue is where the main view's scenario stands on a field, in
// the sweep's unit; ok is false when it has no such value (no pause, an
// option its design does not declare).
func scenarioValue(sc *sim.Scenario, field string) (float64, bool) {
	if sc == nil {
		return 0, false
	}
	return sim.SweepValue(sc, field)
}

// tradeoffBase is the scenario a mode's map sweeps: sweep.Base with
// what the main view's scenario says about the lock, the network and the
// clients. The axes' own fields are set to their first values, so moving
// a slider along an axis moves the crosshair and keeps the map. Without a
// pause axis, the main view's pause (if any) is injected where the sweep
// injects its own (pauseAt, one of sweep.PauseAts); the scenario's other
// faults are left out.
func tradeoffBase(sc *sim.Scenario, x, y sweep.Axis, pauseAt string) (*sim.Scenario, error) {
	base, err := sweep.Base(sc.Mode)
	if err != nil {
		return nil, err
	}
	base.TTL, base.Work = sc.TTL, sc.Work
	base.Latency, base.Jitter = sc.Latency, sc.Jitter
	base.Clients, base.Stagger = sc.Clients, sc.Stagger
	base.ClockDrift, base.RetryDelay = sc.ClockDrift, sc.RetryDelay
	sim.CarryDesignFields(base, sc) // fencing and the design's options, as the tab has them
	sweep.OneRoundEach(base)        // an election's leader leads once, as the tab's own may not

	top := map[string]float64{}
	for _, f := range []string{"ttl", "work", "pause"} {
		top[f], _ = scenarioValue(sc, f)
	}
	pauseAxis := false
	for _, a := range []sweep.Axis{x, y} {
		if a.Field == "" || len(a.Values) == 0 {
			continue
		}
		sim.SetSweepField(base, a.Field, a.Values[0])
		top[a.Field] = a.Values[len(a.Values)-1]
		pauseAxis = pauseAxis || a.Field == "pause"
	}
	if !pauseAxis {
		top["pause"] = 0
		if d, ok := designtab.PauseLength(sc); ok {
			top["pause"] = sim.Ms(d)
			f := sim.Fault{When: sim.StepBeforeWrite, Pause: sim.ClientName(0), For: sim.Duration(d)}
			if pauseAt == sweep.PauseMidWork { // where sweep.Sweep.CellScenario puts its own
				f.When, f.At = "", sim.Duration(2*base.Latency.D()+base.Work.D()/2)
			}
			base.Faults = []sim.Fault{f}
		}
	}
	// Long enough to see the paused holder's late write and a crashed
	// holder's key expire, and never shorter than the sweep's 60 s.
	need := time.Duration(math.Max(top["work"]+top["pause"], top["work"]/2+top["ttl"])*float64(time.Millisecond)) + 5*time.Second
	if need > base.Duration.D() {
		base.Duration = sim.Duration(need.Round(10*time.Second) + 10*time.Second)
	}
	return base, nil
}

// briefTime writes a length as the sliders do: "1.5 s", "2 ms".
func briefTime(d time.Duration) string {
	if d >= time.Second {
		return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
	}
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', -1, 64) + " ms"
}

// describeBase says in words what each cell of the map runs, and where
// its pause strikes (pauseAt).
func describeBase(spec designtab.ModeTab, base *sim.Scenario, x, y sweep.Axis, seeds int, pauseAt string) string {
	axis := map[string]bool{x.Field: true, y.Field: true}
	var parts []string
	if !axis["clients"] {
		key, periods := "tradeoff.base.clients", sweep.OneRoundEach(base.Clone())
		if periods > 0 {
			key = "tradeoff.base.leaders"
		}
		parts = append(parts, i18n.F(key, "n", base.Clients, "stagger", briefTime(base.Stagger.D()), "periods", periods))
	}
	if !axis["ttl"] {
		parts = append(parts, fieldName(base.Mode, "ttl")+" "+briefTime(base.TTL.D()))
	}
	if !axis["work"] {
		parts = append(parts, fieldName(base.Mode, "work")+" "+briefTime(base.Work.D()))
	}
	if !axis["latency"] {
		parts = append(parts, fieldName(base.Mode, "latency")+" "+briefTime(base.Latency.D())+" ± "+briefTime(base.Jitter.D()))
	}
	for _, o := range sim.OptionsOf(base.Mode) { // the design's own fields a map can sweep (its servers)
		if o.Axis != "" && !axis[o.Key] {
			parts = append(parts, optionValue(o, base)+" "+fieldName(base.Mode, o.Key))
		}
	}
	if !axis["clockDrift"] && base.ClockDrift > 0 {
		parts = append(parts, fmt.Sprintf("%s ±%g", fieldName(base.Mode, "clockDrift"), base.ClockDrift))
	}
	for _, key := range spec.Toggles {
		t := spec.Toggle(key)
		if t.IsChoice() {
			parts = append(parts, t.Name()+" "+t.ValueName(t.Choice(base)))
			continue
		}
		state := i18n.T("tradeoff.off")
		if t.Value(base) {
			state = i18n.T("tradeoff.on")
		}
		parts = append(parts, i18n.T(t.Label)+" "+state)
	}
	for _, o := range sim.OptionsOf(base.Mode) { // a switch with no toggle, which a file or preset sets
		if o.Kind() != sim.OptionBool || slices.Contains(spec.Toggles, o.Key) || !o.IsOn(base) {
			continue
		}
		if p, ok := optionPart(base, o); ok {
			parts = append(parts, p)
		}
	}
	where := i18n.T("tradeoff.pauseWhere." + pauseAt)
	pause := i18n.F("tradeoff.base.pauseAxis", "where", where)
	if !axis["pause"] {
		pause = i18n.T("tradeoff.base.noPause")
		for _, f := range base.Faults {
			if f.Kind() == sim.FaultPause {
				pause = i18n.F("tradeoff.base.pause", "t", briefTime(f.For.D()), "where", where)
			}
		}
	}
	return i18n.F("tradeoff.base", "seeds", seeds, "mode", base.Mode, "parts", strings.Join(parts, " · "),
		"duration", int(base.Duration.D().Seconds()), "pause", pause)
}

// tradeoffView is a tab's Trade-off view: the map of unsafe runs over two
// fields, the recovery chart beside it, the axis and colour choices, and
// the progress of the sweep behind them. It follows the tab's scenario:
// a slider along an axis moves the crosshair, any other recomputes.
type tradeoffView struct {
	tab   *tabView
	heat  *widgets.Heatmap
	chart *widgets.RecoveryChart

	xSel, ySel, colour *widgets.TipSelect
	heatPanel          *widgets.Panel     // its title says what the colour shows
	pauseSel           *widgets.TipSelect // where the pause strikes: sweep --pause-at
	progress           *widget.ProgressBar
	state              *widget.Label
	about              *widget.Label
	button             *widgets.TipButton
	content            fyne.CanvasObject
	run                fyne.CanvasObject // the tab's run view, hidden while the map shows

	fields         []string
	xField, yField string
	pauseAt        string                        // one of sweep.PauseAts, as `lockscope sweep --pause-at`
	axis           func(field string) sweep.Axis // the values a field takes on an axis
	seeds          int
	runner         *tradeoffRunner
	job            *tradeoffJob // the map being computed or shown
	last           tradeoffUpdate
	shown          bool
	selecting      bool // the selects are being set by code
}

// newTradeoffView builds a tab's Trade-off view beside run, its run view.
func newTradeoffView(v *tabView, run fyne.CanvasObject) *tradeoffView {
	t := &tradeoffView{tab: v, run: run, heat: widgets.NewHeatmap(), chart: widgets.NewRecoveryChart(),
		fields: tradeoffFields(v.spec.Mode), xField: "ttl", yField: "pause", pauseAt: sweep.PauseAts[0],
		axis: tradeoffAxis, seeds: TradeoffSeeds,
		runner: newTradeoffRunner(fyne.Do)}
	t.heat.OnTapCell = t.open
	t.heat.Hint = t.hint
	t.heat.SetMessage(i18n.T("tradeoff.computing"))
	t.chart.SetMessage(i18n.T("tradeoff.computing"))

	var names []string
	for _, f := range t.fields {
		names = append(names, fieldName(v.spec.Mode, f))
	}
	t.xSel = widgets.NewTipSelect(names, func(string) { t.axesChosen() }, v.tips, i18n.T("tradeoff.across.tip"))
	t.ySel = widgets.NewTipSelect(names, func(string) { t.axesChosen() }, v.tips, i18n.T("tradeoff.up.tip"))
	t.colour = widgets.NewTipSelect(colourNames(false),
		func(string) { t.colourChosen() }, v.tips, i18n.T("tradeoff.colour.tip"))
	var ats []string
	for _, at := range sweep.PauseAts {
		ats = append(ats, pauseAtName(at))
	}
	t.pauseSel = widgets.NewTipSelect(ats, func(string) { t.pauseAtChosen() }, v.tips, i18n.T("tradeoff.pauseAt.tip"))
	t.selecting = true
	t.xSel.SetSelected(fieldName(v.spec.Mode, t.xField))
	t.ySel.SetSelected(fieldName(v.spec.Mode, t.yField))
	t.colour.SetSelected(i18n.T("tradeoff.colour.unsafe"))
	t.pauseSel.SetSelected(pauseAtName(t.pauseAt))
	t.selecting = false

	t.progress = widget.NewProgressBar()
	t.progress.TextFormatter = func() string {
		return i18n.F("tradeoff.progress", "done", sim.GroupThousands(t.last.done), "total", sim.GroupThousands(t.last.total))
	}
	t.state = widget.NewLabel("")
	t.state.Truncation = fyne.TextTruncateEllipsis
	t.about = widget.NewLabel("")
	t.about.Wrapping = fyne.TextWrapWord
	t.about.SizeName = theme.SizeNameCaptionText

	t.button = widgets.NewTipButton(i18n.T("tradeoff.button"), theme.GridIcon(), t.toggle, v.tips, i18n.T("tradeoff.button.tip"))

	fixed := func(w float32, o fyne.CanvasObject) fyne.CanvasObject {
		return container.NewGridWrap(fyne.NewSize(w, o.MinSize().Height), o)
	}
	bold := func(s string) *widget.Label {
		return widget.NewLabelWithStyle(s, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	// A flow, like the tab's toolbar: each choice with its label stays
	// whole and a narrow window wraps them (responsive.go).
	bar := newFlow(
		container.NewHBox(bold(i18n.T("tradeoff.across")), fixed(170, t.xSel)),
		container.NewHBox(bold(i18n.T("tradeoff.up")), fixed(170, t.ySel)),
		container.NewHBox(bold(i18n.T("tradeoff.pauseAt")), fixed(170, t.pauseSel)),
		container.NewHBox(bold(i18n.T("tradeoff.colour")), fixed(190, t.colour)),
		fixed(220, t.progress), stretch(wholeText(t.state, 600), 0))
	chartTitle := i18n.T("tradeoff.chart.title")
	t.heatPanel = widgets.NewPanel(heatTitle(t.heat.Metric()), t.heat)
	split := container.NewHSplit(t.heatPanel, widgets.NewPanel(chartTitle, t.chart))
	split.Offset = 0.64
	t.content = newFlowBorder(bar, split, t.about)
	t.content.Hide()
	return t
}

// toggle switches the tab between its run and its map.
func (t *tradeoffView) toggle() {
	t.setShown(!t.shown)
	t.tab.unfocus()
}

// setShown shows the map (and computes it if it is out of date) or the
// run.
func (t *tradeoffView) setShown(on bool) {
	t.shown = on
	if on {
		t.run.Hide()
		t.content.Show()
		t.button.SetText(i18n.T("tradeoff.runView"))
		t.button.SetIcon(theme.NavigateBackIcon())
		t.follow()
		return
	}
	t.content.Hide()
	t.run.Show()
	t.button.SetText(i18n.T("tradeoff.button"))
	t.button.SetIcon(theme.GridIcon())
}

// follow brings the map up to date with the tab's scenario: the
// crosshair always, the sweep when its base changed and the map shows.
// A hidden map only stops computing for a stale base.
func (t *tradeoffView) follow() {
	sc := t.tab.ctl.Scenario()
	if sc == nil {
		return
	}
	xv, xok := scenarioValue(sc, t.xField)
	yv, yok := scenarioValue(sc, t.yField)
	t.heat.SetCrosshair(xv, xok, yv, yok)
	ttl, ttlOK := scenarioValue(sc, "ttl")
	t.chart.SetCursor(ttl, ttlOK)

	if !t.shown && (t.job == nil || t.last.stage == stageDone) {
		return // nothing is computing: the map is brought up to date when shown
	}
	x, y := t.axis(t.xField), t.axis(t.yField)
	base, err := tradeoffBase(sc, x, y, t.pauseAt)
	var job *tradeoffJob
	if err == nil {
		job, err = newTradeoffJob(base, x, y, t.seeds, t.pauseAt, t.axis("ttl"), t.runner.pairCost(), t.runner.workers)
	}
	if err != nil {
		t.runner.stop()
		t.job = nil
		t.state.SetText(i18n.F("tradeoff.cannot", "err", err.Error()))
		return
	}
	if t.job != nil && t.job.key == job.key {
		return
	}
	if !t.shown {
		t.runner.stop() // hidden and out of date: stop spending the cores on it
		t.job = nil
		return
	}
	t.start(job, base, x, y)
}

// start computes job; the old map stays drawn, marked out of date, until
// the coarse pass replaces it.
func (t *tradeoffView) start(job *tradeoffJob, base *sim.Scenario, x, y sweep.Axis) {
	keep := t.job != nil && t.job.fine.X.Field == x.Field && t.job.fine.Y.Field == y.Field
	t.job = job
	t.last = tradeoffUpdate{job: job, total: 2 * len(x.Values) * max(1, len(y.Values)) * t.seeds}
	t.about.SetText(describeBase(t.tab.spec, base, x, y, t.seeds, t.pauseAt))
	t.speakOfLeaders(base)
	t.progress.SetValue(0)
	t.state.SetText(i18n.T("tradeoff.computing"))
	if !keep {
		t.heat.SetGrid(sweep.Axis{}, sweep.Axis{}, "", "", nil)
		t.chart.SetSeries(sweep.Axis{}, "", nil, false)
	} else {
		stale := append([]widgets.HeatCell(nil), t.heat.Cells()...)
		for i := range stale {
			stale[i].Coarse = true // hatched until the new coarse pass lands
		}
		fine := t.job.fine
		mode := t.tab.spec.Mode
		t.heat.SetGrid(fine.X, fine.Y, fieldName(mode, fine.X.Field), fieldName(mode, fine.Y.Field), stale)
	}
	t.runner.start(job, t.apply)
}

// apply shows an update of the latest computation.
func (t *tradeoffView) apply(u tradeoffUpdate) {
	if u.job != t.job {
		return
	}
	if u.stage == stageFailed {
		t.state.SetText(u.String())
		return
	}
	t.last = u
	if u.total > 0 {
		t.progress.SetValue(float64(u.done) / float64(u.total))
	}
	t.state.SetText(u.String())
	if u.cells == nil {
		return
	}
	mode := t.tab.spec.Mode
	fine := u.job.fine
	for i, c := range u.cells {
		if censored(fine, c.Cell) {
			u.cells[i].NoRecovery = i18n.T("tradeoff.noRecovery")
		}
	}
	t.heat.SetGrid(fine.X, fine.Y, fieldName(mode, fine.X.Field), fieldName(mode, fine.Y.Field), u.cells)
	ttl, recSweep := t.axis("ttl"), u.job.rec
	if recSweep == nil {
		ttl, recSweep = fine.X, fine
		if fine.Y.Field == "ttl" {
			ttl = fine.Y
		}
	}
	var pts []sweep.Cell
	var left []float64
	for _, p := range u.recovery {
		if censored(recSweep, p) {
			left = append(left, p.X)
			continue
		}
		pts = append(pts, p)
	}
	t.chart.SetSeries(ttl, fieldName(mode, "ttl"), pts, u.recCoarse)
	note := ""
	if len(left) > 0 {
		unit := widgets.AxisUnit(ttl)
		span := unit.Format(left[0])
		if len(left) > 1 {
			span = unit.Number(left[0]) + "–" + unit.Format(left[len(left)-1])
		}
		note = i18n.F("tradeoff.leftOut", "field", fieldName(mode, "ttl"), "span", span, "why", i18n.T("tradeoff.noRecovery"))
	}
	t.chart.SetNote(note)
}

// censored reports whether every crash run of a cell ran to the end with
// no grant after the crash, so its recovery time is only a lower bound.
// (When another client already held the lock before the crash, the sweep
// counts recovery as 0: nobody waited.)
func censored(sw *sweep.Sweep, c sweep.Cell) bool {
	sc := sw.CellScenario(c.X, c.Y, sw.Base.Seed, true)
	at := sc.Faults[len(sc.Faults)-1].At.D()
	return c.Runs > 0 && c.RecoveryMeanMs >= sim.Ms(sc.Duration.D()-at)-1
}

// axesChosen recomputes the map for the fields picked; picking the other
// axis' field swaps the two.
func (t *tradeoffView) axesChosen() {
	if t.selecting {
		return
	}
	x, y := t.fieldOf(t.xSel.Selected), t.fieldOf(t.ySel.Selected)
	if x == y {
		if x == t.xField {
			x = t.yField
		} else {
			y = t.xField
		}
	}
	t.xField, t.yField = x, y
	t.selecting = true
	t.xSel.SetSelected(fieldName(t.tab.spec.Mode, x))
	t.ySel.SetSelected(fieldName(t.tab.spec.Mode, y))
	t.selecting = false
	t.tab.unfocus()
	t.follow()
}

func (t *tradeoffView) fieldOf(name string) string {
	for _, f := range t.fields {
		if fieldName(t.tab.spec.Mode, f) == name {
			return f
		}
	}
	return ""
}

// pauseAtName is what the Pause at choice calls a moment of sweep.PauseAts.
func pauseAtName(at string) string { return i18n.T("tradeoff.pauseAt." + at) }

// pauseAtChosen recomputes the map with the pause where it was picked.
func (t *tradeoffView) pauseAtChosen() {
	if t.selecting {
		return
	}
	for _, at := range sweep.PauseAts {
		if pauseAtName(at) == t.pauseSel.Selected {
			t.pauseAt = at
		}
	}
	t.tab.unfocus()
	t.follow()
}

func (t *tradeoffView) colourChosen() {
	if t.selecting {
		return
	}
	m := widgets.MetricUnsafe
	if i := t.colour.SelectedIndex(); i >= 0 {
		m = widgets.HeatMetrics[i]
	}
	t.heat.SetMetric(m)
	if t.heatPanel != nil {
		t.heatPanel.SetTitle(heatTitle(m))
	}
	t.tab.unfocus()
}

// heatTitle is the key of the map's title for what its colour shows: the
// runs that went wrong, or the price of safety (a key, which the panel
// looks up as it draws, so the title follows a change of language).
func heatTitle(m widgets.HeatMetric) string {
	if m.IsShare() {
		return "tradeoff.heat.title"
	}
	return "tradeoff.heat.titlePrice"
}

// colourNames are the colour select's choices, in the current language:
// the unsafe runs, the runs with two holders (two leaders, for runs that
// elect one), and the price of safety (throughput, the p99 wait), in the
// order of widgets.HeatMetrics.
func colourNames(election bool) []string {
	var names []string
	for _, m := range widgets.HeatMetrics {
		names = append(names, m.LegendFor(election))
	}
	return names
}

// speakOfLeaders puts the map's words on leaders when its runs elect one
// (sim.Elects of the scenario it sweeps), on holders otherwise, keeping
// the colour chosen.
func (t *tradeoffView) speakOfLeaders(base *sim.Scenario) {
	on := sim.Elects(base)
	t.heat.SetElection(on)
	names := colourNames(on)
	if slices.Equal(names, t.colour.Options) {
		return
	}
	i := t.colour.SelectedIndex()
	t.selecting = true
	t.colour.SetOptions(names)
	t.colour.SetSelectedIndex(i)
	t.selecting = false
}

// seedFor picks the run a click on a cell shows: one that went wrong in
// the way the colour counts, if any did, else the first seed.
// The reason is a key and its arguments, so the caption can say it in
// every language.
func (t *tradeoffView) seedFor(c widgets.HeatCell) (seed int64, why string, args []any) {
	sw := t.job.fine
	first := sw.Base.Seed
	switch {
	case t.heat.Metric() == widgets.MetricUnsafe && c.UnsafeRate > 0:
		n := int(math.Round(c.UnsafeRate * float64(c.Runs)))
		return c.UnsafeSeed, "tradeoff.why.unsafe", []any{"n", n, "runs", c.Runs, "seed", c.UnsafeSeed}
	case t.heat.Metric() == widgets.MetricViolations && c.ViolationRate > 0:
		n := int(math.Round(c.ViolationRate * float64(c.Runs)))
		for s := first; s < first+int64(c.Runs); s++ {
			run, err := sim.New(sw.CellScenario(c.X, c.Y, s, false))
			if err == nil && run.Run().Violations > 0 {
				return s, widgets.LeaderWords("tradeoff.why.violations", sim.Elects(sw.Base)), []any{"n", n, "runs", c.Runs, "seed", s}
			}
		}
	case t.heat.Metric() == widgets.MetricWaitP99 && c.SlowestWaitMs > 0:
		return c.SlowestSeed, "tradeoff.why.slowest", []any{"runs", c.Runs, "seed", c.SlowestSeed,
			"wait", widgets.FormatMs(c.SlowestWaitMs), "p99", widgets.FormatMs(c.WaitP99Ms)}
	case t.heat.Metric() == widgets.MetricThroughput && c.Throughput > 0:
		return c.TypicalSeed, "tradeoff.why.typical", []any{"runs", c.Runs, "seed", c.TypicalSeed,
			"tput", widgets.MetricThroughput.Format(c.TypicalThroughput), "mean", widgets.MetricThroughput.Format(c.Throughput)}
	}
	return first, "tradeoff.why.none", []any{"runs", c.Runs, "seed", first}
}

// hint is the read-out's last line: what a click on the cell opens.
func (t *tradeoffView) hint(c widgets.HeatCell) string {
	if t.job == nil {
		return ""
	}
	switch {
	case t.heat.Metric() == widgets.MetricUnsafe && c.UnsafeRate > 0:
		return i18n.F("tradeoff.hint.unsafe", "seed", c.UnsafeSeed)
	case t.heat.Metric() == widgets.MetricViolations && c.ViolationRate > 0:
		return i18n.T(widgets.LeaderWords("tradeoff.hint.violations", sim.Elects(t.job.fine.Base)))
	case t.heat.Metric() == widgets.MetricWaitP99 && c.SlowestWaitMs > 0:
		return i18n.F("tradeoff.hint.slowest", "seed", c.SlowestSeed)
	case t.heat.Metric() == widgets.MetricThroughput && c.Throughput > 0:
		return i18n.F("tradeoff.hint.typical", "seed", c.TypicalSeed)
	}
	return i18n.F("tradeoff.hint", "seed", t.job.fine.Base.Seed)
}

// open loads a cell's scenario into the tab's run view and shows it: from
// "12 % unsafe" to one of those runs.
func (t *tradeoffView) open(c widgets.HeatCell) {
	if t.job == nil {
		return
	}
	sw := t.job.fine
	seed, why, args := t.seedFor(c)
	sc := sw.CellScenario(c.X, c.Y, seed, false)
	mode := t.tab.spec.Mode
	where := func(l i18n.Lang) string {
		s := fieldNameIn(l, mode, sw.X.Field) + " " + widgets.AxisUnit(sw.X).Format(c.X)
		if sw.Y.Field != "" {
			s = i18n.Fin(l, "tradeoff.where.xy", "x", s, "y", fieldNameIn(l, mode, sw.Y.Field)+" "+widgets.AxisUnit(sw.Y).Format(c.Y))
		}
		return s
	}
	// The caption is written in both languages, as the presets' are, so it
	// follows a later switch of language.
	caption := func(l i18n.Lang) string {
		return i18n.Fin(l, "tradeoff.caption", "where", where(l), "why", i18n.Fin(l, why, args...))
	}
	sc.Name = i18n.Fin(i18n.English, "tradeoff.name", "where", where(i18n.English), "seed", seed)
	sc.NameZh = i18n.Fin(i18n.Chinese, "tradeoff.name", "where", where(i18n.Chinese), "seed", seed)
	sc.Captions = []sim.Caption{{At: 0, Text: caption(i18n.English), Zh: caption(i18n.Chinese)}}
	if err := t.tab.LoadScenario(sc, OriginTradeoff); err != nil {
		t.tab.fail(err)
		return
	}
	t.setShown(false)
}
