package app

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
)

// waitJob waits for the window's background recording to be on screen.
func waitJob(t *testing.T, job *recordJob) {
	t.Helper()
	select {
	case <-job.done:
	case <-time.After(2 * time.Minute):
		t.Fatal("the background recording did not finish")
	}
}

// A file opened from the menu is recorded off the UI goroutine and then
// shown like Load: its tab selected, from the start, paused.
func TestLoadInBackgroundShowsTheRun(t *testing.T) {
	w, _, _, _ := newTestWindow(t)
	sc, err := Preset("etcd-happy-path")
	require.NoError(t, err)
	loaded := false
	job := w.startLoad(sc, "a file", func(err error) { t.Errorf("refused: %v", err) }, func() { loaded = true })
	require.NotNil(t, job, "the recording runs in the background")
	waitJob(t, job)
	assert.True(t, loaded)
	assert.Nil(t, w.job)
	assert.Equal(t, "etcd", w.CurrentMode())
	v := w.tab("etcd")
	assert.Equal(t, sc.Name, v.ctl.Scenario().Name)
	assert.Equal(t, i18n.F("status.loaded", "origin", "a file"), v.ctl.note)
}

// Cancelling a long recording leaves the run that was on show, and says so
// on the tab on show, which need not be the file's.
func TestLoadInBackgroundCancelKeepsTheRun(t *testing.T) {
	w, _, _, _ := newTestWindow(t)
	v := w.tab("etcd")
	on := w.current()
	require.NotSame(t, v, on, "the window starts on another tab than etcd")
	before, onBefore := v.ctl.Scenario(), on.ctl.Scenario()
	sc, err := sim.ParseScenario([]byte(`{"mode":"etcd","clients":200,"nodes":7,"duration":"6h","rounds":100000,"work":"1s","think":"100ms","ttl":"10s"}`))
	require.NoError(t, err)
	job := w.startLoad(sc, "long", func(err error) { t.Errorf("refused: %v", err) }, func() { t.Error("a cancelled run was shown") })
	job.cancelled.Store(true) // what the dialog's Cancel does
	waitJob(t, job)
	assert.Same(t, before, v.ctl.Scenario(), "the etcd tab's run is unchanged")
	assert.Same(t, onBefore, on.ctl.Scenario(), "the run on show is unchanged")
	assert.Same(t, on, w.current(), "still on show")
	assert.Equal(t, i18n.T("status.recordCancelled"), on.ctl.note)
	assert.Contains(t, on.status.Text, i18n.T("status.recordCancelled"), "the status line says it")
}

// A scenario too long to record is refused in one error that names the
// limit, and nothing changes.
func TestLoadInBackgroundRefusesWhatCannotFit(t *testing.T) {
	w, _, _, _ := newTestWindow(t)
	v := w.tab("redis")
	before := v.ctl.Scenario()
	sc, err := sim.ParseScenario([]byte(`{"mode":"redis","clients":200,"duration":"24h","rounds":0}`))
	require.NoError(t, err)
	var refused error
	waitJob(t, w.startLoad(sc, "huge", func(err error) { refused = err }, func() { t.Error("shown") }))
	var fe *sim.FieldError
	require.True(t, errors.As(refused, &fe), "%v", refused)
	assert.Equal(t, "record.tooBig", fe.Words.Key)
	assert.Same(t, before, v.ctl.Scenario())
}
