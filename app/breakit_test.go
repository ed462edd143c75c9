package app

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/sim/breaker"
	"github.com/lockscope/lockscope/widgets"
)

// breakWindow opens the window on the tab of mode with preset loaded and
// the search's hand-overs under the test's control.
func breakWindow(t *testing.T, mode, preset string) (*Window, *tabView, uiQueue) {
	t.Helper()
	a := test.NewTempApp(t)
	w := NewWindow(a)
	t.Cleanup(w.Close)
	v := w.tab(mode)
	require.NotNil(t, v)
	w.appTabs.SelectIndex(w.index(v))
	require.NoError(t, v.ctl.LoadPreset(preset))
	v.showRun()
	q := make(uiQueue, 4096)
	v.breakIt.deliver = q.deliver
	return w, v, q
}

// overlayButton is the button labelled text in the top dialog.
func overlayButton(t *testing.T, w *Window, text string) *widget.Button {
	t.Helper()
	top := w.Canvas().Overlays().Top()
	require.NotNil(t, top, "a dialog is open")
	for _, o := range test.LaidOutObjects(top) {
		if b, ok := o.(*widget.Button); ok && b.Text == text {
			return b
		}
	}
	t.Fatalf("no %q button in the dialog", text)
	return nil
}

// overlayLabels are the texts of the labels of the top dialog.
func overlayLabels(w *Window) []string {
	var out []string
	top := w.Canvas().Overlays().Top()
	if top == nil {
		return nil
	}
	for _, o := range test.LaidOutObjects(top) {
		if l, ok := o.(*widget.Label); ok {
			out = append(out, l.Text)
		}
	}
	return out
}

// The whole flow from the keyboard: B opens the budget dialog, Search
// runs the search off the UI goroutine, and the shrunk schedule comes
// back as a fork of the scenario, named as such, with its story in both
// languages as captions and the cursor on the first stale write — the
// same result the search gives on its own for the dialog's defaults.
func TestBreakItFromTheKeyReplaysTheShrunkSchedule(t *testing.T) {
	w, v, q := breakWindow(t, "redis", "redis-happy-path")
	before := v.ctl.Scenario().Clone()
	key(w, fyne.KeyB)
	assert.Contains(t, overlayLabels(w), i18n.T("break.intro"))
	test.Tap(overlayButton(t, w, i18n.T("break.start")))
	require.NotNil(t, v.breakIt.flow, "the search runs")
	assert.Contains(t, overlayLabels(w)[0], "Searching", "the progress dialog is up")
	key(w, fyne.KeyB) // a second search does not start while one runs
	q.pumpUntil(t, func() bool { return v.breakIt.flow == nil })

	b := breaker.DefaultBudget(before)
	b.Time = BreakTimeLimit
	want, err := breaker.Search(context.Background(), before, breaker.Options{Budget: b, Seed: 1})
	require.NoError(t, err)
	require.True(t, want.Found)

	sc := v.ctl.Scenario()
	assert.Equal(t, OriginBreak, v.ctl.Origin())
	assert.Equal(t, want.Faults, sc.Faults, "the shrunk schedule in place of the scenario's faults")
	assert.Equal(t, before.TTL, sc.TTL)
	assert.Equal(t, "Three clients take turns, broken", sc.Name)
	assert.Equal(t, i18n.Fin(i18n.Chinese, "break.name", "name", i18n.In(i18n.Chinese, "preset.redis-happy-path")), sc.NameZh)
	assert.Equal(t, want.Story.StaleWrite, v.ctl.Cursor(), "the cursor on the first stale write")
	require.Len(t, sc.Captions, len(want.Story.Lines))
	for _, c := range sc.Captions {
		assert.NotEmpty(t, c.Text)
		assert.NotEmpty(t, c.Zh)
		assert.NotEqual(t, c.Text, c.Zh)
	}
	sentence := widgets.SayIn(i18n.English, want.Sentence, "")
	assert.Contains(t, sc.Captions[0].Text, sentence)
	assert.Contains(t, sentence, "client-")
	assert.Contains(t, overlayLabels(w), sentence, "the result is said over the replay")
	assert.Contains(t, v.status.Text, i18n.T("origin.break"))

	// The replay is the run of that scenario: unsafe, as the search said.
	s, err := sim.New(sc)
	require.NoError(t, err)
	assert.Equal(t, want.Summary.StaleWritesAccepted, s.Run().StaleWritesAccepted)
	assert.Positive(t, want.Summary.StaleWritesAccepted)
	assert.Contains(t, overlayLabels(w), widgets.SayIn(i18n.English, foundAfter(want), ""))

	// Escape closes the result; the fork is a run of its own (its captions
	// hold, it is not marked edited) that Ctrl+Z takes back like any edit.
	key(w, fyne.KeyEscape)
	assert.Nil(t, w.Canvas().Overlays().Top(), "Escape closed the result")
	assert.False(t, v.ctl.Edited())
	cp, ok := v.ctl.Caption()
	require.True(t, ok)
	assert.True(t, v.ctl.CaptionHolds(cp), "the story narrates the found run")
	undo := w.MainMenu().Items[1].Items[0]
	assert.Equal(t, (&fyne.ShortcutUndo{}).ShortcutName(), undo.Shortcut.ShortcutName())
	require.False(t, undo.Disabled)
	undo.Action()
	assert.Equal(t, before.Faults, v.ctl.Scenario().Faults, "undone: the scenario before the search")
	assert.Equal(t, "redis-happy-path", v.ctl.Origin())
	assert.False(t, v.ctl.Edited())
	assert.Equal(t, "LockScope — Three clients take turns", w.Title())
	redo := w.MainMenu().Items[1].Items[1]
	require.False(t, redo.Disabled)
	redo.Action()
	assert.Equal(t, want.Faults, v.ctl.Scenario().Faults, "redone")
	assert.Equal(t, OriginBreak, v.ctl.Origin())
	assert.False(t, v.ctl.Edited())
}

// "1 schedule", "1 run": the counts of the result take their number.
func TestFoundAfterOneSchedule(t *testing.T) {
	test.NewTempApp(t)
	got := widgets.SayIn(i18n.English, foundAfter(&breaker.Result{Runs: 1, ShrinkRuns: 1}), "")
	assert.True(t, strings.HasPrefix(got, "Found after 1 schedule, shrunk in 1 run."), got)
	got = widgets.SayIn(i18n.English, foundAfter(&breaker.Result{Runs: 1200, ShrinkRuns: 30}), "")
	assert.True(t, strings.HasPrefix(got, "Found after 1 200 schedules, shrunk in 30 runs."), got)
}

// The button is in every tab, and the search finds and replays a
// schedule in each mode.
func TestBreakItInEveryTab(t *testing.T) {
	for _, tc := range []struct {
		mode, preset string
		budget       breaker.Budget
	}{
		{"redis", "redis-gc-pause", breaker.Budget{Kinds: []sim.FaultKind{breaker.KindPause}, MaxFaults: 1}},
		{"redlock", "redlock-happy-path", breaker.Budget{Kinds: []sim.FaultKind{breaker.KindClockJump}}},
		{"zookeeper", "zk-gc-pause", breaker.Budget{Kinds: []sim.FaultKind{breaker.KindPause}, MaxFaults: 1}},
		{"etcd", "etcd-happy-path", breaker.Budget{Kinds: []sim.FaultKind{breaker.KindPause}, MaxFaults: 1}},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			_, v, q := breakWindow(t, tc.mode, tc.preset)
			require.NotNil(t, v.breakIt.button)
			assert.Equal(t, i18n.T("toolbar.break"), v.breakIt.button.Text)
			sc := v.ctl.Scenario().Clone()
			v.breakIt.search(sc, tc.budget, 1)
			q.pumpUntil(t, func() bool { return v.breakIt.flow == nil })
			require.Equal(t, OriginBreak, v.ctl.Origin(), "a schedule was found and loaded")
			got := v.ctl.Scenario()
			require.NotEmpty(t, got.Faults)
			assert.NotEqual(t, sc.Faults, got.Faults)
			s, err := sim.New(got)
			require.NoError(t, err)
			s.Run()
			i := slices.IndexFunc(s.Check.Writes(), func(w sim.WriteRecord) bool { return w.Stale && w.Accepted })
			require.GreaterOrEqual(t, i, 0)
			assert.Equal(t, s.Check.Writes()[i].At, v.ctl.Cursor(), "the cursor on the first stale write")
		})
	}
}

// Cancel stops the search and leaves the tab as it was.
func TestBreakItCancel(t *testing.T) {
	w, v, q := breakWindow(t, "etcd", "etcd-fenced-txn")
	before := v.ctl.Scenario().Clone()
	// The guarded transaction is never broken: the search would run all
	// its schedules.
	v.breakIt.search(before, breaker.Budget{Runs: 1_000_000}, 1)
	require.NotNil(t, v.breakIt.flow)
	test.Tap(overlayButton(t, w, i18n.T("break.cancel")))
	q.pumpUntil(t, func() bool { return v.breakIt.flow == nil })
	assert.Equal(t, "etcd-fenced-txn", v.ctl.Origin())
	assert.Equal(t, before.Faults, v.ctl.Scenario().Faults)
	assert.Contains(t, v.status.Text, "Search cancelled after")
	assert.Nil(t, w.Canvas().Overlays().Top(), "the progress dialog is gone")
}

// When nothing is found the dialog says what was searched, never "safe",
// and the tab keeps its scenario.
func TestBreakItNothingFoundSaysWhatWasSearched(t *testing.T) {
	w, v, q := breakWindow(t, "etcd", "etcd-fenced-txn")
	before := v.ctl.Scenario().Clone()
	v.breakIt.search(before, breaker.Budget{Kinds: []sim.FaultKind{breaker.KindCrash}, MaxFaults: 1, Runs: 40}, 1)
	q.pumpUntil(t, func() bool { return v.breakIt.flow == nil })
	assert.Equal(t, "etcd-fenced-txn", v.ctl.Origin())
	assert.Equal(t, before.Faults, v.ctl.Scenario().Faults)
	said := strings.Join(overlayLabels(w), "\n")
	assert.Contains(t, said, i18n.T("break.nothing"))
	assert.Contains(t, said, "40 schedules of one fault (crashes of up to 4 s): no stale write accepted.")
	assert.NotContains(t, strings.ToLower(said), "safe")
}

// The dialog's fields start at the mode's defaults and refuse what the
// search cannot take, naming the field.
func TestBreakFormReadsTheBudget(t *testing.T) {
	test.NewTempApp(t)
	sc, err := Preset("redlock-happy-path")
	require.NoError(t, err)
	f := newBreakForm(sc)
	b, seed, err := f.budget()
	require.NoError(t, err)
	want := breaker.DefaultBudget(sc)
	want.Time = BreakTimeLimit
	assert.Equal(t, want, b)
	assert.Equal(t, int64(1), seed)
	assert.True(t, f.kinds[breaker.KindFailover].Disabled(), "no failover in Redlock")

	f.maxPause.SetText("soon")
	_, _, err = f.budget()
	assert.EqualError(t, err, "Longest pause: want a duration such as 10s, got soon")
	f.maxPause.SetText("5s")
	f.maxFaults.SetText("0")
	_, _, err = f.budget()
	assert.ErrorContains(t, err, "Most faults per schedule: want a whole number from 1 to 10")
	f.maxFaults.SetText("1")
	for _, c := range f.kinds {
		c.SetChecked(false)
	}
	_, _, err = f.budget()
	assert.EqualError(t, err, i18n.T("break.noKind"))
	f.kinds[breaker.KindPause].SetChecked(true)
	b, _, err = f.budget()
	require.NoError(t, err)
	assert.Equal(t, []sim.FaultKind{breaker.KindPause}, b.Kinds)
	assert.Equal(t, 5*time.Second, b.MaxPause)
	assert.Equal(t, 1, b.MaxFaults)
	assert.False(t, b.Monotonic, "jumps move the wall clock alone unless asked")
	f.monotonic.SetChecked(true)
	b, _, err = f.budget()
	require.NoError(t, err)
	assert.True(t, b.Monotonic)
}
