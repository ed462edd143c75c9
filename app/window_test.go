package app

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	"github.com/lockscope/lockscope/widgets"
)

// fakeFrames stands in for the ticker: the test fires frames itself, on
// its own goroutine, with a clock it moves.
type fakeFrames struct {
	frame   func()
	running bool
}

func (f *fakeFrames) Start(frame func()) { f.frame, f.running = frame, true }
func (f *fakeFrames) Stop()              { f.running = false }
func (f *fakeFrames) Running() bool      { return f.running }

// newTestWindow builds the whole window on a test app, with the Redis
// tab's frames and clock under the test's control.
func newTestWindow(t *testing.T) (*Window, *tabView, *fakeFrames, *time.Time) {
	t.Helper()
	a := test.NewTempApp(t)
	w := NewWindow(a)
	t.Cleanup(w.Close)
	require.Equal(t, "redis", w.Modes()[0], "the Redis tab comes first")
	v := w.tab("redis")
	require.NotNil(t, v)
	frames := &fakeFrames{}
	clock := time.Unix(1000, 0)
	v.clock.frames, v.clock.now = frames, func() time.Time { return clock }
	return w, v, frames, &clock
}

func key(w *Window, k fyne.KeyName) { w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: k}) }

// shownTexts lists every visible text drawn inside o.
func shownTexts(o fyne.CanvasObject) []string {
	var out []string
	for _, obj := range test.LaidOutObjects(o) {
		if t, ok := obj.(*canvas.Text); ok && t.Visible() {
			out = append(out, t.Text)
		}
	}
	return out
}

func TestWindowPlaysGCPauseIntoAViolation(t *testing.T) {
	w, v, frames, clock := newTestWindow(t)
	assert.Equal(t, "LockScope — GC pause outlives the lease", w.Title())

	v.toolbar.selectPreset("redis-happy-path")
	require.Equal(t, "redis-happy-path", v.ctl.Origin())
	v.toolbar.selectPreset("redis-gc-pause")
	require.Equal(t, "redis-gc-pause", v.ctl.Origin())

	v.toolbar.speed.SetSelected("10×") // a uniform 10×
	assert.Equal(t, Speed10, v.ctl.Speed())

	key(w, fyne.KeySpace)
	require.True(t, frames.Running(), "playing runs the frame source")
	assert.Equal(t, "Pause", v.toolbar.play.Text)
	for v.ctl.Cursor() < 12*time.Second {
		*clock = clock.Add(FrameInterval)
		frames.frame()
	}
	key(w, fyne.KeySpace)
	assert.False(t, frames.Running(), "paused: no frames")
	assert.Less(t, v.ctl.Cursor(), 12400*time.Millisecond, "a frame at 10× moves a third of a second")

	snap := v.pics.Cluster.Snapshot()
	require.NotNil(t, snap)
	assert.Equal(t, v.ctl.Cursor(), snap.At, "the cluster shows the cursor's instant")
	assert.Equal(t, []string{"client-1", "client-2"}, widgets.Holders(snap))
	cluster := shownTexts(v.pics.Cluster)
	assert.Contains(t, cluster, "2 clients believe they hold the lock: client-1, client-2")
	assert.Contains(t, cluster, "paused until 16.000 s")

	assert.Equal(t, 1, v.pics.Metrics.Summary().Violations)
	metrics := shownTexts(v.pics.Metrics)
	i := indexOf(metrics, "violations")
	require.GreaterOrEqual(t, i, 0)
	assert.Equal(t, "1", metrics[i+1], "the strip shows one violation")
	assert.True(t, strings.HasSuffix(metrics[i+2], "ms overlap"))

	assert.Equal(t, v.ctl.Cursor(), v.pics.Timeline.Cursor(), "the timeline cursor follows")
	assert.Contains(t, strings.Join(shownTexts(v.pics.Caption), ""), "two clients now believe they hold the lock.")
	assert.Contains(t, v.status.Text, "paused")

	// Nothing happens while client-1 sleeps and client-2 works: → jumps
	// to client-2's release.
	key(w, fyne.KeyRight)
	assert.Equal(t, v.ctl.Recording().Next(snap.At), v.ctl.Cursor(), "→ steps to the next event")
	assert.Greater(t, v.ctl.Cursor(), 15*time.Second)
	key(w, fyne.KeyLeft)
	assert.Less(t, v.ctl.Cursor(), snap.At, "← steps back")
	key(w, fyne.KeyR)
	assert.Equal(t, time.Duration(0), v.ctl.Cursor(), "R rewinds")
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

// S (View ▸ Story: stop at each caption) turns the story's stops off and
// on in every tab, the menu shows it checked, and the choice is kept.
func TestWindowStopsAtCaptionsUntilTurnedOff(t *testing.T) {
	w, v, frames, clock := newTestWindow(t)
	require.True(t, v.ctl.StoryStops(), "on at first start")
	require.Equal(t, SpeedStory, v.ctl.Speed())
	assert.Equal(t, SpeedStory.Name(), v.toolbar.speed.Selected)
	f := v.ctl.Recording().Flights()[0]
	v.seek(f.Sent)
	key(w, fyne.KeySpace)
	*clock = clock.Add(FrameInterval)
	frames.frame()
	assert.Less(t, v.ctl.Cursor(), f.Due, "a frame does not carry a key message across")
	assert.Contains(t, v.status.Text, "of the run every", "how fast time passes, in words")
	require.NotEmpty(t, v.pics.Cluster.Snapshot().InFlight, "the message is drawn on its way")
	for frames.Running() {
		*clock = clock.Add(FrameInterval)
		frames.frame()
	}
	require.True(t, v.ctl.AtStoryStop(), "held at the next caption")
	assert.Contains(t, v.status.Text, "Space or → goes on")
	assert.Contains(t, richText(v.pics.Caption), i18n.T("caption.storyStop"), "the caption says how to go on")
	key(w, fyne.KeyRight)
	assert.True(t, frames.Running(), "→ goes on")

	key(w, fyne.KeyS)
	for _, m := range w.Modes() {
		assert.False(t, w.Controller(m).StoryStops(), m)
	}
	assert.Equal(t, SpeedPaced, v.ctl.Speed(), "the same pace without the stops")
	assert.Equal(t, SpeedPaced.Name(), v.toolbar.speed.Selected)
	assert.False(t, w.settings.StoryStops(), "kept for the next start")
	assert.False(t, menuItem(t, w, "Story: stop at each caption").Checked)
	for frames.Running() {
		*clock = clock.Add(FrameInterval)
		frames.frame()
		require.False(t, v.ctl.AtStoryStop())
	}
	assert.Equal(t, v.ctl.End(), v.ctl.Cursor())

	key(w, fyne.KeyS)
	assert.True(t, v.ctl.StoryStops())
	assert.Equal(t, SpeedStory, v.ctl.Speed())
	assert.True(t, menuItem(t, w, "Story: stop at each caption").Checked)
}

// richText is the words a rich text shows.
func richText(r *widget.RichText) string {
	var b strings.Builder
	for _, s := range r.Segments {
		b.WriteString(s.Textual())
	}
	return b.String()
}

// menuItem finds an entry of the window's menu bar by its label.
func menuItem(t *testing.T, w *Window, label string) *fyne.MenuItem {
	t.Helper()
	for _, m := range w.MainMenu().Items {
		for _, it := range m.Items {
			if it.Label == label {
				return it
			}
		}
	}
	t.Fatalf("no menu entry %q", label)
	return nil
}

func TestWindowPlaybackStopsAtTheEnd(t *testing.T) {
	_, v, frames, clock := newTestWindow(t)
	v.toolbar.speed.SetSelected("100×")
	v.togglePlay()
	for i := 0; i < 100 && frames.Running(); i++ {
		*clock = clock.Add(FrameInterval)
		frames.frame()
	}
	assert.False(t, frames.Running(), "the frames stop with the run")
	assert.Equal(t, v.ctl.End(), v.ctl.Cursor())
	assert.Equal(t, "Play", v.toolbar.play.Text)
}

func TestWindowSliderReRecordsAndKeepsTheCursor(t *testing.T) {
	w, v, _, _ := newTestWindow(t)
	v.seek(12 * time.Second)
	require.Len(t, widgets.Holders(v.pics.Cluster.Snapshot()), 2)

	// Past 0 a slider forks the run at the cursor: from 12 s on the TTL is
	// 20 s, but the lease set at 0 was 10 s and has expired.
	ttl := v.slider("ttl")
	ttl.set(20)
	assert.Equal(t, sim.Duration(10*time.Second), v.ctl.Scenario().TTL)
	assert.Equal(t, sim.Duration(20*time.Second), v.ctl.Effective().TTL)
	assert.Equal(t, 12*time.Second, v.ctl.Cursor())
	assert.Equal(t, "20 s", ttl.value.Text)
	assert.Len(t, widgets.Holders(v.pics.Cluster.Snapshot()), 2)

	// At 0 it edits the whole run.
	key(w, fyne.KeyHome)
	ttl.set(20)
	assert.Equal(t, sim.Duration(20*time.Second), v.ctl.Scenario().TTL)
	v.seek(12 * time.Second)
	assert.Len(t, widgets.Holders(v.pics.Cluster.Snapshot()), 1, "a 20 s lease has not expired at 12 s")
	assert.Empty(t, v.pics.Timeline.Cursor()-12*time.Second)

	pause := v.slider("pause")
	assert.False(t, pause.slider.Disabled())
	pause.set(5)
	assert.Equal(t, sim.Duration(5*time.Second), v.ctl.Scenario().Faults[0].For)

	v.toolbar.selectPreset("redis-happy-path")
	assert.True(t, pause.slider.Disabled(), "no pause fault: nothing for the slider to edit")
	assert.Equal(t, "none", pause.value.Text)
}

// openTab opens the whole window on a test app and returns its tab of
// mode, on show (only the tab on show is laid out), its frames faked.
func openTab(t *testing.T, mode string) (*Window, *tabView) {
	t.Helper()
	w := NewWindow(test.NewTempApp(t))
	t.Cleanup(w.Close)
	v := w.tab(mode)
	require.NotNil(t, v, "the %s mode has a tab", mode)
	v.clock.frames = &fakeFrames{}
	w.appTabs.SelectIndex(w.index(v))
	require.Equal(t, mode, w.CurrentMode())
	return w, v
}

func (v *tabView) slider(key string) *sliderControl {
	for _, s := range v.controls.sliders {
		if s.spec.Key == key {
			return s
		}
	}
	return nil
}

func TestWindowToggleErrorKeepsTheState(t *testing.T) {
	w, v, _, _ := newTestWindow(t)
	v.toolbar.selectPreset("redis-failover")
	replica := v.controls.toggles["replica"]
	require.True(t, replica.Checked)

	replica.SetChecked(false)
	assert.True(t, isOn(v.ctl.Scenario(), "replica"), "a failover needs the replica: the edit is refused")
	assert.True(t, replica.Checked, "and the box goes back")
	assert.NotNil(t, w.Canvas().Overlays().Top(), "the error is shown in a dialog")

	fencing := v.controls.toggles["fencing"]
	fencing.SetChecked(true)
	assert.True(t, v.ctl.Scenario().Fencing)
	assert.Contains(t, v.pics.Protocol.Text, "INCR the fencing counter", "the protocol notes follow the toggles")
}

func TestWindowLoadsAScenarioIntoItsTab(t *testing.T) {
	w, v, _, _ := newTestWindow(t)
	sc, err := sim.Defaults("redis")
	require.NoError(t, err)
	sc.Name, sc.Clients = "three clients", 3
	require.NoError(t, w.Load(sc, "three.lockscope.json"))
	assert.Equal(t, "redis", w.CurrentMode())
	assert.Equal(t, "three.lockscope.json", v.ctl.Origin())
	assert.Len(t, v.pics.Cluster.Snapshot().Nodes, 5, "three clients, redis-1 and the storage")
	assert.Empty(t, v.toolbar.presets.Selected, "a file is no preset")
	assert.Equal(t, "3", v.slider("clients").value.Text)

	other := *sc
	other.Mode = "no-such-mode"
	assert.Error(t, w.Load(&other, "x"))
	bad := sc.Clone()
	bad.TTL = 0
	require.Error(t, w.Load(bad, "bad.lockscope.json"))
	assert.Equal(t, "three.lockscope.json", v.ctl.Origin(), "a bad file keeps what was loaded")
}

func TestWindowNodeFaultIsInjectedAtTheCursor(t *testing.T) {
	w, v, _, _ := newTestWindow(t)
	v.toolbar.selectPreset("redis-happy-path")
	v.seek(3 * time.Second)
	v.nodeMenu("redis-1", fyne.NewPos(300, 300))
	require.NotNil(t, w.Canvas().Overlays().Top(), "tapping a node opens its fault menu")
	var head *widget.Label
	for _, o := range test.LaidOutObjects(w.Canvas().Overlays().Top()) {
		if l, ok := o.(*widget.Label); ok && head == nil {
			head = l
		}
	}
	require.NotNil(t, head, "the menu's header is a label in the foreground colour, not a greyed menu item")
	assert.Equal(t, "redis-1 at 3.000 s", head.Text)
	assert.Equal(t, widget.MediumImportance, head.Importance)
	assert.True(t, head.TextStyle.Bold)

	choices := FaultChoices(v.ctl.Scenario(), v.ctl.Snapshot(), "redis-1", 0)
	require.Equal(t, "Crash", choices[1].Label)
	v.inject(choices[1].Fault)
	faults := v.ctl.Scenario().Faults
	require.NotEmpty(t, faults)
	assert.Equal(t, sim.Fault{At: sim.Duration(3 * time.Second), Crash: "redis-1"}, faults[len(faults)-1])
	assert.Contains(t, shownTexts(v.pics.Cluster), "crashed")
	assert.Contains(t, v.status.Text, "crash redis-1 at 3 s")
	assert.Contains(t, v.status.Text, "Three clients take turns (edited)")
	assert.Equal(t, "LockScope — Three clients take turns (edited)", w.Title())
	assert.Empty(t, v.toolbar.presets.Selected, "the picker does not claim the preset as shipped")
	assert.Equal(t, "Three clients take turns (edited)  ·  redis-happy-path", v.toolbar.presets.PlaceHolder, "the picker shows the run is edited")
	v.toolbar.selectPreset("redis-happy-path")
	assert.Equal(t, PresetOption("redis-happy-path"), v.toolbar.presets.Selected, "choosing it again loads it as shipped")
	assert.False(t, v.ctl.Edited())
}

// G shows the dashboard beside the pictures, at the cursor, in every tab,
// and the choice is kept; stepping moves its figures with the cursor.
func TestDashboardFollowsTheCursor(t *testing.T) {
	w, v, _, _ := newTestWindow(t)
	require.False(t, DashboardShown(), "off at first")
	key(w, fyne.KeyG)
	require.True(t, DashboardShown())
	require.True(t, v.pics.dashOn)
	assert.True(t, menuItem(t, w, "Dashboard").Checked)
	v.seek(5 * time.Second)
	m := v.pics.Dashboard.Metrics()
	assert.Equal(t, 1, m.Run.Acquisitions, "at 5 s client-1 holds")
	assert.Equal(t, 1, m.Run.Waiting)
	key(w, fyne.KeyEnd)
	m = v.pics.Dashboard.Metrics()
	assert.Equal(t, 2, m.Run.Acquisitions)
	assert.Equal(t, v.ctl.Recording().Metrics(v.ctl.End()).Run.FailedTries, m.Run.FailedTries)
	key(w, fyne.KeyE)
	assert.Len(t, v.pics.side.Objects, 1, "the log and the dashboard share the side")
	_, split := v.pics.side.Objects[0].(*container.Split)
	assert.True(t, split)
	key(w, fyne.KeyE)
	key(w, fyne.KeyG)
	assert.False(t, v.pics.side.Visible())
}

// TestWindowCrowdGroupListsItsClients: in a crowd of 200 clients a tap on
// a group's box lists the group's clients, each with its state; picking
// one opens that client's fault menu, at the cursor.
func TestWindowCrowdGroupListsItsClients(t *testing.T) {
	a := test.NewTempApp(t)
	w := NewWindow(a)
	t.Cleanup(w.Close)
	w.Resize(fyne.NewSize(1024, 768))
	sc, err := sim.ParseScenario([]byte(`{"mode":"etcd","clients":200,"nodes":3,"duration":"30s","rounds":100,"work":"1s","think":"100ms","ttl":"10s"}`))
	require.NoError(t, err)
	require.NoError(t, w.Load(sc, "200 clients"))
	v := w.tab("etcd")
	v.seek(10 * time.Second)
	cluster := v.pics.Cluster
	var group widgets.CrowdGroup
	for y := float32(0); y < cluster.Size().Height && len(group.Clients) < 2; y += 4 {
		for x := float32(0); x < cluster.Size().Width/2 && len(group.Clients) < 2; x += 8 {
			group = cluster.CrowdGroupAt(fyne.NewPos(x, y))
		}
	}
	require.Greater(t, len(group.Clients), 1, "a 1024×768 window draws 200 clients as a crowd")
	v.groupMenu(group, fyne.NewPos(200, 200))
	top := w.Canvas().Overlays().Top()
	require.NotNil(t, top, "the group's list is shown")
	var list *widget.List
	var texts []string
	for _, o := range test.LaidOutObjects(top) {
		switch o := o.(type) {
		case *widget.List:
			list = o
		case *widget.Label:
			texts = append(texts, o.Text)
		}
	}
	require.NotNil(t, list)
	assert.Contains(t, texts, group.Title+" at 10.000 s: pick one for its faults")
	assert.Contains(t, texts, group.Clients[0].Name)
	assert.Contains(t, strings.Join(texts, "\n"), group.Clients[0].State)

	list.Select(1)
	top = w.Canvas().Overlays().Top()
	require.NotNil(t, top, "picking a client opens its fault menu")
	var head string
	for _, o := range test.LaidOutObjects(top) {
		if l, ok := o.(*widget.Label); ok && head == "" {
			head = l.Text
		}
	}
	assert.Equal(t, group.Clients[1].Name+" at 10.000 s", head)
}
