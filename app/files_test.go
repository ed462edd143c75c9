package app

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/sim"
)

func fileURI(t *testing.T, name string) fyne.URI {
	t.Helper()
	return storage.NewFileURI(filepath.Join(t.TempDir(), name))
}

// A scenario saved and opened again is the same scenario, with the
// faults and the mid-run changes made in the window.
func TestSaveThenOpenRoundTrips(t *testing.T) {
	w, v, _, _ := newTestWindow(t)
	v.seek(5 * time.Second)
	require.NoError(t, v.ctl.SetControl("Fencing on", func(sc *sim.Scenario) { sc.Fencing = true }))
	v.seek(2 * time.Second)
	require.NoError(t, v.ctl.InjectFault(sim.Fault{ClockJump: "redis-1", By: sim.Duration(3 * time.Second)}))
	saved := v.ctl.Saveable()
	require.Len(t, v.ctl.Scenario().Captions, 6)
	require.Len(t, saved.Captions, 1, "the clock jump at 2 s makes every caption after the first one untrue: the file leaves them out")
	assert.True(t, v.ctl.Edited())

	u := fileURI(t, "fork"+ScenarioExt)
	require.NoError(t, w.SaveURI("redis", u))
	assert.Equal(t, displayPath(u), v.ctl.Origin(), "the tab's scenario is now the file's")
	assert.Equal(t, []string{u.String()}, w.Recent())
	assert.False(t, v.ctl.Edited(), "once saved, the file is what the tab shows")
	assert.Equal(t, saved, v.ctl.Scenario())

	data, err := os.ReadFile(u.Path())
	require.NoError(t, err)
	onDisk, err := sim.ParseScenario(data)
	require.NoError(t, err)
	assert.Equal(t, saved, onDisk)

	v.toolbar.selectPreset("redis-happy-path")
	require.Equal(t, "redis-happy-path", v.ctl.Origin())
	require.NoError(t, w.OpenURI(u))
	assert.Equal(t, saved, v.ctl.Scenario())
	assert.Equal(t, displayPath(u), v.ctl.Origin())
	assert.Equal(t, "redis", w.CurrentMode())
	require.NotNil(t, w.file(v), "Save writes back to the file opened")
}

// A bad file gets one error naming the file, the field and the problem,
// and the tab keeps what it showed.
func TestOpeningABadFileKeepsWhatWasLoaded(t *testing.T) {
	w, v, _, _ := newTestWindow(t)
	v.seek(3 * time.Second)
	before, origin := v.ctl.Scenario(), v.ctl.Origin()
	for _, tc := range []struct{ doc, field string }{
		{`{"mode": "redis", "faults": [{"at": "soon", "pause": "client-1", "for": "1s"}]}`, "faults[0].at"},
		{`{"mode": "redis", "ttl": -5}`, "ttl"},
		{`{"mode": "paxos"}`, "mode"},
		{`{"mode": "redis", "captions": [{"at": "1s", "text": 3}]}`, "captions"},
		{`not json`, "scenario"},
	} {
		u := fileURI(t, "bad"+ScenarioExt)
		require.NoError(t, os.WriteFile(u.Path(), []byte(tc.doc), 0o644))
		err := w.OpenURI(u)
		require.Error(t, err, tc.doc)
		assert.Contains(t, err.Error(), "bad"+ScenarioExt+": "+tc.field, tc.doc)
		assert.Same(t, before, v.ctl.Scenario(), "nothing replaced")
		assert.Equal(t, origin, v.ctl.Origin())
		assert.Equal(t, 3*time.Second, v.ctl.Cursor())
	}
	assert.Empty(t, w.Recent(), "a file that did not open is not recent")
	err := w.OpenURI(fileURI(t, "missing"+ScenarioExt))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "missing"+ScenarioExt)
}

// A save that fails says so and changes nothing: not the tab, not the
// file that was there.
func TestFailedSaveKeepsTheStateAndTheFile(t *testing.T) {
	w, v, _, _ := newTestWindow(t)
	origin := v.ctl.Origin()
	dir := t.TempDir()
	err := w.SaveURI("redis", storage.NewFileURI(filepath.Join(dir, "no-such-folder", "x"+ScenarioExt)))
	require.Error(t, err)
	assert.Equal(t, origin, v.ctl.Origin())
	assert.Nil(t, w.file(v))

	err = w.SaveURI("redis", storage.NewFileURI(dir))
	require.ErrorContains(t, err, "is a folder")

	// The new bytes go to a temporary file renamed over the old one, so a
	// write that fails half-way leaves the old file whole; none is left.
	u := fileURI(t, "kept"+ScenarioExt)
	require.NoError(t, os.WriteFile(u.Path(), []byte("old"), 0o644))
	require.NoError(t, writeFileAtomic(u.Path(), []byte("new")))
	b, _ := os.ReadFile(u.Path())
	assert.Equal(t, "new", string(b))
	entries, _ := os.ReadDir(filepath.Dir(u.Path()))
	assert.Len(t, entries, 1, "no temporary file is left behind")
}

// Save writes to the tab's file without asking while the file holds what
// it held when read; after someone else changed it, it asks first.
func TestSaveAsksBeforeOverwritingAChangedFile(t *testing.T) {
	w, v, _, _ := newTestWindow(t)
	u := fileURI(t, "mine"+ScenarioExt)
	require.NoError(t, w.SaveURI("redis", u))
	v.seek(time.Second)
	require.NoError(t, v.ctl.InjectFault(sim.Fault{Crash: "redis-1"}))

	w.Save()
	assert.Nil(t, w.Canvas().Overlays().Top(), "no question for our own file")
	data, _ := os.ReadFile(u.Path())
	assert.Contains(t, string(data), `"crash": "redis-1"`)

	require.NoError(t, os.WriteFile(u.Path(), []byte(`{"mode": "redis"}`), 0o644))
	w.Save()
	require.NotNil(t, w.Canvas().Overlays().Top(), "a file changed on disk is not overwritten without asking")
	data, _ = os.ReadFile(u.Path())
	assert.Equal(t, `{"mode": "redis"}`, string(data))
}

// Save As goes through the save dialog (stood in for here) with a
// proposed name, and a scenario with no file gets Save As on Save.
func TestSaveWithoutAFileAsksWhere(t *testing.T) {
	w, _, _, _ := newTestWindow(t)
	var asked string
	u := fileURI(t, "chosen"+ScenarioExt)
	w.files.chooseSave = func(name string, exts []string, then func(fyne.URI)) {
		asked = name
		then(u)
	}
	w.Save()
	assert.Equal(t, "redis-gc-pause"+ScenarioExt, asked)
	_, err := os.Stat(u.Path())
	require.NoError(t, err)
}

func TestRecentKeepsTheLastFive(t *testing.T) {
	w, _, _, _ := newTestWindow(t)
	var uris []fyne.URI
	for i := range 7 {
		u := fileURI(t, string(rune('a'+i))+ScenarioExt)
		require.NoError(t, w.SaveURI("redis", u))
		uris = append(uris, u)
	}
	require.NoError(t, w.OpenURI(uris[3]))
	want := []string{uris[3].String(), uris[6].String(), uris[5].String(), uris[4].String(), uris[2].String()}
	assert.Equal(t, want, w.Recent())

	var labels []string
	for _, a := range w.fileActions() {
		if a != nil {
			labels = append(labels, a.Label)
		}
	}
	assert.Contains(t, labels, "1  "+displayPath(uris[3]), "the File menu lists them, newest first")
	assert.Contains(t, labels, "5  "+displayPath(uris[2]))

	require.NoError(t, os.Remove(uris[6].Path()))
	w.openRecent(uris[6].String(), uris[6])
	assert.NotContains(t, w.Recent(), uris[6].String(), "a file that is gone leaves the list")
}

// What each tab showed — its scenario with the changes made in it, the
// cursor, the file — comes back on the next start.
func TestSessionComesBack(t *testing.T) {
	a := test.NewTempApp(t)
	w := NewWindow(a)
	v := w.tab("redis")
	v.seek(6 * time.Second)
	require.NoError(t, v.ctl.SetControl("Watchdog on", func(sc *sim.Scenario) { setOption(sc, "watchdog", true) }))
	u := storage.NewFileURI(filepath.Join(t.TempDir(), "s"+ScenarioExt))
	require.NoError(t, w.SaveURI("redis", u))
	v.seek(7 * time.Second)
	want := v.ctl.Scenario().Clone()
	w.Close()

	w2 := NewWindow(a)
	t.Cleanup(w2.Close)
	w2.RestoreSession()
	v2 := w2.tab("redis")
	assert.Equal(t, want, v2.ctl.Scenario())
	assert.Equal(t, 7*time.Second, v2.ctl.Cursor())
	assert.Equal(t, displayPath(u), v2.ctl.Origin())
	require.NotNil(t, w2.file(v2), "Save goes back to the same file")
	assert.True(t, isOn(v2.ctl.Effective(), "watchdog"))
}

func TestExportTraceAsJSONLinesAndCSV(t *testing.T) {
	w, v, _, _ := newTestWindow(t)
	n := len(v.ctl.Recording().Trace())
	require.Positive(t, n)

	jl := fileURI(t, "trace.jsonl")
	require.NoError(t, w.ExportTraceURI("redis", jl))
	f, err := os.Open(jl.Path())
	require.NoError(t, err)
	defer f.Close()
	lines := 0
	for sc := bufio.NewScanner(f); sc.Scan(); lines++ {
		assert.True(t, strings.HasPrefix(sc.Text(), `{"t":`), sc.Text())
	}
	assert.Equal(t, n, lines)

	c := fileURI(t, "trace.csv")
	require.NoError(t, w.ExportTraceURI("redis", c))
	data, err := os.ReadFile(c.Path())
	require.NoError(t, err)
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	require.NoError(t, err)
	assert.Equal(t, []string{"t_ms", "node", "kind", "op", "peer", "note"}, rows[0])
	assert.Len(t, rows, n+1)
	assert.Contains(t, v.ctl.Status(), "wrote")
}

func TestExportPNGWritesTheTabAtTwiceTheScale(t *testing.T) {
	w, v, _, _ := newTestWindow(t)
	v.seek(12 * time.Second)
	u := fileURI(t, "tab.png")
	require.NoError(t, w.ExportPNGURI("redis", u))
	f, err := os.Open(u.Path())
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, img.Bounds().Dx(), 1200*PictureScale)
	assert.Contains(t, v.ctl.Status(), "exported")
	assert.Equal(t, 12*time.Second, v.ctl.Cursor(), "exporting moves nothing")
}
