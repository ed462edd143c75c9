package zookeeper

import (
	"image/color"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"github.com/stretchr/testify/assert"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	zookeepersim "github.com/lockscope/lockscope/sim/zookeeper"
	"github.com/lockscope/lockscope/widgets"
	"github.com/lockscope/lockscope/widgets/widgettest"
)

// span is the x range a text spot's words take at size, bold or not.
func span(s widgets.TextSpot, size float32, bold bool) [2]float32 {
	return [2]float32{s.Pos.X, s.Pos.X + widgets.TextWidth(s.Text, size, bold)}
}

// rectSpan is a rectangle spot's x range.
func rectSpan(r widgets.RectSpot) [2]float32 { return [2]float32{r.Pos.X, r.Pos.X + r.Size.Width} }

// testLook is a row's look at scale k in the test theme.
func testLook(k float32) zkRowLook {
	th := fyne.CurrentApp().Settings().Theme()
	return zkRowLook{k: k, pad: th.Size(theme.SizeNameInnerPadding) * k, caption: th.Size(theme.SizeNameCaptionText) * k, th: th,
		fg: color.NRGBA{A: 0xFF}, muted: color.NRGBA{R: 0x80, G: 0x80, B: 0x80, A: 0xFF}}
}

// znodeGeometry keeps a child's row inside its box: the badge at the
// right, the first line's parts left to right before it, the remark on
// the first line or at the end of the second, the session's timer on the
// second (none in a slim row); a narrow row drops the guid prefix, then
// the ephemeral pill.
func TestZNodeGeometry(t *testing.T) {
	test.NewTempApp(t)
	z := &zookeepersim.View{Parent: "/locks/mylock", Leader: "zk-1"}
	sess := zookeepersim.ZSession{ID: 0x100000000a1b2c3, Owner: "client-1", Timeout: 10 * time.Second, Left: 6 * time.Second}
	holder := zookeepersim.ZNode{Name: "_c_8f2e1d3c-7a6b-lock-0000000000", Seq: 0, Owner: "client-1", Ephemeral: true, Holder: true}
	waiter := zookeepersim.ZNode{Name: "_c_4b3a2918-7a6b-lock-0000000001", Seq: 1, Owner: "client-2", Ephemeral: true}
	holding := sim.NodeView{Name: "client-1", Client: true, State: sim.StateHolding, Session: zookeepersim.SessionConnected}
	notTold := sim.NodeView{Name: "client-1", Client: true, State: sim.StateWaiting, Session: zookeepersim.SessionConnected}
	waiting := sim.NodeView{Name: "client-2", Client: true, State: sim.StateWaiting, Session: zookeepersim.SessionSuspended}
	for _, tc := range []struct {
		name          string
		c             zookeepersim.ZNode
		i             int
		owner         sim.NodeView
		w, h, k       float32
		prefix, eph   bool
		remarkOnFirst bool
	}{
		{"holder, wide", holder, 0, holding, 600, zkRowH, 1, true, true, false},
		{"waiter, wide", waiter, 1, waiting, 600, zkRowH, 1, true, true, false},
		{"holder not told, narrow", holder, 0, notTold, 300, zkRowH, 1, false, false, false},
		{"holder not told", holder, 0, notTold, 480, zkRowH, 1, false, true, false},
		{"holder not told, wider", holder, 0, notTold, 530, zkRowH, 1, false, true, true},
		{"holder not told, wide", holder, 0, notTold, 640, zkRowH, 1, true, true, true},
		{"narrow", waiter, 1, waiting, 420, zkRowH, 1, false, true, false},
		{"narrower", waiter, 1, waiting, 360, zkRowH, 1, false, false, false},
		{"slim", holder, 0, holding, 600, 20, 1, true, true, false},
		{"large", holder, 0, holding, 1000, zkRowH * 1.6, 1.6, true, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := testLook(tc.k)
			k := l.k
			b := rowBox{fyne.NewPos(zkIndent*k, 80), fyne.NewSize(tc.w, tc.h)}
			s := znodeGeometry(z, tc.c, tc.i, b, tc.owner, sess, true, l)
			left, right := b.pos.X+l.pad, b.pos.X+b.size.Width-l.pad
			assert.Equal(t, widgets.BoxAt(b.pos, b.size, s.frame.Fill, s.frame.Stroke, s.frame.Width), s.frame, "the frame is the box")

			// The badge at the right edge, its words on it.
			assert.InDelta(t, right, s.badgeBg.Pos.X+s.badgeBg.Size.Width, 0.01, "the badge at the right")
			bs := span(s.badge, l.caption, true)
			assert.True(t, bs[0] >= s.badgeBg.Pos.X && bs[1] <= s.badgeBg.Pos.X+s.badgeBg.Size.Width+0.01, "the badge's words on it")
			if tc.c.Holder {
				assert.Equal(t, i18n.F("zk.holder", "seq", tc.c.Seq), s.badge.Text)
			} else {
				assert.Equal(t, i18n.F("zk.inLine", "ordinal", zkOrdinal(tc.i)), s.badge.Text)
			}
			end := s.badgeBg.Pos.X

			// The first line, left to right, before the badge.
			assert.Equal(t, tc.prefix, s.prefix.Shown, "the guid prefix")
			assert.Equal(t, tc.eph, s.eph.Shown && s.ephBg.Shown, "the ephemeral pill")
			var parts [][2]float32
			if s.prefix.Shown {
				parts = append(parts, span(s.prefix, l.caption, false))
			}
			parts = append(parts, span(s.seq, zkSeqSize*k, true))
			if s.ephBg.Shown {
				parts = append(parts, rectSpan(s.ephBg))
			}
			parts = append(parts, span(s.name, zkNameSize*k, true))
			if s.stateBg.Shown {
				parts = append(parts, rectSpan(s.stateBg))
			}
			if s.remark.Shown && tc.remarkOnFirst {
				parts = append(parts, span(s.remark, l.caption, true))
			}
			at := left
			for i, p := range parts {
				assert.GreaterOrEqual(t, p[0], at-0.01, "part %d of the first line after the one before", i)
				at = p[1]
			}
			assert.LessOrEqual(t, at, end, "the first line ends before the badge")
			assert.Equal(t, tc.c.Owner, s.name.Text)

			// The remark, and the session's line.
			assert.Equal(t, zkOwnerNote(tc.c, tc.owner) != "" && (tc.remarkOnFirst || tc.h >= zkRowH*k), s.remark.Shown, "the remark on the owner")
			slim := tc.h < zkRowH*k
			assert.Equal(t, !slim, s.timer.id.Shown && s.timer.note.Shown, "the session's line")
			if !slim {
				dy := b.pos.Y + zkSessionLineY*k
				assert.InDelta(t, dy, s.timer.id.Pos.Y, 0.01)
				assert.InDelta(t, left, s.timer.id.Pos.X, 0.01, "the id at the left")
				assert.Greater(t, dy, s.seq.Pos.Y+zkSeqSize*k, "the session's line under the first")
				limit := right
				if s.remark.Shown && !tc.remarkOnFirst {
					rs := span(s.remark, l.caption, true)
					assert.InDelta(t, right, rs[1], 0.01, "the remark at the end of the second line")
					assert.InDelta(t, dy, s.remark.Pos.Y, 0.01)
					limit = rs[0]
				}
				assert.LessOrEqual(t, span(s.timer.note, l.caption, false)[1], limit+0.01, "the timer before the remark and the edge")
				assert.LessOrEqual(t, dy+l.caption, b.pos.Y+b.size.Height, "the session's line inside the box")
			}
		})
	}
}

// zkTimerGeometry writes the id, the bar and the timer left to right,
// within the line's limit: as the line shortens the timeout goes, then
// the id's label, then the bar, then the words are cut.
func TestZKTimerGeometry(t *testing.T) {
	test.NewTempApp(t)
	l := testLook(1)
	z := &zookeepersim.View{Parent: "/locks/mylock", Leader: "zk-1"}
	sess := zookeepersim.ZSession{ID: 0x100000000a1b2c3, Owner: "client-1", Timeout: 10 * time.Second, Left: 6 * time.Second}
	c := sim.NodeView{Name: "client-1", Client: true, State: sim.StateHolding, Session: zookeepersim.SessionConnected}
	label := i18n.T("zk.sessionLabel") + " "
	const x, y = 30, 100
	had := [3]bool{true, true, true} // the timeout, the id's label, the bar
	for _, limit := range []float32{700, 420, 330, 280, 200, 150} {
		s := zkTimerGeometry(z, c, sess, true, "", label, x, y, limit, l.k, l.caption, l.fg, l.muted)
		ids := span(s.id, l.caption, false)
		assert.Equal(t, float32(x), ids[0], "%v: the id first", limit)
		ns := span(s.note, l.caption, false)
		assert.LessOrEqual(t, ns[1], limit+0.01, "%v: the timer %q within the limit", limit, s.note.Text)
		if s.barBg.Shown {
			assert.Greater(t, s.barBg.Pos.X, ids[1], "%v: the bar after the id", limit)
			assert.Greater(t, ns[0], s.barBg.Pos.X+s.barBg.Size.Width, "%v: the timer after the bar", limit)
			assert.InDelta(t, zkSessionFraction(sess)*s.barBg.Size.Width, s.bar.Size.Width, 0.01, "%v: the bar the session's share", limit)
		} else {
			assert.Greater(t, ns[0], ids[1], "%v: the timer after the id", limit)
		}
		for _, sp := range []widgets.TextSpot{s.id, s.note} {
			assert.Equal(t, float32(y), sp.Pos.Y, "%v: on the line", limit)
		}
		has := [3]bool{strings.Contains(s.note.Text, widgets.ShortTime(sess.Timeout)), strings.Contains(s.id.Text, label), s.barBg.Shown}
		for i := range has {
			assert.False(t, has[i] && !had[i], "%v: what a longer line left out stays out (%v after %v)", limit, has, had)
		}
		assert.False(t, has[0] && !has[1] || has[1] && !has[2], "%v: the timeout goes first, then the label, then the bar: %v", limit, has)
		had = has
		switch limit {
		case 700:
			assert.Contains(t, s.id.Text, label, "room for all: the id's label")
			assert.Contains(t, s.note.Text, widgets.ShortTime(sess.Timeout), "and the timeout")
			assert.True(t, s.barBg.Shown)
		case 150:
			assert.False(t, s.barBg.Shown, "little room: no bar")
			assert.NotContains(t, s.id.Text, label)
		}
	}
	s := zkTimerGeometry(z, c, sess, false, "", label, x, y, 700, l.k, l.caption, l.fg, l.muted)
	assert.Equal(t, i18n.T("zk.noSession"), s.id.Text, "no session: said so")
	assert.False(t, s.barBg.Shown || s.bar.Shown, "and no bar")
}

// LeaderLatch's first node leads: its badge says LEADER, the lock's
// HOLDER.
func TestLatchLeaderBadge(t *testing.T) {
	for _, tc := range []struct {
		preset string
		at     time.Duration
		badge  string
	}{
		{"zk-leader-latch", 12 * time.Second, "LEADER · seq 1"},
		{"zk-happy-path", 2 * time.Second, "HOLDER · seq 1"},
	} {
		texts := widgettest.InShortBox(t, NewZNodeTree(), fyne.NewSize(700, 400), widgettest.SnapshotAt(t, tc.preset, tc.at))
		assert.Contains(t, texts, tc.badge, tc.preset)
	}
}
