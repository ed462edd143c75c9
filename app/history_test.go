package app

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
)

// The case: crash client-2 at 6.76 s in redis-gc-pause-fenced. The
// closing caption tells of fencing refusing client-1's write; in the fork
// client-2 never writes, client-1's write is accepted, and the caption
// must not be shown as true.
func TestAForkThatChangesTheOutcomeMarksTheCaptionsItFalsifies(t *testing.T) {
	c := loaded(t, "redis-gc-pause-fenced")
	caps := c.Scenario().Captions
	require.GreaterOrEqual(t, len(caps), 3)
	for _, cp := range caps {
		assert.True(t, c.CaptionHolds(cp), "the run as loaded is the one its captions tell of: %q", cp.Text)
	}
	before := c.Recording().Summary()

	c.Seek(6760 * time.Millisecond)
	require.NoError(t, c.InjectFault(sim.Fault{Crash: "client-2"}))
	after := c.Recording().Summary()
	require.NotEqual(t, before.StaleWritesRejected, after.StaleWritesRejected, "the fork changes the outcome")

	assert.Equal(t, 6760*time.Millisecond, c.Divergence(), "the run departs where the fault is")
	for _, cp := range caps {
		next := c.End()
		for _, o := range caps {
			if o.At > cp.At {
				next = min(next, o.At.D())
			}
		}
		assert.Equal(t, next <= 6760*time.Millisecond && next < c.End(), c.CaptionHolds(cp),
			"caption at %v (to %v): holds only if it tells of the run before the fork", cp.At.D(), next)
	}
	c.Seek(c.End())
	last, ok := c.Caption()
	require.True(t, ok)
	assert.False(t, c.CaptionHolds(last), "the closing caption narrates a refusal that no longer happens")
	assert.NotContains(t, c.Saveable().Captions, last, "a saved fork leaves it out")
}

// A change that changes nothing in the run keeps every caption.
func TestAnEditThatChangesNothingKeepsTheCaptions(t *testing.T) {
	c := loaded(t, "redis-gc-pause")
	c.Seek(25 * time.Second)
	// A new name: the scenario differs, what happens does not.
	require.NoError(t, c.Edit("name", func(sc *sim.Scenario) { sc.Name = "renamed" }))
	assert.Equal(t, NoDivergence, c.Divergence())
	for _, cp := range c.Scenario().Captions {
		assert.True(t, c.CaptionHolds(cp))
	}
	assert.True(t, c.Edited(), "the scenario differs, so the title says edited")
}

func TestTheWindowMarksAFalsifiedCaption(t *testing.T) {
	_, v, _, _ := newTestWindow(t)
	v.toolbar.selectPreset("redis-gc-pause-fenced")
	v.seek(6760 * time.Millisecond)
	v.inject(sim.Fault{Crash: "client-2"})
	v.seek(v.ctl.End())
	segs := v.pics.Caption.Segments
	require.Len(t, segs, 3)
	mark := segs[1].(*widget.TextSegment)
	text := segs[2].(*widget.TextSegment)
	assert.Contains(t, mark.Text, "from 6.760 s on this run differs")
	assert.Equal(t, captionStale, text.Style, "greyed, not shown as true")

	v.undo()
	assert.Empty(t, segs[1].(*widget.TextSegment).Text, "undone: the caption is true again")
	assert.Equal(t, captionTrue, segs[2].(*widget.TextSegment).Style)
}

// Dragging TTL on a run opened from the trade-off map makes its "n of its
// runs took a stale write" caption untrue of a run that is now safe.
func TestAControlChangeMarksTheMapCellsCaption(t *testing.T) {
	c := NewController("redis")
	sc, err := c.presetScenario("redis-gc-pause")
	require.NoError(t, err)
	sc.Captions = []sim.Caption{{At: 0, Text: "From the trade-off map, TTL 5 s: 50 of its 50 runs took a stale write."}}
	sc.Name, sc.NameZh = "Trade-off map: TTL 5 s, seed 1", "权衡图：TTL 5 s，种子 1"
	require.NoError(t, c.Load(sc, OriginTradeoff))
	require.False(t, c.Recording().Summary().Safe)
	cp, _ := c.Caption()
	require.True(t, c.CaptionHolds(cp))

	require.NoError(t, c.SetControl("TTL 43.5 s", func(sc *sim.Scenario) { sc.TTL = sim.Duration(43500 * time.Millisecond) }))
	require.True(t, c.Recording().Summary().Safe, "a long lease outlives the pause")
	assert.False(t, c.CaptionHolds(cp))
	assert.Equal(t, "Trade-off map: TTL 5 s, seed 1 (edited)", c.Title(), "the title no longer passes for the cell's run")
	assert.Contains(t, ScenarioParameters(c.Scenario()), "TTL 43.500 s")
	assert.Equal(t, "trade-off-map-edited", fileStem(c))

	t.Cleanup(func() { i18n.Set(i18n.English) })
	i18n.Set(i18n.Chinese)
	assert.Equal(t, "权衡图：TTL 5 s，种子 1（已修改）", c.Title(), "a generated name follows the language")
	assert.Equal(t, "权衡图", OriginText(c.Origin()))
}

func (c *Controller) presetScenario(name string) (*sim.Scenario, error) {
	if err := c.LoadPreset(name); err != nil {
		return nil, err
	}
	return c.Scenario().Clone(), nil
}

func TestUndoRedoOverForksFaultsAndControls(t *testing.T) {
	c := loaded(t, "redis-gc-pause")
	assert.False(t, c.CanUndo())
	assert.False(t, c.Undo())
	loadedSc, loadedSum := c.Scenario(), c.Recording().Summary()

	c.Seek(5 * time.Second)
	require.NoError(t, c.SetControl("fencing on", func(sc *sim.Scenario) { sc.Fencing = true })) // a fork at 5 s
	fork := c.Scenario()
	c.Seek(3 * time.Second)
	require.NoError(t, c.InjectFault(sim.Fault{Crash: "redis-1"})) // a fault
	require.NoError(t, c.SetControl("TTL 20 s", func(sc *sim.Scenario) { sc.TTL = sim.Duration(20 * time.Second) }))
	require.Len(t, c.history, 4)
	assert.True(t, c.Edited())

	require.True(t, c.Undo())
	require.True(t, c.Undo())
	assert.Same(t, fork, c.Scenario(), "two undos: back to the fork")
	assert.Equal(t, 3*time.Second, c.Cursor(), "the cursor stays")
	assert.Contains(t, c.Note(), "undid")
	require.True(t, c.Undo())
	assert.Same(t, loadedSc, c.Scenario())
	assert.Equal(t, loadedSum, c.Recording().Summary())
	assert.False(t, c.Edited(), "back to the run as loaded")
	assert.Equal(t, NoDivergence, c.Divergence())
	assert.False(t, c.CanUndo())

	require.True(t, c.Redo())
	assert.Same(t, fork, c.Scenario())
	assert.True(t, c.Edited())
	assert.Contains(t, c.Note(), "redid from 5 s: fencing on")

	// A new edit after an undo drops what could have been redone.
	require.NoError(t, c.SetControl("work 2 s", func(sc *sim.Scenario) { sc.Work = sim.Duration(2 * time.Second) }))
	assert.False(t, c.CanRedo())
	require.True(t, c.Undo())
	assert.Same(t, fork, c.Scenario())

	// Loading starts a new history.
	require.NoError(t, c.LoadPreset("redis-happy-path"))
	assert.False(t, c.CanUndo())
	assert.False(t, c.CanRedo())
}

func TestUndoIsCtrlZAndRedoCtrlShiftZ(t *testing.T) {
	w, v, _, _ := newTestWindow(t)
	v.toolbar.selectPreset("redis-gc-pause")
	v.seek(2 * time.Second)
	v.inject(sim.Fault{Crash: "redis-1"})
	require.True(t, v.ctl.Edited())

	entries := func() (undo, redo *fyne.MenuItem) {
		edit := w.MainMenu().Items[1]
		require.Equal(t, i18n.T("menu.edit"), edit.Label)
		return edit.Items[0], edit.Items[1]
	}
	undo, redo := entries()
	crash := FaultText(sim.Fault{Crash: "redis-1", At: sim.Duration(2 * time.Second)})
	assert.Equal(t, "Undo "+crash, undo.Label, "Undo names what it takes back")
	assert.False(t, undo.Disabled)
	assert.Equal(t, i18n.T("action.redo"), redo.Label)
	assert.True(t, redo.Disabled, "nothing to redo")
	// The desktop driver turns Ctrl+Z into fyne.ShortcutUndo before it asks
	// the menus; the entry must answer to that name.
	assert.Equal(t, (&fyne.ShortcutUndo{}).ShortcutName(), undo.Shortcut.ShortcutName())
	sh, ok := redo.Shortcut.(fyne.KeyboardShortcut)
	require.True(t, ok)
	assert.Equal(t, fyne.KeyZ, sh.Key())
	assert.Equal(t, fyne.KeyModifierShortcutDefault|fyne.KeyModifierShift, sh.Mod())

	undo.Action()
	assert.False(t, v.ctl.Edited())
	assert.Equal(t, "LockScope — GC pause outlives the lease", w.Title())
	assert.Empty(t, v.ctl.Scenario().Faults[1:], "the crash is gone")
	undo, redo = entries()
	assert.True(t, undo.Disabled, "nothing left to undo")
	assert.Equal(t, "Redo "+crash, redo.Label)
	redo.Action()
	assert.True(t, v.ctl.Edited())
	assert.Equal(t, "LockScope — GC pause outlives the lease (edited)", w.Title())

	// What undo names follows the language, whatever it was made in.
	v.seek(4 * time.Second)
	v.controls.toggles["watchdog"].SetChecked(true)
	inChinese(t, w)
	v = w.tab("redis")
	undo, _ = entries()
	assert.Equal(t, "撤销 从 4 s 起："+i18n.In(i18n.Chinese, "param.watchdog")+" 开", undo.Label)
	undo.Action()
	assert.Contains(t, v.ctl.Note(), "从 4 s 起")
}

func TestEditedRunsAreMarkedInThePictureAndTheFileName(t *testing.T) {
	c := loaded(t, "redis-gc-pause")
	assert.Equal(t, "redis-gc-pause", fileStem(c))
	c.Seek(time.Second)
	require.NoError(t, c.InjectFault(sim.Fault{Crash: "redis-1"}))
	assert.Equal(t, "redis-gc-pause-edited", fileStem(c))
	assert.Contains(t, c.Status(), "GC pause outlives the lease (edited) — ")

	spec, ok := tabFor("redis")
	require.True(t, ok)
	head := PictureCaption(spec, c).(*fyne.Container)
	title := head.Objects[0].(*widget.Label)
	params := head.Objects[2].(*widget.Label)
	crash := FaultText(sim.Fault{Crash: "redis-1", At: sim.Duration(time.Second)})
	assert.Equal(t, "GC pause outlives the lease (edited: "+crash+")", title.Text, "the title says what the edit was")
	assert.Contains(t, params.Text, crash, "in the parameter line's words")
}

// The export: a map cell's run named "TTL 5 s", its TTL dragged to
// 43.5 s. The picture's title and its parameter line agree: the title
// carries the edit in the line's words.
func TestAnExportedTitleAgreesWithItsParameters(t *testing.T) {
	sc, err := sim.ParseScenario([]byte(`{"name":"Trade-off map: TTL 5 s, pause of the holder 8 s, seed 1","mode":"redis",
		"clients":2,"ttl":"5s","work":"3s","faults":[{"pause":"client-1","at":"1s","for":"8s"}]}`))
	require.NoError(t, err)
	c := NewController("redis")
	require.NoError(t, c.Load(sc, OriginTradeoff))
	require.NoError(t, c.Edit("TTL 43.5 s", func(sc *sim.Scenario) { sc.TTL = sim.Duration(43500 * time.Millisecond) }))
	spec, _ := tabFor("redis")
	head := PictureCaption(spec, c).(*fyne.Container)
	title := head.Objects[0].(*widget.Label).Text
	params := head.Objects[2].(*widget.Label).Text
	assert.Contains(t, params, "TTL 43.500 s")
	assert.Equal(t, "Trade-off map: TTL 5 s, pause of the holder 8 s, seed 1 (edited: TTL 43.500 s)", title)

	c.Seek(4 * time.Second)
	require.NoError(t, c.SetControl("work", func(sc *sim.Scenario) { sc.Work = sim.Duration(time.Second) }))
	head = PictureCaption(spec, c).(*fyne.Container)
	assert.Contains(t, head.Objects[0].(*widget.Label).Text, "TTL 43.500 s · from 4 s: work 1 s")
	assert.Contains(t, head.Objects[2].(*widget.Label).Text, "from 4 s: work 1 s")

	i18n.Set(i18n.Chinese)
	t.Cleanup(func() { i18n.Set(i18n.English) })
	head = PictureCaption(spec, c).(*fyne.Container)
	assert.Contains(t, head.Objects[0].(*widget.Label).Text, "（已修改：TTL 43.500 s")
}
