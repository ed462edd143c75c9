package redlock

import (
	"fmt"
	"image/color"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	redlocksim "github.com/lockscope/lockscope/sim/redlock"
	"github.com/lockscope/lockscope/widgets"
	"github.com/lockscope/lockscope/widgets/widgettest"
)

// tallyCase is a preset's instant drawn in a tally of a size.
type tallyCase struct {
	preset string
	at     time.Duration
	size   fyne.Size
}

// tallyCases are instants of Redlock's stories in tallies from a 1024×768
// window's beside the event log to a large screen's.
var tallyCases = []tallyCase{
	{"redlock-clock-jump", 2500 * time.Millisecond, fyne.NewSize(680, 255)},
	{"redlock-clock-jump", 12 * time.Second, fyne.NewSize(600, 260)},
	{"redlock-happy-path", 3 * time.Second, fyne.NewSize(372, 200)},
	{"redlock-majority-down", 5 * time.Second, fyne.NewSize(680, 255)},
	{"redlock-pause-after-acquire", 6 * time.Second, fyne.NewSize(1400, 600)},
	{"redlock-slow-work", 12 * time.Second, fyne.NewSize(500, 98)},
}

// newTallyFrame is the frame of a case, laid out as the renderer does.
func newTallyFrame(t *testing.T, tc tallyCase) tallyFrame {
	t.Helper()
	snap := widgettest.SnapshotAt(t, tc.preset, tc.at)
	view := redlocksim.ViewOf(snap)
	require.NotNil(t, view)
	th := fyne.CurrentApp().Settings().Theme()
	g, ok := tallyLayout(view.Attempts, len(view.Masters), tc.size, th)
	require.True(t, ok)
	return tallyFrame{view: view, nodes: snap.Nodes, at: snap.At, width: tc.size.Width, g: g,
		text: th.Size(theme.SizeNameText), caption: th.Size(theme.SizeNameCaptionText),
		c: tallyColors{fg: color.Black, muted: color.Gray{0x80}, track: widgets.Fade(widgets.ColorIdle, 0.22), th: th}}
}

// width is the width of a text spot's words at size, bold or not.
func width(s widgets.TextSpot, size float32, bold bool) float32 {
	return widgets.TextWidth(s.Text, size, bold)
}

// The heads: the rows' labels in the names' column, each master's words
// centred in its column and its TTL bar inside it, the right column's
// notes after the masters' columns and inside the width, the rule across
// the width under them; a clock beyond the drift in bold.
func TestTallyHeads(t *testing.T) {
	test.NewTempApp(t)
	for _, tc := range tallyCases {
		t.Run(fmt.Sprint(tc.preset, tc.at, tc.size), func(t *testing.T) {
			f := newTallyFrame(t, tc)
			g, k, small := f.g, f.g.k, f.small()
			s := f.heads()
			require.GreaterOrEqual(t, len(s.labels), 5, "the rows' labels and the mode at least")
			for _, l := range s.labels[:4] {
				assert.Equal(t, float32(0), l.Pos.X)
				assert.LessOrEqual(t, width(l, small, false), g.nameW, "row label %q in the names' column", l.Text)
			}
			require.Len(t, s.masters, len(f.view.Masters))
			for i, m := range s.masters {
				x, mid := g.colX(i), g.colX(i)+g.colW/2
				for _, w := range []struct {
					s    widgets.TextSpot
					size float32
					bold bool
				}{{m.name, tallyBoldSize * k, true}, {m.skew, small, m.skewBold}, {m.owner, small, false}, {m.left, tallySmallSize * k, false}} {
					if !w.s.Shown {
						continue
					}
					tw := width(w.s, w.size, w.bold)
					assert.InDelta(t, mid, w.s.Pos.X+tw/2, 0.01, "master %d's %q centred in its column", i, w.s.Text)
					assert.LessOrEqual(t, tw, g.colW, "master %d's %q inside its column", i, w.s.Text)
				}
				assert.True(t, m.name.Pos.Y < m.skew.Pos.Y && m.skew.Pos.Y < m.owner.Pos.Y && m.owner.Pos.Y < m.left.Pos.Y, "master %d's lines in order", i)
				if m.barBg.Shown {
					assert.True(t, m.barBg.Pos.X >= x && m.barBg.Pos.X+m.barBg.Size.Width <= x+g.colW, "master %d's bar in its column", i)
				}
				if m.bar.Shown {
					assert.Equal(t, m.barBg.Pos, m.bar.Pos)
					assert.LessOrEqual(t, m.bar.Size.Width, m.barBg.Size.Width, "the time left within the track")
				}
				skew, beyond := SkewLabel(f.nodes[f.view.Masters[i].Node].Skew, f.view.Attempts[0].Drift)
				assert.Equal(t, beyond, m.skewBold, "master %d's clock %s in bold when beyond the drift", i, skew)
			}
			right := g.colX(len(f.view.Masters)) + tallyRightGap*k
			assert.Equal(t, right, s.quorum.Pos.X, "the quorum rule in the right column")
			assert.LessOrEqual(t, right+width(s.quorum, tallyBoldSize*k, true), f.width, "and inside the width")
			for _, l := range s.labels[4:] {
				assert.Equal(t, right, l.Pos.X, "%q in the right column", l.Text)
				assert.LessOrEqual(t, right+width(l, small, false), f.width, "%q inside the width", l.Text)
			}
			assert.Equal(t, 4, s.skipped, "the quorum rule's label after the rows'")
			assert.Equal(t, float32(0), s.rule.A.X)
			assert.Equal(t, f.width, s.rule.B.X, "the rule across the width")
			assert.Less(t, s.rule.A.Y, tallyMastersH*k, "under the heads, above the blocks")
			assert.Greater(t, s.rule.A.Y, s.masters[0].left.Pos.Y)
		})
	}
}

// A client's block: a vote box per master inside its column with its glyph
// centred in it, the quorum meter's cells after the columns one after the
// other with the yes votes filled and the line after the quorum-th, the
// tally after them inside the width; a full block's pill under its row,
// its bar from the names' column to the edge with its parts inside it in
// the order the ttl is spent, the arithmetic under it.
func TestTallyAttempt(t *testing.T) {
	test.NewTempApp(t)
	for _, tc := range tallyCases {
		t.Run(fmt.Sprint(tc.preset, tc.at, tc.size), func(t *testing.T) {
			f := newTallyFrame(t, tc)
			for i, y := range f.g.ys {
				a := f.view.Attempts[i]
				s := f.attempt(a, y, f.g.full[i])
				assertVotesAndMeter(t, f, a, s)
				if f.g.full[i] {
					assertFullBlock(t, f, a, y, s)
				} else {
					assert.False(t, s.pill.Shown || s.barBg.Shown || s.arith.Shown || s.note.Shown, "a row has no bar nor arithmetic")
					if s.try.Shown {
						assert.Greater(t, s.try.Pos.X, s.tally.Pos.X+width(s.tally, tallyBoldSize*f.g.k, true), "the phase after the tally")
						assert.LessOrEqual(t, s.try.Pos.X+width(s.try, tallySmallSize*f.g.k, false), f.width+0.01, "inside the width")
					}
				}
			}
		})
	}
}

// assertVotesAndMeter checks a block's vote boxes, quorum meter and tally.
func assertVotesAndMeter(t *testing.T, f tallyFrame, a redlocksim.Attempt, s tallyAttemptSpots) {
	t.Helper()
	g, k, n := f.g, f.g.k, len(f.view.Masters)
	assert.LessOrEqual(t, s.name.Pos.X+width(s.name, tallyNameSize*k, true), g.nameW, "%s's name in the names' column", a.Client)
	require.Len(t, s.votes, n)
	for m, v := range s.votes {
		b := v.box
		assert.True(t, b.Pos.X >= g.colX(m) && b.Pos.X+b.Size.Width <= g.colX(m)+g.colW, "%s's vote %d in its column", a.Client, m)
		pending := m >= len(a.Votes) || a.Votes[m] == ""
		assert.Equal(t, !pending, v.glyph.Shown, "a glyph for every vote")
		if v.glyph.Shown {
			assert.Equal(t, VoteGlyph(a.Votes[m]), v.glyph.Text)
			assert.InDelta(t, b.Pos.X+b.Size.Width/2, v.glyph.Pos.X+width(v.glyph, v.glyph.Size, true)/2, 0.01, "the glyph centred in its box")
		}
	}
	require.Len(t, s.cells, n)
	for i, c := range s.cells {
		if i > 0 {
			assert.Greater(t, c.Pos.X, s.cells[i-1].Pos.X+s.cells[i-1].Size.Width, "cell %d after the one before", i)
		} else {
			assert.Greater(t, c.Pos.X, g.colX(n), "the meter after the masters' columns")
		}
		assert.Equal(t, i < Yes(a.Votes), c.Fill == color.Color(widgets.ColorHolding), "cell %d filled for a yes vote", i)
	}
	if q := f.view.Quorum; q > 0 && q <= n {
		require.True(t, s.quorum.Shown)
		assert.True(t, s.quorum.A.X > s.cells[q-1].Pos.X+s.cells[q-1].Size.Width && (q == n || s.quorum.A.X < s.cells[q].Pos.X), "the quorum line after the quorum-th cell")
	}
	last := s.cells[n-1]
	assert.Greater(t, s.tally.Pos.X, last.Pos.X+last.Size.Width, "the tally after the meter")
	assert.LessOrEqual(t, s.tally.Pos.X+width(s.tally, tallyBoldSize*k, true), f.width+0.01, "the tally inside the width")
}

// assertFullBlock checks what a full block adds under its row of votes at y.
func assertFullBlock(t *testing.T, f tallyFrame, a redlocksim.Attempt, y float32, s tallyAttemptSpots) {
	t.Helper()
	g, k := f.g, f.g.k
	assert.True(t, s.pill.Shown && s.pillText.Shown, "the phase's pill")
	assert.Greater(t, s.pill.Pos.Y, y+s.votes[0].box.Size.Height-0.01, "the pill under the row of votes")
	assert.LessOrEqual(t, s.pill.Size.Width, g.nameW, "in the names' column")
	assert.Equal(t, fyne.NewPos(g.nameW, s.barBg.Pos.Y), s.barBg.Pos, "the bar from the names' column")
	assert.InDelta(t, f.width, s.barBg.Pos.X+s.barBg.Size.Width, 0.01, "to the edge")
	at, end := s.barBg.Pos.X, s.barBg.Pos.X
	for _, p := range []widgets.RectSpot{s.elapsed, s.used, s.left} {
		if p.Shown { // each part at least a point wide
			assert.GreaterOrEqual(t, p.Pos.X, at-0.01, "the bar's parts in the order the ttl is spent")
			at, end = p.Pos.X, p.Pos.X+p.Size.Width
		}
	}
	if s.drift.Shown {
		assert.GreaterOrEqual(t, s.drift.Pos.X, end-1.01, "the drift after the validity")
		assert.InDelta(t, f.width, s.drift.Pos.X+s.drift.Size.Width, 1, "at the bar's end")
	}
	if s.now.Shown {
		assert.True(t, s.now.A.X >= s.barBg.Pos.X && s.now.A.X <= f.width, "now on the bar")
	}
	assert.Greater(t, s.arith.Pos.Y, s.barBg.Pos.Y+s.barBg.Size.Height, "the arithmetic under the bar")
	assert.LessOrEqual(t, s.arith.Pos.X+width(s.arith, tallyArithSize*k, false), f.width+0.01, "inside the width")
	if s.note.Shown {
		assert.Greater(t, s.note.Pos.Y, s.arith.Pos.Y, "why under the arithmetic")
		assert.LessOrEqual(t, s.note.Pos.X+width(s.note, f.small(), false), f.width+0.01, "inside the width")
	}
}
