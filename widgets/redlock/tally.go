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
	atts := shownOrder(view.Attempts, len(view.Masters), size, c.th)
	g, ok := tallyLayout(atts, len(view.Masters), size, c.th)
	if !ok {
		return
	}
	r.k, r.grow = g.k, g.grow
	f := tallyFrame{view: view, nodes: r.v.nodes, at: r.v.at, width: r.v.Size().Width, g: g, text: r.text, caption: r.caption, c: c}
	r.placeHeads(f.heads())
	for i, y := range g.ys {
		r.placeAttempt(f.attempt(atts[i], y, g.full[i]))
	}
	if g.more > 0 {
		widgets.PlaceText(r.label(), leftOutLine(atts[len(g.ys):], len(view.Masters), view.Quorum, size.Width, r.caption*g.grow), fyne.NewPos(0, g.moreY), c.muted)
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

// placeHeads puts the column heads where s says.
func (r *tallyRenderer) placeHeads(s tallyHeadSpots) {
	for i, l := range s.labels {
		if i == s.skipped {
			r.label() // the quorum rule's line takes a label and leaves it empty
		}
		l.Place(r.label())
	}
	for _, m := range s.masters {
		o := r.masters.Next()
		o.resize(r.k, r.caption*r.grow)
		o.place(m)
	}
	s.quorum.Place(r.heads.Next())
	s.rule.Place(r.lines.Next())
}

// place puts a master's head where s says.
func (o *tallyMaster) place(s tallyMasterSpots) {
	s.name.Place(o.name)
	if o.skew.TextStyle.Bold != s.skewBold {
		o.skew.TextStyle.Bold = s.skewBold
		o.skew.Text = "" // a new style needs a new rasterisation
	}
	s.skew.Place(o.skew)
	s.owner.Place(o.owner)
	s.barBg.Place(o.barBg)
	s.bar.Place(o.bar)
	s.left.Place(o.left)
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

// placeAttempt puts a client's block, its vote boxes and its quorum
// meter where s says.
func (r *tallyRenderer) placeAttempt(s tallyAttemptSpots) {
	o := r.blocks.Next()
	o.resize(r.k, r.caption*r.grow)
	s.name.Place(o.name)
	for _, v := range s.votes {
		vo := r.votes.Next()
		v.box.Place(vo.box)
		v.glyph.Place(vo.glyph)
	}
	for _, c := range s.cells {
		c.Place(r.cells.Next())
	}
	if s.quorum.Shown {
		s.quorum.Place(r.lines.Next())
	}
	s.tally.Place(o.tally)
	s.try.Place(o.try)
	s.pill.Place(o.pill)
	s.pillText.Place(o.pillText)
	for _, p := range []struct {
		s widgets.RectSpot
		o *canvas.Rectangle
	}{{s.barBg, o.barBg}, {s.elapsed, o.elapsed}, {s.used, o.used}, {s.left, o.left}, {s.drift, o.drift}} {
		p.s.Place(p.o)
	}
	s.now.Place(o.now)
	s.arith.Place(o.arith)
	s.note.Place(o.note)
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
