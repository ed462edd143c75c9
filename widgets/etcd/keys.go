// Package etcd is the etcd lock's side of the window, one folder as its
// simulation is (sim/etcd): its state picture (Keys: the keys under the
// mutex prefix with their leases and watches), its tab (tab.go: the
// sliders and toggles only it shows, its protocol lines), the value
// Tab, which the list of designs (package designs) installs at start.
package etcd

import (
	"image/color"
	"sort"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/lockscope/lockscope/assets/i18n"
	"github.com/lockscope/lockscope/sim"
	etcdsim "github.com/lockscope/lockscope/sim/etcd"
	"github.com/lockscope/lockscope/widgets"
)

// Keys is the keyspace picture of the etcd lock: the keys under the
// mutex prefix in create-revision order, each with its create revision
// (the fencing token), its lease and that lease's TTL bar, which counts
// down by the leader's clock and jumps back on each keepalive; the owner
// (lowest create revision) marked in words; watch arrows from each waiter
// to the key it waits on (the prefix itself when the herd watches it);
// and the store's current revision, raft term and leader.
type Keys struct {
	widget.BaseWidget

	view    *etcdsim.View
	nodes   []sim.NodeView
	refused int // guarded writes etcd refused so far
	widgets.OnShow

	renderer *etcdRenderer // its model, for DrawnHeight
}

// NewKeys returns an empty keyspace picture; SetSnapshot fills it.
func NewKeys() *Keys {
	k := &Keys{}
	k.ExtendBaseWidget(k)
	return k
}

// SetSnapshot shows the etcd view of a snapshot (mode "etcd"); any other
// snapshot empties the picture.
func (k *Keys) SetSnapshot(s *sim.Snapshot) {
	// A new instant has something new: the leases' TTL bars count down.
	if !k.Take(s) {
		return
	}
	if v := etcdsim.ViewOf(s); v != nil {
		k.view, k.nodes, k.refused = v, s.Nodes, s.Metrics.StaleWritesRejected
	} else {
		k.view, k.nodes, k.refused = nil, nil, 0
	}
	k.Refresh()
}

// etcdRowKind tells the rows of the keyspace picture apart.
type etcdRowKind int

const (
	// etcdRowKey is a key under the prefix, with the lease it is attached to.
	etcdRowKey etcdRowKind = iota
	// etcdRowLease is a client's session lease with no key under the prefix.
	etcdRowLease
	// etcdRowGone is a waiting client whose own key is gone.
	etcdRowGone
)

// etcdRow is one row of the keyspace picture.
type etcdRow struct {
	kind   etcdRowKind
	key    etcdsim.Key    // etcdRowKey
	lease  *etcdsim.Lease // the row's lease, nil when it has none
	client string
	tag    string // what the row's client is doing, in words
	owner  bool   // the key with the lowest create revision
}

// etcdPrefixRow is the arrow index of the prefix line, which herd
// watchers point at.
const etcdPrefixRow = -1

// etcdArrow is a watch drawn from the row of the waiting client to the row
// it waits on (etcdPrefixRow for the prefix), in one of the gutter lanes.
type etcdArrow struct {
	from, to int
	lane     int
}

// etcdModel is what the keyspace picture shows, computed from a view
// before any geometry: the rows, the watch arrows and the warnings.
type etcdModel struct {
	rows   []etcdRow
	arrows []etcdArrow
	lanes  int
	notes  []string
}

// buildEtcdModel turns a view into rows: keys by create revision, then
// leases that hold no key, then waiters whose key is gone; arrows for the
// watches; and a note for every client that believes it holds the lock
// while etcd says another key owns it (or its own key is gone), or that
// was told by Session.Done() and works on to its write.
func buildEtcdModel(v *etcdsim.View, nodes []sim.NodeView) etcdModel {
	var m etcdModel
	leases := map[int64]*etcdsim.Lease{}
	for i := range v.Leases {
		leases[v.Leases[i].ID] = &v.Leases[i]
	}
	keyRow := map[string]int{}    // key → row
	clientRow := map[string]int{} // client → the row of its newest key
	withKey := map[int64]bool{}
	keys := append([]etcdsim.Key(nil), v.Keys...)
	sort.SliceStable(keys, func(a, b int) bool { return keys[a].CreateRev < keys[b].CreateRev })
	var owner *etcdsim.Key       // the oldest holder
	holders := map[string]bool{} // every holder (RWMutex's readers hold together)
	for i, k := range keys {
		r := etcdRow{kind: etcdRowKey, key: k, lease: leases[k.Lease], client: k.Owner, owner: k.Holder, tag: "queued"}
		switch {
		case k.Holder && k.Read:
			r.tag = "READ HOLDER"
		case k.Holder:
			r.tag = "OWNER"
		}
		if k.Holder {
			holders[k.Owner] = true
			if owner == nil {
				owner = &keys[i]
			}
		}
		keyRow[k.Key] = len(m.rows)
		clientRow[k.Owner] = len(m.rows)
		withKey[k.Lease] = true
		m.rows = append(m.rows, r)
	}
	for i := range v.Leases {
		l := &v.Leases[i]
		if withKey[l.ID] {
			continue
		}
		m.rows = append(m.rows, etcdRow{kind: etcdRowLease, lease: l, client: l.Client, tag: "no key"})
	}
	for _, w := range v.Watches {
		from, ok := clientRow[w.Client]
		if !ok {
			from = len(m.rows)
			clientRow[w.Client] = from
			m.rows = append(m.rows, etcdRow{kind: etcdRowGone, client: w.Client})
		}
		to, known := keyRow[w.Path]
		switch {
		case w.Path == v.Prefix:
			to, known = etcdPrefixRow, true
			m.rows[from].tag = "watches the prefix"
		case known:
			m.rows[from].tag = "waits for rev " + strconv.FormatInt(m.rows[to].key.CreateRev, 10)
		default:
			m.rows[from].tag = "waits for a key already deleted"
		}
		if known {
			m.arrows = append(m.arrows, etcdArrow{from: from, to: to})
		}
	}
	for i := range m.rows {
		if m.rows[i].kind == etcdRowGone && m.rows[i].tag == "" {
			m.rows[i].tag = "waiting"
		}
	}
	m.lanes = assignLanes(m.arrows)
	for _, n := range nodes {
		if !n.Client || (n.State != sim.StateHolding && n.State != sim.StateTold) || holders[n.Name] {
			continue
		}
		token := ""
		if n.Token > 0 {
			token = i18n.F("etcd.note.token", "token", n.Token)
		}
		outcome := i18n.T("etcd.note.unchecked")
		if v.Fencing {
			outcome = i18n.T("etcd.note.refused")
		}
		switch r, ok := clientRow[n.Name]; {
		case n.State == sim.StateTold:
			m.notes = append(m.notes, i18n.F(widgets.LeaderWords("etcd.note.told", n.Candidate), "client", n.Name, "token", token, "outcome", outcome))
		case ok && m.rows[r].kind == etcdRowKey && owner != nil:
			m.notes = append(m.notes, i18n.F(widgets.LeaderWords("etcd.note.notOwner", n.Candidate), "client", n.Name, "token", token,
				"owner", owner.Owner, "rev", owner.CreateRev))
		default:
			m.notes = append(m.notes, i18n.F(widgets.LeaderWords("etcd.note.keyGone", n.Candidate), "client", n.Name, "token", token, "outcome", outcome))
		}
	}
	return m
}

// assignLanes gives each arrow a gutter lane so that no two arrows share
// a stretch of one lane, except arrows to the same row (the herd's, on the
// prefix), which share their trunk. An arrow leaves the upper part of its
// row and ends at the lower part of its target, so a queue of arrows each
// to the row above fits in one lane. It returns the number of lanes.
func assignLanes(arrows []etcdArrow) int {
	span := func(a etcdArrow) (lo, hi int) {
		src, dst := 2*(a.from+1), 2*(a.to+1)+1
		return min(src, dst), max(src, dst)
	}
	order := make([]int, len(arrows))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool {
		lx, hx := span(arrows[order[x]])
		ly, hy := span(arrows[order[y]])
		return hx-lx < hy-ly
	})
	lanes, n := widgets.AssignLanes(order, func(i, j int) bool {
		lo, hi := span(arrows[i])
		l2, h2 := span(arrows[j])
		return arrows[j].to != arrows[i].to && !(hi < l2 || h2 < lo)
	})
	for i, lane := range lanes {
		arrows[i].lane = lane
	}
	return n
}

// LeaseFraction is the share of a lease's TTL still left, 0 to 1, by the
// leader's clock: the length of its TTL bar. A frozen lease (no leader)
// shows full, as the next leader will restart it.
func LeaseFraction(l etcdsim.Lease) float32 {
	if l.Frozen {
		return 1
	}
	if l.TTL <= 0 || l.Left <= 0 {
		return 0
	}
	return float32(min(1, float64(l.Left)/float64(l.TTL)))
}

// etcdTagText is a row's tag as shown: the tag itself is a fixed English
// code the drawing logic compares ("queued", "waits for rev 3").
func etcdTagText(tag string) string {
	switch {
	case tag == "":
		return ""
	case strings.HasPrefix(tag, "waits for rev "):
		return i18n.F("etcd.tag.waitsFor", "rev", strings.TrimPrefix(tag, "waits for rev "))
	}
	key, ok := map[string]string{
		"OWNER":                           "etcd.tag.owner",
		"READ HOLDER":                     "etcd.tag.readHolder",
		"queued":                          "etcd.tag.queued",
		"no key":                          "etcd.tag.noKey",
		"watches the prefix":              "etcd.tag.prefix",
		"waits for a key already deleted": "etcd.tag.deleted",
		"waiting":                         "etcd.tag.waiting",
	}[tag]
	if !ok {
		return tag
	}
	return i18n.T(key)
}

// leaseLeftText says what a lease's bar shows, in words.
func leaseLeftText(l etcdsim.Lease) string {
	switch {
	case l.Frozen:
		return i18n.T("etcd.lease.frozen")
	case l.Expired || l.Left <= 0:
		return i18n.T("etcd.lease.expired")
	}
	return i18n.F("etcd.lease.left", "left", widgets.FormatTime(l.Left), "ttl", widgets.ShortTime(l.TTL))
}

// Lengths of the keyspace picture, in points at widgets.BaseTextSize
// (times etcdGeometry.k).
const (
	etcdHeadH     = 22 // the prefix, revision, term and leader
	etcdMembersH  = 17
	etcdRowH      = 36 // a row with its lease line and bar
	etcdRowSmallH = 21 // a row with a thin bar under it
	etcdRowGap    = 3
	etcdNoteLineH = 16
	etcdLaneW     = 10
	etcdBarH      = 9
	etcdMinW      = 300 // the picture's least size
	etcdMinH      = 100
	etcdRowLeast  = 40 // a row's least width, not scaled up with the panel

	etcdGutterMin  = 6  // the gutter left of the rows with no watch arrows
	etcdGutterPad  = 12 // the gutter beyond its arrows' lanes
	etcdLaneOffset = 14 // lane 0's distance left of the rows
	etcdArrowEdge  = 3  // an arrow's tip, left of the rows
	etcdArrowHeadL = 6  // an arrowhead's length
	etcdArrowHeadW = 4  // and its half width
	etcdPrefixCut  = 4  // the header's height less this is the prefix's arrow span

	etcdLineY      = 2  // a line of words below its place's top (the header's prefix, term and watches; the lines under the rows)
	etcdRevisionY  = 1  // the header's revision, below its top
	etcdPrefixGap  = 12 // between the prefix and the revision
	etcdTermGap    = 10 // between the revision and the term
	etcdWatchGap   = 16 // the least gap between the term and the watches
	etcdFreeH      = 22 // the line saying the lock is free
	etcdBadgeW     = 14 // a note's "!" badge
	etcdPillH      = 15 // a badge's, a revision's and a tag's height
	etcdBadgeInset = 5  // the "!" inside its badge
	etcdNoteTextY  = 1  // a note's first line below its top

	etcdInset       = 6  // a row's words inside its frame, either side
	etcdRowTextY    = 3  // a row's first line below its top (and the "free" line below the rows' top)
	etcdSlimTextY   = 1  // in a thin row
	etcdPillY       = 1  // a revision's or a tag's pill below its line's top
	etcdRevInset    = 4  // a revision's words inside its pill
	etcdRevGap      = 7  // between the revision's pill and the client
	etcdTagInset    = 5  // a tag's words inside its pill
	etcdKeyGap      = 10 // between the client and the key, and the key and the tag
	etcdLeaseY      = 20 // a row's lease line below its top
	etcdSlimBarH    = 3  // a thin row's bar
	etcdSlimBarRise = 4  // its top above the row's foot
	etcdBarY        = 3  // a lease's bar below its line's top
	etcdBarGap      = 8  // between the lease and its bar, and the bar and what is left
	etcdBarWant     = 80 // the bar's room the long lease line leaves, or it says less
	etcdBarLeast    = 20 // a lease's bar's least length
)

// etcdRefSize is the picture's size at which it is drawn at the sizes
// above (its panel in a 1400×900 window); a larger one scales every length
// and word (etcdScale), so a 2560×1440 screen's panel is not left with
// small rows at its top.
var etcdRefSize = fyne.NewSize(680, 220)

// etcdScale is the scale of the picture's lengths and words in size.
func etcdScale(size fyne.Size) float32 {
	return widgets.GrowScale(size, etcdRefSize, widgets.MostGrowth)
}

// etcdGeometry is where the rows go in a picture of a given size.
type etcdGeometry struct {
	k       float32 // a point of the picture's own lengths and words: grow times the theme's widgets.TextScale
	grow    float32 // the scale of the theme's sizes it takes (etcdScale)
	em      float32 // the theme's widgets.TextScale, for the lengths not scaled up with the panel
	members bool    // room for the members' line
	small   bool    // thin rows: space is short
	rowH    float32 // etcdRowH, or etcdRowSmallH when space is short, times k
	rowsY   float32
	shown   int // rows drawn; the rest are summed up in one line
	gutter  float32
}

// etcdLayout fits the model into size with th's sizes: full rows when
// they fit, thin rows when not, and as many rows as fit after that. The
// notes stay below the rows: below is the height the lines under the rows
// take.
func etcdLayout(m etcdModel, size fyne.Size, below float32, th fyne.Theme) etcdGeometry {
	grow := etcdScale(size)
	em := widgets.TextScale(th)
	k := grow * em
	g := etcdGeometry{k: k, grow: grow, em: em, gutter: etcdGutterMin * k}
	if m.lanes > 0 {
		g.gutter = float32(etcdGutterPad+m.lanes*etcdLaneW) * k
	}
	n := float32(len(m.rows))
	notes := below
	need := func(members bool, rowH float32) float32 {
		h := (etcdHeadH+max(n, 1)*(rowH+etcdRowGap))*k + notes
		if members {
			h += etcdMembersH * k
		}
		return h
	}
	switch {
	case need(true, etcdRowH) <= size.Height:
		g.members, g.rowH = true, etcdRowH*k
	case need(false, etcdRowH) <= size.Height:
		g.rowH = etcdRowH * k
	default:
		g.small, g.rowH = true, etcdRowSmallH*k
	}
	g.rowsY = etcdHeadH * k
	if g.members {
		g.rowsY += etcdMembersH * k
	}
	g.shown = len(m.rows)
	if fit := int((size.Height - g.rowsY - notes) / (g.rowH + etcdRowGap*k)); fit < g.shown {
		g.shown = max(fit-1, 0) // one row's room says how many are left out
	}
	return g
}

// rowY is the top of row i.
func (g etcdGeometry) rowY(i int) float32 { return g.rowsY + float32(i)*(g.rowH+etcdRowGap*g.k) }

// arrowY is where an arrow leaves (from) or reaches (to) row i: the upper
// third for a source, the lower third for a target.
func (g etcdGeometry) arrowY(i int, source bool) float32 {
	top, h := float32(0), (etcdHeadH-etcdPrefixCut)*g.k
	if i != etcdPrefixRow {
		top, h = g.rowY(i), g.rowH
	}
	if source {
		return top + h*0.3
	}
	return top + h*0.72
}

// laneX is the x of an arrow lane in the gutter; lane 0 is nearest the rows.
func (g etcdGeometry) laneX(lane int) float32 {
	return g.gutter - (etcdLaneOffset+float32(lane*etcdLaneW))*g.k
}

// CreateRenderer implements fyne.Widget.
func (k *Keys) CreateRenderer() fyne.WidgetRenderer {
	// The small print (the members' line, a row's tag and lease, a note's
	// mark) is the theme's caption text.
	caption := k.Theme().Size(theme.SizeNameCaptionText)
	r := &etcdRenderer{k: k, caption: caption,
		head: widgets.NewText(etcdHeadSize, true), term: widgets.NewText(etcdLineSize, false), watches: widgets.NewText(etcdSmallSize, false),
		members: widgets.NewText(caption, false), prefix: widgets.NewText(etcdLineSize, false), free: widgets.NewText(etcdSmallSize, false),
		storage: widgets.NewText(etcdSmallSize, false),
		more:    widgets.NewText(caption, false),
		rows:    widgets.NewPool(func() *etcdRowObjects { return newEtcdRowObjects(caption) }, (*etcdRowObjects).all),
		lines:   widgets.NewLinePool(),
		notes: widgets.NewPool(func() *etcdNoteObjects {
			return &etcdNoteObjects{badge: &canvas.Rectangle{CornerRadius: 3}, mark: widgets.NewText(caption, true),
				lines: [2]*canvas.Text{widgets.NewText(etcdNoteSize, true), widgets.NewText(etcdNoteSize, true)}}
		}, func(o *etcdNoteObjects) []fyne.CanvasObject {
			return []fyne.CanvasObject{o.badge, o.mark, o.lines[0], o.lines[1]}
		}),
	}
	r.prefix.TextStyle = fyne.TextStyle{Monospace: true}
	r.pools = widgets.Pools{r.rows, r.lines, r.notes}
	k.renderer = r
	r.Refresh()
	return r
}

// etcdNoteObjects are one warning: a "!" badge and up to two lines.
type etcdNoteObjects struct {
	badge *canvas.Rectangle
	mark  *canvas.Text
	lines [2]*canvas.Text
}

type etcdRenderer struct {
	k *Keys
	// refreshes counts redraws, so a test can tell one that was not needed;
	// builds counts the model's, so one can tell a resize did none.
	refreshes, builds            int
	caption                      float32     // the small print's size at scale 1: the theme's caption text, as of the last Refresh
	fg, muted                    color.Color // the theme's, as of the last Refresh
	head, term, watches, members *canvas.Text
	prefix, free, more, storage  *canvas.Text
	rows                         *widgets.Pool[*etcdRowObjects]
	lines                        *widgets.Pool[*canvas.Line]
	notes                        *widgets.Pool[*etcdNoteObjects]
	pools                        widgets.Pools
	objects                      []fyne.CanvasObject
	model                        etcdModel    // the model of the view shown
	geom                         etcdGeometry // its geometry last laid out
}

func (r *etcdRenderer) Destroy() {}

// Layout places the pooled objects of the stored model in size.
func (r *etcdRenderer) Layout(size fyne.Size) {
	r.pools.Reset()
	r.draw(size)
	if objs := r.pools.Finish(); objs != nil || r.objects == nil {
		r.objects = append(r.fixed(), r.pools.All()...)
		widgets.Repaint(r.k)
	}
}

func (r *etcdRenderer) MinSize() fyne.Size {
	em := widgets.TextScale(r.k.Theme())
	return fyne.NewSize(etcdMinW*em, etcdMinH*em)
}

func (r *etcdRenderer) Objects() []fyne.CanvasObject { return r.objects }

func (r *etcdRenderer) fixed() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.head, r.term, r.watches, r.members, r.prefix, r.free, r.more, r.storage}
}

// Refresh works out the model of the view shown (SetSnapshot calls it
// only for a new instant) and the theme's colours, then lays them out.
func (r *etcdRenderer) Refresh() {
	r.refreshes++
	r.model = etcdModel{}
	if v := r.k.view; v != nil {
		r.builds++
		r.model = buildEtcdModel(v, r.k.nodes)
	}
	th := r.k.Theme()
	r.fg = widgets.ThemeColor(th, theme.ColorNameForeground)
	r.muted = widgets.ThemeColor(th, theme.ColorNamePlaceHolder)
	r.caption = th.Size(theme.SizeNameCaptionText)
	r.Layout(r.k.Size())
}

// draw places the objects of the stored model where its geometry in size
// says.
func (r *etcdRenderer) draw(size fyne.Size) {
	v := r.k.view
	if v == nil {
		for _, t := range r.fixed() {
			t.Hide()
		}
		r.geom = etcdGeometry{}
		return
	}
	th := r.k.Theme()
	fg, muted, m := r.fg, r.muted, r.model
	g, notes, noteGap, _ := r.fit(size, th)
	k, caption := g.k, r.caption*g.grow
	r.resize(k, caption)
	r.geom = g

	r.drawHeader(v, g, size, fg, muted, th)
	if g.members {
		widgets.PlaceText(r.members, r.membersText(v), fyne.NewPos(g.gutter, etcdHeadH*g.k), muted)
	} else {
		r.members.Hide()
	}
	if len(m.rows) == 0 {
		widgets.PlaceText(r.free, i18n.T("etcd.free"), fyne.NewPos(g.gutter+etcdInset*k, g.rowsY+etcdRowTextY*k), muted)
	} else {
		r.free.Hide()
	}

	for i, row := range m.rows[:g.shown] {
		o := r.rows.Next()
		o.resize(k, caption)
		o.place(etcdRowGeometry(row, g.rowY(i), g, size.Width, caption, th, fg, muted))
	}
	if left := len(m.rows) - g.shown; left > 0 {
		widgets.PlaceText(r.more, i18n.F("etcd.moreRows", "n", left),
			fyne.NewPos(g.gutter, g.rowY(g.shown)+etcdLineY*k), muted)
	} else {
		r.more.Hide()
	}

	arrow := widgets.Readable(widgets.ColorWaiting, th)
	for _, a := range m.arrows {
		if a.from >= g.shown || a.to >= g.shown {
			continue
		}
		r.drawArrow(a, g, arrow)
	}

	y := g.belowY(len(m.rows))
	if v.Fencing {
		widgets.PlaceText(r.storage, r.storageText(v), fyne.NewPos(g.gutter, y+etcdLineY*k), fg)
		y += etcdStorageH * k
	} else {
		r.storage.Hide()
	}
	for _, ls := range notes {
		o := r.notes.Next()
		widgets.ResizeText(o.mark, caption)
		widgets.PlaceRect(o.badge, fyne.NewPos(0, y+etcdLineY*k), fyne.NewSize(etcdBadgeW*k, etcdPillH*k), widgets.ColorViolation)
		widgets.PlaceText(o.mark, "!", fyne.NewPos(etcdBadgeInset*k, y+etcdLineY*k), color.White)
		for i, t := range o.lines {
			widgets.ResizeText(t, etcdNoteSize*k)
			if i < len(ls) {
				widgets.PlaceText(t, ls[i], fyne.NewPos(etcdNoteIndent*k, y+etcdNoteTextY*k+float32(i)*etcdNoteLineH*k), widgets.Readable(widgets.ColorViolation, th))
			} else {
				t.Hide()
			}
		}
		y += float32(len(ls))*etcdNoteLineH*k + noteGap
	}
}

// fit is the geometry of the stored model in size with th's sizes, the
// lines of its notes, the gap between two notes, and the height of what
// goes under the rows (the storage's line and the notes).
func (r *etcdRenderer) fit(size fyne.Size, th fyne.Theme) (g etcdGeometry, notes [][]string, noteGap, below float32) {
	grow := etcdScale(size)
	k := grow * widgets.TextScale(th)
	lines := 0
	for _, n := range r.model.notes {
		ls := widgets.WrapText(n, size.Width-etcdNoteIndent*k, etcdNoteSize*k, true, 2)
		notes = append(notes, ls)
		lines += len(ls)
	}
	noteGap = th.Size(theme.SizeNamePadding) * grow // between two notes
	below = float32(lines)*etcdNoteLineH*k + float32(len(notes))*noteGap
	if r.k.view != nil && r.k.view.Fencing {
		below += etcdStorageH * k
	}
	return etcdLayout(r.model, size, below, th), notes, noteGap, below
}

// belowY is where the lines under n rows start: under the "free" line
// when there is none, under the line counting those left out.
func (g etcdGeometry) belowY(n int) float32 {
	switch {
	case n == 0:
		return g.rowsY + etcdFreeH*g.k
	case g.shown < n:
		return g.rowY(g.shown + 1)
	}
	return g.rowY(n)
}

// DrawnHeight is the height of what the picture draws in a box of size
// (designtab.Drawn): its header, rows and the lines under them; the box's
// height where they are drawn smaller than they would like (no members'
// line, thin rows, some rows left out).
func (k *Keys) DrawnHeight(size fyne.Size) float32 {
	r := k.renderer
	if r == nil || k.view == nil {
		return 0
	}
	g, _, _, below := r.fit(size, k.Theme())
	if !g.members || g.small || g.shown < len(r.model.rows) {
		return size.Height
	}
	return min(g.belowY(len(r.model.rows))+below, size.Height)
}

// resize gives the header's, the members' and the lines under the rows'
// words their sizes: the picture's own at k, the small print caption.
func (r *etcdRenderer) resize(k, caption float32) {
	widgets.ResizeTexts(k, map[*canvas.Text]float32{r.head: etcdHeadSize, r.term: etcdLineSize, r.prefix: etcdLineSize,
		r.watches: etcdSmallSize, r.free: etcdSmallSize, r.storage: etcdSmallSize})
	widgets.ResizeTextsTo(caption, r.members, r.more)
}

// storageText says what the guarded writes did: the last one etcd
// applied, and how many it refused.
func (r *etcdRenderer) storageText(v *etcdsim.View) string {
	t := i18n.T("etcd.storage.none")
	if st := v.Storage; st != nil {
		t = i18n.F("etcd.storage.last", "key", st.Key, "writer", st.Writer, "rev", st.ModRev)
	}
	switch r.k.refused {
	case 0:
	case 1:
		t = i18n.F("etcd.storage.refusedOne", "storage", t)
	default:
		t = i18n.F("etcd.storage.refused", "storage", t, "n", r.k.refused)
	}
	return t
}

// Size and indent of the warning notes, and the height of the storage line;
// the sizes of the header's and a row's words; in points at
// widgets.BaseTextSize.
const (
	etcdHeadSize   = 12.5
	etcdLineSize   = 12
	etcdSmallSize  = 11.5
	etcdStorageH   = 18
	etcdNoteSize   = 11.5
	etcdNoteIndent = 20
)

// drawHeader writes the prefix (which herd watchers point at), the
// store's revision, the raft term and the leader, or that there is none
// and what that means.
func (r *etcdRenderer) drawHeader(v *etcdsim.View, g etcdGeometry, size fyne.Size, fg, muted color.Color, th fyne.Theme) {
	k := g.k
	widgets.PlaceText(r.prefix, v.Prefix, fyne.NewPos(g.gutter, etcdLineY*k), fg)
	x := g.gutter + r.prefix.MinSize().Width + etcdPrefixGap*k
	head := i18n.F("etcd.revision", "rev", v.Revision)
	widgets.PlaceText(r.head, head, fyne.NewPos(x, etcdRevisionY*k), fg)
	term := i18n.F("etcd.term", "term", v.Term, "leader", v.Leader)
	c := muted
	if v.Leader == "" {
		term = i18n.F("etcd.term.noLeader", "term", v.Term)
		c = widgets.Readable(widgets.ColorFault, th)
	}
	x += r.head.MinSize().Width + etcdTermGap*k
	if x+widgets.TextWidth(term, r.term.TextSize, false) > size.Width && v.Leader == "" {
		term = i18n.F("etcd.term.noLeaderShort", "term", v.Term)
	}
	// In a narrow panel (1024×768 with the event log open) the line ends
	// with "…" at the panel's edge rather than run under it.
	term = widgets.FitText(term, r.term.TextSize, false, size.Width-x)
	widgets.PlaceText(r.term, term, fyne.NewPos(x, etcdLineY*k), c)
	n := len(v.Watches)
	w := i18n.F("etcd.watches", "n", n)
	if n == 1 {
		w = i18n.T("etcd.watches.one")
	}
	ww := widgets.TextWidth(w, r.watches.TextSize, false)
	if x+r.term.MinSize().Width+etcdWatchGap*k+ww <= size.Width {
		widgets.PlaceText(r.watches, w, fyne.NewPos(size.Width-ww, etcdLineY*k), muted)
	} else {
		r.watches.Hide()
	}
}

// membersText is every member's role and revision, marking those that lag
// the store's revision and those that are down.
func (r *etcdRenderer) membersText(v *etcdsim.View) string {
	var parts []string
	for _, m := range v.Members {
		down := m.Node >= 0 && m.Node < len(r.k.nodes) && r.k.nodes[m.Node].Crashed
		switch {
		case down:
			parts = append(parts, i18n.F("etcd.member.down", "name", m.Name))
		case m.Role == etcdsim.RoleLeader:
			parts = append(parts, i18n.F("etcd.member.leader", "name", m.Name, "rev", m.Revision))
		case m.Revision < v.Revision:
			parts = append(parts, i18n.F("etcd.member.behind", "name", m.Name, "rev", m.Revision))
		default:
			parts = append(parts, i18n.F("etcd.member", "name", m.Name, "rev", m.Revision))
		}
	}
	return i18n.F("etcd.members", "members", strings.Join(parts, " · "))
}

// drawArrow draws a watch: out of the waiter's row into its lane, along
// the lane, and into the watched row with an arrowhead.
func (r *etcdRenderer) drawArrow(a etcdArrow, g etcdGeometry, c color.Color) {
	k := g.k
	x := g.laneX(a.lane)
	edge := g.gutter - etcdArrowEdge*k
	ys, yt := g.arrowY(a.from, true), g.arrowY(a.to, false)
	widgets.PlaceLine(r.lines.Next(), fyne.NewPos(g.gutter, ys), fyne.NewPos(x, ys), c, 1.5*k)
	widgets.PlaceLine(r.lines.Next(), fyne.NewPos(x, ys), fyne.NewPos(x, yt), c, 1.5*k)
	widgets.PlaceLine(r.lines.Next(), fyne.NewPos(x, yt), fyne.NewPos(edge, yt), c, 1.5*k)
	widgets.PlaceLine(r.lines.Next(), fyne.NewPos(edge-etcdArrowHeadL*k, yt-etcdArrowHeadW*k), fyne.NewPos(edge, yt), c, 2*k)
	widgets.PlaceLine(r.lines.Next(), fyne.NewPos(edge-etcdArrowHeadL*k, yt+etcdArrowHeadW*k), fyne.NewPos(edge, yt), c, 2*k)
}

// leaseHex writes a lease id as etcd does (etcdctl lease list, the mutex
// key's suffix): lower-case hex.
func leaseHex(id int64) string { return strconv.FormatInt(id, 16) }
