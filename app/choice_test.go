package app

import (
	"testing"

	"fyne.io/fyne/v2/test"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
)

// client is the Redis client of sc.
func client(sc *sim.Scenario) string { return sc.Option("client").Value(sc).(string) }

// A choice option (Redis's client) is a select among the tab's toggles,
// its values in the tab's words: picking one edits the scenario, undo
// takes it back and the select follows; the choice survives a restart.
func TestTheClientIsASelectThatUndoAndRestartKeep(t *testing.T) {
	t.Cleanup(func() { i18n.Set(i18n.English) })
	a := test.NewTempApp(t)
	w := NewWindow(a)
	v := w.tab("redis")
	v.toolbar.selectPreset("redis-happy-path")
	sel := v.controls.choices["client"]
	require.NotNil(t, sel, "the client is a select")
	assert.NotContains(t, v.controls.toggles, "client", "not a check box")
	assert.Contains(t, v.controls.toggleCells(), sel, "among the toggles")
	assert.Equal(t, []string{"Redisson 4.7.0 RLock", "Redisson 4.7.0 RFairLock", "Redisson 3.16.8 RLock (older)", "SET NX (redis.io recipe)"}, sel.Options)
	assert.Equal(t, "Redisson 4.7.0 RLock", sel.Selected)
	assert.Equal(t, "toggle.client.tip", sel.TipText())
	assert.Contains(t, i18n.T(sel.TipText()), "Redisson 4.7.0 RLock", "the tip names each value")
	assert.Contains(t, i18n.T(sel.TipText()), "Redisson 3.16.8 RLock (older)")
	assert.Contains(t, i18n.T(sel.TipText()), "SET NX (redis.io recipe")

	sel.SetSelected("SET NX (redis.io recipe)")
	assert.Equal(t, "plain", client(v.ctl.Scenario()))
	assert.True(t, v.ctl.Edited())
	edit := w.MainMenu().Items[1]
	assert.Equal(t, "Undo plain SET NX client", edit.Items[0].Label, "undo names the edit in the parameter line's words")
	edit.Items[0].Action()
	assert.Equal(t, "redisson", client(v.ctl.Scenario()), "undone")
	assert.Equal(t, "Redisson 4.7.0 RLock", sel.Selected, "and the select follows")
	edit.Items[1].Action()
	assert.Equal(t, "plain", client(v.ctl.Scenario()), "redone")
	assert.Equal(t, "SET NX (redis.io recipe)", sel.Selected)
	w.Close()

	w = NewWindow(a)
	defer w.Close()
	v = w.tab("redis")
	assert.Equal(t, "plain", client(v.ctl.Scenario()), "restored")
	assert.Equal(t, "SET NX (redis.io recipe)", v.controls.choices["client"].Selected)

	inChinese(t, w)
	v = w.tab("redis")
	assert.Equal(t, []string{"Redisson 4.7.0 RLock", "Redisson 4.7.0 RFairLock", "Redisson 3.16.8 RLock（旧版）", "SET NX（redis.io 方案）"}, v.controls.choices["client"].Options)
	assert.Equal(t, "SET NX（redis.io 方案）", v.controls.choices["client"].Selected)
}
