package redlock

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	redlocksim "github.com/lockscope/lockscope/sim/redlock"
	"github.com/lockscope/lockscope/sim/simtest"
	"github.com/lockscope/lockscope/widgets"
	"github.com/lockscope/lockscope/widgets/widgettest"
)

const tallyMs = time.Millisecond

func TestValidityArithmetic(t *testing.T) {
	drift := redlocksim.Drift(10*time.Second, 0.01)
	require.Equal(t, 102*tallyMs, drift)
	for _, tc := range []struct {
		name     string
		elapsed  time.Duration
		renewals int
		validity time.Duration
		want     string
	}{
		{"the issue's example", 300 * tallyMs, 0, redlocksim.Validity(10*time.Second, 300*tallyMs, 0.01), "10000 − 300 − 102 = 9598 ms"},
		{"jittered votes", 5574 * time.Microsecond, 0, redlocksim.Validity(10*time.Second, 5574*time.Microsecond, 0.01),
			"10000 − 5.574 − 102 = 9892.426 ms"},
		{"paused while voting", 12001 * tallyMs, 0, redlocksim.Validity(10*time.Second, 12001*tallyMs, 0.01), "10000 − 12001 − 102 = −2103 ms"},
		{"after an extension", 300 * tallyMs, 2, redlocksim.Validity(10*time.Second, 4*tallyMs, 0.01), "10000 − 4 − 102 = 9894 ms"},
	} {
		a := redlocksim.Attempt{TTL: 10 * time.Second, Drift: drift, Elapsed: tc.elapsed, Renewals: tc.renewals, Validity: tc.validity}
		assert.Equal(t, tc.want, ValidityArithmetic(a), tc.name)
	}
}

func TestDriftArithmetic(t *testing.T) {
	for _, tc := range []struct {
		ttl    time.Duration
		factor float64
		want   string
	}{
		{10 * time.Second, 0.01, "drift = 10000 × 0.01 + 2 = 102 ms"},
		{8 * time.Second, 0.01, "drift = 8000 × 0.01 + 2 = 82 ms"}, // redsync's default expiry
		{10 * time.Second, 0, "drift = 10000 × 0 + 2 = 2 ms"},
		{1500 * tallyMs, 0.035, "drift = 1500 × 0.035 + 2 = 54.5 ms"},
	} {
		assert.Equal(t, tc.want, DriftArithmetic(tc.ttl, redlocksim.Drift(tc.ttl, tc.factor)))
	}
}

func TestSkewLabel(t *testing.T) {
	for _, tc := range []struct {
		skew   time.Duration
		want   string
		beyond bool
	}{
		{0, "0", false},
		{400 * time.Microsecond, "0", false},
		{10 * time.Second, "+10 s", true},
		{-250 * tallyMs, "−250 ms", true},
		{50 * tallyMs, "+50 ms", false}, // within the 102 ms drift allowance
		{1500 * tallyMs, "+1.5 s", true},
	} {
		got, beyond := SkewLabel(tc.skew, 102*tallyMs)
		assert.Equal(t, tc.want, got, "%v", tc.skew)
		assert.Equal(t, tc.beyond, beyond, "%v", tc.skew)
	}
}

func TestVoteGlyphsAreDrawable(t *testing.T) {
	// The box glyphs differ from one another and from the snapshot's
	// emoji, which the bundled font cannot draw.
	seen := map[string]bool{}
	for _, it := range VoteLegend {
		g := VoteGlyph(it.Vote)
		assert.NotContains(t, []string{"⏱", "⚡"}, g)
		assert.False(t, seen[g], "%s twice", g)
		seen[g] = true
	}
}

func TestValidityBar(t *testing.T) {
	base := redlocksim.Attempt{Number: 1, TTL: 10 * time.Second, Drift: 102 * tallyMs, Started: time.Second}
	holding := base
	holding.Done, holding.Success, holding.Phase = true, true, redlocksim.PhaseHolding
	holding.Elapsed, holding.Validity, holding.Left = 500*tallyMs, 9398*tallyMs, 7398*tallyMs
	b := NewValidityBar(holding, 3*time.Second)
	assert.InDelta(t, 0.05, b.Elapsed, 1e-6)
	assert.InDelta(t, 0.2, b.Used, 1e-6)
	assert.InDelta(t, 0.7398, b.Left, 1e-6)
	assert.InDelta(t, 0.0102, b.Drift, 1e-6)
	assert.InDelta(t, 1, b.Elapsed+b.Used+b.Left+b.Drift, 1e-6, "the parts add up to the ttl")
	assert.Zero(t, b.Overdue)

	overdue := holding
	overdue.Left = -4 * time.Second // paused past its validity
	b = NewValidityBar(overdue, 14*time.Second)
	assert.Equal(t, 4*time.Second, b.Overdue)
	assert.Zero(t, b.Left)
	assert.InDelta(t, 0.9398, b.Used, 1e-6)

	collecting := base
	collecting.Phase = redlocksim.PhaseAcquiring
	b = NewValidityBar(collecting, time.Second+250*tallyMs)
	assert.InDelta(t, 0.025, b.Elapsed, 1e-6, "elapsed so far, in true time")
	assert.Zero(t, b.Used+b.Left)

	late := base
	late.Done, late.Phase, late.Elapsed = true, redlocksim.PhaseUnlocking, 12001*tallyMs
	late.Validity = redlocksim.Validity(late.TTL, late.Elapsed, 0.01)
	b = NewValidityBar(late, 13*time.Second)
	assert.InDelta(t, 1, b.Elapsed, 1e-6, "the votes took longer than the ttl")
	assert.Zero(t, b.Drift+b.Used+b.Left)
}

func TestAttemptText(t *testing.T) {
	a := redlocksim.Attempt{Number: 3, TTL: 10 * time.Second, Wait: 500 * tallyMs, Drift: 102 * tallyMs, Started: 2 * time.Second,
		Votes: []redlocksim.Vote{redlocksim.VoteYes, redlocksim.VotePending, redlocksim.VotePending}, Phase: redlocksim.PhaseAcquiring}
	line, _ := AttemptText(a, 2*time.Second+3*tallyMs, false)
	assert.Equal(t, "collecting votes: 3 ms so far, timeout 500 ms", line)
	line, _ = AttemptText(a, 2*time.Second+3*tallyMs, true)
	assert.Equal(t, "collecting votes: 3 ms so far, timeout 500 ms per master", line)
	a.Wait = redlocksim.Wait(a.TTL, false)
	line, _ = AttemptText(a, 2*time.Second+3*tallyMs, false)
	assert.Equal(t, "collecting votes: 3 ms so far, timeout 5000 ms", line, "go-redis's read timeout without contextTimeout")

	a.Done, a.Phase, a.Elapsed = true, redlocksim.PhaseRetrying, 3*tallyMs
	a.Votes = []redlocksim.Vote{redlocksim.VoteNo, redlocksim.VoteNo, redlocksim.VoteYes}
	a.Validity = redlocksim.Validity(a.TTL, a.Elapsed, 0.01)
	a.Note = "only 1 of 3 masters said yes, quorum is 2"
	line, why := AttemptText(a, 3*time.Second, false)
	assert.Equal(t, "validity = 10000 − 3 − 102 = 9895 ms · no quorum: failed", line)
	assert.Equal(t, "retrying: only 1 of 3 masters said yes, quorum is 2", why)

	a.Votes = []redlocksim.Vote{redlocksim.VoteYes, redlocksim.VoteYes, redlocksim.VoteYes}
	a.Elapsed, a.Phase = 12001*tallyMs, redlocksim.PhaseUnlocking
	a.Validity = redlocksim.Validity(a.TTL, a.Elapsed, 0.01)
	line, _ = AttemptText(a, 14*time.Second, false)
	assert.Equal(t, "validity = 10000 − 12001 − 102 = −2103 ms ≤ 0: failed", line)

	a.Elapsed, a.Success, a.Phase, a.Note = 4*tallyMs, true, redlocksim.PhaseLost, "validity ran out on its own clock, 9894 ms after the grant"
	a.Validity = redlocksim.Validity(a.TTL, a.Elapsed, 0.01)
	line, why = AttemptText(a, 14*time.Second, false)
	assert.Equal(t, "validity = 10000 − 4 − 102 = 9894 ms · lost", line)
	assert.Equal(t, "lost: validity ran out on its own clock, 9894 ms after the grant", why)
}

func newTestTally(t *testing.T, size fyne.Size) (*VoteTally, *tallyRenderer) {
	t.Helper()
	test.NewTempApp(t)
	v := NewVoteTally()
	w := test.NewTempWindow(t, v)
	w.SetPadded(false)
	w.Resize(size)
	return v, test.TempWidgetRenderer(t, v).(*tallyRenderer)
}

func TestVoteTallyDrawsTheClockJump(t *testing.T) {
	v, r := newTestTally(t, fyne.NewSize(600, 260))
	v.SetSnapshot(widgettest.SnapshotAt(t, "redlock-clock-jump", 2500*tallyMs))

	shown := widgettest.Texts(r.Objects())
	for _, s := range []string{"C · redis-3", "+10 s ahead", "quorum 3 of 5", "drift = 10000 × 0.01 + 2", "client-1", "client-2",
		"validity = 10000 − 500 − 102 = 9398 ms · 7398 ms left",
		"validity = 10000 − 500 − 102 = 9398 ms · 9398 ms left", "3/5 ≥ 3", "holding"} {
		assert.Contains(t, shown, s)
	}

	// Both clients' votes, in the masters' columns: C said yes to both.
	require.Equal(t, 10, len(r.votes.Used()))
	want := [][]string{{"✓", "✓", "✓", "∥", "∥"}, {"∥", "∥", "✓", "✓", "✓"}}
	for c := range want {
		for m, g := range want[c] {
			vo := r.votes.Used()[c*5+m]
			assert.Equal(t, g, vo.glyph.Text, "client-%d, master %s", c+1, MasterLetter(m))
			assert.Equal(t, r.votes.Used()[m].box.Position().X, vo.box.Position().X, "one column per master")
		}
	}
	for m := 1; m < 5; m++ {
		assert.Greater(t, r.votes.Used()[m].box.Position().X, r.votes.Used()[m-1].box.Position().X)
	}
	assert.Greater(t, r.votes.Used()[5].box.Position().Y, r.votes.Used()[0].box.Position().Y, "client-2 below client-1")

	// C's jumped clock expired client-1's key early: C holds client-2's.
	c := r.masters.Used()[2]
	assert.Equal(t, "client-2", c.owner.Text)
	assert.Equal(t, "+10 s ahead", c.skew.Text)
	assert.True(t, c.skew.TextStyle.Bold, "a clock beyond the drift allowance stands out")
	assert.Equal(t, "0", r.masters.Used()[0].skew.Text)

	// Everything stays inside the widget.
	for _, o := range r.Objects() {
		if !o.Visible() {
			continue
		}
		p, s := o.Position(), o.Size()
		assert.GreaterOrEqual(t, p.X, float32(-1))
		assert.LessOrEqual(t, p.X+s.Width, float32(601), "%T %v", o, o)
		assert.LessOrEqual(t, p.Y+s.Height, float32(261), "%T %v", o, o)
	}
}

func TestVoteTallyKeepsTheHoldersArithmeticWhenShort(t *testing.T) {
	v, r := newTestTally(t, fyne.NewSize(560, 180))
	v.SetSnapshot(widgettest.SnapshotAt(t, "redlock-happy-path", time.Second))
	shown := widgettest.Texts(r.Objects())
	arith := 0
	for _, s := range shown {
		if len(s) > 11 && s[:11] == "validity = " {
			arith++
		}
	}
	assert.Equal(t, 1, arith, "only the holder gets its arithmetic: %q", shown)
	assert.Contains(t, shown, "retrying", "the others say where they are on one row")
	assert.Contains(t, shown, "0/5 < 3")
}

func TestVoteTallyMovesItsObjects(t *testing.T) {
	v, r := newTestTally(t, fyne.NewSize(560, 260))
	v.SetSnapshot(widgettest.SnapshotAt(t, "redlock-clock-jump", 2500*tallyMs))
	before := r.Objects()
	bar := r.blocks.Used()[0].left
	w1 := bar.Size().Width
	v.SetSnapshot(widgettest.SnapshotAt(t, "redlock-clock-jump", 4*time.Second))
	assert.Equal(t, len(before), len(r.Objects()), "no new objects for a later instant")
	assert.Same(t, bar, r.blocks.Used()[0].left)
	assert.Less(t, bar.Size().Width, w1, "the validity left shrinks")

	v.SetSnapshot(&sim.Snapshot{Mode: "redis"})
	assert.Empty(t, widgettest.Texts(r.Objects()), "a snapshot without a Redlock view draws nothing")
}

func TestVoteTallyShowsADownMasterAndAPausedHolder(t *testing.T) {
	v, r := newTestTally(t, fyne.NewSize(560, 260))
	// An instant when a try was just decided: the crashed masters timed out.
	sc, err := simtest.Load("redlock-majority-down")
	require.NoError(t, err)
	rec, err := sim.Record(sc)
	require.NoError(t, err)
	var snap *sim.Snapshot
	for at := time.Second; at < 3*time.Second && snap == nil; at += 10 * tallyMs {
		s := rec.At(at)
		if a := redlocksim.ViewOf(s).Attempts[0]; a.Done && a.Votes[2] == redlocksim.VoteTimeout {
			snap = s
		}
	}
	require.NotNil(t, snap, "client-1 decides a try in its first two seconds")
	v.SetSnapshot(snap)
	shown := widgettest.Texts(r.Objects())
	assert.Contains(t, shown, "down")
	assert.Contains(t, shown, "keys lost")
	assert.Contains(t, shown, "⊘", "a crashed master times out")
	assert.Contains(t, shown, "2/5 < 3")

	v.SetSnapshot(widgettest.SnapshotAt(t, "redlock-pause-after-acquire", 12*time.Second))
	shown = widgettest.Texts(r.Objects())
	assert.Contains(t, shown, "try 1 · paused")
	assert.Contains(t, shown, "holding", "paused right after its grant, it has not written")
	found := false
	for _, s := range shown {
		if s == "validity = 10000 − 4 − 102 = 9894 ms · ran out 2102 ms ago" {
			found = true
		}
	}
	assert.True(t, found, "a paused holder past its validity still believes: %q", shown)
}

func TestFullBlocksPreferHolders(t *testing.T) {
	atts := []redlocksim.Attempt{{Phase: redlocksim.PhaseRetrying}, {Phase: redlocksim.PhaseHolding}, {Phase: redlocksim.PhaseAcquiring}, {}}
	full, detail := fullBlocks(atts, 4*(tallyVoteH+tallyGap)+(tallyFullH-tallyVoteH-tallyGap), 1)
	assert.Equal(t, []bool{false, true, false, false}, full)
	assert.False(t, detail)
	full, detail = fullBlocks(atts, 1000, 1)
	assert.Equal(t, []bool{true, true, true, true}, full)
	assert.True(t, detail)
}

// BenchmarkVoteTallyFrame is one played frame of the tally: a new instant
// of the clock-jump run, objects moved and recoloured, none made.
func BenchmarkVoteTallyFrame(b *testing.B) {
	test.NewTempApp(b)
	v := NewVoteTally()
	w := test.NewTempWindow(b, v)
	w.Resize(fyne.NewSize(560, 260))
	sc, err := simtest.Load("redlock-clock-jump")
	require.NoError(b, err)
	rec, err := sim.Record(sc)
	require.NoError(b, err)
	snaps := []*sim.Snapshot{rec.At(2500 * tallyMs), rec.At(2600 * tallyMs)}
	for i := 0; b.Loop(); i++ {
		v.SetSnapshot(snaps[i%2])
	}
}

// In a low tally (the Redlock tab of a 1280×800 window) the line saying
// how many clients are left out is never written over the legend: the
// legend gives way.
func TestVoteTallyMoreClientsLineAndLegendNeverMeet(t *testing.T) {
	for h := float32(100); h <= 200; h += 2 {
		v, r := newTestTally(t, fyne.NewSize(500, h))
		v.SetSnapshot(widgettest.SnapshotAt(t, "redlock-clock-jump", 20*time.Second))
		var more *canvas.Text
		var others []*canvas.Text
		for _, o := range r.Objects() {
			if txt, ok := o.(*canvas.Text); ok && txt.Visible() {
				if strings.Contains(txt.Text, "more client") {
					more = txt
				} else {
					others = append(others, txt)
				}
			}
		}
		if more == nil {
			continue
		}
		for _, o := range others {
			if o.Position().Y < more.Position().Y+more.MinSize().Height-2 && more.Position().Y < o.Position().Y+o.MinSize().Height-2 {
				assert.Fail(t, "text over text", "height %v: %q at %v meets %q at %v", h, more.Text, more.Position(), o.Text, o.Position())
			}
		}
	}
}

// The tally draws clocks and countdowns that move with every instant;
// handed the same snapshot again, it draws nothing.
func TestTallyDrawsTheSameSnapshotOnce(t *testing.T) {
	widgettest.AssertDrawsEachSnapshotOnce(t, "redlock-happy-path", NewVoteTally(),
		func(r fyne.WidgetRenderer) int { return r.(*tallyRenderer).refreshes })
}

// A resize places the masters and blocks again from the view shown, which
// is the tally's model, without redrawing from it (Refresh).
func TestTallyResizeLaysOutWithoutRefreshing(t *testing.T) {
	widgettest.AssertResizeLaysOutWithoutRebuilding(t, "redlock-happy-path", 3*time.Second, NewVoteTally(),
		func(r fyne.WidgetRenderer) int { return r.(*tallyRenderer).refreshes })
}

// A Chinese window shows the Redlock runs' node details and vote notes in
// Chinese: the translated sentence is drawn, the English one is not.
func TestTallyDetailsAreChinese(t *testing.T) {
	widgettest.AssertShownInChinese(t, []widgettest.ChineseCase{
		{Preset: "redlock-pause-after-acquire", At: 10 * time.Second, Want: []string{"第 11 次尝试：重试中", "5 个主节点中只有 0 个同意，法定数是 3"}},
		{Preset: "redlock-clock-jump", At: 2333 * time.Millisecond, Want: []string{"第 1 次尝试：3/5 同意"}},
		{Preset: "redlock-clock-jump", At: 7 * time.Second, Want: []string{"：有效期剩余 "}},
	}, func() []widgettest.Picture { return []widgettest.Picture{widgets.NewClusterView(), NewVoteTally()} },
		func(snap *sim.Snapshot) []string {
			var notes []string
			for _, a := range redlocksim.ViewOf(snap).Attempts {
				notes = append(notes, a.Note)
			}
			return notes
		})
}

// The layout gives every client a full block with its arithmetic where
// there is room, compact rows, then tight rows, and a count of those left
// out where there is not, and gives up the legend before the count; a
// picture too narrow for the masters' columns draws nothing.
func TestTallyLayout(t *testing.T) {
	snap := widgettest.SnapshotAt(t, "redlock-pause-after-acquire", 10*time.Second)
	view := redlocksim.ViewOf(snap)
	require.NotEmpty(t, view.Attempts)
	n := len(view.Masters)
	atts := view.Attempts

	tall, ok := tallyLayout(atts, n, fyne.NewSize(tallyRefSize.Width, 2000), theme.DefaultTheme()) // no wider than the size it grows from
	require.True(t, ok)
	assert.Equal(t, (tallyRefSize.Width-tallyNameW-tallyRightW)/float32(n), tall.colW)
	assert.Equal(t, float32(tallyNameW)+2*tall.colW, tall.colX(2))
	assert.Len(t, tall.ys, len(atts), "every client drawn")
	assert.Zero(t, tall.more)
	assert.True(t, tall.legend)
	assert.True(t, tall.detail)
	for i := range atts {
		assert.True(t, tall.full[i], "room for every full block")
	}
	assert.Equal(t, float32(tallyMastersH), tall.ys[0], "the blocks start under the masters")

	require.Len(t, atts, 2)
	compact, ok := tallyLayout(atts, n, fyne.NewSize(700, tallyMastersH+2*tallyVoteH+tallyGap), theme.DefaultTheme())
	require.True(t, ok)
	assert.Len(t, compact.ys, 2)
	assert.False(t, compact.tight || compact.legend, "a row of votes each before the legend")
	assert.Equal(t, []bool{false, false}, compact.full)

	tight, ok := tallyLayout(atts, n, fyne.NewSize(700, tallyMastersH+tallyVoteH+tallyMoreH), theme.DefaultTheme())
	require.True(t, ok)
	assert.True(t, tight.tight)
	assert.Equal(t, []float32{tallyMastersH, tallyMastersH + tallyTightH}, tight.ys, "tight rows for both")
	assert.Zero(t, tight.more)

	short, ok := tallyLayout(atts, n, fyne.NewSize(700, tallyMastersH+tallyTightH+tallyTightH/2), theme.DefaultTheme())
	require.True(t, ok)
	assert.Empty(t, short.ys, "a tight row would leave no line for the other")
	assert.Equal(t, 2, short.more, "the rest counted")
	assert.Equal(t, float32(tallyMastersH), short.moreY)
	none, ok := tallyLayout(atts, n, fyne.NewSize(700, tallyMastersH+1), theme.DefaultTheme())
	require.True(t, ok)
	assert.Empty(t, none.ys)
	assert.Equal(t, len(atts), none.more)
	assert.Equal(t, float32(tallyMastersH), none.moreY)
	assert.False(t, none.legend, "the count keeps its line, the legend gives way")

	_, ok = tallyLayout(atts, n, fyne.NewSize(99, 500), theme.DefaultTheme())
	assert.False(t, ok, "too narrow")
	_, ok = tallyLayout(atts, 0, fyne.NewSize(700, 500), theme.DefaultTheme())
	assert.False(t, ok, "no masters")
}

// Five masters in the tally of a 1024×768 window (the split gave it 394
// points, columns of 30, and cut cells to "7.…", "do…", "n…"; it gives it
// 484 now): no master's cell is cut with "…"; a word too wide for its
// column says its short form ("—" for no key, "lost"), an owner its
// number, in both languages.
func TestVoteTallyMastersCellsReadAt1024(t *testing.T) {
	t.Cleanup(func() { i18n.Set(i18n.English) })
	const easyColW = 48 // holds "999 ms" on a master's TTL bar
	majority, err := simtest.Load("redlock-majority-down")
	require.NoError(t, err)
	rec, err := sim.Record(majority)
	require.NoError(t, err)
	for _, l := range i18n.Langs {
		i18n.Set(l)
		v, r := newTestTally(t, fyne.NewSize(tallyNameW+tallyRightW+5*easyColW, 98))
		for _, snap := range []*sim.Snapshot{
			widgettest.SnapshotAt(t, "redlock-clock-jump", 0),            // no key anywhere
			widgettest.SnapshotAt(t, "redlock-clock-jump", 2500*tallyMs), // keys held
			rec.At(3 * time.Second),                                      // three masters down
		} {
			v.SetSnapshot(snap)
			for i, m := range r.masters.Used() {
				for _, tx := range []*canvas.Text{m.owner, m.left} {
					assert.False(t, tx.Visible() && strings.HasSuffix(tx.Text, "…"), "%s at %v: master %s shows %q", l, snap.At, MasterLetter(i), tx.Text)
				}
			}
		}
		shown := widgettest.Texts(r.Objects())
		if l == i18n.English {
			assert.Contains(t, shown, "lost")
		}
	}
}

// In a tally lower than a 1024×768 window's no client's row fits under
// the masters: the line under them names each client with its tally and
// phase instead of "… and 2 more clients", inside the picture; where the
// names do not fit the width it counts them as before.
func TestVoteTallyNamesTheClientsItLeavesOut(t *testing.T) {
	size := fyne.NewSize(484, 88)
	v, r := newTestTally(t, size)
	v.SetSnapshot(widgettest.SnapshotAt(t, "redlock-clock-jump", 2500*tallyMs))
	shown := widgettest.Texts(r.Objects())
	assert.Contains(t, shown, "client-1 3/5 ≥ 3 holding · client-2 3/5 ≥ 3 holding")
	for _, o := range r.labels.Used() {
		assert.LessOrEqual(t, o.Position().Y+o.MinSize().Height, size.Height+1, "%q inside the picture", o.Text)
	}

	atts := redlocksim.ViewOf(widgettest.SnapshotAt(t, "redlock-clock-jump", 2500*tallyMs)).Attempts
	assert.Equal(t, "… and 2 more clients", leftOutLine(atts, 5, 3, 150, theme.DefaultTheme().Size(theme.SizeNameCaptionText)))
}

// On a large screen the masters' columns, the clients' blocks and their
// words grow with the panel (its 1258×532 at 2560×1440 left 66-point
// heads and 60-point blocks in 12-point type at its top); at the panel of
// a 1400×900 window they keep their sizes.
func TestVoteTallyGrowsOnALargeScreen(t *testing.T) {
	snap := widgettest.SnapshotAt(t, "redlock-pause-after-acquire", 10*time.Second)
	atts, n := redlocksim.ViewOf(snap).Attempts, len(redlocksim.ViewOf(snap).Masters)
	small, ok := tallyLayout(atts, n, tallyRefSize, theme.DefaultTheme())
	require.True(t, ok)
	assert.Equal(t, float32(1), small.k)
	assert.Equal(t, float32(tallyMastersH), small.ys[0], "the reference size keeps the heads' height")

	size := fyne.NewSize(1258, 532)
	large, ok := tallyLayout(atts, n, size, theme.DefaultTheme())
	require.True(t, ok)
	assert.InDelta(t, 1.8, large.k, 0.01)
	assert.InDelta(t, tallyMastersH*large.k, large.ys[0], 0.01, "the heads grow")
	assert.InDelta(t, tallyNameW*large.k, large.colX(0), 0.01)
	assert.GreaterOrEqual(t, len(large.ys), len(small.ys), "and no block is left out for it")

	v, r := newTestTally(t, size)
	v.SetSnapshot(snap)
	assert.InDelta(t, tallyNameSize*large.k, r.blocks.Used()[0].name.TextSize, 0.01, "the words grow with them")
	assert.InDelta(t, tallyBoldSize*large.k, r.masters.Used()[0].name.TextSize, 0.01)
	assert.InDelta(t, r.text*large.k, r.votes.Used()[0].glyph.TextSize, 0.01)
	for _, o := range r.labels.Used() {
		assert.LessOrEqual(t, o.Position().Y+o.MinSize().Height, size.Height+1, "%q inside the picture", o.Text)
	}
}

// In the tally of a 1024×768 window (484×98; 372×98 with the event log
// open) each client has its row of vote boxes, tight, under the masters'
// heads, where a line said "client-1 3/5 ≥ 3 holding · …" (issue 16):
// which masters voted for whom is what the tally is for. The masters'
// cells keep "+10 s" and "free" whole beside the event log (they were
// "+…" and "fr…"), and the right column's notes are not cut.
func TestVoteTallyRowsOfVotesFitA1024Window(t *testing.T) {
	t.Cleanup(func() { i18n.Set(i18n.English) })
	for _, l := range i18n.Langs {
		i18n.Set(l)
		for _, size := range []fyne.Size{fyne.NewSize(484, 98), fyne.NewSize(372, 98)} {
			for _, at := range []time.Duration{2500 * tallyMs, 20 * time.Second} {
				v, r := newTestTally(t, size)
				v.SetSnapshot(widgettest.SnapshotAt(t, "redlock-clock-jump", at))
				what := fmt.Sprintf("%s at %v, %v", l, size, at)
				require.Len(t, r.blocks.Used(), 2, what)
				require.Len(t, r.votes.Used(), 10, "%s: a vote box per master and client", what)
				for _, vo := range r.votes.Used() {
					assert.LessOrEqual(t, vo.box.Position().Y+vo.box.Size().Height, size.Height, what)
				}
				for _, o := range append(r.labels.Used(), r.heads.Used()...) {
					assert.False(t, strings.HasSuffix(o.Text, "…"), "%s: %q cut", what, o.Text)
					assert.LessOrEqual(t, o.Position().X+o.MinSize().Width, size.Width+1, "%s: %q inside", what, o.Text)
				}
				for _, m := range r.masters.Used() {
					for _, tx := range []*canvas.Text{m.skew, m.owner} {
						assert.False(t, tx.Visible() && strings.HasSuffix(tx.Text, "…"), "%s: a master's %q", what, tx.Text)
					}
				}
				for _, b := range r.blocks.Used() {
					assert.False(t, strings.HasSuffix(b.tally.Text, "…"), "%s: %q", what, b.tally.Text)
				}
			}
		}
	}
}

// The tally's lengths and words follow the theme's text size: in a theme
// whose text and captions are twice the default's, at the same size, the
// heads, the names' column and the rows of votes are twice as large, and
// so are the words, a vote's glyph at the theme's text size.
func TestVoteTallyGrowsWithTheThemesText(t *testing.T) {
	snap := widgettest.SnapshotAt(t, "redlock-pause-after-acquire", 10*time.Second)
	atts, n := redlocksim.ViewOf(snap).Attempts, len(redlocksim.ViewOf(snap).Masters)
	size := fyne.NewSize(1400, 2000)
	base, ok := tallyLayout(atts, n, size, theme.DefaultTheme())
	require.True(t, ok)
	large, ok := tallyLayout(atts, n, size, widgettest.LargeText())
	require.True(t, ok)
	assert.Equal(t, 2*base.k, large.k)
	assert.Equal(t, base.grow, large.grow, "the panel's size scales as before")
	assert.Equal(t, 2*base.nameW, large.nameW)
	require.Len(t, large.ys, len(base.ys), "every client still has its block")
	for i := range base.ys {
		assert.Equal(t, 2*base.ys[i], large.ys[i])
	}
	assert.Equal(t, 2*base.row(14, 11).boxH, large.row(28, 22).boxH)

	v, r := newTestTally(t, size)
	v.SetSnapshot(snap)
	nameSize, glyph, caption := r.blocks.Used()[0].name.TextSize, r.votes.Used()[0].glyph.TextSize, r.labels.Used()[0].TextSize
	fyne.CurrentApp().Settings().SetTheme(widgettest.LargeText())
	v.Refresh()
	assert.Equal(t, 2*nameSize, r.blocks.Used()[0].name.TextSize)
	assert.Equal(t, 2*glyph, r.votes.Used()[0].glyph.TextSize)
	assert.Equal(t, 2*caption, r.labels.Used()[0].TextSize, "the small print at the theme's caption")
	assert.Equal(t, fyne.NewSize(2*tallyMinW, 2*tallyMinH), r.MinSize())
}

// The tally says how tall it draws, its legend under the blocks, so the
// notes under it start there (issue 16).
func TestVoteTallyDrawnHeight(t *testing.T) {
	widgettest.AssertDrawnHeight(t, "redlock-happy-path", 2*time.Second, NewVoteTally(), 680)
	widgettest.AssertDrawnHeight(t, "redlock-clock-jump", 20*time.Second, NewVoteTally(), 680)
}

// Ten clients in a short box: the rows go by how much the reader needs
// them, so the holder's is drawn, and the line under it counts the rest;
// in the clients' own order client-1's released row took the one row.
func TestTallyKeepsTheHolderOfACrowd(t *testing.T) {
	texts := widgettest.InShortBox(t, NewVoteTally(), fyne.NewSize(500, 110), widgettest.CrowdSnapshotAt(t, "redlock-happy-path", 10, 3*time.Second))
	assert.Contains(t, texts, "client-3")
	assert.Contains(t, texts, "holding")
	assert.Contains(t, texts, "… and 9 more clients")
	assert.NotContains(t, texts, "client-1")
}
