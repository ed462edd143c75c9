package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/breaker"
	"github.com/lockscope/lockscope/widgets"
)

// BreakTimeLimit caps a search started from the window, so a budget of
// runs the machine cannot finish soon still ends; the result then says
// how many schedules were searched.
const BreakTimeLimit = 2 * time.Minute

// OriginBreak is the origin of a run the Break it search found.
const OriginBreak = "break it"

// breakIt is a tab's Break it: its toolbar button, the search running
// and the result on show.
type breakIt struct {
	tab *tabView

	button  *widgets.TipButton
	flow    *breakFlow    // the search running, nil when none
	deliver func(func())  // hands the search's results to the UI goroutine; nil: fyne.Do
	result  dialog.Dialog // the search's result on show, nil when closed; Escape closes it
}

// newBreakIt builds a tab's Break it button.
func newBreakIt(v *tabView) *breakIt {
	b := &breakIt{tab: v}
	b.button = widgets.NewTipButton(i18n.T("toolbar.break"), theme.WarningIcon(), b.open, v.tips, "toolbar.break.tip")
	return b
}

// breakFlow is a tab's Break it search: the budget asked for, the search
// running off the UI goroutine, and its cancel.
type breakFlow struct {
	cancel context.CancelFunc
	runs   int // schedules searched so far, as last reported
}

// uiDo hands f to the UI goroutine: fyne.Do in the window, the test's
// queue when a test set deliver.
func (b *breakIt) uiDo(f func()) {
	if b.deliver != nil {
		b.deliver(f)
		return
	}
	fyne.Do(f)
}

// breakForm is the budget of a search as the dialog's fields hold it.
type breakForm struct {
	kinds                   map[sim.FaultKind]*widget.Check
	maxFaults, runs, seed   *widget.Entry
	maxPause, maxJump, part *widget.Entry
	monotonic               *widget.Check // Budget.Monotonic, under the largest jump
}

// newBreakForm fills the fields with the scenario's defaults.
func newBreakForm(sc *sim.Scenario) *breakForm {
	b := breaker.DefaultBudget(sc)
	f := &breakForm{kinds: map[sim.FaultKind]*widget.Check{}}
	entry := func(s string) *widget.Entry {
		e := widget.NewEntry()
		e.SetText(s)
		return e
	}
	for _, k := range breaker.Kinds {
		c := widget.NewCheck(i18n.T("break.kind."+k.String()), nil)
		c.SetChecked(slices.Contains(b.Kinds, k))
		if !slices.Contains(b.Kinds, k) {
			c.Disable() // failover where the mode has none
		}
		f.kinds[k] = c
	}
	f.maxFaults = entry(strconv.Itoa(b.MaxFaults))
	f.maxPause, f.maxJump, f.part = entry(b.MaxPause.String()), entry(b.MaxJump.String()), entry(b.MaxPartition.String())
	f.monotonic = widget.NewCheck(i18n.T("break.monotonic"), nil)
	f.runs, f.seed = entry(strconv.Itoa(b.Runs)), entry("1")
	return f
}

// content lays the fields out, one labelled row each.
func (f *breakForm) content() fyne.CanvasObject {
	var checks []fyne.CanvasObject
	for _, k := range breaker.Kinds {
		checks = append(checks, f.kinds[k])
	}
	label := func(key string) fyne.CanvasObject {
		return widget.NewLabelWithStyle(i18n.T(key), fyne.TextAlignTrailing, fyne.TextStyle{Bold: true})
	}
	return container.New(layout.NewFormLayout(),
		label("break.kinds"), container.NewGridWithColumns(3, checks...),
		label("break.maxFaults"), f.maxFaults,
		label("break.maxPause"), f.maxPause,
		label("break.maxJump"), f.maxJump,
		layout.NewSpacer(), f.monotonic,
		label("break.maxPartition"), f.part,
		label("break.runs"), f.runs,
		label("break.seed"), f.seed,
	)
}

// budget reads the fields; the error names the field in the reader's
// language.
func (f *breakForm) budget() (breaker.Budget, int64, error) {
	var b breaker.Budget
	for _, k := range breaker.Kinds {
		if f.kinds[k].Checked {
			b.Kinds = append(b.Kinds, k)
		}
	}
	if len(b.Kinds) == 0 {
		return b, 0, errors.New(i18n.T("break.noKind"))
	}
	whole := func(key string, e *widget.Entry, lo, hi int) (int, error) {
		n, err := strconv.Atoi(strings.TrimSpace(e.Text))
		if err != nil || n < lo || n > hi {
			return 0, errors.New(i18n.F("break.badNumber", "field", i18n.T(key), "min", lo, "max", hi, "got", e.Text))
		}
		return n, nil
	}
	dur := func(key string, e *widget.Entry) (time.Duration, error) {
		d, err := time.ParseDuration(strings.TrimSpace(e.Text))
		if err != nil || d < time.Millisecond || d > sim.MaxDuration {
			return 0, errors.New(i18n.F("break.badDuration", "field", i18n.T(key), "got", e.Text))
		}
		return d, nil
	}
	var err error
	if b.MaxFaults, err = whole("break.maxFaults", f.maxFaults, 1, 10); err != nil {
		return b, 0, err
	}
	if b.MaxPause, err = dur("break.maxPause", f.maxPause); err != nil {
		return b, 0, err
	}
	if b.MaxJump, err = dur("break.maxJump", f.maxJump); err != nil {
		return b, 0, err
	}
	b.Monotonic = f.monotonic.Checked
	if b.MaxPartition, err = dur("break.maxPartition", f.part); err != nil {
		return b, 0, err
	}
	if b.Runs, err = whole("break.runs", f.runs, 1, 10_000_000); err != nil {
		return b, 0, err
	}
	seed, err := strconv.ParseInt(strings.TrimSpace(f.seed.Text), 10, 64)
	if err != nil {
		return b, 0, errors.New(i18n.F("break.badNumber", "field", i18n.T("break.seed"), "min", 0, "max", int64(1<<62), "got", f.seed.Text))
	}
	b.Time = BreakTimeLimit
	return b, seed, nil
}

// open asks for the budget of a search of the scenario on show, then
// runs it (search).
func (b *breakIt) open() {
	v := b.tab
	if v.win == nil || !v.ctl.Loaded() || (b.flow != nil && b.flow.cancel != nil) {
		return
	}
	v.ctl.Pause()
	v.syncTicker()
	sc := v.ctl.Scenario()
	form := newBreakForm(sc)
	intro := widget.NewLabel(i18n.T("break.intro"))
	intro.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustomConfirm(i18n.T("break.title"), i18n.T("break.start"), i18n.T("break.cancel"),
		container.NewVBox(intro, form.content()), func(ok bool) {
			if !ok {
				return
			}
			budget, seed, err := form.budget()
			if err != nil {
				showError(err, v.win)
				return
			}
			b.search(sc, budget, seed)
		}, v.win)
	d.Resize(fyne.NewSize(560, 440))
	d.Show()
}

// search runs the search on its own goroutine, with a progress dialog
// whose button cancels it; the result comes back through fyne.Do.
func (b *breakIt) search(sc *sim.Scenario, budget breaker.Budget, seed int64) {
	v := b.tab
	ctx, cancel := context.WithCancel(context.Background())
	b.flow = &breakFlow{cancel: cancel}
	bar := widget.NewProgressBar()
	bar.Max = float64(budget.Runs)
	line := widget.NewLabel(searching(0, budget.Runs))
	prog := dialog.NewCustomWithoutButtons(i18n.T("break.title"), container.NewVBox(line, bar,
		container.NewHBox(layout.NewSpacer(), widget.NewButton(i18n.T("break.cancel"), cancel))), v.win)
	prog.Resize(fyne.NewSize(460, 160))
	prog.Show()
	progress := func(p breaker.Progress) {
		b.uiDo(func() {
			if b.flow != nil {
				b.flow.runs = p.Runs
			}
			bar.SetValue(float64(p.Runs))
			if p.Phase == breaker.PhaseShrink {
				line.SetText(widgets.Say(sim.Say("break.shrinking").
					With("schedules", breaker.Count(breaker.NounSchedules, p.Runs)).
					With("shrinkRuns", breaker.Count(breaker.NounRuns, p.ShrinkRuns)), ""))
				return
			}
			line.SetText(searching(p.Runs, p.Of))
		})
	}
	sc = sc.Clone()
	origin := v.ctl.Origin()
	go func() {
		res, err := breaker.Search(ctx, sc, breaker.Options{Budget: budget, Seed: seed, Progress: progress})
		b.uiDo(func() {
			prog.Hide()
			runs := b.flow.runs
			b.flow = nil
			cancel()
			b.done(sc, origin, res, err, runs)
		})
	}()
}

// done shows a search's result: the found schedule loaded as a fork
// of the scenario, the cursor on the first stale write; or what was
// searched when nothing was found.
func (b *breakIt) done(sc *sim.Scenario, origin string, res *breaker.Result, err error, runs int) {
	v := b.tab
	switch {
	case errors.Is(err, context.Canceled):
		v.ctl.note = widgets.Say(sim.Say("break.cancelled").With("schedules", breaker.Count(breaker.NounSchedules, runs)), "")
		v.status.SetText(v.ctl.Status())
		return
	case err != nil:
		v.fail(err)
		return
	}
	if !res.Found {
		b.report(i18n.T("break.nothing"), widgets.Say(res.Sentence, ""))
		return
	}
	fork := res.Captioned(widgets.SayBoth)
	name := sc.Name
	if name == "" {
		name = origin
	}
	fork.Name = i18n.Fin(i18n.English, "break.name", "name", name)
	fork.NameZh = i18n.Fin(i18n.Chinese, "break.name", "name", ScenarioNameIn(i18n.Chinese, sc, origin))
	v.stopTicker()
	if err := v.ctl.Rebase(i18n.T("break.edit"), fork, OriginBreak); err != nil {
		v.fail(fmt.Errorf("break it: %w", err))
		return
	}
	v.showRun()
	v.seek(res.Story.StaleWrite)
	b.report(widgets.Say(res.Sentence, ""), widgets.Say(foundAfter(res), ""))
}

// foundAfter says how many schedules found the result and how many runs
// shrank it, each noun in its number.
func foundAfter(res *breaker.Result) sim.Words {
	return sim.Say("break.foundAfter").
		With("schedules", breaker.Count(breaker.NounSchedules, res.Runs)).
		With("shrinkRuns", breaker.Count(breaker.NounRuns, res.ShrinkRuns))
}

// searching is the progress line: "Searching: 64 of 10 000 schedules".
func searching(runs, of int) string {
	return widgets.Say(sim.Say("break.searching", "runs", sim.GroupThousands(runs)).
		With("of", breaker.Count(breaker.NounSchedules, of)), "")
}

// report shows the result's sentences in a dialog over the replay.
func (b *breakIt) report(head, detail string) {
	top := widget.NewLabelWithStyle(head, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	top.Wrapping = fyne.TextWrapWord
	more := widget.NewLabel(detail)
	more.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustom(i18n.T("break.title"), i18n.T("dialog.close"), container.NewVBox(top, more), b.tab.win)
	d.SetOnClosed(func() { b.result = nil })
	b.result = d
	d.Resize(fyne.NewSize(560, 220))
	d.Show()
}

// closeResult closes the search's result when it shows (Escape); it
// reports whether it did.
func (b *breakIt) closeResult() bool {
	if b.result == nil {
		return false
	}
	b.result.Hide()
	b.result = nil
	return true
}
