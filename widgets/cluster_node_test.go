package widgets

import (
	"fmt"
	"image/color"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/stretchr/testify/assert"

	"github.com/lockscope/lockscope/sim"
	redissim "github.com/lockscope/lockscope/sim/redis"
)

// textBox is the rectangle a text spot's words take.
func textBox(s TextSpot, bold bool) labelBox {
	ms := fyne.MeasureText(s.Text, s.Size, fyne.TextStyle{Bold: bold})
	return labelBox{s.Pos.X, s.Pos.Y, ms.Width, ms.Height}
}

// inside reports whether b lies within the rectangle at pos of size sz.
func inside(b labelBox, pos fyne.Position, sz fyne.Size) bool {
	const eps = 0.01
	return b.x >= pos.X-eps && b.y >= pos.Y-eps && b.x+b.w <= pos.X+sz.Width+eps && b.y+b.h <= pos.Y+sz.Height+eps
}

// nodeGeometry keeps a node's words, badge and glyphs inside its box, the
// lines one under the other, the badge in the top right corner with the
// pause glyph left of it, and says a slim box's name and state on one line.
func TestNodeGeometry(t *testing.T) {
	test.NewTempApp(t)
	th := fyne.CurrentApp().Settings().Theme()
	fg := color.NRGBA{A: 0xFF}
	long := "client-with-a-name-far-too-long-for-any-box"
	for _, tc := range []struct {
		name  string
		n     sim.NodeView
		b     box
		k     float32
		lines int  // the lines shown
		badge bool // the holder's badge shown
	}{
		{"idle client", sim.NodeView{Name: "client-1", Client: true, Wall: 3 * time.Second}, box{fyne.NewPos(12, 40), fyne.NewSize(220, 84)}, 1, 3, false},
		{"holder with a token", sim.NodeView{Name: "client-2", Client: true, State: sim.StateHolding, Token: 4, Wall: time.Second}, box{fyne.NewPos(12, 40), fyne.NewSize(220, 84)}, 1, 3, true},
		{"paused holder", sim.NodeView{Name: "client-1", Client: true, State: sim.StateHolding, Token: 3, Paused: true, Resume: 16 * time.Second}, box{fyne.NewPos(12, 40), fyne.NewSize(240, 84)}, 1, 4, true},
		{"paused holder in a narrow box", sim.NodeView{Name: "client-1", Client: true, State: sim.StateHolding, Paused: true, Resume: time.Second}, box{fyne.NewPos(0, 0), fyne.NewSize(140, 84)}, 1, 4, false},
		{"crashed server", sim.NodeView{Name: "redis-2", Role: redissim.RoleReplica, Crashed: true}, box{fyne.NewPos(600, 10), fyne.NewSize(200, 84)}, 1, 4, false},
		{"skewed server, short box", sim.NodeView{Name: "redis-1", Role: redissim.RoleMaster, Wall: 22 * time.Second, Skew: 10 * time.Second}, box{fyne.NewPos(600, 10), fyne.NewSize(200, 48)}, 1, 2, false},
		{"long name", sim.NodeView{Name: long, Client: true}, box{fyne.NewPos(5, 5), fyne.NewSize(120, 84)}, 1, 3, false},
		{"large panel", sim.NodeView{Name: "client-3", Client: true, State: sim.StateHolding, Token: 7, Paused: true}, box{fyne.NewPos(20, 60), fyne.NewSize(430, 150)}, 1.8, 4, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := nodeGeometry(tc.n, tc.b, tc.k, th, fg)
			assert.Equal(t, BoxAt(tc.b.pos, tc.b.size, s.frame.Fill, s.frame.Stroke, s.frame.Width), s.frame, "the frame is the box")
			shown, lastBottom := 0, tc.b.pos.Y
			for i, l := range s.lines {
				if !l.Shown {
					continue
				}
				shown++
				lb := textBox(l, i == 0)
				assert.True(t, inside(lb, tc.b.pos, tc.b.size.SubtractWidthHeight(0, 2)), "line %d %q %v outside the box %v", i, l.Text, lb, tc.b)
				assert.GreaterOrEqual(t, lb.y, lastBottom-tc.k, "line %d below the one before", i)
				lastBottom = lb.y + l.Size
			}
			assert.Equal(t, tc.lines, shown, "lines shown")
			assert.Equal(t, tc.n.Name == long, s.lines[0].Text != tc.n.Name, "only a name too long is shortened: %q", s.lines[0].Text)

			assert.Equal(t, tc.badge, s.badge.Shown, "the holder's badge")
			assert.Equal(t, tc.badge, s.badgeText.Shown)
			if tc.badge {
				assert.True(t, inside(labelBox{s.badge.Pos.X, s.badge.Pos.Y, s.badge.Size.Width, s.badge.Size.Height}, tc.b.pos, tc.b.size), "badge in the box")
				assert.InDelta(t, tc.b.pos.X+tc.b.size.Width-6*tc.k, s.badge.Pos.X+s.badge.Size.Width, 0.01, "badge at the right edge")
				assert.True(t, inside(textBox(s.badgeText, true), s.badge.Pos, s.badge.Size), "the badge's words in the badge")
				if tc.n.Token > 0 {
					assert.Contains(t, s.badgeText.Text, fmt.Sprint(tc.n.Token))
				}
			}

			paused := tc.n.Paused && !tc.n.Crashed
			assert.Equal(t, paused, s.pause1.Shown, "pause glyph")
			assert.Equal(t, paused, s.pause2.Shown)
			if paused {
				for _, p := range []RectSpot{s.pause1, s.pause2} {
					assert.True(t, inside(labelBox{p.Pos.X, p.Pos.Y, p.Size.Width, p.Size.Height}, tc.b.pos, tc.b.size), "pause bar in the box")
					if s.badge.Shown {
						assert.Less(t, p.Pos.X+p.Size.Width, s.badge.Pos.X, "pause bar left of the badge")
					}
				}
				assert.Greater(t, s.pause2.Pos.X, s.pause1.Pos.X+s.pause1.Size.Width, "two bars apart")
			}

			assert.Equal(t, tc.n.Crashed, s.cross1.Shown, "a crashed node is crossed out")
			if tc.n.Crashed {
				br := tc.b.pos.AddXY(tc.b.size.Width, tc.b.size.Height)
				assert.Equal(t, [2]fyne.Position{tc.b.pos, br}, [2]fyne.Position{s.cross1.A, s.cross1.B})
				assert.Equal(t, [2]fyne.Position{{X: tc.b.pos.X, Y: br.Y}, {X: br.X, Y: tc.b.pos.Y}}, [2]fyne.Position{s.cross2.A, s.cross2.B})
			}
		})
	}
}

// A slim box says its name and its state side by side on one line, inside
// the box; a server's role is whole or left out.
func TestSlimNodeLines(t *testing.T) {
	test.NewTempApp(t)
	th := fyne.CurrentApp().Settings().Theme()
	fg := color.NRGBA{A: 0xFF}
	for _, tc := range []struct {
		n     sim.NodeView
		b     box
		state bool
	}{
		{sim.NodeView{Name: "client-1", Client: true, State: sim.StateWaiting}, box{fyne.NewPos(12, 40), fyne.NewSize(220, 24)}, true},
		{sim.NodeView{Name: "client-12", Client: true}, box{fyne.NewPos(12, 40), fyne.NewSize(150, 16)}, true},
		{sim.NodeView{Name: "client-12", Client: true}, box{fyne.NewPos(12, 40), fyne.NewSize(90, 16)}, false},
		{sim.NodeView{Name: "redis-1", Role: redissim.RoleMaster}, box{fyne.NewPos(400, 40), fyne.NewSize(200, 20)}, true},
		{sim.NodeView{Name: "redis-1", Role: redissim.RoleMaster}, box{fyne.NewPos(400, 40), fyne.NewSize(70, 20)}, false},
	} {
		t.Run(fmt.Sprint(tc.n.Name, tc.b.size), func(t *testing.T) {
			s := nodeGeometry(tc.n, tc.b, 1, th, fg)
			name, state := s.lines[0], s.lines[1]
			assert.True(t, name.Shown)
			assert.Equal(t, tc.n.Name, name.Text, "the name whole")
			nb := textBox(name, true)
			assert.True(t, inside(nb, tc.b.pos, tc.b.size), "name %v in the box %v", nb, tc.b)
			assert.False(t, s.lines[2].Shown || s.lines[3].Shown || s.badge.Shown, "a slim box says two things")
			assert.Equal(t, tc.state, state.Shown, "the state or role")
			if tc.state {
				sb := textBox(state, false)
				assert.Greater(t, sb.x, nb.x+nb.w, "state after the name")
				assert.True(t, inside(sb, tc.b.pos, tc.b.size), "state %v in the box %v", sb, tc.b)
				assert.InDelta(t, nb.y, sb.y, float64(name.Size)*0.1, "on the name's line")
				if !tc.n.Client {
					assert.NotContains(t, state.Text, "…", "a role whole")
				}
			}
		})
	}
}

// A candidate in a leader election leads, or waits to, where a lock's
// client holds the lock or waits for it; its badge says LEADER.
func TestCandidatesSpeakOfLeading(t *testing.T) {
	for _, tc := range []struct {
		state     sim.ClientState
		candidate bool
		text      string
	}{
		{sim.StateHolding, false, "holding the lock"},
		{sim.StateHolding, true, "leading"},
		{sim.StateWaiting, false, "waiting for the lock"},
		{sim.StateWaiting, true, "waiting to lead"},
		{sim.StateTold, true, "told it may no longer lead"},
		{sim.StateIdle, true, "idle"},
	} {
		n := sim.NodeView{Name: "client-1", Client: true, State: tc.state, Candidate: tc.candidate, Token: 2}
		assert.Equal(t, tc.text, ClientStateText(n), "%s, candidate %v", tc.state, tc.candidate)
	}
	th := test.NewTempApp(t).Settings().Theme()
	lead := nodeGeometryOf(sim.NodeView{Name: "client-1", Client: true, State: sim.StateHolding, Candidate: true, Token: 2},
		[4]string{"client-1", "leading"}, box{size: fyne.NewSize(240, 70)}, 1, th, color.White)
	assert.Equal(t, "LEADER #2", lead.badgeText.Text)
}
