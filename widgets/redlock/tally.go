// Package redlock is Redlock's side of the window, one folder as its
// simulation is (sim/redlock): its state picture (VoteTally: each master's
// vote and clock, each attempt's validity arithmetic), its tab (tab.go:
// the sliders and toggles only it shows, its protocol lines), the value
// Tab, which the list of designs (package designs) installs at start.
package redlock

import (
	"fmt"
	"image/color"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	redlocksim "github.com/lockscope/lockscope/sim/redlock"
	"github.com/lockscope/lockscope/widgets"
	"github.com/lockscope/lockscope/widgets/redis"
)

// VoteTally is the Redlock picture. Across the top, one column per master
// (A–E are redis-1…redis-5, Kleppmann's names): its clock offset — a
// jumped clock shows how far ahead it is — and the lock key it holds with a
// TTL bar counted by its own clock. Under it, one block per client for its
// current or last attempt: a vote box per master in the same columns, a
// meter of the yes votes against the quorum line, and a bar of the ttl
// split in the order it is spent — elapsed while voting, the validity
// (used, then left), the drift kept back — with the arithmetic written out
// in numbers, as the client computed it.
type VoteTally struct {
	widget.BaseWidget

	view  *redlocksim.View
	nodes []sim.NodeView
	at    time.Duration
	widgets.OnShow
}

// NewVoteTally returns an empty tally; SetSnapshot fills it.
func NewVoteTally() *VoteTally {
	v := &VoteTally{}
	v.ExtendBaseWidget(v)
	return v
}

// SetSnapshot shows the Redlock view of a snapshot (mode "redlock"); any
// other snapshot empties the picture.
func (v *VoteTally) SetSnapshot(s *sim.Snapshot) {
	// A new instant has something new: the validity bars run down.
	if !v.Take(s) {
		return
	}
	if view := redlocksim.ViewOf(s); view != nil {
		v.view, v.nodes, v.at = view, s.Nodes, s.At
	} else {
		v.view, v.nodes, v.at = nil, nil, 0
	}
	v.Refresh()
}

// MasterLetter names the i-th master (0-based) the way Kleppmann's and
// antirez's articles do: A, B, C, ...
func MasterLetter(i int) string {
	if i < 0 || i >= 26 {
		return strconv.Itoa(i + 1)
	}
	return string(rune('A' + i))
}

// Yes counts the masters that voted yes.
func Yes(votes []redlocksim.Vote) int {
	n := 0
	for _, v := range votes {
		if v == redlocksim.VoteYes {
			n++
		}
	}
	return n
}

// MsFigure writes a duration as a number of milliseconds, to the
// microsecond and without trailing zeros, with a true minus sign: the way
// the validity arithmetic is written.
func MsFigure(d time.Duration) string {
	s := strconv.FormatFloat(float64(d.Round(time.Microsecond))/float64(time.Millisecond), 'f', -1, 64)
	return strings.Replace(s, "-", "−", 1)
}

// AttemptElapsed is the elapsed time behind an attempt's current validity:
// the vote's own, or after a watchdog extension the extension's, which
// Redlock measures the same way (validity = ttl − elapsed − drift, so the
// extension's elapsed is ttl − drift − validity).
func AttemptElapsed(a redlocksim.Attempt) time.Duration {
	if a.Renewals > 0 {
		return a.TTL - a.Drift - a.Validity
	}
	return a.Elapsed
}

// ValidityArithmetic is a decided attempt's validity written out:
// "ttl − elapsed − drift = validity ms", e.g. "10000 − 300 − 102 = 9598 ms".
func ValidityArithmetic(a redlocksim.Attempt) string {
	return MsFigure(a.TTL) + " − " + MsFigure(AttemptElapsed(a)) + " − " + MsFigure(a.Drift) +
		" = " + MsFigure(a.Validity) + " ms"
}

// DriftArithmetic writes the drift allowance out: ttl × driftFactor + 2 ms.
// The snapshot carries the drift, not the factor, so the factor is read
// back from it (drift = ⌊ttl·driftFactor⌋ + 2 ms).
func DriftArithmetic(ttl, drift time.Duration) string {
	if ttl <= 0 {
		return i18n.F("redlock.drift", "drift", MsFigure(drift))
	}
	f := float64(drift-redlocksim.DriftFloor) / float64(ttl)
	return i18n.F("redlock.driftArithmetic", "ttl", MsFigure(ttl), "factor", strconv.FormatFloat(roundTo(f, 6), 'f', -1, 64),
		"floor", MsFigure(redlocksim.DriftFloor), "drift", MsFigure(drift))
}

func roundTo(x float64, digits int) float64 {
	p := 1.0
	for range digits {
		p *= 10
	}
	if x < 0 {
		return -float64(int64(-x*p+0.5)) / p
	}
	return float64(int64(x*p+0.5)) / p
}

// ValidityBar is an attempt's ttl split in the order the client spends it,
// each part as a share of the ttl: Elapsed while the votes came in, the
// validity (Used of it already gone, Left still to go), and Drift kept back
// before the keys expire on the masters. Overdue is the validity that ran
// out while the client still believes (it is paused and has not noticed).
type ValidityBar struct {
	Elapsed, Used, Left, Drift float32
	Overdue                    time.Duration
}

// NewValidityBar lays out attempt a at true time at.
func NewValidityBar(a redlocksim.Attempt, at time.Duration) ValidityBar {
	if a.TTL <= 0 {
		return ValidityBar{}
	}
	share := func(d time.Duration) float32 {
		return float32(max(0, min(1, float64(d)/float64(a.TTL))))
	}
	var b ValidityBar
	if !a.Done {
		b.Elapsed = share(at - a.Started)
		b.Drift = min(share(a.Drift), 1-b.Elapsed)
		return b
	}
	b.Elapsed = share(AttemptElapsed(a))
	b.Drift = min(share(a.Drift), 1-b.Elapsed)
	validity := share(a.Validity)
	validity = min(validity, 1-b.Elapsed-b.Drift)
	switch {
	case holdingPhase(a.Phase) && a.Left > 0:
		b.Left = min(share(a.Left), validity)
		b.Used = validity - b.Left
	case holdingPhase(a.Phase):
		b.Used = validity
		b.Overdue = -a.Left
	default:
		b.Used = validity
	}
	return b
}

// holdingPhase reports whether a client in this phase believes it holds
// the lock.
func holdingPhase(p redlocksim.Phase) bool {
	return p == redlocksim.PhaseHolding || p == redlocksim.PhaseExtending || p == redlocksim.PhaseWriting
}

// phaseColor is the colour of a client's phase pill; its name is always
// written in the pill too.
func phaseColor(p redlocksim.Phase) color.NRGBA {
	switch {
	case holdingPhase(p):
		return widgets.ColorHolding
	case p == redlocksim.PhaseAcquiring || p == redlocksim.PhaseUnlocking || p == redlocksim.PhaseRetrying:
		return widgets.ColorWaiting
	case p == redlocksim.PhaseLost:
		return widgets.ColorViolation
	}
	return widgets.ColorIdle
}

// VoteGlyph is the glyph a vote box shows. The snapshot's ✗, ⏱ and ⚡ are
// not in the bundled fonts (or only as colour emoji, ⚡ drawing nothing),
// so the box draws ×, ⊘ (no answer) and ∥ (cut off), which they have.
func VoteGlyph(v redlocksim.Vote) string {
	switch v {
	case redlocksim.VoteNo:
		return "×"
	case redlocksim.VoteTimeout:
		return "⊘"
	case redlocksim.VotePartitioned:
		return "∥"
	}
	return string(v)
}

// voteColor is the fill of a vote box; the glyph in it says the same.
func voteColor(v redlocksim.Vote) color.NRGBA {
	switch v {
	case redlocksim.VoteYes:
		return widgets.ColorHolding
	case redlocksim.VoteNo:
		return widgets.ColorViolation
	case redlocksim.VoteTimeout:
		return widgets.ColorIdle
	case redlocksim.VotePartitioned:
		return widgets.ColorFault
	}
	return color.NRGBA{}
}

// VoteLegend says what each vote glyph means.
var VoteLegend = []struct {
	Vote redlocksim.Vote
	Text string
}{
	{redlocksim.VoteYes, "yes (SET NX answered OK)"},
	{redlocksim.VoteNo, "no (held by another)"},
	{redlocksim.VoteTimeout, "timed out"},
	{redlocksim.VotePartitioned, "partitioned"},
	{redlocksim.VotePending, "waiting"},
}

// voteText is a legend line in the current language; text is the
// English of VoteLegend.
func voteText(v redlocksim.Vote, text string) string {
	key := map[redlocksim.Vote]string{redlocksim.VoteYes: "redlock.vote.yes", redlocksim.VoteNo: "redlock.vote.no",
		redlocksim.VoteTimeout: "redlock.vote.timeout", redlocksim.VotePartitioned: "redlock.vote.partitioned",
		redlocksim.VotePending: "redlock.vote.pending"}[v]
	if key == "" {
		return text
	}
	return i18n.T(key)
}

// CreateRenderer implements fyne.Widget.
func (v *VoteTally) CreateRenderer() fyne.WidgetRenderer {
	// A vote's glyph is the theme's text size; the small print (a
	// master's skew and owner, a block's note, the labels) its caption's.
	th := v.Theme()
	text, caption := th.Size(theme.SizeNameText), th.Size(theme.SizeNameCaptionText)
	r := &tallyRenderer{v: v, k: 1, grow: 1, text: text, caption: caption,
		masters: widgets.NewPool(func() *tallyMaster { return newTallyMaster(caption) }, (*tallyMaster).all),
		blocks:  widgets.NewPool(func() *tallyBlock { return newTallyBlock(caption) }, (*tallyBlock).all),
		votes: widgets.NewPool(func() *tallyVote {
			return &tallyVote{box: &canvas.Rectangle{CornerRadius: 4}, glyph: widgets.NewText(text, true)}
		}, func(o *tallyVote) []fyne.CanvasObject { return []fyne.CanvasObject{o.box, o.glyph} }),
		cells:  widgets.NewRectPool(),
		lines:  widgets.NewLinePool(),
		labels: widgets.NewTextPool(caption, false),
		heads:  widgets.NewTextPool(tallyBoldSize, true),
	}
	r.pools = widgets.Pools{r.masters, r.blocks, r.cells, r.lines, r.votes, r.labels, r.heads}
	r.Refresh()
	return r
}

// tallyMaster is one master's column head.
type tallyMaster struct {
	name, skew, owner, left *canvas.Text
	barBg, bar              *canvas.Rectangle
}

// newTallyMaster makes a master's column head, its small print at size
// caption.
func newTallyMaster(caption float32) *tallyMaster {
	return &tallyMaster{name: widgets.NewText(tallyBoldSize, true), skew: widgets.NewText(caption, false), owner: widgets.NewText(caption, false),
		left: widgets.NewText(tallySmallSize, false), barBg: &canvas.Rectangle{CornerRadius: 2}, bar: &canvas.Rectangle{CornerRadius: 2}}
}

// resize gives the head's words their sizes: the tally's own at k (its
// lengths' unit, tallyGeometry.k), its small print caption.
func (o *tallyMaster) resize(k, caption float32) {
	widgets.ResizeTexts(k, map[*canvas.Text]float32{o.name: tallyBoldSize, o.left: tallySmallSize})
	widgets.ResizeTextsTo(caption, o.skew, o.owner)
}

func (o *tallyMaster) all() []fyne.CanvasObject {
	return []fyne.CanvasObject{o.barBg, o.bar, o.name, o.skew, o.owner, o.left}
}

// tallyBlock is one client's attempt, apart from its vote boxes.
type tallyBlock struct {
	name, try, tally, arith, note *canvas.Text
	pill                          *canvas.Rectangle
	pillText                      *canvas.Text
	barBg, elapsed, used, left    *canvas.Rectangle
	drift                         *canvas.Rectangle
	now                           *canvas.Line
}

// newTallyBlock makes a client's block, its note at size caption.
func newTallyBlock(caption float32) *tallyBlock {
	return &tallyBlock{name: widgets.NewText(tallyNameSize, true), try: widgets.NewText(tallySmallSize, false), tally: widgets.NewText(tallyBoldSize, true),
		arith: widgets.NewText(tallyArithSize, false), note: widgets.NewText(caption, false),
		pill: &canvas.Rectangle{CornerRadius: 4}, pillText: widgets.NewText(tallySmallSize, true),
		barBg: &canvas.Rectangle{}, elapsed: &canvas.Rectangle{}, used: &canvas.Rectangle{},
		left: &canvas.Rectangle{}, drift: &canvas.Rectangle{}, now: &canvas.Line{}}
}

// resize gives the block's words their sizes: the tally's own at k, its
// note caption.
func (o *tallyBlock) resize(k, caption float32) {
	widgets.ResizeTexts(k, map[*canvas.Text]float32{o.name: tallyNameSize, o.try: tallySmallSize, o.tally: tallyBoldSize,
		o.arith: tallyArithSize, o.pillText: tallySmallSize})
	widgets.ResizeText(o.note, caption)
}

func (o *tallyBlock) all() []fyne.CanvasObject {
	return []fyne.CanvasObject{o.barBg, o.elapsed, o.used, o.left, o.drift, o.now, o.pill, o.pillText,
		o.name, o.try, o.tally, o.arith, o.note}
}

// tallyVote is one vote box.
type tallyVote struct {
	box   *canvas.Rectangle
	glyph *canvas.Text
}

type tallyRenderer struct {
	v *VoteTally
	// refreshes counts redraws from the view shown, so a test can tell one
	// that was not needed, or that a resize did none.
	refreshes int
	colors    tallyColors // the theme's, as of the last Refresh
	// k and grow are the scales of the frame laid out last (tallyGeometry's);
	// text and caption the theme's sizes of a vote's glyph and the small
	// print, as of the last Refresh.
	k, grow, text, caption float32
	masters                *widgets.Pool[*tallyMaster]
	blocks                 *widgets.Pool[*tallyBlock]
	votes                  *widgets.Pool[*tallyVote]
	cells                  *widgets.Pool[*canvas.Rectangle]
	lines                  *widgets.Pool[*canvas.Line]
	labels                 *widgets.Pool[*canvas.Text]
	heads                  *widgets.Pool[*canvas.Text]
	pools                  widgets.Pools
	objects                []fyne.CanvasObject
}

func (r *tallyRenderer) Destroy() {}

// Layout places the pooled objects of the view shown in size.
func (r *tallyRenderer) Layout(size fyne.Size) {
	r.pools.Reset()
	if r.v.view != nil {
		r.draw(size)
	}
	if objs := r.pools.Finish(); objs != nil || r.objects == nil {
		r.objects = r.pools.All()
		widgets.Repaint(r.v)
	}
}

func (r *tallyRenderer) MinSize() fyne.Size {
	em := widgets.TextScale(r.v.Theme())
	return fyne.NewSize(tallyMinW*em, tallyMinH*em)
}

func (r *tallyRenderer) Objects() []fyne.CanvasObject { return r.objects }

// Refresh takes the theme's colours for the view shown (SetSnapshot calls
// it only for a new instant; the view is the tally's model), then lays
// out.
func (r *tallyRenderer) Refresh() {
	r.refreshes++
	th := r.v.Theme()
	r.colors = tallyColors{fg: widgets.ThemeColor(th, theme.ColorNameForeground), muted: widgets.ThemeColor(th, theme.ColorNamePlaceHolder),
		track: widgets.Fade(widgets.ColorIdle, 0.22), th: th}
	r.text, r.caption = th.Size(theme.SizeNameText), th.Size(theme.SizeNameCaptionText)
	r.Layout(r.v.Size())
}

// tallyColors are the theme colours a frame draws with.
type tallyColors struct {
	fg, muted, track color.Color
	th               fyne.Theme
}

// draw places the tally's objects where its geometry in size says.
func (r *tallyRenderer) draw(size fyne.Size) {
	view, c := r.v.view, r.colors
	g, ok := tallyLayout(view.Attempts, len(view.Masters), size, c.th)
	if !ok {
		return
	}
	r.k, r.grow = g.k, g.grow
	r.drawMasters(view, g.colW, g.colX, c)
	for i, y := range g.ys {
		r.drawAttempt(view.Attempts[i], y, g, g.full[i], c)
	}
	if g.more > 0 {
		widgets.PlaceText(r.label(), leftOutLine(view.Attempts[len(g.ys):], len(view.Masters), view.Quorum, size.Width, r.caption*g.grow), fyne.NewPos(0, g.moreY), c.muted)
	}
	if g.legend {
		r.drawLegend(g.end, size, c)
	}
}

// DrawnHeight is the height of what the tally draws in a box of size
// (designtab.Drawn): the masters' heads, the blocks and the legend under
// them; the box's height where it draws less than a box of any height
// would (geometry.whole).
func (v *VoteTally) DrawnHeight(size fyne.Size) float32 {
	if v.view == nil {
		return 0
	}
	g, ok := tallyLayout(v.view.Attempts, len(v.view.Masters), size, v.Theme())
	switch {
	case !ok:
		return 0
	case !g.whole():
		return size.Height
	}
	return min(g.end+tallyLegendH*g.k, size.Height)
}

// label is the next line of small print, at the frame's scale.
func (r *tallyRenderer) label() *canvas.Text {
	t := r.labels.Next()
	widgets.ResizeText(t, r.caption*r.grow)
	return t
}

// leftOutLine is the line under the blocks for the clients left out of
// them: each one's name, tally and phase ("client-1 3/5 ≥ 3 holding ·
// client-2 …") where that fits the width, else how many they are. The
// tally of a 1024×768 window has room for no block under the masters, and
// "… and 2 more clients" told nothing of either. size is the line's text
// size (the small print's).
func leftOutLine(atts []redlocksim.Attempt, n, q int, width, size float32) string {
	parts := make([]string, len(atts))
	for i, a := range atts {
		parts[i] = a.Client + " " + tallyText(a, n, q) + " " + phaseText(a)
	}
	if line := strings.Join(parts, " · "); widgets.TextWidth(line, size, false) <= width {
		return line
	}
	return i18n.F("redlock.moreClients", "n", len(atts))
}

// tallyText is an attempt's yes votes out of n masters, against the
// quorum q once it has them or was decided without: "3/5 ≥ 3", "2/5 < 3".
func tallyText(a redlocksim.Attempt, n, q int) string {
	yes := Yes(a.Votes)
	tally := fmt.Sprintf("%d/%d", yes, n)
	switch {
	case a.Number == 0:
	case yes >= q:
		tally += " ≥ " + strconv.Itoa(q)
	case a.Done:
		tally += " < " + strconv.Itoa(q)
	}
	return tally
}

// phaseText is where an attempt is, in words.
func phaseText(a redlocksim.Attempt) string {
	if phase := i18n.Term(a.Phase.String()); phase != "" {
		return phase
	}
	return i18n.T("redlock.notStarted")
}

// drawMasters draws the column heads: name, clock offset, the key's owner
// and its TTL bar by the master's own clock.
func (r *tallyRenderer) drawMasters(view *redlocksim.View, colW float32, colX func(int) float32, c tallyColors) {
	rows := []string{i18n.T("redlock.head.master"), i18n.T("redlock.head.offset"), i18n.T("redlock.head.owner"), i18n.T("redlock.head.ttl")}
	k := r.k
	ys := []float32{0, tallyHeadPitch * k, 2 * tallyHeadPitch * k, 3 * tallyHeadPitch * k}
	for i, s := range rows {
		widgets.PlaceText(r.label(), s, fyne.NewPos(0, ys[i]+tallyHeadTextY*k), c.muted)
	}
	var drift, ttl time.Duration
	for _, a := range view.Attempts {
		if a.Drift > 0 {
			drift, ttl = a.Drift, a.TTL
		}
	}
	// Every head says "A · redis-1" when all of them fit, else just "A".
	names := true
	for i, m := range view.Masters {
		if m.Node >= 0 && m.Node < len(r.v.nodes) &&
			widgets.TextWidth(MasterLetter(i)+" · "+r.v.nodes[m.Node].Name, tallyBoldSize*k, true) > colW-tallyColPad*k {
			names = false
		}
	}
	for i, m := range view.Masters {
		var node sim.NodeView
		if m.Node >= 0 && m.Node < len(r.v.nodes) {
			node = r.v.nodes[m.Node]
		}
		o := r.masters.Next()
		o.resize(k, r.caption*r.grow)
		x := colX(i)
		center := func(t *canvas.Text, s string, y float32, col color.Color) {
			s = widgets.FitText(s, t.TextSize, t.TextStyle.Bold, colW-tallyColPad*k)
			w := widgets.TextWidth(s, t.TextSize, t.TextStyle.Bold)
			widgets.PlaceText(t, s, fyne.NewPos(x+(colW-w)/2, y), col)
		}
		name := MasterLetter(i)
		if names {
			name += " · " + node.Name
		}
		center(o.name, name, ys[0], c.fg)

		skew, beyond := SkewLabel(node.Skew, drift)
		skewCol := c.muted
		if o.skew.TextStyle.Bold != beyond {
			o.skew.TextStyle.Bold = beyond
			o.skew.Text = "" // a new style needs a new rasterisation
		}
		switch {
		case beyond:
			skewCol = widgets.Readable(widgets.ColorViolation, c.th)
			word := i18n.T("redlock.ahead")
			if node.Skew < 0 {
				word = i18n.T("redlock.behind")
			}
			if widgets.TextWidth(skew+word, o.skew.TextSize, true) <= colW-tallyColPad*k {
				skew += word
			}
		case skew != "0":
			skewCol = c.fg
		}
		center(o.skew, skew, ys[1], skewCol)

		// The TTL bar by the master's own clock, the time left written on it.
		bw := max(colW-tallyHeadBarPad*k, tallyHeadBarLeast*k)
		bx := x + (colW-bw)/2
		by, bh := ys[3]+tallyHeadTextY*k, tallyHeadBarH*k
		track := func() { widgets.PlaceRect(o.barBg, fyne.NewPos(bx, by), fyne.NewSize(bw, bh), c.track) }
		onBar := func(s string, col color.Color) {
			s = widgets.FitText(s, o.left.TextSize, false, bw-tallyBarTextPad*k)
			w := widgets.TextWidth(s, o.left.TextSize, false)
			widgets.PlaceText(o.left, s, fyne.NewPos(bx+(bw-w)/2, by), col)
		}
		switch {
		case node.Crashed:
			center(o.owner, i18n.T("redlock.down"), ys[2], c.fg)
			o.barBg.Hide()
			o.bar.Hide()
			onBar(widgets.FitWords("redlock.keysLost", o.left.TextSize, false, bw-tallyBarTextPad*k), c.muted)
		case len(m.Keys) == 0:
			center(o.owner, i18n.T("redlock.free"), ys[2], c.muted)
			track()
			o.bar.Hide()
			onBar(widgets.FitWords("redlock.noKey", o.left.TextSize, false, bw-tallyBarTextPad*k), c.muted)
		default:
			key := m.Keys[0]
			center(o.owner, ownerLabel(key.Owner, o.owner.TextSize, colW-tallyColPad*k), ys[2], widgets.Readable(ownerColor(r.v.nodes, key.Owner), c.th))
			track()
			if f := redis.TTLFraction(key); f > 0 {
				col := widgets.ColorOwned
				if f < 0.2 {
					col = widgets.ColorWaiting
				}
				widgets.PlaceRect(o.bar, fyne.NewPos(bx, by), fyne.NewSize(bw*f, bh), col)
			} else {
				o.bar.Hide()
			}
			left := compactTime(key.Left)
			if key.Expired {
				left = widgets.FitWords("redlock.expired", o.left.TextSize, false, bw-tallyBarTextPad*k)
			}
			onBar(left, c.fg)
		}
	}

	// The right column: what the heads mean and the quorum rule.
	x := colX(len(view.Masters)) + tallyRightGap*k
	mode := i18n.T("redlock.parallel")
	if view.Sequential {
		mode = i18n.T("redlock.sequential")
	}
	notes := []string{i18n.F("redlock.quorum", "q", view.Quorum, "n", len(view.Masters)), mode}
	noteW := r.v.Size().Width - x - tallyRightMargin*k
	if drift > 0 {
		notes = append(notes, driftLines(DriftArithmetic(ttl, drift), r.caption*r.grow, noteW)...)
	}
	for i, s := range notes {
		o, col := r.label(), c.muted
		if i == 0 {
			o, col = r.heads.Next(), c.fg
			widgets.ResizeText(o, tallyBoldSize*k)
		}
		widgets.PlaceText(o, widgets.FitText(s, o.TextSize, i == 0, noteW), fyne.NewPos(x, ys[i]+tallyHeadTextY*k), col)
	}
	w := r.v.Size().Width
	widgets.PlaceLine(r.lines.Next(), fyne.NewPos(0, tallyMastersH*k-tallyRuleRise*k), fyne.NewPos(w, tallyMastersH*k-tallyRuleRise*k), c.track, k)
}

// driftLines breaks the drift's arithmetic ("drift = 10000 × 0.01 + 2 =
// 102 ms") onto two lines of the right column, before its result, or where
// that leaves the first too wide for width in words of size (a narrow
// tally's), before the floor added.
func driftLines(d string, size, width float32) []string {
	cut := strings.LastIndex(d, " = ")
	if cut < 0 {
		return []string{d}
	}
	if plus := strings.LastIndex(d[:cut], " + "); plus >= 0 && widgets.TextWidth(d[:cut], size, false) > width {
		cut = plus
	}
	return []string{d[:cut], "   " + d[cut+1:]}
}

// ownerLabel is the name of the client a key is held for, or where the
// column is too narrow for it (five masters at 1024×768) its number alone,
// "1" for client-1, in the client's colour: "cl…" named nobody.
func ownerLabel(owner string, size, w float32) string {
	if i := strings.LastIndex(owner, "-"); i >= 0 && widgets.TextWidth(owner, size, false) > w {
		return owner[i+1:]
	}
	return owner
}

// ownerColor is the colour of the client a key belongs to: the holding
// colour while it believes it holds the lock, grey otherwise.
func ownerColor(nodes []sim.NodeView, owner string) color.NRGBA {
	for _, n := range nodes {
		if n.Name == owner && n.Client {
			return widgets.StateColor(n.State)
		}
	}
	return widgets.ColorIdle
}

// SkewLabel writes a master's clock offset from true time in few
// characters ("0", "+10 s", "−250 ms") and says whether it is beyond the
// drift Redlock allows for: its validity arithmetic assumes less.
func SkewLabel(skew, drift time.Duration) (label string, beyond bool) {
	a := skew.Abs().Round(time.Millisecond)
	if a == 0 {
		return "0", false
	}
	sign := "+"
	if skew < 0 {
		sign = "−"
	}
	if a < time.Second {
		label = sign + strconv.FormatInt(a.Milliseconds(), 10) + " ms"
	} else {
		label = sign + strconv.FormatFloat(a.Seconds(), 'f', -1, 64) + " s"
	}
	return label, drift > 0 && skew.Abs() > drift
}

// compactTime writes a time left in few characters for a narrow column.
func compactTime(d time.Duration) string {
	switch {
	case d <= 0:
		return "0 s"
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	}
	return strconv.FormatFloat(float64(d.Round(100*time.Millisecond))/float64(time.Second), 'f', 1, 64) + " s"
}

// tallyRow is where a row of votes puts its parts, down from its top: a
// compact row's or (tight) one as low as the heads' lines.
type tallyRow struct {
	boxH, glyph      float32 // a vote box's height, its glyph's size
	meterY, meterH   float32 // the quorum meter's cells
	quorumY, quorumH float32 // the quorum line across them
	nameY, tallyY    float32 // the client's name, its tally
	phaseY           float32 // the phase after the tally
}

// row is the layout of a client's row of votes: its lengths at g.k, its
// glyph the theme's text size text, or in a tight row its caption size
// caption, at g.grow.
func (g tallyGeometry) row(text, caption float32) tallyRow {
	k := g.k
	if g.tight {
		return tallyRow{boxH: tallyTightH*k - tallyBoxGap*k, glyph: caption * g.grow, meterY: tallyTightMeterY * k, meterH: tallyTightMeterH * k,
			quorumH: tallyTightH * k, phaseY: tallyTightPhaseY * k}
	}
	return tallyRow{boxH: tallyVoteH*k - tallyBoxGap*k, glyph: text * g.grow, meterY: tallyMeterY * k, meterH: tallyMeterH * k,
		quorumY: -tallyQuorumRise * k, quorumH: tallyVoteH * k, nameY: tallyNameY * k, tallyY: tallyTallyY * k, phaseY: tallyPhaseY * k}
}

// drawAttempt draws one client's block at y: a full one or a row of votes.
func (r *tallyRenderer) drawAttempt(a redlocksim.Attempt, y float32, g tallyGeometry, full bool, c tallyColors) {
	k, colW, colX, row := r.k, g.colW, g.colX, g.row(r.text, r.caption)
	o := r.blocks.Next()
	o.resize(k, r.caption*r.grow)
	if g.tight {
		widgets.ResizeText(o.name, tallyBoldSize*k)
	}
	var node sim.NodeView
	for _, n := range r.v.nodes {
		if n.Name == a.Client {
			node = n
		}
	}
	width := r.v.Size().Width
	widgets.PlaceText(o.name, widgets.FitText(a.Client, o.name.TextSize, true, g.nameW-tallyNamePad*k), fyne.NewPos(0, y+row.nameY), c.fg)

	// Vote boxes in the masters' columns.
	bw := min(colW-tallyVotePad*k, tallyVoteMaxW*k)
	for i := range len(r.v.view.Masters) {
		vote := redlocksim.Vote("")
		if i < len(a.Votes) {
			vote = a.Votes[i]
		}
		vo := r.votes.Next()
		widgets.ResizeText(vo.glyph, row.glyph)
		pos := fyne.NewPos(colX(i)+(colW-bw)/2, y)
		size := fyne.NewSize(bw, row.boxH)
		if fill := voteColor(vote); fill.A > 0 {
			widgets.PlaceBox(vo.box, pos, size, fill, fill, 0)
			centerIn(vo.glyph, VoteGlyph(vote), pos, size, color.White)
		} else {
			widgets.PlaceBox(vo.box, pos, size, color.Transparent, c.muted, k)
			if vote == "" {
				vo.glyph.Hide()
			} else {
				centerIn(vo.glyph, VoteGlyph(vote), pos, size, c.muted)
			}
		}
	}

	// The quorum meter: a cell per master, the yes votes filled, a line
	// after the quorum-th cell.
	n, q, yes := len(r.v.view.Masters), r.v.view.Quorum, Yes(a.Votes)
	x := colX(n) + tallyRightGap*k
	cellW, cellGap := tallyCellW*k, tallyCellGap*k
	for i := range n {
		cell := r.cells.Next()
		pos := fyne.NewPos(x+float32(i)*(cellW+cellGap), y+row.meterY)
		if i < yes {
			widgets.PlaceRect(cell, pos, fyne.NewSize(cellW, row.meterH), widgets.ColorHolding)
		} else {
			widgets.PlaceRect(cell, pos, fyne.NewSize(cellW, row.meterH), c.track)
		}
	}
	if q > 0 && q <= n {
		qx := x + float32(q)*(cellW+cellGap) - cellGap/2
		widgets.PlaceLine(r.lines.Next(), fyne.NewPos(qx, y+row.quorumY), fyne.NewPos(qx, y+row.quorumY+row.quorumH), c.fg, 2*k)
	}
	mx := x + float32(n)*(cellW+cellGap) + tallyMeterGap*k
	tally := tallyText(a, n, q)
	tallyCol := c.fg
	if a.Number == 0 {
		tallyCol = c.muted
	}
	widgets.PlaceText(o.tally, widgets.FitText(tally, o.tally.TextSize, true, width-mx), fyne.NewPos(mx, y+row.tallyY), tallyCol)

	phase := phaseText(a)
	try := ""
	if a.Number > 0 {
		try = i18n.F("redlock.try", "n", a.Number)
	}
	if node.Paused {
		try = strings.TrimPrefix(try+" · "+i18n.T("redlock.paused"), " · ")
	}
	if !full {
		// One row: the phase rides in the name column's second half.
		o.pill.Hide()
		o.pillText.Hide()
		o.try.Hide()
		for _, obj := range []fyne.CanvasObject{o.barBg, o.elapsed, o.used, o.left, o.drift, o.now, o.arith, o.note} {
			obj.Hide()
		}
		label := phase
		if node.Paused {
			label += " · " + i18n.T("redlock.paused")
		}
		tx := mx + widgets.TextWidth(tally, o.tally.TextSize, true) + tallyPhaseGap*k
		if width-tx > tallyPhaseLeast*k {
			widgets.PlaceText(o.try, widgets.FitText(label, o.try.TextSize, false, width-tx), fyne.NewPos(tx, y+row.phaseY), widgets.Readable(phaseColor(a.Phase), c.th))
		}
		return
	}

	// Phase pill and try number under the name.
	pw := widgets.TextWidth(phase, o.pillText.TextSize, true) + 2*tallyPillInset*k
	widgets.PlaceRect(o.pill, fyne.NewPos(0, y+tallyVoteH*k+tallyPillY*k), fyne.NewSize(pw, tallyPillH*k), phaseColor(a.Phase))
	widgets.PlaceText(o.pillText, phase, fyne.NewPos(tallyPillInset*k, y+tallyVoteH*k+tallyPillTextY*k), color.White)
	if try != "" {
		widgets.PlaceText(o.try, try, fyne.NewPos(0, y+tallyVoteH*k+tallyTryY*k), c.muted)
	} else {
		o.try.Hide()
	}

	// The ttl bar.
	bx, by := g.nameW, y+tallyVoteH*k+tallyBarY*k
	bw2 := width - bx
	bh := tallyBarH * k
	bar := NewValidityBar(a, r.v.at)
	widgets.PlaceRect(o.barBg, fyne.NewPos(bx, by), fyne.NewSize(bw2, bh), c.track)
	seg := func(rect *canvas.Rectangle, from, share float32, fill color.Color) {
		if share <= 0 {
			rect.Hide()
			return
		}
		widgets.PlaceRect(rect, fyne.NewPos(bx+from*bw2, by), fyne.NewSize(max(share*bw2, 1), bh), fill)
	}
	granted := a.Done && a.Success
	usedCol, leftCol := widgets.Fade(widgets.ColorHolding, 0.35), widgets.ColorHolding
	if !granted {
		usedCol = widgets.Fade(widgets.ColorIdle, 0.45)
	}
	seg(o.elapsed, 0, bar.Elapsed, widgets.ColorWaiting)
	seg(o.used, bar.Elapsed, bar.Used, usedCol)
	seg(o.left, bar.Elapsed+bar.Used, bar.Left, leftCol)
	seg(o.drift, 1-bar.Drift, bar.Drift, widgets.Fade(widgets.ColorIdle, 0.8))
	if holdingPhase(a.Phase) && a.Done {
		nx := bx + (bar.Elapsed+bar.Used)*bw2
		widgets.PlaceLine(o.now, fyne.NewPos(nx, by-tallyNowOver*k), fyne.NewPos(nx, by+bh+tallyNowOver*k), c.fg, 2*k)
	} else {
		o.now.Hide()
	}

	// The arithmetic and its outcome, and why when there is room.
	line, why := AttemptText(a, r.v.at, r.v.view.Sequential)
	ay := by + bh + tallyArithGap*k
	widgets.PlaceText(o.arith, widgets.FitText(line, o.arith.TextSize, false, bw2), fyne.NewPos(bx, ay), c.fg)
	if g.detail && why != "" {
		col := c.muted
		if bar.Overdue > 0 || a.Phase == redlocksim.PhaseLost {
			col = widgets.Readable(widgets.ColorViolation, c.th)
		}
		widgets.PlaceText(o.note, widgets.FitText(why, o.note.TextSize, false, bw2), fyne.NewPos(bx, ay+tallyWhyY*k), col)
	} else {
		o.note.Hide()
	}
}

// AttemptText is what a client's block says under its bar: the validity
// arithmetic with its outcome (or the votes still coming in), and a longer
// line on why.
func AttemptText(a redlocksim.Attempt, at time.Duration, sequential bool) (line, why string) {
	switch {
	case a.Number == 0:
		return i18n.T("redlock.notAsked"), ""
	case !a.Done:
		timeout := i18n.F("redlock.timeout", "ms", MsFigure(a.Wait))
		if sequential {
			timeout = i18n.F("redlock.timeoutEach", "ms", MsFigure(a.Wait))
		}
		return i18n.F("redlock.collecting", "ms", MsFigure(at-a.Started), "timeout", timeout),
			i18n.T("redlock.collecting.why")
	}
	line = i18n.F("redlock.validity", "arithmetic", ValidityArithmetic(a))
	if a.Renewals > 0 {
		line = i18n.F("redlock.extension", "n", a.Renewals, "line", line)
	}
	yes := Yes(a.Votes)
	note := widgets.Say(a.NoteWords, a.Note)
	switch {
	case holdingPhase(a.Phase) && a.Left > 0:
		line += " · " + i18n.F("redlock.left", "ms", MsFigure(a.Left.Round(time.Millisecond)))
		why = i18n.T("redlock.left.why")
	case holdingPhase(a.Phase):
		line += " · " + i18n.F("redlock.ranOut", "ms", MsFigure((-a.Left).Round(time.Millisecond)))
		why = i18n.T("redlock.ranOut.why")
	case a.Success:
		line += " · " + i18n.Term(a.Phase.String())
		why = note
	default:
		if a.Validity <= 0 {
			line += i18n.T("redlock.failedValidity")
		} else if yes < len(a.Votes)/2+1 {
			line += i18n.T("redlock.failedQuorum")
		}
		why = i18n.Term(a.Phase.String())
		if note != "" {
			why += ": " + note
		}
	}
	if a.Phase == redlocksim.PhaseLost {
		why = i18n.Term("lost") + ": " + note
	}
	return line, why
}

// centerIn centres a text in a box.
func centerIn(t *canvas.Text, s string, pos fyne.Position, size fyne.Size, c color.Color) {
	tw := widgets.TextWidth(s, t.TextSize, t.TextStyle.Bold)
	th := fyne.MeasureText(s, t.TextSize, t.TextStyle).Height
	widgets.PlaceText(t, s, fyne.NewPos(pos.X+(size.Width-tw)/2, pos.Y+(size.Height-th)/2), c)
}

// drawLegend explains the vote glyphs and the bar's colours along the
// bottom.
func (r *tallyRenderer) drawLegend(top float32, size fyne.Size, c tallyColors) {
	k := r.k
	y := top + tallyLegendTextY*k
	x := float32(0)
	for _, it := range VoteLegend {
		s := VoteGlyph(it.Vote) + " " + voteText(it.Vote, it.Text)
		t := r.label()
		w := widgets.TextWidth(s, t.TextSize, false)
		if x+w > size.Width {
			t.Hide()
			return
		}
		widgets.PlaceText(t, s, fyne.NewPos(x, y), c.muted)
		x += w + tallyLegendGap*k
	}
	bar := []struct {
		label string
		col   color.NRGBA
	}{{i18n.T("redlock.legend.elapsed"), widgets.ColorWaiting}, {i18n.T("redlock.legend.validity"), widgets.ColorHolding},
		{i18n.T("redlock.legend.drift"), widgets.Fade(widgets.ColorIdle, 0.8)}}
	need := float32(0)
	for _, it := range bar {
		need += widgets.TextWidth(it.label, r.caption*r.grow, false) + (tallySwatchLabelX+tallyLegendBarGap)*k
	}
	if x+need > size.Width {
		return // all three or none
	}
	for _, it := range bar {
		t := r.label()
		w := widgets.TextWidth(it.label, t.TextSize, false) + tallySwatchLabelX*k
		widgets.PlaceRect(r.cells.Next(), fyne.NewPos(x, y+tallySwatchY*k), fyne.NewSize(tallySwatchW*k, tallySwatchH*k), it.col)
		widgets.PlaceText(t, it.label, fyne.NewPos(x+tallySwatchLabelX*k, y), c.muted)
		x += w + tallyLegendBarGap*k
	}
}
