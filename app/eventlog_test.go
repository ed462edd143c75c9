package app

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
)

// The event log follows the cursor: the row of the cursor's instant is
// selected; tapping a row moves the cursor to that event.
func TestEventLogFollowsAndMovesTheCursor(t *testing.T) {
	w, v, _, _ := newTestWindow(t)
	trace := v.ctl.Recording().Trace()
	require.Equal(t, len(trace), v.log.Len(), "every event, messages included")

	v.seek(12 * time.Second)
	row := v.log.Row(12 * time.Second)
	require.GreaterOrEqual(t, row, 0)
	assert.LessOrEqual(t, v.log.Event(row).At, 12*time.Second)
	if row+1 < v.log.Len() {
		assert.Greater(t, v.log.Event(row+1).At, 12*time.Second)
	}

	target := v.log.Event(5)
	v.log.List.Select(5) // what a tap does
	assert.Equal(t, target.At, v.ctl.Cursor(), "a tapped event moves the cursor there")
	assert.False(t, v.ctl.Playing())

	key(w, fyne.KeyEnd)
	assert.Equal(t, v.ctl.End(), v.ctl.Cursor(), "End goes to the end")
	assert.Equal(t, v.log.Len()-1, v.log.Row(v.ctl.Cursor()))
	key(w, fyne.KeyHome)
	assert.Equal(t, time.Duration(0), v.ctl.Cursor(), "Home goes to the start")

	v.log.Messages.SetChecked(false)
	assert.Less(t, v.log.Len(), len(trace), "without the messages")
	for i := range v.log.Len() {
		assert.NotContains(t, []sim.TraceKind{sim.TraceSend, sim.TraceRecv, sim.TraceDrop}, v.log.Event(i).Kind)
	}
}

func TestEventWhat(t *testing.T) {
	w, v, _, _ := newTestWindow(t)
	_ = w
	seen := map[string]string{}
	for _, e := range v.ctl.Recording().Trace() {
		if _, ok := seen[e.Kind.String()]; !ok {
			seen[e.Kind.String()] = EventWhat(e)
		}
	}
	assert.Equal(t, "LOCK to redis-1", seen["send"])
	assert.Equal(t, "LOCK from client-1", seen["recv"])
	assert.Equal(t, "fault: pause", seen["fault"])
	assert.Equal(t, "write accepted", seen["write"])
	w.SetLanguage(i18n.Chinese)
	t.Cleanup(func() { i18n.Set(i18n.English) })
	assert.Equal(t, "写入 被拒绝", EventWhat(sim.TraceEvent{Kind: sim.TraceWrite, Op: "rejected"}))
}

// The controls show the values in effect at the cursor: a fork's value
// after it, the scenario's before it.
func TestControlsFollowTheCursorAcrossAFork(t *testing.T) {
	_, v, _, _ := newTestWindow(t)
	ttl := v.slider("ttl")
	v.seek(5 * time.Second)
	ttl.set(20)
	require.Len(t, v.ctl.Scenario().Changes, 1)
	assert.Contains(t, v.status.Text, "the old future after it is gone")

	v.seek(4 * time.Second)
	assert.Equal(t, 10.0, ttl.current(), "before the fork: the scenario's TTL")
	assert.Equal(t, "10 s", ttl.value.Text)
	v.seek(6 * time.Second)
	assert.Equal(t, 20.0, ttl.current(), "after it: the fork's")
	require.Len(t, v.ctl.Scenario().Changes, 1, "following the cursor changes nothing")
}

// A TTL moved mid-run shows where it acts: from its instant on, the
// protocol notes under the lock key say so first and spell the new PX in
// the SET they describe; before it, they are the scenario's. The
// parameter line and the notes say the change in the reader's language.
func TestAMidRunTTLChangeShowsWhereItActs(t *testing.T) {
	w, v, _, _ := newTestWindow(t)
	ttl := v.slider("ttl")
	v.seek(5 * time.Second)
	ttl.set(20)
	v.seek(4 * time.Second)
	assert.NotContains(t, v.pics.Protocol.Text, "changed at")
	assert.Contains(t, v.pics.Protocol.Text, "PEXPIRE 10000")
	v.seek(6 * time.Second)
	first := strings.SplitN(v.pics.Protocol.Text, "\n", 2)[0]
	assert.Equal(t, "• changed at 5 s: TTL 20 s. It acts on what the run does from then on. "+
		"A key or lease set before it keeps the expiry it was given until it is set or renewed again.", first)
	assert.Contains(t, v.pics.Protocol.Text, "PEXPIRE 20000", "the commands carry the new TTL")
	assert.Contains(t, ScenarioParameters(v.ctl.Scenario()), "from 5 s: TTL 20 s")

	w.SetLanguage(i18n.Chinese)
	t.Cleanup(func() { i18n.Set(i18n.English) })
	v = w.tab("redis")
	v.show()
	assert.Contains(t, v.pics.Protocol.Text, "在 5 s 改动：TTL 20 s。")
	assert.Contains(t, ScenarioParameters(v.ctl.Scenario()), "TTL 20 s")
	assert.NotContains(t, ScenarioParameters(v.ctl.Scenario()), "ttl=", "no file syntax in the line")
}

// A Chinese window's event log says the simulator's notes in Chinese: the
// row shows the translated sentence, never the English one, while the
// trace itself (what the files hold) keeps its English.
func TestEventLogNotesInChinese(t *testing.T) {
	for _, tc := range []struct {
		preset  string
		want    []string
		english string // a note of the same run as the trace files keep it
	}{
		{"redis-gc-pause", []string{"令牌 0", "返回 nil：锁已经不是我们的了", "主动释放"}, "returned nil: the lock was no longer ours"},
		{"redlock-clock-jump", []string{"获得锁：3/5 票，法定数 3；有效期 10000 ms − 500 ms − 102 ms = 9398 ms", "网络分区", "分区已恢复"}, "partition healed"},
	} {
		t.Run(tc.preset, func(t *testing.T) {
			w, _, _, _ := newTestWindow(t)
			inChinese(t, w)
			sc, err := Preset(tc.preset)
			require.NoError(t, err)
			rec, err := sim.Record(sc)
			require.NoError(t, err)
			l := NewEventLog()
			test.NewTempWindow(t, l.Content()).Resize(fyne.NewSize(700, 500))
			l.SetTrace(rec.Events(), rec.End())
			var notes []string
			for row := range l.Len() {
				c := l.newEventRow().(*fyne.Container)
				l.fillRow(row, c)
				shown := c.Objects[3].(*widget.Label).Text
				notes = append(notes, shown)
				e := l.Event(row)
				if e.NoteWords.Key != "" && i18n.In(i18n.Chinese, e.NoteWords.Key) != i18n.In(i18n.English, e.NoteWords.Key) {
					assert.NotEqual(t, e.Note, shown, "row %d (%s at %v) shows the English note", row, e.Kind, e.At)
				}
			}
			for _, s := range tc.want {
				assert.Contains(t, notes, s)
			}
			var english []string
			for _, e := range rec.Trace() {
				english = append(english, e.Note)
			}
			assert.Contains(t, english, tc.english, "the trace keeps its English")
		})
	}
}

// logRowInView asserts that the log's selected row lies inside the list's
// visible height, and returns how many rows the list shows at once.
func logRowInView(t *testing.T, v *tabView, what string) float32 {
	t.Helper()
	l := v.log
	require.GreaterOrEqual(t, l.current, 0, what)
	step := l.rowHeight + logTheme{}.Size(theme.SizeNamePadding)
	top := float32(l.current) * step
	off := l.List.GetScrollOffset()
	h := l.List.Size().Height
	require.Greater(t, h, float32(0), what)
	assert.GreaterOrEqual(t, top, off, "%s: the cursor's row is below the top of the list", what)
	assert.LessOrEqual(t, top+step, off+h, "%s: the cursor's row is above the bottom of the list", what)
	return h / step
}

// The log opens with the cursor's row in view, also when the window is
// rebuilt in another language, and lists at least 35 rows in a window 900
// pixels high.
func TestEventLogOpensOnTheCursorsRow(t *testing.T) {
	t.Cleanup(func() { i18n.Set(i18n.English) })
	w, v, _, _ := newTestWindow(t)
	size := fyne.NewSize(1400, 900)
	layOut(w, size)
	v.seek(v.ctl.End() / 2)
	w.ShowEventLog(true)
	t.Cleanup(func() { w.ShowEventLog(false) })
	layOut(w, size)
	rows := logRowInView(t, v, "opened")
	assert.GreaterOrEqual(t, rows, float32(35), "rows in view at 900 pixels")

	w.SetLanguage(i18n.Chinese)
	v = w.tab("redis")
	layOut(w, size)
	logRowInView(t, v, "after a language switch")

	layOut(w, fyne.NewSize(1024, 700))
	logRowInView(t, v, "resized")
}

// Events still to come are drawn in the muted colour, not the disabled
// one, in both themes: legible on either background.
func TestEventLogFutureRowsLegible(t *testing.T) {
	for _, c := range []ThemeChoice{ThemeLight, ThemeDark} {
		th := &Theme{Choice: c}
		test.NewTempApp(t).Settings().SetTheme(th)
		v := th.Variant(theme.VariantDark)
		assert.Equal(t, th.Color(theme.ColorNamePlaceHolder, v), logTheme{}.Color(theme.ColorNameDisabled, v), c)
	}
}

// A mid-run change is said in words, in the reader's language, on the
// timeline's badge and in the log's row: "TTL → 48 s", not ttl=48s.
func TestChangeMarksInWords(t *testing.T) {
	w, _, _, _ := newTestWindow(t)
	sc, err := Preset("redis-gc-pause")
	require.NoError(t, err)
	sc = sc.Clone()
	var ch sim.Change
	require.NoError(t, json.Unmarshal([]byte(`{"at": "5s", "set": {"ttl": "48s", "watchdog": true}}`), &ch))
	sc.Changes = append(sc.Changes, ch)
	rec, err := sim.Record(sc)
	require.NoError(t, err)
	l := NewEventLog()
	l.mode = sc.Mode
	test.NewTempWindow(t, l.Content()).Resize(fyne.NewSize(700, 500))
	l.SetTrace(rec.Events(), rec.End())
	noteOfChange := func() string {
		for row := range l.Len() {
			if l.Event(row).Kind == sim.TraceChange {
				c := l.newEventRow().(*fyne.Container)
				l.fillRow(row, c)
				return c.Objects[3].(*widget.Label).Text
			}
		}
		return ""
	}
	markOfChange := func() string {
		for _, f := range saidTimeline(rec.Timeline(), sc.Mode).Faults {
			if f.Kind == sim.FaultChange {
				return f.Note
			}
		}
		return ""
	}
	assert.Equal(t, "TTL → 48 s · watchdog → on", noteOfChange())
	assert.Equal(t, "TTL → 48 s · watchdog → on", markOfChange())
	assert.Equal(t, "session timeout → 4 s · think time → 1.500 s", ChangeMarkText("zookeeper", "ttl=4s, think=1.5s"),
		"the lease in the design's own word")
	inChinese(t, w)
	assert.Equal(t, "TTL → 48 s · 看门狗 → 开", noteOfChange())
	assert.Equal(t, "TTL → 48 s · 看门狗 → 开", markOfChange())
	for _, f := range rec.Timeline().Faults {
		if f.Kind == sim.FaultChange {
			assert.Equal(t, "ttl=48s, watchdog=true", f.Note, "the recording keeps the file's syntax")
		}
	}
}

// A row's columns: time and node as wide as the run needs; what happened
// at its least width in a narrow log and at a share of the rest in a wide
// one (a 2560-point window's log cut "MsgHeartbeatResp from etcd-2" at
// 132 points beside an empty details column); the details in what is
// left.
func TestEventColumnsWidenWhatHappenedInAWideLog(t *testing.T) {
	test.NewTempApp(t)
	l := NewEventLog()
	l.fitColumns(15*time.Second, []string{"client-1", "etcd-1", "storage"})
	timeW, nodeW := l.columns.widths[0], l.columns.widths[1]
	row := l.newEventRow().(*fyne.Container)
	row.Objects[3].(*widget.Label).Text = "token 2"
	for _, tc := range []struct{ width, what float32 }{
		{300, eventWhatMin},
		{460, (460 - timeW - nodeW - 2*eventColumnGap) * eventWhatShare},
	} {
		row.Resize(fyne.NewSize(tc.width, 20))
		objs := row.Objects
		assert.Equal(t, timeW, objs[0].Size().Width)
		assert.Equal(t, nodeW, objs[1].Size().Width)
		assert.InDelta(t, tc.what, objs[2].Size().Width, 0.01, "width %v", tc.width)
		assert.InDelta(t, tc.width, objs[3].Position().X+objs[3].Size().Width, 0.01, "the details end at the row's end")
		assert.Greater(t, objs[3].Size().Width, float32(0))
	}
}

// In the log of a 1024-point window (a row about 280 wide) an etcd run's
// "MsgHeartbeatResp from etcd-2" shows whole: the time and node columns
// are as wide as the run needs, and a row without details gives what
// happened the rest of the row. Filled with details, the columns move
// back.
func TestEventRowShowsWhatHappenedWholeAt1024(t *testing.T) {
	test.NewTempApp(t).Settings().SetTheme(&Theme{Choice: ThemeDark})
	sc, err := Preset("etcd-lease-expiry")
	require.NoError(t, err)
	rec, err := sim.Record(sc)
	require.NoError(t, err)
	l := NewEventLog()
	l.fitColumns(rec.End(), append(append(sc.ClientNames(), sc.ServerNames()...), sim.StorageName))
	l.SetTrace(rec.Events(), rec.End())
	row := container.NewThemeOverride(l.newEventRow(), logTheme{})
	test.NewTempWindow(t, row)
	cells := row.Content.(*fyne.Container)
	row.Resize(fyne.NewSize(280, 20))
	what := cells.Objects[2].(*widget.Label)
	details := false
	for i := range l.Len() {
		e := l.Event(i)
		l.fillRow(i, cells)
		text := fyne.MeasureText(what.Text, theme.CaptionTextSize(), what.TextStyle).Width
		if e.Note == "" && strings.HasPrefix(what.Text, "MsgHeartbeatResp") {
			assert.GreaterOrEqual(t, what.Size().Width, text, "%q is whole", what.Text)
		}
		if e.Note != "" && e.Kind != sim.TraceChange {
			details = true
			assert.InDelta(t, eventWhatMin, what.Size().Width, 0.01, "with details, what happened keeps its column")
		}
	}
	assert.True(t, details, "some rows have details")
}

// The log's header (how many events, tap one) wraps in a narrow log
// rather than being cut with "…".
func TestEventLogHeaderWrapsInANarrowLog(t *testing.T) {
	test.NewTempApp(t)
	l := NewEventLog()
	test.NewTempWindow(t, l.Content()).Resize(fyne.NewSize(290, 400))
	l.count.SetText(i18n.F("eventlog.count", "shown", 1531, "n", 1531))
	assert.Equal(t, fyne.TextTruncateOff, l.count.Truncation)
	assert.Equal(t, fyne.TextWrapWord, l.count.Wrapping)
	one := widget.NewLabel("x")
	one.SizeName = l.count.SizeName
	assert.Greater(t, l.count.MinSize().Height, one.MinSize().Height, "set on more than one line")
	assert.LessOrEqual(t, l.count.Size().Width, float32(290), "and no wider than the log")
}
